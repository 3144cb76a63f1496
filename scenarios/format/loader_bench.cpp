// Benchmarks: loading (parse + validate) and loading then building (the runtime topology spawned
// on a fresh Node, up to the point it runs) of generated 10,000-node scenarios
// (loader_big.hpp). Issue 7's target: well under a second each.
// Run: build-dir/scenarios/routesim_loader_bench
#include <benchmark/benchmark.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/format/loader_big.hpp"
#include "scenarios/fuzz/build_probe.hpp"

namespace routesim::scenarios {
namespace {

big::Generated generated(std::int64_t which) {
    switch (which) {
    case 0:
        return big::tree();
    case 1:
        return big::flat();
    default:
        return big::flat_router();
    }
}

const char* label(std::int64_t which) {
    switch (which) {
    case 0:
        return "tree: supervisor of 100 routers x 50 pool routes (repeat)";
    case 1:
        return "flat: supervisor of 9999 actors (written out)";
    default:
        return "flat router: 9999 routes (written out)";
    }
}

void BM_LoadValidate(benchmark::State& state) {
    const big::Generated input = generated(state.range(0));
    for (auto _ : state) {
        auto loaded = load_scenario_text(input.text, "big.json");
        if (!loaded) {
            state.SkipWithError(loaded.error().to_string().c_str());
            return;
        }
        benchmark::DoNotOptimize(loaded);
    }
    state.SetLabel(label(state.range(0)));
    state.counters["nodes"] = static_cast<double>(input.nodes);
    state.counters["bytes"] = static_cast<double>(input.text.size());
}

void BM_LoadBuild(benchmark::State& state) {
    const big::Generated input = generated(state.range(0));
    for (auto _ : state) {
        auto loaded = load_scenario_text(input.text, "big.json");
        if (!loaded) {
            state.SkipWithError(loaded.error().to_string().c_str());
            return;
        }
        const probe::Built built = probe::build(loaded.value());
        benchmark::DoNotOptimize(built.processes);
    }
    state.SetLabel(label(state.range(0)));
    state.counters["nodes"] = static_cast<double>(input.nodes);
    state.counters["processes"] = static_cast<double>(input.processes);
}

void BM_BuildOnly(benchmark::State& state) {
    const big::Generated input = generated(state.range(0));
    auto loaded = load_scenario_text(input.text, "big.json");
    if (!loaded) {
        state.SkipWithError(loaded.error().to_string().c_str());
        return;
    }
    for (auto _ : state) {
        const probe::Built built = probe::build(loaded.value());
        benchmark::DoNotOptimize(built.processes);
    }
    state.SetLabel(label(state.range(0)));
    state.counters["processes"] = static_cast<double>(input.processes);
}

BENCHMARK(BM_LoadValidate)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadBuild)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildOnly)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace routesim::scenarios

BENCHMARK_MAIN();
