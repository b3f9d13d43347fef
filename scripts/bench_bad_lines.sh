#!/usr/bin/env bash
# Time and memory on many bad lines (issue 26.4, 26.10): a run with N unreadable lines inside
# it, read by `timeline`, `check`, `explain` and `diff` (the file against itself); wall time
# and peak RSS (/usr/bin/time -v), best of REPEAT runs. Compare two builds:
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
# shellcheck source=best_of.sh
. "$(dirname "$0")/best_of.sh"
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
        best_of "$bin" "$cmd" "$f"
    done
    best_of "$bin" diff "$f" "$f"
done
