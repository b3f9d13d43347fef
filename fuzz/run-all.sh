#!/usr/bin/env bash
# Runs every target in turn for SECONDS each (default 600), niced, in-process (its output in logs/<target>.log); exits 1
# when a target stopped before its time (a crash, a broken invariant, a timeout or an OOM:
# artifacts/<target>/ holds the input, logs/<target>.log the message), so CI can run it briefly:
#
#   fuzz/run-all.sh 30                # every target 30 s (CI smoke run)
#   fuzz/run-all.sh 600               # every target 10 min
#   fuzz/run-all.sh 300 mapper framing
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); the stable toolchain's nightly flags are
# unlocked with RUSTC_BOOTSTRAP=1.
set -uo pipefail
cd "$(dirname "$0")"
secs="${1:-600}"; shift || true
targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=(framing adapter_v2 adapter_v3 adapter_sse agui_passthrough mapper checker)
./seed.sh
mkdir -p logs
stopped=()
for t in "${targets[@]}"; do
  echo "== $t ($secs s)"
  RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz run -O "$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    >"logs/$t.log" 2>&1
  code=$?
  echo "exit $code — $(grep -E '^#[0-9]+.*(DONE|pulse)' "logs/$t.log" | tail -1)"
  if [ "$code" -ne 0 ]; then
    stopped+=("$t")
    grep -m1 -E 'panicked|ERROR: libFuzzer|SUMMARY' "logs/$t.log" || true
    ls artifacts/"$t" 2>/dev/null
  fi
done
if [ ${#stopped[@]} -gt 0 ]; then
  echo "stopped: ${stopped[*]}"
  exit 1
fi
echo "every target ran $secs s without stopping"
