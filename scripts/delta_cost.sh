#!/usr/bin/env bash
# What one streamed text delta costs on each thread (issue 6, perf9): the instructions of
# `convert --to sse` on a generated 2 MB log with every text-delta line written twice, less
# those on the same log written once, divided by the number of repeated lines; the same for
# the bare parse (`examples/bare_parse`). Both logs get `seq` renumbered from 1, so the
# repeated lines are new events in order and nothing else changes (the checker reports no
# more than before). Exact and load-independent: valgrind's callgrind, one thread apiece.
#
#   scripts/delta_cost.sh                 # FORM v3-python
#   scripts/delta_cost.sh v3-js
#   AGUIFY_BIN=/path/to/other/aguify scripts/delta_cost.sh   # another build
#
# A text delta is a v3 `content-block-delta` of type `text-delta`, or a v2
# `on_chat_model_stream` whose chunk content is a string.
set -euo pipefail
form=${1:-v3-python}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
mkdir -p "$dir"
(cd "$root" && cargo build --release -q --bin aguify --example gen_logs --example bare_parse)
bin="$root/target/release"
aguify=${AGUIFY_BIN:-$bin/aguify}
log="$dir/$form-2M.ndjson"
[ -f "$log" ] || "$bin/examples/gen_logs" "$form" 2M "$log"

once="$dir/delta-cost-$form-once.ndjson"
twice="$dir/delta-cost-$form-twice.ndjson"
# Renumber `seq` (the first one on the line, the event's own) and, for the second log, write
# each text-delta line twice.
renumber='BEGIN { n = 0 }
function put(line) { n++; sub(/"seq":[0-9]+/, "\"seq\":" n, line); print line }
{
  put($0)
  if (twice && ($0 ~ /"content-block-delta"/ && $0 ~ /"text-delta"/ ||
                $0 ~ /"event":"on_chat_model_stream"/ && $0 ~ /"content":"/)) { put($0); extra++ }
}
END { if (twice) print extra > "/dev/stderr" }'
awk -v twice=0 "$renumber" "$log" >"$once"
extra=$(awk -v twice=1 "$renumber" "$log" 2>&1 >"$twice")
[ "$extra" -gt 0 ] || { echo "no text-delta lines in $log" >&2; exit 1; }

# totals FILE... → the instruction total of each callgrind output file
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'; }
out="$dir/delta-cost-$form"
for which in once twice; do
  f="$dir/delta-cost-$form-$which.ndjson"
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out.$which" \
    "$aguify" convert --to sse "$f" >/dev/null 2>&1 || true
  valgrind --tool=callgrind --callgrind-out-file="$out.$which.bare" \
    "$bin/examples/bare_parse" "$f" >/dev/null 2>&1
done
per() { echo $(( ($1 - $2) / extra )); }
# Thread 1 is the main (reading) thread, 2 the parse thread.
r1=$(total "$out.once-01"); r2=$(total "$out.twice-01")
p1=$(total "$out.once-02"); p2=$(total "$out.twice-02")
b1=$(total "$out.once.bare"); b2=$(total "$out.twice.bare")
echo "$form: $extra text-delta lines repeated; instructions per repeated line"
echo "  reading thread  $(per "$r2" "$r1")   ($r1 -> $r2)"
echo "  parse thread    $(per "$p2" "$p1")   ($p1 -> $p2)"
echo "  bare parse      $(per "$b2" "$b1")   ($b1 -> $b2)"
