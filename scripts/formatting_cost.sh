#!/usr/bin/env bash
# Whether a log's formatting changes what converting it costs (issue 36 item 4): the
# instructions of `convert --to sse --threads 1` on a generated 2 MB log as generated
# (compact) and the same log re-serialised by Python's `json.dumps` with its default
# separators (`{"type": "event", ...}`, what a Python user's own recorder writes), each
# against a bare serde_json parse of the same bytes. Exact and load-independent: callgrind.
#
#   scripts/formatting_cost.sh                        # every generated form
#   scripts/formatting_cost.sh v3-js v2-js            # some
#   AGUIFY_BIN=/path/to/other/aguify scripts/formatting_cost.sh   # another build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
mkdir -p "$dir"
forms=("$@")
[ ${#forms[@]} -gt 0 ] || forms=(v2-python-api v2-python-dumpd v2-js v3-python v3-js v3-python-inprocess)
bin="$root/target/release"
[ -n "${AGUIFY_BIN:-}" ] && [ -x "$bin/examples/gen_logs" ] ||
  (cd "$root" && cargo build --release -q --bin aguify --example gen_logs --example bare_parse)
aguify=${AGUIFY_BIN:-$bin/aguify}
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'; }
m() { awk -v n="$1" 'BEGIN { printf "%.1f M", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "| form | bare compact | convert compact | / bare | bare json.dumps | convert json.dumps | / bare | json.dumps / compact |"
echo "|---|---|---|---|---|---|---|---|"
for form in "${forms[@]}"; do
  compact="$dir/$form-2M.ndjson"
  dumps="$dir/$form-2M.dumps.ndjson"
  [ -f "$compact" ] || "$bin/examples/gen_logs" "$form" 2M "$compact"
  [ -f "$dumps" ] || python3 -c 'import json,sys; [print(json.dumps(json.loads(l))) for l in sys.stdin]' <"$compact" >"$dumps"
  row=()
  for log in "$compact" "$dumps"; do
    out="$dir/formatting-cost.$(basename "$log")"
    valgrind --tool=callgrind --callgrind-out-file="$out.bare" "$bin/examples/bare_parse" "$log" >/dev/null 2>&1
    valgrind --tool=callgrind --callgrind-out-file="$out.aguify" "$aguify" convert --to sse --threads 1 "$log" >/dev/null 2>&1 || true
    row+=("$(total "$out.bare")" "$(total "$out.aguify")")
  done
  echo "| $form | $(m "${row[0]}") | $(m "${row[1]}") | $(ratio "${row[1]}" "${row[0]}") | $(m "${row[2]}") | $(m "${row[3]}") | $(ratio "${row[3]}" "${row[2]}") | $(ratio "${row[3]}" "${row[1]}") |"
done
