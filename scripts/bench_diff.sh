#!/usr/bin/env bash
# `aguify diff` of two 100 MB logs against two `aguify check`s of the same logs (issue 24):
# wall time, CPU time (user+sys) and peak RSS of each, best of REPEAT runs. The two logs are
# the same recordings replicated by examples/gen_logs.rs in two forms (by default the
# API-server and dumpd serialisations of v2, which diff as equal but for the dumpd form's
# missing tool error messages), so the diff reads, folds and compares every run.
#
#   scripts/bench_diff.sh                                   # OLD=v2-python-api NEW=v2-python-dumpd SIZE=100M
#   OLD=v3-js NEW=v3-js SIZE=10M REPEAT=1 scripts/bench_diff.sh
#
# Logs go to $AGUIFY_BENCH_DIR (default /tmp/aguify-bench), never into the repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
old_form=${OLD:-v2-python-api}
new_form=${NEW:-v2-python-dumpd}
size=${SIZE:-100M}
mkdir -p "$dir"
(cd "$root" && cargo build --release -q --bin aguify --example gen_logs)
bin="$root/target/release"
old="$dir/$old_form-$size.ndjson"
new="$dir/$new_form-$size.ndjson"
[ -s "$old" ] || "$bin/examples/gen_logs" "$old_form" "$size" "$old"
[ -s "$new" ] || "$bin/examples/gen_logs" "$new_form" "$size" "$new"

# measure NAME CMD... → one line: best wall s, best CPU s, most RSS MiB over $REPEAT runs
measure() {
  local name=$1 tv="$dir/time.txt" i best_wall= best_cpu= rss=0
  shift
  for ((i = 0; i < ${REPEAT:-3}; i++)); do
    local t0 t1 w c r
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$tv" "$@" >/dev/null 2>"$dir/last.err" || true
    t1=$(date +%s%N)
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    c=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$tv")
    r=$(awk -F': ' '/Maximum resident/ { print $2 }' "$tv")
    if [ -z "$best_wall" ] || awk -v a="$w" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then best_wall=$w; fi
    if [ -z "$best_cpu" ] || awk -v a="$c" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then best_cpu=$c; fi
    [ "$r" -gt "$rss" ] && rss=$r
  done
  printf "%-28s wall %7ss  cpu %7ss  peak RSS %6.1f MiB\n" "$name" "$best_wall" "$best_cpu" \
    "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}

echo "old: $old ($(du -h "$old" | cut -f1)), new: $new ($(du -h "$new" | cut -f1))"
measure "check OLD" "$bin/aguify" check --format json --threads 1 "$old"
measure "check NEW" "$bin/aguify" check --format json --threads 1 "$new"
measure "diff OLD NEW" "$bin/aguify" diff --format json "$old" "$new"
"$bin/aguify" diff "$old" "$new" | tail -1
