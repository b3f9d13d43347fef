#!/usr/bin/env bash
# Peak memory per line and per stream (issue 26 items 8, 9, 11), as /usr/bin/time -v's peak RSS
# of the release build, with the wall time:
#
#   custom  one v3 line of a custom payload `[0,0,…]` of CUSTOM_MB megabytes (convert, check)
#   frame   one SSE frame of 1 KB `data:` lines, FRAME_MB megabytes in all, between two small
#           frames (convert; it is over --max-line-bytes and skipped)
#   ids     a v3 run of N distinct text messages (start, delta, finish), for N in IDS
#           (convert, check, timeline)
#   runs    N AG-UI runs of one text message each, every tenth ending in RUN_ERROR, for N in
#           RUNS (every command: convert, check, timeline, explain, report, snapshot, diff of
#           the file against itself); the time must grow linearly with N (issue 41 item 1)
#   long    one line of LONG_MB megabytes in each of three shapes, beside a small run: a v3
#           custom event whose payload is `[0,0,…]`, a v3 state (`values`) with a message of
#           that much text, an AG-UI TOOL_CALL_ARGS delta of that much text (every command;
#           diff compares the file with itself): each within a small multiple of the line
#           (issue 41 item 3)
#   many    one AG-UI run of N tool calls that are never answered, then N empty AG-UI runs,
#           for N in MANY (every command; diff compares the file with itself): what each
#           command keeps per item (issue 41 item 4)
#   files   N files of one AG-UI run each, for N in FILES, under `ulimit -n 256` (every
#           command; diff compares the files with themselves): memory flat in the file count,
#           each file opened when it is reached (issue 41 item 5)
#
# Columns: wall and CPU (user + system) seconds, peak RSS; a command that failed is marked
# with its exit code.
#
#   scripts/bench_memory.sh                              # target/release/aguify
#   BIN=/path/to/old/aguify scripts/bench_memory.sh      # another build
#   CASES="custom ids" IDS="1000000" scripts/bench_memory.sh
#   CASES=runs RUNS="10000 30000 100000" scripts/bench_memory.sh
#   CASES=files FILES="1000 10000" scripts/bench_memory.sh
#   CASES=long LONG_MB=60 scripts/bench_memory.sh
#   CASES=many MANY="100000 1000000" scripts/bench_memory.sh
#
# The custom line and the runs are written to $AGUIFY_BENCH_DIR (default /tmp/aguify-bench)
# and deleted after (3M messages: 1.4 GB); the frame is generated into a pipe.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/target/release/aguify}
dir=${AGUIFY_BENCH_DIR:-/tmp/aguify-bench}
cases=${CASES:-"custom frame ids"}
custom_mb=${CUSTOM_MB:-60}
frame_mb=${FRAME_MB:-2048}
ids=${IDS:-"1000000 3000000"}
runs=${RUNS:-"10000 30000 100000"}
nfiles=${FILES:-"1000 10000"}
long_mb=${LONG_MB:-60}
many=${MANY:-"100000 1000000"}
mkdir -p "$dir"
times="$dir/memory-time.txt"

# measure LABEL SIZE CMD... — runs CMD (stdin as given) and prints one row.
measure() {
    local label=$1 size=$2
    shift 2
    local code=0
    /usr/bin/time -v -o "$times" "$@" > /dev/null 2> "$dir/memory-stderr.txt" || code=$?
    local wall cpu rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$times")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u+s}' "$times")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$times")
    # exit 1 is a verdict (check, explain, diff), not a failure
    [ "$code" -gt 1 ] && label="$label (exit $code)"
    printf '%-26s %12s %10s %10s %10s\n' "$label" "$size" "$wall" "$cpu" "$rss"
}

# A v3 run of $1 text messages on stdout.
messages() {
    awk -v n="$1" 'BEGIN {
        p = "{\"type\":\"event\",\"method\":\"messages\",\"params\":{\"namespace\":[],\"timestamp\":1,\"data\":"
        for (i = 1; i <= n; i++) {
            s = 3 * i
            print p "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"msg-" i "\"}},\"seq\":" s - 2 "}"
            print p "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"text-delta\",\"text\":\"x\"}}},\"seq\":" s - 1 "}"
            print p "{\"event\":\"message-finish\"}},\"seq\":" s "}"
        }
    }'
}

# $1 AG-UI runs of one text message each, every tenth ending in RUN_ERROR, on stdout.
agui_runs() {
    awk -v n="$1" 'BEGIN {
        for (i = 1; i <= n; i++) {
            r = "\"threadId\":\"t\",\"runId\":\"r" i "\""
            print "{\"type\":\"RUN_STARTED\"," r "}"
            print "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m" i "\",\"role\":\"assistant\"}"
            print "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m" i "\",\"delta\":\"hello\"}"
            print "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m" i "\"}"
            if (i % 10 == 0)
                print "{\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"x\"}"
            else
                print "{\"type\":\"RUN_FINISHED\"," r "}"
        }
    }'
}

