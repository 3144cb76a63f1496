// Goal: the kernel demo is a pure function of its options, and its decision log replays it.
// Method: run it twice per policy, then replay the recorded decisions.
#include "tools/demo.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace routesim::tools {
namespace {

DemoOptions options_for(sim::Policy policy, std::uint64_t seed) {
    DemoOptions options;
    options.seed = seed;
    options.scheduler.policy = policy;
    return options;
}

TEST(Demo, SameSeedSameHashUnderEveryPolicy) {
    for (sim::Policy policy : {sim::Policy::Fifo, sim::Policy::Random, sim::Policy::Pct}) {
        const DemoResult first = run_demo(options_for(policy, 9));
        const DemoResult second = run_demo(options_for(policy, 9));
        EXPECT_EQ(first.trace_hash, second.trace_hash) << sim::policy_name(policy);
        EXPECT_EQ(first.hops, 64U * 32U);
        EXPECT_EQ(first.outcome.reason, sim::StopReason::Idle);
    }
}

TEST(Demo, ReplayingTheDecisionLogReproducesARandomRun) {
    const DemoResult original = run_demo(options_for(sim::Policy::Random, 5));
    ASSERT_FALSE(original.decisions.empty());
    DemoOptions replay = options_for(sim::Policy::Replay, 5);
    replay.scheduler.replay = original.decisions;
    const DemoResult replayed = run_demo(replay);
    EXPECT_EQ(replayed.trace_hash, original.trace_hash);
    EXPECT_EQ(replayed.decisions, original.decisions);
}

TEST(Demo, JsonlTraceHasOneLinePerEvent) {
    std::ostringstream out;
    DemoOptions options = options_for(sim::Policy::Fifo, 3);
    options.token_count = 4;
    options.hops_per_token = 3;
    options.trace_out = &out;
    const DemoResult result = run_demo(options);
    const std::string text = out.str();
    const auto lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
    EXPECT_EQ(lines, result.trace_events);
    EXPECT_EQ(text.rfind("{\"seq\":0,\"t\":0,\"kind\":\"hop\"", 0), 0U);
}

} // namespace
} // namespace routesim::tools
