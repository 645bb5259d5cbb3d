#!/usr/bin/env bash
# Tests the Go binding from a clean state: installs Go if it is missing (as root with apt-get,
# else says how), builds the Rust library (cargo build --release), then runs gofmt, go vet,
# the tests under the race detector, again with GOGC=1 and with the strict cgo pointer checks
# (GOEXPERIMENT=cgocheck2), once linked through pkg-config (-tags v4a_system), builds and runs
# the example in examples/go/, and runs the benchmark against Rust (bench_test.go).
#
# Usage: bash bindings/go/test.sh        (from anywhere; V4A_GO_SKIP_BENCH=1 skips the benchmark)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
go_dir="$root/bindings/go"
example_dir="$root/examples/go"

step() { printf '\n==> [go] %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- Go ------------------------------------------------------------------------------------
min_go_minor=21
for d in /usr/local/go/bin /usr/lib/go/bin; do
  if ! command -v go >/dev/null && [ -x "$d/go" ]; then export PATH="$d:$PATH"; fi
done
if ! command -v go >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing Go (apt-get install golang-go)"
    apt-get update -qq && apt-get install -y -qq golang-go || die "could not install golang-go with apt-get"
  else
    die "Go 1.$min_go_minor or newer is needed: install it (https://go.dev/dl/, or apt-get install golang-go as root)"
  fi
fi
export GOTOOLCHAIN=local # never download a toolchain
go_version=$(go env GOVERSION)
go_minor=$(printf '%s' "$go_version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
[ -n "$go_minor" ] && [ "$go_minor" -ge "$min_go_minor" ] \
  || die "Go 1.$min_go_minor or newer is needed, found $go_version (Debian 12's golang-go is 1.19): install a newer Go from https://go.dev/dl/"
command -v cc >/dev/null || die "cgo needs a C compiler: install gcc (apt-get install gcc)"
export CGO_ENABLED=1
echo "$go_version, $(cc --version | head -1)"

# --- The native library ------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo is not installed: install Rust from https://rustup.rs"
step "cargo build --release (target/release/libv4a.a, which the binding links by default)"
cargo build --release --locked
[ -f target/release/libv4a.a ] || die "target/release/libv4a.a was not built"

# Go's build cache does not see files outside the package (include/v4a.h, the library), nor
# what pkg-config prints: key every build on them, so a changed header or library is always
# compiled and linked in.
sha() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
inputs_hash=$( { sha include/v4a.h target/release/libv4a.*; echo "$root"; } | sha | cut -c1-16)
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -DV4A_GO_BUILD_INPUTS=$inputs_hash"

# --- Formatting, vet, tests ---------------------------------------------------------------
step "gofmt"
unformatted=$(gofmt -l "$go_dir" "$example_dir")
[ -z "$unformatted" ] || die "gofmt would change: $unformatted (run gofmt -w)"

cd "$go_dir"
step "go vet ./..."
go vet ./...

step "go test -count=1 -race ./... (every shared vector, multi-file, errors, bad inputs, 64 goroutines, layouts)"
go test -count=1 -race ./...

step "GOGC=1 go test -count=1 ./... (a collection at every allocation step)"
GOGC=1 go test -count=1 ./...

step "GOEXPERIMENT=cgocheck2 go test -count=1 ./... (every cgo pointer rule checked)"
GOEXPERIMENT=cgocheck2 go test -count=1 ./...

# --- Linking through pkg-config (-tags v4a_system) ----------------------------------------
step "go test -tags v4a_system (the shared library found with pkg-config)"
if command -v pkg-config >/dev/null; then
  prefix="$root/target/go-v4a-system" # in the build key above, through $root
  rm -rf "$prefix"
  mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
  cp "$root/include/v4a.h" "$prefix/include/"
  cp "$root/target/release/libv4a.so" "$prefix/lib/"
  # The layout of the installed v4a.pc (cmake/v4a.pc.in), for the library cargo just built.
  cat >"$prefix/lib/pkgconfig/v4a.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: v4a
Description: V4A patches applied in memory (shared library)
Version: $(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)
Libs: -L\${libdir} -lv4a
Cflags: -I\${includedir}
EOF
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LD_LIBRARY_PATH="$prefix/lib" \
    go test -count=1 -tags v4a_system -run 'TestVectors|TestVersionsAndLayout|TestMultiFile|TestConcurrentApply' .
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" go test -c -tags v4a_system -o "$prefix/system.test" .
  if command -v ldd >/dev/null; then
    libs=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$prefix/system.test")
    case "$libs" in
      *"libv4a.so => $prefix/lib/libv4a.so"*) echo "linked dynamically against $prefix/lib/libv4a.so" ;;
      *) die "the v4a_system build is not linked against $prefix/lib/libv4a.so: $libs" ;;
    esac
  fi
else
  echo "pkg-config is not installed: skipped (apt-get install pkg-config)"
fi

# --- The example ---------------------------------------------------------------------------
step "examples/go: go vet, build, run, compare with expected_output.txt"
cd "$example_dir"
go vet ./...
out=$(mktemp -d)
go build -o "$out/apply_patch" . # a fresh output: always linked against the current library
"$out/apply_patch" >"$out/output.txt"
diff -u expected_output.txt "$out/output.txt" || die "examples/go prints something else than expected_output.txt"
rm -rf "$out"
echo "the example's output matches"

# --- Benchmark: Go vs the C ABI vs Rust -------------------------------------------------
if [ "${V4A_GO_SKIP_BENCH:-0}" = 1 ]; then
  echo "benchmark skipped (V4A_GO_SKIP_BENCH=1)"
  exit 0
fi
step "benchmark: the Rust baseline (bindings/go/testdata/rustbaseline)"
cd "$root"
# The helper resolves its dependencies exactly as the library does: start from its lock file.
cp Cargo.lock bindings/go/testdata/rustbaseline/Cargo.lock
cargo build --release --manifest-path bindings/go/testdata/rustbaseline/Cargo.toml \
  --target-dir target/go-rust-baseline
export V4A_RUST_BASELINE="$root/target/go-rust-baseline/release/v4a-go-rust-baseline"

step "benchmark: go test -bench Overhead (Go Apply vs cgo v4a_apply vs Rust v4a::apply, same inputs, alternating rounds)"
cd "$go_dir"
# glibc gives a large freed top of its heap back to the kernel and faults it in again on the
# next call, or not, depending on what the process allocated before: the same Rust loop takes
# 5 or 15 ms on W2. Keeping the pages (for the Go process and the Rust helper alike) makes
# the three variants comparable.
export GLIBC_TUNABLES=glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432
go test -count=1 -run '^$' -bench 'Apply|Overhead' -benchtime 1x . >/dev/null # every benchmark runs
go test -count=1 -run '^$' -bench Overhead -benchtime 1x -v . | grep -E 'rounds|^Benchmark|^ok'
echo "ratios: go/rust = the Go call against v4a::apply in Rust; go/cgo = against v4a_apply called"
echo "through cgo copying nothing (what the binding adds: conversions, copying the results into Go"
echo "memory); copy = the Go call with the new text copied into a reused buffer instead of a new Go"
echo "string (so go - copy is what the Go heap charges for that string: allocation, page faults,"
echo "collections); -cpu = CPU time (getrusage), steadier than wall-clock time on a shared machine."
