#!/usr/bin/env bash
# aguify vs the Python ag-ui-langgraph adapter on the same v2 log, in one run (issue 6).
# The peer: json.loads of each line → LangGraphAgent._handle_single_event (its translation of
# one astream_events v2 event) → ag_ui EventEncoder (SSE); see scripts/peer_ag_ui_langgraph.py.
# aguify: `convert --to sse` of the same file. Both write to /dev/null. Compared: the peer's
# event loop (wall seconds it measures itself) and whole process (CPU seconds) against aguify's
# whole process, by CPU seconds and by wall seconds (aguify parses on --threads = cores).
# The bare serde_json parse of the same file (examples/bare_parse.rs, one thread, IgnoredAny)
# runs too: its ratio to the peer is the ceiling for any converter that parses every line
# with serde_json.
#
#   scripts/bench_python_peer.sh [FORM] [SIZE]     (default v2-python-api 10M)
#
# The venv lives in $AGUIFY_PEER_VENV (default /tmp/aguify-peer-venv), made on first use with
# `pip install ag-ui-langgraph fastapi` from PyPI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}; venv=${AGUIFY_PEER_VENV:-/tmp/aguify-peer-venv}
form=${1:-v2-python-api}; size=${2:-10M}
mkdir -p "$dir"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import ag_ui_langgraph" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q ag-ui-langgraph fastapi
fi
(cd "$root" && cargo build --release -q --bin aguify --example gen_logs --example bare_parse)
log="$dir/$form-$size.ndjson"
[ -s "$log" ] || "$root/target/release/examples/gen_logs" "$form" "$size" "$log" 2>/dev/null
cpu() { awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.3f", u+s}' "$1"; }
nice /usr/bin/time -v -o "$dir/peer.time" "$venv/bin/python" "$root/scripts/peer_ag_ui_langgraph.py" "$log" \
  >/dev/null 2>"$dir/peer.err"
nice /usr/bin/time -v -o "$dir/aguify.time" "$root/target/release/aguify" convert --stats --to sse "$log" \
  >/dev/null 2>"$dir/aguify.err"
# Wall time of the two short runs: the best of $REPEAT (default 5), to the millisecond.
best() { local b=999999999 s e t; for _ in $(seq "${REPEAT:-5}"); do
  s=$(date +%s%N); nice "$@" >/dev/null 2>&1; e=$(date +%s%N); t=$(( (e - s) / 1000 ))
  [ "$t" -lt "$b" ] && b=$t; done; awk -v u="$b" 'BEGIN{printf "%.3f", u/1e6}'; }
ours_best=$(best "$root/target/release/aguify" convert --to sse "$log")
bare_wall=$(best "$root/target/release/examples/bare_parse" "$log")
peer=$(cpu "$dir/peer.time"); ours=$(cpu "$dir/aguify.time"); ours_wall=$ours_best
peer_events=$(grep -o '"events": [0-9]*' "$dir/peer.err" | tail -1 | grep -o '[0-9]*$')
peer_loop=$(grep -o '"seconds": [0-9.]*' "$dir/peer.err" | tail -1 | grep -o '[0-9.]*$')
our_events=$(sed -n 's/.*; \([0-9]*\) AG-UI events written.*/\1/p' "$dir/aguify.err")
mb=$(awk -v b="$(stat -c %s "$log")" 'BEGIN{printf "%.2f", b/1e6}')
echo "input: $log ($mb MB)"
printf "%-34s %8s %9s %8s\n" "" "seconds" "MB/s" events
printf "%-34s %8.3f %9.1f %8s\n" "ag-ui-langgraph, event loop only" "$peer_loop" "$(awk -v m="$mb" -v t="$peer_loop" 'BEGIN{print m/t}')" "$peer_events"
printf "%-34s %8.3f %9.1f %8s\n" "ag-ui-langgraph, process CPU" "$peer" "$(awk -v m="$mb" -v t="$peer" 'BEGIN{print m/t}')" "$peer_events"
printf "%-34s %8.3f %9.1f %8s\n" "aguify convert --to sse, process CPU" "$ours" "$(awk -v m="$mb" -v t="$ours" 'BEGIN{print m/t}')" "$our_events"
printf "%-34s %8.3f %9.1f %8s\n" "aguify convert --to sse, wall*" "$ours_wall" "$(awk -v m="$mb" -v t="$ours_wall" 'BEGIN{print m/t}')" "$our_events"
printf "%-34s %8.3f %9.1f %8s\n" "bare serde_json parse, wall*" "$bare_wall" "$(awk -v m="$mb" -v t="$bare_wall" 'BEGIN{print m/t}')" "-"
echo "(* best of ${REPEAT:-5} runs)"
echo "ratio (peer event loop / aguify process CPU): $(awk -v p="$peer_loop" -v o="$ours" 'BEGIN{printf "%.1f", p/o}')x"
echo "ratio (peer event loop / aguify wall):        $(awk -v p="$peer_loop" -v o="$ours_wall" 'BEGIN{printf "%.1f", p/o}')x"
echo "ratio (peer process CPU / aguify process CPU): $(awk -v p="$peer" -v o="$ours" 'BEGIN{printf "%.1f", p/o}')x"
echo "ceiling (peer event loop / bare parse wall):  $(awk -v p="$peer_loop" -v o="$bare_wall" 'BEGIN{printf "%.1f", p/o}')x"
echo "aguify wall as a share of the bare parse's rate: $(awk -v b="$bare_wall" -v o="$ours_wall" 'BEGIN{printf "%.0f", 100*b/o}')%"
