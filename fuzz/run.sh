#!/usr/bin/env bash
# Runs one fuzz target for a while: fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
# (later flags win: e.g. -max_len=1024).
# New inputs go to fuzz/corpus/TARGET; the seeds of fuzz/seeds/TARGET (fuzz/seed.py) are read too.
set -euo pipefail
cd "$(dirname "$0")"
target=$1; secs=$2; shift 2
mkdir -p "corpus/$target" "seeds/$target" logs
[ -n "$(ls -A "seeds/$target" 2>/dev/null)" ] || python3 seed.py >/dev/null
# The engine has no unsafe code outside src/ffi: AddressSanitizer only pays for the ffi target.
if [ "$target" = ffi ]; then sanitizer=${SANITIZER:-address}; else sanitizer=${SANITIZER:-none}; fi
RUSTC_BOOTSTRAP=${RUSTC_BOOTSTRAP:-1} cargo fuzz run -O --debug-assertions -s "$sanitizer" "$target" \
  "corpus/$target" "seeds/$target" -- \
  -max_total_time="$secs" -timeout=10 -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 "$@"
