#!/usr/bin/env bash
# Seeds each target's corpus from testdata (check cases, the bad corpus). Run from fuzz/.
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
