#!/usr/bin/env bash
# Tests the Go binding from a clean state: installs Go if it is missing (as root with apt-get,
# else says how), builds the Rust library (cargo build --release), then runs gofmt, go vet,
# the tests (linked against the in-tree build: -tags v4a_intree) under the race detector,
# again with GOGC=1 and with the strict cgo pointer checks (GOEXPERIMENT=cgocheck2); then
# installs the library into a prefix with the v4a.pc of cmake/v4a.pc.in and builds, as a user
# does, a module outside the repository and the example of examples/go/ with the default
# linking (pkg-config, no build tag), checks the errors without cgo and without the library,
# and runs the benchmark against Rust (bench_test.go).
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
step "cargo build --release --package libv4a (libv4a.a for -tags v4a_intree, libv4a.so to install)"
cargo build --release --locked --package libv4a
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
# The repository's tests link the in-tree build (link_intree.go) and use its test hooks.
tags=(-tags v4a_intree)
step "go vet -tags v4a_intree ./..."
go vet "${tags[@]}" ./...

step "go test -count=1 -race -tags v4a_intree ./... (every shared vector, multi-file, errors, bad inputs, 64 goroutines, layouts)"
go test -count=1 -race "${tags[@]}" ./...

step "GOGC=1 go test -count=1 -tags v4a_intree ./... (a collection at every allocation step)"
GOGC=1 go test -count=1 "${tags[@]}" ./...

step "GOEXPERIMENT=cgocheck2 go test -count=1 -tags v4a_intree ./... (every cgo pointer rule checked)"
GOEXPERIMENT=cgocheck2 go test -count=1 "${tags[@]}" ./...

# --- As a user: an installed libv4a found with pkg-config, no build tag -------------------
step "install the library into a prefix, with the v4a.pc of cmake/v4a.pc.in"
command -v pkg-config >/dev/null || die "pkg-config is needed to test the default linking: apt-get install pkg-config"
prefix="$root/target/go-v4a-install" # in the build key above, through $root
rm -rf "$prefix"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp "$root/include/v4a.h" "$prefix/include/"
cp "$root/target/release/libv4a.so" "$prefix/lib/"
# Configured as CMake's configure_file(... @ONLY) configures it (CMakeLists.txt), with the
# same values: the version of Cargo.toml, the description of project(), rustc's list of the
# native libraries of a static library.
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)
description=$(sed -n 's/^ *DESCRIPTION "\(.*\)"$/\1/p' "$root/CMakeLists.txt" | head -1)
probe="$root/target/go-native-static-libs"
mkdir -p "$probe" && : >"$probe/probe.rs"
native_libs=$(rustc --crate-type staticlib --crate-name v4a_probe --print native-static-libs \
  -o "$probe/libv4a_probe.a" "$probe/probe.rs" 2>&1 | sed -n 's/.*native-static-libs: //p' | head -1)
[ -n "$version" ] && [ -n "$description" ] && [ -n "$native_libs" ] \
  || die "cannot read the version, the description or the native static libraries for v4a.pc"
sed -e "s|@V4A_PC_PREFIX_FROM_PCDIR@|../..|g" -e "s|@CMAKE_INSTALL_LIBDIR@|lib|g" \
  -e "s|@CMAKE_INSTALL_INCLUDEDIR@|include|g" -e "s|@PROJECT_DESCRIPTION@|$description|g" \
  -e "s|@PROJECT_VERSION@|$version|g" -e "s|@V4A_NATIVE_STATIC_LIBS@|$native_libs|g" \
  "$root/cmake/v4a.pc.in" >"$prefix/lib/pkgconfig/v4a.pc"
if grep -n '@[A-Za-z_]*@' "$prefix/lib/pkgconfig/v4a.pc"; then
  die "cmake/v4a.pc.in has a variable this script does not configure (above): add it here"
fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "v4a.pc: version $(pkg-config --modversion v4a), $(pkg-config --cflags --libs v4a)"

