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
  python3 -m pip install --quiet "lark==1.3.1" 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages "lark==1.3.1" \
    || die "could not install lark with pip"
fi

# `quick`: the edit loop (fmt, clippy, the Rust tests); no C, Go, C# or release runs.
quick=0
[ "${1:-}" = quick ] && quick=1

step "cargo fmt --check"
cargo fmt --all -- --check

step "every function of the library and tools within 80 lines (scripts/check-fn-length.py)"
python3 scripts/check-fn-length.py --self-test
python3 scripts/check-fn-length.py

step "cargo clippy -- -D warnings"
cargo clippy --all-targets --locked -- -D warnings

step "fuzz/Cargo.lock up to date (the fuzz workspace resolves with --locked)"
cargo metadata --locked --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null

step "cargo test (unit, vectors, properties, grammar, doc tests)"
cargo test --locked

# Windows: the CLI and the C library must keep compiling (the workspace layer answers "not
# supported on this platform" there). Only where the target is installed
# (rustup target add x86_64-pc-windows-gnu).
if rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then
  step "cargo check for x86_64-pc-windows-gnu (CLI, C library, workspace layer)"
  cargo check --locked --target x86_64-pc-windows-gnu -p v4a-cli -p v4a-ffi -p v4a-workspace
fi

if [ "$quick" = 1 ]; then
  step "quick tier done (bash scripts/test-all.sh runs everything)"
  exit 0
fi

step "MCP server with real clients (Python SDK mcp 2.3.0, MCP Inspector 2.12.0)"
bash crates/cli/tests/mcp/run.sh

step "hostile inputs (release build: 1 GB source, 10M lines, 50 MB line, ...)"
cargo test --locked --release --test hostile

step "benchmark smoke run (every workload once, small, no timing assertions)"
cargo bench --locked --bench table -- --smoke

# --- The C ABI: the CMake project and its CTest suite -------------------------------------
# Needs cmake, valgrind, pkg-config, a C/C++ compiler with ASan/UBSan, and the cbindgen version
# pinned in cbindgen.toml (for the header_up_to_date test).
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v valgrind >/dev/null || missing+=(valgrind)
command -v pkg-config >/dev/null || missing+=(pkg-config)
{ command -v cc >/dev/null && command -v c++ >/dev/null; } || missing+=(gcc g++)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" \
      || die "could not install ${missing[*]} with apt-get"
  else
    die "the C tests need ${missing[*]}: install them (apt-get install ${missing[*]}), or run as root"
  fi
fi
cbindgen_version=$(sed -n 's/^# Pinned cbindgen version: \([0-9.]*\).*/\1/p' cbindgen.toml)
[ -n "$cbindgen_version" ] || die "cbindgen.toml does not name the pinned cbindgen version"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if [ "$(cbindgen --version 2>/dev/null)" != "cbindgen $cbindgen_version" ]; then
  step "installing cbindgen $cbindgen_version"
  cargo install --locked --force "cbindgen@$cbindgen_version" \
    || die "could not install cbindgen $cbindgen_version with cargo install"
fi

step "C ABI: cmake configure and build (cargo release builds of libv4a and its test variant, in target/)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DV4A_SANITIZER_TESTS=ON -DV4A_VALGRIND_TESTS=ON
cmake --build build --parallel "$(nproc)"

step "C ABI: ctest (C API, every vector through C, 100 MB, threads, soak (native, ASan+UBSan, helgrind, DRD), leak check, ASan+UBSan, valgrind, header, install)"
# `cargo test` is registered too (label rust); it ran above, so it is not run twice here.
(cd build && ctest --output-on-failure --parallel "$(nproc)" --label-exclude rust)

step "C# binding (Mono: library, xUnit tests, sample, benchmark smoke run)"; bash bindings/dotnet/test.sh

step "Go binding (go vet, race, GOGC=1, cgocheck2, pkg-config link, example, benchmark against Rust)"; bash bindings/go/test.sh

step "JavaScript binding (WebAssembly build, every vector, API, compat entry, demo page in Chromium)"
bash bindings/js/test.sh

step "all tests passed"
