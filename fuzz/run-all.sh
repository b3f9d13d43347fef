#!/usr/bin/env bash
# Runs every target in turn for SECONDS each (default 600), niced, one job, one worker.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET…]
set -uo pipefail
cd "$(dirname "$0")"
secs="${1:-600}"; shift || true
targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=(framing adapter_v2 adapter_v3 adapter_sse agui_passthrough mapper checker)
./seed.sh
mkdir -p logs
for t in "${targets[@]}"; do
  echo "== $t ($secs s)"
  RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz run -O "$t" -- \
    -max_total_time="$secs" -jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    >"logs/$t.log" 2>&1
  echo "exit $? — $(grep -E '^#[0-9]+.*(DONE|pulse)' "logs/$t.log" | tail -1)"
  ls artifacts/"$t" 2>/dev/null
done
