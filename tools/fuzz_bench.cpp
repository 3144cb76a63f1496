// Fuzz throughput benchmark: campaign runs per second on one core of the small scenario of
// issue 8 (tools/testdata/fuzz-small.json: a hash router with 4 routes, 100 messages and 4
// calls, every kind of random fault). Target: at least 5,000 runs per second per core.
// One run is what `routesim fuzz --jobs 1` does per seed: run_scenario with the fuzz settings
// (random schedule, aimed faults, coverage, every invariant monitor), sharing the campaign's
// message cache and monitor kit (NoCache: each run builds its own). `items_per_second` is
// runs per second. BM_FuzzBenchFileRandom runs the file the end-to-end target of issue 24 is
// set on instead (../shared/bench/fuzz-small.json, "perf-fuzz-small": 100 messages and 20
// calls over 100 ms, about 1,030 events and 1.4x the instructions of a run of the file above),
// so that it and `routesim fuzz` on that file measure the same runs.
#include <benchmark/benchmark.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/assert.hpp"
#include "tools/fuzz.hpp"

namespace routesim::tools {
namespace {

const std::string small_file = std::string(ROUTESIM_SOURCE_DIR) + "/tools/testdata/fuzz-small.json";
/// The end-to-end benchmark's file, beside the source tree (absent: that benchmark skips).
const std::string bench_file =
    std::string(ROUTESIM_SOURCE_DIR) + "/../shared/bench/fuzz-small.json";

/// The scenario in `path`, or nothing when the file cannot be read.
std::optional<scenarios::Scenario> load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        return std::nullopt;
    }
    auto loaded = scenarios::load_scenario_text(text.str(), path);
    RS_ASSERT(loaded.has_value());
    return std::move(loaded).value();
}

void run_campaign_runs(benchmark::State& state, sim::Policy scheduler, bool shared_cache,
                       const std::string& path = small_file) {
    const std::optional<scenarios::Scenario> loaded = load(path);
    if (!loaded.has_value()) {
        state.SkipWithError((path + ": cannot read the file").c_str());
        return;
    }
    const scenarios::Scenario& scenario = *loaded;
    scenarios::MessageCache cache(scenario);
    scenarios::MonitorKit monitors;
    std::uint64_t index = 0;
    std::uint64_t events = 0;
    for (auto _ : state) {
        scenarios::RunSettings settings =
            fuzz_settings(run_seed(1, index++), scheduler, std::nullopt);
        settings.cache = shared_cache ? &cache : nullptr;
        settings.monitors = shared_cache ? &monitors : nullptr;
        settings.summarise_passing = !shared_cache; // as a campaign's runs (run_slice)
        const scenarios::RunResult result = scenarios::run_scenario(scenario, settings);
        events += result.trace_events;
        benchmark::DoNotOptimize(result.trace_hash);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    state.counters["trace_events_per_run"] = benchmark::Counter(
        static_cast<double>(events) / static_cast<double>(std::max<std::uint64_t>(1, index)));
}

void BM_FuzzSmallRandom(benchmark::State& state) {
    run_campaign_runs(state, sim::Policy::Random, true);
}
void BM_FuzzSmallPct(benchmark::State& state) {
    run_campaign_runs(state, sim::Policy::Pct, true);
}
void BM_FuzzSmallRandomNoCache(benchmark::State& state) {
    run_campaign_runs(state, sim::Policy::Random, false);
}
void BM_FuzzBenchFileRandom(benchmark::State& state) {
    run_campaign_runs(state, sim::Policy::Random, true, bench_file);
}
BENCHMARK(BM_FuzzSmallRandom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FuzzSmallPct)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FuzzSmallRandomNoCache)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FuzzBenchFileRandom)->Unit(benchmark::kMicrosecond);

} // namespace
} // namespace routesim::tools

BENCHMARK_MAIN();
