#!/usr/bin/env bash
# Instructions per unit of work, from callgrind (repeatable where wall clock is not): per
# delivery (ping_pong), per routed message (16-route hash router) and per fuzz run (small
# scenario). Only the benchmark's own function is counted (--toggle-collect), then divided by
# the work it did (iterations x messages); a fuzz run is run_scenario's inclusive cost per call
# in a fixed CLI campaign.  tools/callgrind_ir.sh [BIN_DIR]  (default build)
set -eu
bin=${1:-build}
find_bin() { # the executable in BIN_DIR, BIN_DIR/runtime or BIN_DIR/tools
    local d
    for d in "$bin" "$bin/runtime" "$bin/tools"; do
        [ -x "$d/$1" ] && { echo "$d/$1"; return; }
    done
    echo "callgrind_ir.sh: $1 not found under $bin" >&2; exit 2
}
measure() { # label binary filter function units_per_iteration
    local label=$1 exe=$2 filter=$3 fn=$4 per=$5 out
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out.cg" --toggle-collect="$fn" \
        "$exe" --benchmark_filter="$filter" --benchmark_min_time=0.01 >"$out" 2>"$out.err"
    local iters ir
    iters=$(grep -E "^${filter%\$}[/ ]" "$out" | awk '{print $6}' | head -1)
    ir=$(callgrind_annotate "$out.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1; exit}')
    awk -v l="$label" -v ir="$ir" -v it="$iters" -v per="$per" \
        'BEGIN { printf "%-28s %12.1f Ir per unit (%d iterations, %d Ir)\n", l, ir/(it*per), it, ir }'
    rm -f "$out" "$out.cg" "$out.err"
}
measure "delivery (ping_pong)" "$(find_bin routesim_runtime_bench)" 'ping_pong' '*ping_pong*' $((1 << 20))
measure "routed msg (16 routes)" "$(find_bin routesim_router_bench)" 'BM_RouterHashRoutedHashOnly' \
    '*BM_RouterHashRoutedHashOnly*' $((1 << 20))
# A fuzz run: the inclusive cost of run_scenario over its calls, in a fixed campaign of the CLI
# (200 runs of tools/testdata/fuzz-small.json, seed 3, one process), so that two builds run
# exactly the same runs.
fuzz_run() {
    local out root
    out=$(mktemp -d)
    root=$(cd "$(dirname "$0")/.." && pwd)
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$(find_bin routesim)" fuzz \
        "$root/tools/testdata/fuzz-small.json" --runs 200 --seed 3 --jobs 1 --out "$out/fuzz" \
        >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out/cg" 2>/dev/null |
        awk '/=> .*scenarios::run_scenario\(/ { gsub(",", "", $1); n = $NF; gsub(/[(x)]/, "", n);
             printf "%-28s %12.1f Ir per unit (%d runs, %d Ir)\n", "fuzz run (small, CLI)", $1 / n, n, $1;
             exit }'
    rm -rf "$out"
}
fuzz_run
