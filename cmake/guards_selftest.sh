#!/usr/bin/env bash
# Shows that the guard tests can fail: copies the tree's layer folders to a scratch directory,
# plants one violation at a time, and expects the guard to reject it (and to pass before).
set -euo pipefail
cmake_bin=$1
root=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

fresh_copy() {
    rm -rf "$scratch/tree"
    mkdir -p "$scratch/tree"
    for d in sim runtime properties scenarios reports tools; do
        [ -d "$root/$d" ] && cp -r "$root/$d" "$scratch/tree/$d"
    done
}

expect() { # expect pass|fail guard description
    local want=$1 guard=$2 what=$3
    if "$cmake_bin" -DROOT="$scratch/tree" -P "$root/cmake/$guard.cmake" >"$scratch/out" 2>&1; then
        got=pass
    else
        got=fail
    fi
    if [ "$got" != "$want" ]; then
        echo "guard $guard should $want on: $what"
        cat "$scratch/out"
        exit 1
    fi
    echo "ok: $guard ${want}s on: $what"
}

fresh_copy
expect pass layering "the clean tree"
expect pass determinism_lint "the clean tree"

fresh_copy
printf '#include "runtime/node.hpp"\n' >> "$scratch/tree/sim/time.hpp"
expect fail layering "sim/ including runtime/"

fresh_copy
printf '#include "tools/demo.hpp"\n' > "$scratch/tree/scenarios/planted.cpp"
expect fail layering "scenarios/ including tools/"

fresh_copy
printf '#include "scenarios/run/runner.hpp"\n' > "$scratch/tree/scenarios/format/planted.cpp"
expect fail layering "scenarios/format/ including scenarios/run/"

fresh_copy
printf '#include "scenarios/run/runner.hpp"\n' > "$scratch/tree/scenarios/format/planted_test.cpp"
expect pass layering "a format test including scenarios/run/"

fresh_copy
printf '#include "scenarios/x.hpp"\n' > "$scratch/tree/properties/planted_props.cpp"
expect pass layering "a property suite including a later layer"

declare -a planted=(
    'auto t = std::chrono::steady_clock::now();'
    'std::random_device device;'
    'int r = rand();'
    'std::uniform_int_distribution<int> d(0, 9);'
    '#include <thread>'
    'std::atomic<int> counter;'
    'std::mutex lock;'
    'const char* home = getenv("HOME");'
    'std::mt19937 engine(1);'
)
for line in "${planted[@]}"; do
    for folder in sim runtime; do
        fresh_copy
        printf '%s\n' "$line" > "$scratch/tree/$folder/planted.cpp"
        expect fail determinism_lint "$folder/: $line"
    done
done
fresh_copy
printf 'std::random_device device;\n' > "$scratch/tree/scenarios/planted.cpp"
expect fail determinism_lint "scenarios/: random_device"
fresh_copy
printf '// a comment may say std::random_device\nint operand(int x);\n' > "$scratch/tree/sim/planted.cpp"
expect pass determinism_lint "comments and words containing rand"
