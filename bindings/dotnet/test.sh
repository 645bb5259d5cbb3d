#!/usr/bin/env bash
# Builds and tests the C# binding with Mono, where the .NET SDK is absent:
#   1. installs Mono's compiler and runtime (mcs, mono) if they are missing,
#   2. builds the native library (cargo build --release: target/release/libv4a.so),
#   3. compiles the library (with its XML docs, warnings as errors), the xUnit test classes with
#      the shim and runner of mono/, the console sample of examples/dotnet/ and the benchmark,
#   4. runs the sample (its output compared with examples/dotnet/expected_output.txt), a smoke
#      run of the benchmark, then the tests, which end with "N passed, N failed".
#
# Usage: bash bindings/dotnet/test.sh [--bench] [TEST_NAME_SUBSTRING...]
#   --bench   run the full benchmark (W1, W2: C# call vs the native call and vs v4a::apply in Rust,
#             whose helper it builds) instead of the smoke run
# With the .NET SDK instead: dotnet test bindings/dotnet/tests (see the README).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/build"

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

bench=smoke
filters=()
for arg in "$@"; do
  case "$arg" in
    --bench) bench=full ;;
    *) filters+=("$arg") ;;
  esac
done

if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing Mono (mono-mcs, mono-runtime)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mono-mcs mono-runtime >/dev/null \
      || die "could not install mono-mcs and mono-runtime with apt-get"
  else
    die "the C# tests need Mono's mcs and mono: install them (apt-get install mono-mcs mono-runtime, or https://www.mono-project.com), or run as root"
  fi
fi
# Parallel, Linq and the rest of the framework the tests use.
[ -f "$(dirname "$(command -v mcs)")/../lib/mono/4.5/System.Core.dll" ] || [ -f /usr/lib/mono/4.5/System.Core.dll ] \
  || die "Mono's System.Core.dll is missing: install mono-runtime (or mono-complete)"

command -v cargo >/dev/null || die "cargo is not installed: install Rust from https://rustup.rs"
step "native library: cargo build --release"
(cd "$root" && cargo build --release --locked --package libv4a)
# The binding loads "libv4a" (Native.Library): libv4a.so, libv4a.dylib, or libv4a.dll, which
# on Windows is cargo's v4a.dll renamed, so that it does not clash with the managed V4A.dll.
case "$(uname -s)" in
  Darwin) native="$root/target/release/libv4a.dylib" native_name=libv4a.dylib ;;
  MINGW* | MSYS* | CYGWIN*) native="$root/target/release/v4a.dll" native_name=libv4a.dll ;;
  *) native="$root/target/release/libv4a.so" native_name=libv4a.so ;;
esac
[ -f "$native" ] || die "cargo did not produce $native"

step "compiling the C# library, tests, sample and benchmark with mcs"
rm -rf "$out"
mkdir -p "$out"
cp "$native" "$out/$native_name"
mcs_flags=(-nologo -langversion:7 -unsafe -warn:4 -warnaserror+ -debug)
mcs "${mcs_flags[@]}" -optimize+ -target:library -out:"$out/V4A.dll" -doc:"$out/V4A.xml" \
  "$here"/src/*.cs
mcs "${mcs_flags[@]}" -target:exe -out:"$out/V4A.Tests.exe" -r:"$out/V4A.dll" -r:System.Core.dll \
  "$here"/tests/*.cs "$here"/mono/*.cs
mcs "${mcs_flags[@]}" -target:exe -out:"$out/V4A.Example.exe" -r:"$out/V4A.dll" -r:System.Core.dll \
  "$root"/examples/dotnet/*.cs
mcs "${mcs_flags[@]}" -optimize+ -target:exe -out:"$out/V4A.Bench.exe" -r:"$out/V4A.dll" -r:System.Core.dll \
  "$here"/bench/*.cs

# No two files of the output may differ only by case (V4A.dll and v4a.dll on Windows, in
# Unity's Plugins folder).
clash=$(ls "$out" | tr '[:upper:]' '[:lower:]' | sort | uniq -d)
[ -z "$clash" ] || die "files of $out differ only by case: $clash"
# Mono finds libv4a next to V4A.dll; the library path is a second way in.
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export V4A_REPO_ROOT="$root"

step "console sample (examples/dotnet), output compared with expected_output.txt"
mono --debug "$out/V4A.Example.exe" > "$out/example_output.txt"
if ! diff -u "$root/examples/dotnet/expected_output.txt" "$out/example_output.txt"; then
  die "the sample's output differs from examples/dotnet/expected_output.txt"
fi
echo "the sample's output is as expected"

if [ "$bench" = full ]; then
  if [ -z "${V4A_RUST_BASELINE:-}" ]; then
    step "benchmark: the Rust baseline (bindings/go/testdata/rustbaseline, shared with the Go benchmark)"
    # The helper resolves its dependencies exactly as the library does: start from its lock file.
    cp "$root/Cargo.lock" "$root/bindings/go/testdata/rustbaseline/Cargo.lock"
    cargo build --release --manifest-path "$root/bindings/go/testdata/rustbaseline/Cargo.toml" \
      --target-dir "$root/target/go-rust-baseline"
    export V4A_RUST_BASELINE="$root/target/go-rust-baseline/release/v4a-go-rust-baseline"
  fi
  step "benchmark: the C# call against the native call and v4a::apply in Rust (W1, W2)"
  # As in the Go benchmark: glibc keeps the freed top of its heap (for Mono's process and the
  # Rust helper alike), so that the native allocations cost the same in every variant.
  GLIBC_TUNABLES=glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432 \
    mono "$out/V4A.Bench.exe"
else
  step "benchmark smoke run (no timing assertions; --bench for the real run)"
  mono "$out/V4A.Bench.exe" --smoke
fi

step "C# tests (xUnit test classes on Mono)"
mono --debug "$out/V4A.Tests.exe" ${filters[@]+"${filters[@]}"}
