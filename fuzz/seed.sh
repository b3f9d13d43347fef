#!/usr/bin/env bash
# Seeds each target's corpus from testdata (check cases, the bad corpus, recordings). Run from
# fuzz/.
set -euo pipefail
cd "$(dirname "$0")"
for t in framing adapter_v2 adapter_v3 adapter_sse agui_passthrough; do
  mkdir -p "corpus/$t"
  for f in ../testdata/check/*.ndjson ../testdata/bad/*; do
    case "$f" in *.expected|*/.gitattributes) continue ;; esac
    cp "$f" "corpus/$t/$(basename "$f")"
  done
done
mkdir -p corpus/mapper
# The checker: AG-UI check cases and captures, LangGraph recordings (every adapter's input), the
# bad corpus. Files over the 64 KiB -max_len would only be cut, so they are left out.
mkdir -p corpus/checker
for f in ../testdata/check/*.ndjson ../testdata/check/*.sse ../testdata/bad/* $(find ../testdata/recordings -type f); do
  case "$f" in *.expected|*.expected.*|*/.gitattributes|*/README*) continue ;; esac
  [ -f "$f" ] && [ "$(wc -c <"$f")" -le 65536 ] || continue
  cp "$f" "corpus/checker/$(basename "$(dirname "$f")")-$(basename "$f")"
done
