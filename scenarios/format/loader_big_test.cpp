// Goal: a 10,000-node scenario loads, validates and builds correctly (the performance target of
// issue 7 is measured by loader_bench.cpp; no timing is asserted here).
// Method: generated scenarios (loader_big.hpp) are loaded; their expanded node count, paths
// and names are checked, then each is built on a fresh Node (fuzz/build_probe.hpp) and the
// live processes and registered names are counted against the generator's arithmetic.
#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/format/loader_big.hpp"
#include "scenarios/fuzz/build_probe.hpp"

namespace routesim::scenarios {
namespace {

Scenario load_generated(const big::Generated& generated) {
    auto loaded = load_scenario_text(generated.text, "big.json");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

TEST(LoaderBig, TreeOfRoutersAndPoolsLoadsAndBuilds) {
    const big::Generated generated = big::tree();
    ASSERT_GE(generated.nodes, 10'000U);
    const Scenario scenario = load_generated(generated);
    EXPECT_EQ(probe::count_nodes(scenario.topology), generated.nodes);
    ASSERT_EQ(scenario.topology.children.size(), 100U);
    const Node& last = scenario.topology.children.back();
    EXPECT_EQ(last.name, "router:99");
    EXPECT_EQ(last.path, "root/router:99");
    ASSERT_EQ(last.router.routes.size(), 50U);
    EXPECT_EQ(last.router.routes[49].name, "shard:49");
    EXPECT_EQ(last.children[49].kind, NodeKind::Pool);
    EXPECT_EQ(last.children[49].path, "root/router:99/shard:49");
    EXPECT_EQ(scenario.workload.size(), 100U);
    EXPECT_EQ(scenario.clients, std::vector<std::string>{"client"});

    const probe::Built built = probe::build(scenario);
    EXPECT_EQ(built.root_failure, "");
    EXPECT_EQ(built.processes, generated.processes + generated.clients);
    EXPECT_EQ(built.registered, generated.registered);
}

TEST(LoaderBig, FlatSupervisorLoadsAndBuilds) {
    const big::Generated generated = big::flat();
    ASSERT_GE(generated.nodes, 10'000U);
    const Scenario scenario = load_generated(generated);
    EXPECT_EQ(probe::count_nodes(scenario.topology), generated.nodes);
    ASSERT_EQ(scenario.topology.children.size(), 9'999U);
    EXPECT_EQ(scenario.topology.children[1234].name, "worker:1234");

    const probe::Built built = probe::build(scenario);
    EXPECT_EQ(built.root_failure, "");
    EXPECT_EQ(built.processes, generated.processes + generated.clients);
    EXPECT_EQ(built.registered, generated.registered);
}

TEST(LoaderBig, FlatRouterLoadsAndBuilds) {
    const big::Generated generated = big::flat_router();
    ASSERT_GE(generated.nodes, 10'000U);
    const Scenario scenario = load_generated(generated);
    EXPECT_EQ(probe::count_nodes(scenario.topology), generated.nodes);
    ASSERT_EQ(scenario.topology.router.routes.size(), 9'999U);
    EXPECT_EQ(scenario.topology.router.route_message.by_type.size(), 9'999U);

    const probe::Built built = probe::build(scenario);
    EXPECT_EQ(built.root_failure, "");
    EXPECT_EQ(built.processes, generated.processes + generated.clients);
    EXPECT_EQ(built.registered, generated.registered);
}

TEST(LoaderBig, TheNodeLimitStillAppliesAtThisSize) {
    // Guards the generator: with a limit just below its node count the same text is rejected,
    // so the counts above come from a real expansion.
    const big::Generated generated = big::tree();
    LoadLimits limits;
    limits.nodes_max = generated.nodes - 1;
    auto loaded = load_scenario_text(generated.text, "big.json", limits);
    ASSERT_FALSE(loaded.has_value());
    EXPECT_NE(loaded.error().message.find(std::to_string(generated.nodes - 1)), std::string::npos)
        << loaded.error().to_string();
}

} // namespace
} // namespace routesim::scenarios
