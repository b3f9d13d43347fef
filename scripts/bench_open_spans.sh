#!/usr/bin/env bash
# Time and memory with many spans open at a run's end (issue 26.3): a v3 log with one open
# text message in each of N namespaces that stops there, read by `convert`, `check` and
# `timeline`; wall time and peak RSS (/usr/bin/time -v), best of REPEAT runs. Compare two
# builds:
#
#   scripts/bench_open_spans.sh                                 # target/release/aguify
#   BIN=/path/to/old/aguify scripts/bench_open_spans.sh         # another build
#   SIZES="10000 40000" TIMEOUT=300 scripts/bench_open_spans.sh
#
# Inputs are generated into $AGUIFY_BENCH_DIR (default /tmp/aguify-bench), never into the
# repository. A command that does not finish within TIMEOUT seconds is reported as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/target/release/aguify}
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
sizes=${SIZES:-"10000 40000 1000000"}
repeat=${REPEAT:-3}
limit=${TIMEOUT:-120}
mkdir -p "$dir"
printf '%-10s %9s %10s %10s\n' command spans wall_s peak_MiB
for n in $sizes; do
    f="$dir/open-spans-$n.ndjson"
    if [ ! -s "$f" ]; then
        seq 1 "$n" | awk '{
            p = "{\"type\":\"event\",\"method\":\"messages\",\"params\":{\"namespace\":[\"m:" $1 "\"],\"timestamp\":1,\"data\":"
            s = 3 * $1
            print p "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m" $1 "\"}},\"seq\":" s - 2 "}"
            print p "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"text\",\"text\":\"\"}}},\"seq\":" s - 1 "}"
            print p "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"text-delta\",\"text\":\"x\"}}},\"seq\":" s "}"
        }' > "$f"
    fi
    for cmd in convert check timeline; do
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
