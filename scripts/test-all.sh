#!/usr/bin/env bash
# Runs every test of v4a on a fresh machine: formatting, lints, the Rust unit, integration,
# property and doc tests (which include the shared vectors in tests/vectors/ and the tool-kit
# checks with Python's `lark`). Installs what is missing when it can, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo is not installed: install Rust from https://rustup.rs"
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  step "installing rustfmt and clippy"
  rustup component add rustfmt clippy || die "could not install rustfmt/clippy with rustup"
fi
command -v python3 >/dev/null || {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing python3"; apt-get update -qq && apt-get install -y -qq python3 python3-pip
  else
    die "python3 is needed for the grammar tests: install it"
  fi
}
# The grammar test needs the `lark` package; install it for this user if it is missing.
if ! python3 -c 'import lark' 2>/dev/null; then
  step "installing the lark Python package"
  python3 -m pip install --quiet lark 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages lark \
    || die "could not install lark with pip"
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -- -D warnings"
cargo clippy --all-targets --locked -- -D warnings

step "cargo test (unit, vectors, properties, grammar, doc tests)"
cargo test --locked

step "benchmark smoke run (every workload once, small, no timing assertions)"
cargo bench --locked --bench table -- --smoke

step "all tests passed"
