// Goal: static target resolution finds registered names, clients and tree paths (supervisor
// children, owned routes including routes added by the timeline, pool workers) and explains
// every target that names nothing.
// Method: resolve targets of the test scenarios and compare nodes and error texts; check that
// every node's recorded path resolves back to that node.
#include "scenarios/format/resolve.hpp"

#include <filesystem>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"

namespace routesim::scenarios {
namespace {

const std::filesystem::path source_dir = ROUTESIM_SOURCE_DIR;

Scenario load_testdata(const std::string& name) {
    auto loaded = load_scenario_file((source_dir / "scenarios/testdata" / name).string());
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

std::string error_of(const TargetResolver& resolver, std::string_view target) {
    const auto resolved = resolver.resolve(target);
    return resolved ? std::string() : resolved.error();
}

TEST(TargetResolver, ResolvesNamesPathsAndClients) {
    const Scenario scenario = load_testdata("full.json");
    const TargetResolver resolver(scenario);
    const Node& router = scenario.topology.children[2];
    EXPECT_EQ(resolver.resolve("event_router")->node, &router);
    EXPECT_EQ(resolver.resolve("sup_root/event_router")->node, &router);
    EXPECT_EQ(resolver.resolve("event_router/payments")->node, &router.children[0]);
    EXPECT_EQ(resolver.resolve("event_router/bulk/#2")->node, &router.children[3].children[0]);
    EXPECT_EQ(resolver.resolve("event_router/bulk/#*")->node, &router.children[3].children[0]);
    EXPECT_EQ(resolver.resolve("event_router/nested/leaf")->node, &router.children[4].children[0]);
    EXPECT_EQ(resolver.resolve("event_router/refunds:1")->node, &router.children[2]);
    EXPECT_EQ(resolver.resolve("sofo/sofo_child")->node,
              &scenario.topology.children[4].children[0]);
    const auto client = resolver.resolve("client:2");
    ASSERT_TRUE(client.has_value());
    EXPECT_EQ(client->node, nullptr);
    EXPECT_EQ(client->client, "client:2");
}

TEST(TargetResolver, FollowsRoutesAddedByTheTimeline) {
    const Scenario scenario = load_testdata("full.json");
    const TargetResolver resolver(scenario);
    const Node& late = *scenario.timeline[0].worker;
    EXPECT_EQ(resolver.resolve("event_router/late")->node, &late);
    EXPECT_EQ(resolver.resolve("event_router/late/late_child")->node, &late.children[0]);
    EXPECT_EQ(resolver.resolve("late_child")->node, &late.children[0]);
    const std::vector<std::string> routes = resolver.route_names(scenario.topology.children[2]);
    EXPECT_EQ(routes, (std::vector<std::string>{"bulk", "late", "nested", "payments", "refunds:0",
                                                "refunds:1"}));
    // replace_route gives "payments" a second possible worker.
    EXPECT_EQ(resolver.resolve("event_router/payments")->node,
              &scenario.topology.children[2].children[0]);
}

TEST(TargetResolver, ExplainsTargetsThatNameNothing) {
    const Scenario scenario = load_testdata("full.json");
    const TargetResolver resolver(scenario);
    EXPECT_EQ(error_of(resolver, "event_routr"),
              "target \"event_routr\" names nothing in the scenario (expected a registered node "
              "name, a client name or a tree path such as \"router/route\", \"pool/#0\" or "
              "\"supervisor/child\"); did you mean \"event_router\"?");
    EXPECT_EQ(error_of(resolver, "event_router/bulk/#3"),
              "target \"event_router/bulk/#3\": pool \"event_router/bulk\" has 3 workers, so "
              "\"#3\" is not one of them (expected #0 to #2)");
    EXPECT_EQ(error_of(resolver, "sup_root/nobody"),
              "target \"sup_root/nobody\": supervisor \"sup_root\" has no child \"nobody\" "
              "(expected one of: audit, event_router, field_router, payments_store, sofo)");
    EXPECT_EQ(error_of(resolver, "field_router/x"),
              "target \"field_router/x\": router \"field_router\" has no owned route \"x\" (it "
              "owns no routes; a free router's targets are addressed by their registered names)");
    EXPECT_EQ(error_of(resolver, "audit/x"),
              "target \"audit/x\": actor \"audit\" has no children (expected the path to end "
              "there)");
    EXPECT_EQ(error_of(resolver, "event_router//payments"),
              "target \"event_router//payments\" has an empty path segment (expected names "
              "separated by single slashes)");
    EXPECT_EQ(error_of(resolver, "client:1/x"),
              "target \"client:1/x\": \"client:1\" is a client and has no children (expected the "
              "path to end there)");
}

TEST(TargetResolver, WholeNamesWinOverPaths) {
    auto loaded = load_scenario_text(R"({"name": "slashes", "topology": {
        "kind": "supervisor", "name": "team", "children": [
          {"kind": "actor", "name": "team/a", "behavior": {"type": "sink"}},
          {"kind": "actor", "name": "a", "behavior": {"type": "sink"}}]},
        "workload": [{"from": "c/1", "to": "team/a", "send": {"type": "T"}}]})",
                                     "slashes.json");
    ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
    const Scenario& scenario = loaded.value();
    const TargetResolver resolver(scenario);
    EXPECT_EQ(resolver.resolve("team/a")->node, &scenario.topology.children[0]);
    EXPECT_EQ(resolver.resolve("c/1")->client, "c/1");
    EXPECT_EQ(resolver.resolve("a")->node, &scenario.topology.children[1]);
}

TEST(TargetResolver, EveryNamedRootPathResolvesToItsNode) {
    for (const char* name : {"full.json", "router-pool-per-shard.json"}) {
        const Scenario scenario = load_testdata(name);
        const TargetResolver resolver(scenario);
        std::vector<const Node*> stack{&scenario.topology};
        while (!stack.empty()) {
            const Node* node = stack.back();
            stack.pop_back();
            const auto resolved = resolver.resolve(node->path);
            ASSERT_TRUE(resolved.has_value()) << node->path << ": " << resolved.error();
            EXPECT_EQ(resolved->node, node) << node->path;
            for (const Node& child : node->children) {
                stack.push_back(&child);
            }
        }
    }
}

} // namespace
} // namespace routesim::scenarios