# A module outside the repository that requires the binding as `go get` adds it (the
# replace stands in for the module proxy: the binding is not published from here).
user=$(mktemp -d)
trap 'rm -rf "$user"' EXIT
printf '%s\n' "module example.com/v4auser" "" "go 1.21" "" \
  "require github.com/v4a-dev/v4a/bindings/go v0.0.0" "" \
  "replace github.com/v4a-dev/v4a/bindings/go => $go_dir" >"$user/go.mod"
cp "$go_dir/testdata/user/main.go.txt" "$user/main.go"
step "a module outside the repository, default linking (pkg-config): build, ldd, run"
(cd "$user" && go build -o "$user/user" .)
if command -v ldd >/dev/null; then
  libs=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$user/user")
  case "$libs" in
    *"libv4a.so => $prefix/lib/libv4a.so"*) echo "linked dynamically against $prefix/lib/libv4a.so" ;;
    *) die "the default build is not linked against $prefix/lib/libv4a.so: $libs" ;;
  esac
fi
got=$(LD_LIBRARY_PATH="$prefix/lib" "$user/user")
[ "$got" = "$version \"a\\nc\\n\" exact" ] || die "the outside module printed: $got"
echo "it runs: $got"

step "the messages without cgo, without the library, and for go test without the tag"
if out=$(cd "$user" && CGO_ENABLED=0 go build -o /dev/null . 2>&1); then die "CGO_ENABLED=0 built"; fi
case "$out" in
  *v4a_needs_cgo__set_CGO_ENABLED_1_with_a_C_compiler_and_install_libv4a_see_README*)
    echo "CGO_ENABLED=0: $(printf '%s\n' "$out" | tail -1)" ;;
  *) die "CGO_ENABLED=0 fails without naming the fix: $out" ;;
esac
# (Go does not run pkg-config again for a package it has cached: a new define misses the cache.)
if out=$(cd "$user" && CGO_CFLAGS="$CGO_CFLAGS -DV4A_GO_NO_PC=$$" PKG_CONFIG_PATH= \
  PKG_CONFIG_LIBDIR="$user/none" go build -o /dev/null . 2>&1); then
  die "built without v4a.pc"
fi
case "$out" in
  *"Package v4a was not found in the pkg-config search path"*)
    echo "no v4a.pc: pkg-config says \"Package v4a was not found in the pkg-config search path\"" ;;
  *) die "a missing library fails without saying so: $out" ;;
esac
if out=$(go test -count=1 -run '^$' . 2>&1); then die "the package's tests built without -tags v4a_intree"; fi
case "$out" in
  *the_tests_link_the_in_tree_build__run_go_test_with_tags_v4a_intree*) echo "go test without the tag names it" ;;
  *) die "go test without -tags v4a_intree fails without naming the tag: $out" ;;
esac

# --- The example ---------------------------------------------------------------------------
step "examples/go (default linking, as a user builds it): go vet, build, run, compare with expected_output.txt"
cd "$example_dir"
go vet ./...
out=$(mktemp -d)
go build -o "$out/apply_patch" . # a fresh output: always linked against the current library
LD_LIBRARY_PATH="$prefix/lib" "$out/apply_patch" >"$out/output.txt"
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
go test -count=1 "${tags[@]}" -run '^$' -bench 'Apply|Overhead' -benchtime 1x . >/dev/null # every benchmark runs
go test -count=1 "${tags[@]}" -run '^$' -bench Overhead -benchtime 1x -v . | grep -E 'rounds|^Benchmark|^ok'
echo "ratios: go/rust = the Go call against v4a::apply in Rust; go/cgo = against v4a_apply called"
echo "through cgo copying nothing (what the binding adds: conversions, copying the results into Go"
echo "memory); copy = the Go call with the new text copied into a reused buffer instead of a new Go"
echo "string (so go - copy is what the Go heap charges for that string: allocation, page faults,"
echo "collections); -cpu = CPU time (getrusage), steadier than wall-clock time on a shared machine."
