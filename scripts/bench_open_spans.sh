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
# shellcheck source=best_of.sh
. "$(dirname "$0")/best_of.sh"
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
        best_of "$bin" "$cmd" "$f"
    done
done
