#!/usr/bin/env bash
# Tests the JavaScript binding from a clean state: installs what is missing (the Rust target
# wasm32-unknown-unknown with rustup, the npm dev dependencies with `npm ci`, Debian's
# Chromium with apt-get when root), builds the engine for WebAssembly and the package (ESM +
# CommonJS with tsc), checks the types from a TypeScript consumer, then runs every JS test
# with `node --test`: the shared vectors, the API, the compat entry, and the demo page in
# Chromium.
#
# Usage: bash bindings/js/test.sh      (from anywhere)
#   V4A_SKIP_BROWSER=1  skips the Chromium test (and its install)
#   V4A_JS_BENCH=1      also runs the benchmark (bench/bench.mjs)
set -euo pipefail
cd "$(dirname "$0")"
js_dir=$(pwd)

step() { printf '\n==> [js] %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

# --- Node ----------------------------------------------------------------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if as_root; then
    step "installing Node.js (apt-get install nodejs npm)"
    apt-get update -qq && apt-get install -y -qq nodejs npm || die "could not install nodejs with apt-get"
  else
    die "Node.js 18 or newer and npm are needed (apt-get install nodejs npm as root)"
  fi
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || die "Node.js 18 or newer is needed, found $(node --version)"
echo "node $(node --version), npm $(npm --version)"

# --- The Rust target -----------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown || die "rustup refused the target wasm32-unknown-unknown (see above)"
fi

# --- npm dependencies (typescript, playwright-core; versions pinned in package-lock.json) --
step "npm ci"
npm ci --no-audit --no-fund --loglevel=error

# --- Chromium ------------------------------------------------------------------------------
if [ "${V4A_SKIP_BROWSER:-0}" != 1 ] && [ ! -x /usr/bin/chromium ]; then
  if as_root; then
    step "installing Chromium (apt-get install chromium)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || die "could not install chromium with apt-get"
  else
    die "the browser test needs /usr/bin/chromium (apt-get install chromium as root), or set V4A_SKIP_BROWSER=1"
  fi
fi

# --- Build and test ------------------------------------------------------------------------
step "build: cargo (profile wasm, wasm32-unknown-unknown) + tsc (ESM, CommonJS)"
node scripts/build.mjs

step "types: a TypeScript consumer of the ESM and CommonJS entries"
node node_modules/typescript/bin/tsc -p test/types/tsconfig.json

step "node --test"
node --test test/*.test.mjs

if [ "${V4A_JS_BENCH:-0}" = 1 ]; then
  step "benchmark"
  node bench/bench.mjs
fi
