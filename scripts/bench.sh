#!/usr/bin/env bash
# Whole-process benchmark (issue 6): for every form and size, times the baseline (a bare
# serde_json parse of every line into IgnoredAny, `examples/bare_parse`), `convert --to sse`
# and `convert --to ndjson` on the same generated log, with /usr/bin/time -v, and prints
# MB/s (CPU time: user+sys, and wall), AG-UI events/s, the ratio to the baseline (by CPU time
# and by wall time: aguify parses on --threads = cores, the baseline on one) and peak RSS;
# convert --to sse and check also with --threads 1.
#
#   scripts/bench.sh                       # FORMS="v2-python-api v3-js", SIZES="10M 100M 1G"
#   FORMS="v2-js" SIZES="10M" scripts/bench.sh
#   FORMS="v3-js-big v3-js-zh v3-js-one-run" SIZES="100M" scripts/bench.sh   # gen_logs variants
#   BEFORE=/path/to/old/aguify scripts/bench.sh   # also time an older build, in the same sitting
#
# Logs are generated once into $AGUIFY_BENCH_DIR (default /tmp/aguify-bench; 1 GB each),
# never into the repository. Every measurement is the best of REPEAT runs (default 3); wall
# times are read from the clock in nanoseconds, CPU times from the kernel in 10 ms steps (so
# the CPU columns are coarse at 10 MB, a size that is there for RSS). Runs under `nice`; on a
# shared machine take many runs (REPEAT=15), and `valgrind --tool=callgrind` instruction counts
# for before/after comparisons.
# `check` is timed on the same log (`check --format json`; its events/s count the AG-UI events
# that convert writes for the log, which check verifies).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
forms=${FORMS:-"v2-python-api v3-js"}
sizes=${SIZES:-"10M 100M 1G"}
mkdir -p "$dir"
(cd "$root" && cargo build --release -q --bin aguify --example gen_logs --example bare_parse)
bin="$root/target/release"

# measure CMD... → sets cpu, wall (the least of $REPEAT runs: a shared machine only ever adds
# time), rss_kb (the most); stderr of the last run kept in $dir/last.err
measure() {
  local tv="$dir/time.txt" i c w r
  cpu=; wall=; rss_kb=0
  for ((i = 0; i < ${REPEAT:-3}; i++)); do
    # Wall time from the clock in nanoseconds: /usr/bin/time's own is in 10 ms steps, ±5 %
    # of a 100 MB run (its CPU times stay: they are the kernel's, in the same steps).
    local t0 t1
    t0=$(date +%s%N)
    nice /usr/bin/time -v -o "$tv" "$@" >/dev/null 2>"$dir/last.err" || true
    t1=$(date +%s%N)
    c=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.3f", u+s}' "$tv")
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/1e9}')
    r=$(awk -F': ' '/Maximum resident set size/{print $2}' "$tv")
    cpu=$(awk -v a="${cpu:-$c}" -v b="$c" 'BEGIN{print (b<a)?b:a}')
    wall=$(awk -v a="${wall:-$w}" -v b="$w" 'BEGIN{print (b<a)?b:a}')
    rss_kb=$(awk -v a="$rss_kb" -v b="$r" 'BEGIN{print (b>a)?b:a}')
  done
}

# row LABEL: prints one line from $cpu/$wall/$rss_kb (and $events, $base_cpu, $base_wall)
row() {
  printf "%-15s %5s %-12s %9.0f %9.0f %11s %8s %8s %9.1f\n" "$form" "$size" "$1" \
    "$(awk -v m="$mb" -v t="$cpu" 'BEGIN{print m/t}')" "$(awk -v m="$mb" -v t="$wall" 'BEGIN{print m/t}')" \
    "$(awk -v e="${events:-0}" -v t="$wall" 'BEGIN{ if (e > 0) printf "%.0f", e/t; else print "-" }')" \
    "$(awk -v b="$base_cpu" -v t="$cpu" 'BEGIN{printf "%.0f%%", 100*b/t}')" \
    "$(awk -v b="$base_wall" -v t="$wall" 'BEGIN{printf "%.0f%%", 100*b/t}')" \
    "$(awk -v k="$rss_kb" 'BEGIN{print k/1024}')"
}

printf "%-15s %5s %-12s %9s %9s %11s %8s %8s %9s\n" form size mode "MB/s cpu" "MB/s wall" "events/s" "cpu/bare" "wall/bare" "RSS MiB"
for form in $forms; do
  for size in $sizes; do
    log="$dir/$form-$size.ndjson"
    [ -s "$log" ] || "$bin/examples/gen_logs" "$form" "$size" "$log" 2>/dev/null
    mb=$(awk -v b="$(stat -c %s "$log")" 'BEGIN{printf "%.3f", b/1e6}')
    measure "$bin/examples/bare_parse" "$log"
    base_cpu=$cpu; base_wall=$wall; events=
    row bare
    for to in sse ndjson; do
      measure "$bin/aguify" convert --stats --to "$to" "$log"
      events=$(sed -n 's/.*; \([0-9]*\) AG-UI events written.*/\1/p' "$dir/last.err" | tail -1)
      row "$to"
    done
    measure "$bin/aguify" convert --threads 1 --to sse "$log"
    row "sse -t1"
    measure "$bin/aguify" check --format json "$log"
    row check
    measure "$bin/aguify" check --threads 1 --format json "$log"
    row "check -t1"
    if [ -n "${BEFORE:-}" ]; then
      measure "$BEFORE" convert --threads 1 --to sse "$log"
      row "sse -t1 old"
      measure "$BEFORE" check --threads 1 --format json "$log"
      row "check -t1 old"
    fi
  done
done
