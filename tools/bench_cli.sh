#!/usr/bin/env bash
# End-to-end benchmarks of the user's path (issue 24): the routesim CLI on a scenario file, timed
# as a whole command, next to its peer in the same round. Wall-clock timing is this script's
# job only; nothing it measures reaches a trace.
#
# Usage: bash tools/bench_cli.sh [ROUNDS] (default 10). Environment:
#   ROUTESIM     the CLI (default build/tools/routesim)
#   BENCH_DIR    where router16.json and fuzz-small.json are (default ../shared/bench)
#   CAF_SOURCE   the CAF peer's source (default $BENCH_DIR/caf_router_bench.cpp); built with
#                -lcaf_core when libcaf-dev is installed, skipped otherwise
#   FUZZ_BENCH   the in-process fuzz bench (default build/tools/routesim_fuzz_bench); it runs
#                BM_FuzzBenchFileRandom, the same file as the fuzz commands (the bench reads
#                it from ../shared/bench beside its source tree)
#   CPU          pin every command but `fuzz --jobs 2` to this CPU with taskset (default 1;
#                empty: no pinning)
# Prints one line per round and command, then min/median/max of each figure.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-10}
routesim=${ROUTESIM:-build/tools/routesim}
bench_dir=${BENCH_DIR:-../shared/bench}
caf_source=${CAF_SOURCE:-$bench_dir/caf_router_bench.cpp}
fuzz_bench=${FUZZ_BENCH:-build/tools/routesim_fuzz_bench}
cpu=${CPU-1}
router16=$bench_dir/router16.json
fuzz_small=$bench_dir/fuzz-small.json
messages=2000000
fuzz_runs=20000

for needed in "$routesim" "$router16" "$fuzz_small"; do
    if [ ! -e "$needed" ]; then
        echo "bench_cli.sh: $needed not found" >&2
        exit 2
    fi
done
pin=()
if [ -n "$cpu" ] && command -v taskset >/dev/null 2>&1; then
    pin=(taskset -c "$cpu")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

caf=""
if [ -f "$caf_source" ] && [ -f /usr/include/caf/all.hpp ]; then
    caf=$work/caf_router_bench
    g++ -std=c++17 -O2 -o "$caf" "$caf_source" -lcaf_core -pthread
else
    echo "bench_cli.sh: CAF peer skipped (needs $caf_source and libcaf-dev)" >&2
fi

# microseconds and peak RSS in KiB of one command, pinned: "<micros> <kib>"
timed() {
    timed_on "${pin[@]}" "$@"
}

# the same with the CPUs given (nothing: every CPU, for --jobs 2)
timed_on() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$work/rss" "$@" >"$work/out" 2>"$work/err" || {
        echo "bench_cli.sh: failed: $*" >&2
        cat "$work/err" >&2
        exit 1
    }
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $(tail -n 1 "$work/rss")"
}

rate() { # count microseconds -> count per second
    echo $(( $1 * 1000000 / $2 ))
}

declare -a run_rates run_rss caf_rates ratios fuzz1 fuzz2 fuzz_scaling bench_rates
for round in $(seq 1 "$rounds"); do
    read -r micros rss < <(timed "$routesim" run "$router16")
    run_rates+=("$(rate $messages "$micros")")
    run_rss+=("$rss")
    line="round $round: run ${run_rates[-1]} msgs/s, ${rss} KiB"
    if [ -n "$caf" ]; then
        "${pin[@]}" "$caf" "$messages" >"$work/caf"
        caf_rate=$(sed -n 's/^caf msgs\/s: \([0-9]*\).*/\1/p' "$work/caf")
        caf_rates+=("$caf_rate")
        ratios+=("$(( run_rates[-1] * 100 / caf_rate ))")
        line+="; caf $caf_rate msgs/s; run/caf x$(( ratios[-1] / 100 )).$(printf %02d $(( ratios[-1] % 100 )))"
    fi
    read -r micros _ < <(timed "$routesim" fuzz "$fuzz_small" --runs $fuzz_runs --jobs 1 --out "$work/fuzz1")
    fuzz1+=("$(rate $fuzz_runs "$micros")")
    read -r micros _ < <(timed_on "$routesim" fuzz "$fuzz_small" --runs $fuzz_runs --jobs 2 --out "$work/fuzz2")
    fuzz2+=("$(rate $fuzz_runs "$micros")")
    fuzz_scaling+=("$(( fuzz2[-1] * 100 / fuzz1[-1] ))")
    line+="; fuzz --jobs 1 ${fuzz1[-1]} runs/s, --jobs 2 ${fuzz2[-1]} runs/s"
    if [ -x "$fuzz_bench" ]; then
        "${pin[@]}" "$fuzz_bench" --benchmark_filter='BM_FuzzBenchFileRandom$' \
            --benchmark_format=json >"$work/bench" 2>/dev/null || true
        bench_rate=$(python3 -c 'import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
print(int(runs[0]["items_per_second"]) if runs else "")' "$work/bench" 2>/dev/null || true)
        if [ -n "$bench_rate" ]; then
            bench_rates+=("$bench_rate")
            line+="; fuzz bench $bench_rate runs/s"
        fi
    fi
    echo "$line"
done

summary() { # name values...
    local name=$1
    shift
    if [ $# -eq 0 ]; then
        return
    fi
    sorted=($(printf '%s\n' "$@" | sort -n))
    local count=${#sorted[@]}
    echo "$name: min ${sorted[0]}, median ${sorted[$((count / 2))]}, max ${sorted[$((count - 1))]} ($count rounds)"
}
summary "run router16 msgs/s" "${run_rates[@]}"
summary "run router16 peak KiB" "${run_rss[@]}"
summary "caf msgs/s" "${caf_rates[@]+"${caf_rates[@]}"}"
summary "run/caf x100" "${ratios[@]+"${ratios[@]}"}"
summary "fuzz --jobs 1 runs/s" "${fuzz1[@]}"
summary "fuzz --jobs 2 runs/s" "${fuzz2[@]}"
summary "fuzz jobs2/jobs1 x100" "${fuzz_scaling[@]}"
summary "fuzz bench runs/s" "${bench_rates[@]+"${bench_rates[@]}"}"
