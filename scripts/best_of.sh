# Sourced by the bench_*.sh scripts: `best_of BIN CMD FILE [ARG...]` runs `BIN CMD FILE ARG...` $repeat times
# (each stopped after $limit seconds) under /usr/bin/time and prints one row: CMD, $n, the
# least wall time in seconds and the least peak RSS in MiB (">$limit" and "-" on a timeout).
# Needs $dir, $repeat, $limit and $n set by the caller.
best_of() {
    local bin=$1 cmd=$2 f=$3 best_wall="" best_rss="" out wall rss
    for _ in $(seq 1 "$repeat"); do
        /usr/bin/time -v -o "$dir/time.txt" timeout "$limit" "$bin" "$cmd" "$f" "${@:4}" > /dev/null 2>&1 || true
        out=$(cat "$dir/time.txt")
        if echo "$out" | grep -q 'Exit status: 124\|Command terminated by signal'; then
            best_wall=">$limit"; best_rss="-"; break
        fi
        wall=$(echo "$out" | awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}')
        rss=$(echo "$out" | awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}')
        if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
        if [ -z "$best_rss" ] || awk "BEGIN{exit !($rss < $best_rss)}"; then best_rss=$rss; fi
    done
    printf '%-10s %9s %10s %10s\n' "$cmd" "$n" "$best_wall" "$best_rss"
}
