#!/usr/bin/env bash
# testdata/pending (shapes not converted yet, no goldens) is left out.
# Converts every testdata input with a given aguify binary into a directory of outputs, so two
# builds can be compared byte for byte:  scripts/golden.sh BIN OUTDIR; diff -r OUT1 OUT2
# GOLDEN_ALL=1 adds every other command's output (timeline, explain, report, snapshot, diff,
# redact) for refactors of the commands (slower: ~10 runs more per input).
set -u
bin=$(realpath "${1:?usage: golden.sh BIN OUTDIR}"); out=${2:?usage: golden.sh BIN OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
n=0
while IFS= read -r f; do
  rel=${f#"$root"/testdata/}; key=${rel//\//__}
  for to in sse ndjson; do
    "$bin" convert --to "$to" --stats "$f" >"$out/$key.$to" 2>"$out/$key.$to.err"; echo "rc=$?" >>"$out/$key.$to.err"
  done
  "$bin" convert --text final --tool-steps reasoning --compat thinking "$f" >"$out/$key.opts" 2>"$out/$key.opts.err"
  cat "$f" | "$bin" convert --to ndjson - >"$out/$key.stdin" 2>"$out/$key.stdin.err"
  "$bin" check --format json "$f" >"$out/$key.check" 2>&1; echo "rc=$?" >>"$out/$key.check"
  if [ -n "${GOLDEN_ALL:-}" ]; then
    # the commands on top of the conversion (GOLDEN_ALL=1): every text and JSON output
    "$bin" timeline --color never --width 0 "$f" >"$out/$key.timeline" 2>&1; echo "rc=$?" >>"$out/$key.timeline"
    "$bin" timeline --color never --full "$f" >"$out/$key.timeline-full" 2>&1; echo "rc=$?" >>"$out/$key.timeline-full"
    "$bin" explain --color never "$f" >"$out/$key.explain" 2>&1; echo "rc=$?" >>"$out/$key.explain"
    "$bin" explain --format json "$f" >"$out/$key.explain-json" 2>&1; echo "rc=$?" >>"$out/$key.explain-json"
    "$bin" report -o "$out/$key.report.html" "$f" >"$out/$key.report.err" 2>&1; echo "rc=$?" >>"$out/$key.report.err"
    "$bin" snapshot "$f" >"$out/$key.snapshot" 2>&1; echo "rc=$?" >>"$out/$key.snapshot"
    "$bin" diff --color never "$f" "$f" >"$out/$key.diff-self" 2>&1; echo "rc=$?" >>"$out/$key.diff-self"
    "$bin" redact "$f" >"$out/$key.redact" 2>&1; echo "rc=$?" >>"$out/$key.redact"
    "$bin" redact --slim "$f" >"$out/$key.redact-slim" 2>&1; echo "rc=$?" >>"$out/$key.redact-slim"
  fi
  n=$((n+1))
done < <(find "$root/testdata" -path "$root/testdata/pending" -prune -o -type f \( -name '*.ndjson' -o -name '*.sse' -o -name '*.jsonl' \) -print | sort)
# multi-file runs (resumed threads)
for d in "$root"/testdata/recordings/*/; do
  set -- "$d"*__1_*.ndjson
  [ -e "$1" ] || continue
  "$bin" convert --to ndjson "$d"*__1_*.ndjson "$d"*__2_*.ndjson >"$out/multi__$(basename "$d").ndjson" 2>"$out/multi__$(basename "$d").err"
  if [ -n "${GOLDEN_ALL:-}" ]; then
    k="multi__$(basename "$d")"
    "$bin" diff --color never --old "$d"*__1_*.ndjson --new "$d"*__2_*.ndjson >"$out/$k.diff" 2>&1; echo "rc=$?" >>"$out/$k.diff"
    "$bin" diff --format json --old "$d"*__1_*.ndjson --new "$d"*__2_*.ndjson >"$out/$k.diff-json" 2>&1; echo "rc=$?" >>"$out/$k.diff-json"
    "$bin" timeline --color never --width 0 "$d"*__1_*.ndjson "$d"*__2_*.ndjson >"$out/$k.timeline" 2>&1; echo "rc=$?" >>"$out/$k.timeline"
    "$bin" explain --format json "$d"*__1_*.ndjson "$d"*__2_*.ndjson >"$out/$k.explain-json" 2>&1; echo "rc=$?" >>"$out/$k.explain-json"
  fi
done
# every file at once, sequential and parallel check
(cd "$root/testdata" && find . -path ./pending -prune -o -type f \( -name '*.ndjson' -o -name '*.sse' \) -print | sort | xargs "$bin" check --format text -j 1) >"$out/all.check.j1" 2>&1
(cd "$root/testdata" && find . -path ./pending -prune -o -type f \( -name '*.ndjson' -o -name '*.sse' \) -print | sort | xargs "$bin" check --format text) >"$out/all.check" 2>&1
echo "$n inputs converted into $out"
