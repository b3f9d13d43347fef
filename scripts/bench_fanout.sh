#!/usr/bin/env bash
# Time with many parallel runs of one node (a LangGraph `Send` fan-out): a v2 log that starts
# N runs of node `worker` under one graph run, then ends them, read by `convert`; wall time and
# peak RSS, best of REPEAT runs. A step is open while any of its runs is, so the mapper counts
# open runs per step: a scan of the open runs at each start and end costs N² (100,000 runs,
# 2026-12-06, release: 0.5-0.7 s counted, 46.8 s scanned). Compare two builds:
#
#   scripts/bench_fanout.sh                            # target/release/aguify
#   BIN=/path/to/old/aguify scripts/bench_fanout.sh    # another build
#   SIZES="20000 100000" scripts/bench_fanout.sh
#
# Inputs are generated into $AGUIFY_BENCH_DIR (default /tmp/aguify-bench), never into the
# repository. A command that does not finish within TIMEOUT seconds is reported as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/target/release/aguify}
# shellcheck source=best_of.sh
. "$(dirname "$0")/best_of.sh"
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
sizes=${SIZES:-"20000 100000"}
repeat=${REPEAT:-3}
limit=${TIMEOUT:-120}
mkdir -p "$dir"
printf '%-10s %9s %10s %10s\n' command runs wall_s peak_MiB
for n in $sizes; do
    f="$dir/fanout-$n.ndjson"
    if [ ! -s "$f" ]; then
        node='"name":"worker","parent_ids":["root"],"metadata":{"langgraph_node":"worker"}'
        {
            echo '{"event":"on_chain_start","name":"g","run_id":"root","parent_ids":[],"metadata":{},"data":{"input":{}}}'
            seq 1 "$n" | awk -v node="$node" '{ print "{\"event\":\"on_chain_start\"," node ",\"run_id\":\"n" $1 "\",\"data\":{\"input\":{}}}" }'
            seq 1 "$n" | awk -v node="$node" '{ print "{\"event\":\"on_chain_end\"," node ",\"run_id\":\"n" $1 "\",\"data\":{\"output\":{}}}" }'
            echo '{"event":"on_chain_end","name":"g","run_id":"root","parent_ids":[],"metadata":{},"data":{"output":{}}}'
        } >"$f"
    fi
    best_of "$bin" convert "$f"
done
