#!/usr/bin/env bash
# Byte-compares two aguify builds on generated logs of every form (stdout and stderr, each on
# its own: how the two interleave depends on when each is flushed, not on what was written):
#   scripts/compare_generated.sh OLD_BIN NEW_BIN [SIZE]   (SIZE default 10M)
set -u
old=${1:?usage: compare_generated.sh OLD_BIN NEW_BIN [SIZE]}; new=${2:?}; size=${3:-10M}
root=$(cd "$(dirname "$0")/.." && pwd); dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
mkdir -p "$dir"; (cd "$root" && cargo build --release --example gen_logs -q) || exit 2
rc=0
for f in v2-python-api v2-python-dumpd v2-js v3-python v3-python-inprocess v3-js; do
  log="$dir/$f-$size.ndjson"
  [ -s "$log" ] || "$root/target/release/examples/gen_logs" "$f" "$size" "$log" 2>/dev/null
  for to in sse ndjson; do
    a=$("$old" convert --to "$to" "$log" 2>"$dir/.cmp-old.err" | md5sum; md5sum <"$dir/.cmp-old.err")
    b=$("$new" convert --to "$to" "$log" 2>"$dir/.cmp-new.err" | md5sum; md5sum <"$dir/.cmp-new.err")
    if [ "$a" = "$b" ]; then echo "same  $f --to $to"; else echo "DIFF  $f --to $to"; rc=1; fi
  done
done
exit $rc
