// Goal: on generated scenarios (random trees of routers, pools, supervisors and actors, with
// routing rules, workloads, timelines and fault mixes), every invariant holds under random
// and PCT schedules with the fuzzer's aimed faults, runs stay within their limits, and a run
// is a pure function of (scenario, seed).
// Method: rapidcheck draws a scenario document (swarm testing: each case turns a random
// subset of features and faults on), loads it through the loader as a file would be, and
// runs it with the fuzzer's settings; a failure prints the document and the violation. The
// generator and the check are the library's (tools/testing/swarm.hpp: users run the same on
// trees of their own behaviours).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "tools/fuzz.hpp"
#include "tools/testing/swarm.hpp"

namespace routesim::tools {
namespace {

using nlohmann::json;

RC_GTEST_PROP(SwarmProps, InvariantsHoldUnderAimedFaultsAndRandomSchedules, ()) {
    testing::check_invariants(testing::draw_swarm_scenario());
}

RC_GTEST_PROP(SwarmProps, SameScenarioAndSeedGiveTheSameTrace, ()) {
    const json document = testing::draw_swarm_scenario();
    const auto scenario = scenarios::load_scenario_text(document.dump(), "swarm.json");
    RC_ASSERT(scenario.has_value());
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const auto settings = fuzz_settings(seed, sim::Policy::Random, std::nullopt);
    const scenarios::RunResult first = scenarios::run_scenario(scenario.value(), settings);
    const scenarios::RunResult second = scenarios::run_scenario(scenario.value(), settings);
    RC_ASSERT(first.trace_hash == second.trace_hash);
    RC_ASSERT(first.decisions == second.decisions);
    RC_ASSERT(first.faults.size() == second.faults.size());
}

} // namespace
} // namespace routesim::tools
