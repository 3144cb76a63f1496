#!/usr/bin/env bash
# Memory scaling of `routesim run` (issue 24): peak RSS and wall time of router16 (one client
# sends N keyed messages in one burst through a 16-route hash router) for growing N, with the
# default invariants and with `"invariants": []`. Wall-clock timing is this script's job only.
#
# Usage: bash tools/bench_memory.sh [MAX_EXPONENT] (default 6: N = 10^4 .. 10^6; 7 adds 10^7).
# Environment:
#   ROUTESIM   the CLI (default build/tools/routesim)
#   BENCH_DIR  where router16.json is (default ../shared/bench)
#   ROUNDS     repetitions per N (default 1); wall and peak are the medians
#   CPU        pin every run to this CPU with taskset (default 1; empty: no pinning)
# Prints per mode one line per N: N, wall s, peak MB and bytes/msg, the slope of peak RSS
# from the previous N (for the first N, from N = 0 measured as a run of one message).
set -euo pipefail
cd "$(dirname "$0")/.."

max_exponent=${1:-6}
routesim=${ROUTESIM:-build/tools/routesim}
bench_dir=${BENCH_DIR:-../shared/bench}
rounds=${ROUNDS:-1}
cpu=${CPU-1}
router16=$bench_dir/router16.json

case $max_exponent in
4 | 5 | 6 | 7) ;;
*)
    echo "bench_memory.sh: MAX_EXPONENT: expected 4..7, got \"$max_exponent\"" >&2
    exit 2
    ;;
esac
for needed in "$routesim" "$router16"; do
    if [ ! -e "$needed" ]; then
        echo "bench_memory.sh: $needed not found" >&2
        exit 2
    fi
done
pin=()
if [ -n "$cpu" ] && command -v taskset >/dev/null 2>&1; then
    pin=(taskset -c "$cpu")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# variant COUNT MONITORS(default|none) -> path of router16 with COUNT messages
variant() {
    local count=$1 monitors=$2 out="$work/router16-$1-$2.json"
    python3 - "$router16" "$out" "$count" "$monitors" <<'EOF'
import json, sys
source, out, count, monitors = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
scenario = json.load(open(source))
scenario["workload"][0]["count"] = count
# a message is about four events (send, delivery, forward, delivery): keep clear of the limit
scenario["run"]["max_events"] = max(10000000, 8 * count + 1000)
expect = scenario.setdefault("expect", {})
expect["inspect"] = {"r": {"ergo:forwarded": str(count)}}
if monitors == "none":
    expect["invariants"] = []
json.dump(scenario, open(out, "w"))
EOF
    echo "$out"
}

# one run: "<seconds> <peak KiB>"
timed() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$work/rss" "${pin[@]}" "$routesim" run "$1" \
        >"$work/out" 2>"$work/err" || {
        echo "bench_memory.sh: failed: $routesim run $1" >&2
        cat "$work/out" "$work/err" >&2
        exit 1
    }
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) $(tail -n 1 "$work/rss")"
}

median() { # values... -> the median (lower middle)
    local sorted
    sorted=($(printf '%s\n' "$@" | sort -n))
    echo "${sorted[$(( (${#sorted[@]} - 1) / 2 ))]}"
}

# measure COUNT MONITORS -> "<median ms> <median peak KiB>"
measure() {
    local file ms=() kib=() round m k
    file=$(variant "$1" "$2")
    for round in $(seq 1 "$rounds"); do
        read -r m k < <(timed "$file")
        ms+=("$m")
        kib+=("$k")
    done
    echo "$(median "${ms[@]}") $(median "${kib[@]}")"
}

for monitors in default none; do
    echo "invariants: $monitors (rounds: $rounds)"
    printf '%10s %9s %10s %10s\n' N "wall s" "peak MB" "bytes/msg"
    read -r _ previous_kib < <(measure 1 "$monitors")
    previous_count=1
    for exponent in $(seq 4 "$max_exponent"); do
        count=$((10 ** exponent))
        read -r ms kib < <(measure "$count" "$monitors")
        slope=$(( (kib - previous_kib) * 1024 / (count - previous_count) ))
        seconds=$(awk -v m="$ms" 'BEGIN { printf "%.2f", m / 1000 }')
        megabytes=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
        printf '%10d %9s %10s %10d\n' "$count" "$seconds" "$megabytes" "$slope"
        previous_kib=$kib
        previous_count=$count
    done
done