# A small run with one line of $1 MB of shape $2 (custom, state, args) into file $3.
long_line() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
mb, shape, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
n = mb * 1024 * 1024
v3 = '{"type":"event","seq":%d,"method":"%s","params":{"namespace":[],"timestamp":1,"data":'
with open(path, "wb") as out:
    if shape == "args":
        out.write(b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')
        out.write(b'{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}\n')
        out.write(b'{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"' + b"x" * n + b'"}\n')
        out.write(b'{"type":"TOOL_CALL_END","toolCallId":"c1"}\n')
        out.write(b'{"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n')
    else:
        for seq, data in ((1, '{"event":"message-start","role":"ai","id":"m1"}'),
                          (2, '{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"hi"}}'),
                          (3, '{"event":"message-finish"}')):
            out.write((v3 % (seq, "messages") + data + "}}\n").encode())
        if shape == "custom":
            out.write((v3 % (4, "custom")).encode() + b"[" + b"0," * (n // 2) + b"0]}}\n")
        else:
            out.write((v3 % (4, "values")).encode()
                      + b'{"messages":[{"type":"ai","id":"m1","content":"hi"},'
                      + b'{"type":"human","id":"h2","content":"' + b"x" * n + b'"}]}}}\n')
EOF
}

# An SSE stream: a small frame, one frame of $1 MB of 1 KB `data:` lines, a small frame.
frame() {
    python3 - "$1" <<'EOF'
import sys
mb = int(sys.argv[1])
out = sys.stdout.buffer
small = b'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'
out.write(small)
line = b"data: " + b"0," * 509 + b"\n"
chunk = line * 1024
for _ in range(mb):
    out.write(chunk)
out.write(b'data: 0\n\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n')
EOF
}

printf '%-26s %12s %10s %10s %10s\n' case size wall_s cpu_s peak_MiB
for c in $cases; do
    case $c in
        custom)
            f="$dir/memory-custom.ndjson"
            python3 - "$custom_mb" "$f" <<'EOF'
import sys
mb, path = int(sys.argv[1]), sys.argv[2]
with open(path, "wb") as out:
    out.write(b'{"type":"event","seq":1,"method":"custom","params":{"namespace":[],"data":[')
    out.write(b"0," * (mb * 1024 * 1024 // 2))
    out.write(b"0]}}\n")
EOF
            for cmd in convert check; do
                measure "custom $cmd" "${custom_mb}MB" "$bin" "$cmd" "$f"
            done
            rm -f "$f"
            ;;
        frame)
            measure "frame convert" "${frame_mb}MB" bash -c "$(declare -f frame); frame $frame_mb | '$bin' convert -"
            grep -o 'SSE frame.*skipped' "$dir/memory-stderr.txt" | head -1 || true
            ;;
        ids)
            for n in $ids; do
                # A file: `check` reads stdin whole (docs/check.md), a file streamed.
                f="$dir/memory-ids-$n.ndjson"
                messages "$n" > "$f"
                for cmd in convert check timeline; do
                    measure "ids $cmd" "$n" "$bin" "$cmd" "$f"
                done
                rm -f "$f"
            done
            ;;
        runs)
            for n in $runs; do
                f="$dir/memory-runs-$n.ndjson"
                agui_runs "$n" > "$f"
                for cmd in convert check timeline explain report snapshot; do
                    measure "runs $cmd" "$n" "$bin" "$cmd" "$f"
                done
                measure "runs diff" "$n" "$bin" diff "$f" "$f"
                rm -f "$f"
            done
            ;;
        long)
            for shape in custom state args; do
                f="$dir/memory-long-$shape.ndjson"
                long_line "$long_mb" "$shape" "$f"
                for cmd in convert check timeline explain report snapshot; do
                    measure "long-$shape $cmd" "${long_mb}MB" "$bin" "$cmd" "$f"
                done
                measure "long-$shape diff" "${long_mb}MB" "$bin" diff "$f" "$f"
                rm -f "$f"
            done
            ;;
        many)
            for n in $many; do
                f="$dir/memory-calls-$n.ndjson"
                awk -v n="$n" 'BEGIN {
                    print "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}"
                    for (i = 1; i <= n; i++) {
                        print "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c" i "\",\"toolCallName\":\"f\"}"
                        print "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c" i "\"}"
                    }
                    print "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}"
                }' > "$f"
                for cmd in convert check timeline explain report snapshot; do
                    measure "calls $cmd" "$n" "$bin" "$cmd" "$f"
                done
                measure "calls diff" "$n" "$bin" diff "$f" "$f"
                awk -v n="$n" 'BEGIN {
                    for (i = 1; i <= n; i++) {
                        r = "\"threadId\":\"t\",\"runId\":\"r" i "\""
                        print "{\"type\":\"RUN_STARTED\"," r "}"
                        print "{\"type\":\"RUN_FINISHED\"," r "}"
                    }
                }' > "$f"
                for cmd in convert check timeline explain report snapshot; do
                    measure "empty-runs $cmd" "$n" "$bin" "$cmd" "$f"
                done
                measure "empty-runs diff" "$n" "$bin" diff "$f" "$f"
                rm -f "$f"
            done
            ;;
        files)
            for n in $nfiles; do
                d="$dir/memory-files-$n"
                mkdir -p "$d"
                awk -v n="$n" -v d="$d" 'BEGIN {
                    for (i = 1; i <= n; i++) {
                        f = sprintf("%s/f%06d.ndjson", d, i)
                        r = "\"threadId\":\"t\",\"runId\":\"r" i "\""
                        print "{\"type\":\"RUN_STARTED\"," r "}" > f
                        print "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m" i "\",\"role\":\"assistant\"}" > f
                        print "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m" i "\",\"delta\":\"hello\"}" > f
                        print "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m" i "\"}" > f
                        print "{\"type\":\"RUN_FINISHED\"," r "}" > f
                        close(f)
                    }
                }'
                for cmd in convert check timeline explain report snapshot; do
                    measure "files $cmd" "$n" bash -c "ulimit -n 256; exec '$bin' $cmd '$d'/*.ndjson"
                done
                measure "files diff" "$n" bash -c "ulimit -n 256; exec '$bin' diff --old '$d'/*.ndjson --new '$d'/*.ndjson"
                rm -rf "$d"
            done
            ;;
    esac
done
rm -f "$times" "$dir/memory-stderr.txt"
