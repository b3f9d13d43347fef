#!/usr/bin/env bash
# Time and memory on many bad lines (issue 26.4, 26.10): a run with N unreadable lines inside
# it, read by `timeline`, `check` and `explain`; wall time and peak RSS (/usr/bin/time -v),
# best of REPEAT runs. Compare two builds:
#
#   scripts/bench_bad_lines.sh                                  # target/release/aguify
#   BIN=/path/to/old/aguify scripts/bench_bad_lines.sh          # another build
#   SIZES="16000 32000 100000" TIMEOUT=120 scripts/bench_bad_lines.sh
#
# Inputs are generated into $AGUIFY_BENCH_DIR (default /tmp/aguify-bench), never into the
# repository. A command that does not finish within TIMEOUT seconds is reported as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/target/release/aguify}
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
sizes=${SIZES:-"16000 32000 100000 1000000"}
repeat=${REPEAT:-3}
limit=${TIMEOUT:-120}
mkdir -p "$dir"
printf '%-10s %9s %10s %10s\n' command lines wall_s peak_MiB
for n in $sizes; do
    f="$dir/bad-lines-$n.ndjson"
    if [ ! -s "$f" ]; then
        {
            echo '{"type":"RUN_STARTED","threadId":"t","runId":"r"}'
            seq 1 "$n" | sed 's/.*/{bad &/'
            echo '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}'
        } > "$f"
    fi
    for cmd in timeline check explain; do
        best_wall=""; best_rss=""
        for _ in $(seq 1 "$repeat"); do
            /usr/bin/time -v -o "$dir/time.txt" timeout "$limit" "$bin" "$cmd" "$f" > /dev/null 2>&1 || true
            out=$(cat "$dir/time.txt")
            if echo "$out" | grep -q 'Exit status: 124\|Command terminated by signal'; then
                best_wall=">$limit"; best_rss="-"; break
            fi
            wall=$(echo "$out" | awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}')
            rss=$(echo "$out" | awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}')
            if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
            if [ -z "$best_rss" ] || awk "BEGIN{exit !($rss < $best_rss)}"; then best_rss=$rss; fi
        done
        printf '%-10s %9s %10s %10s\n' "$cmd" "$n" "$best_wall" "$best_rss"
    done
done
