// Goal: DOT and Mermaid exports are stable and drawn in the agreed style (routing edges
// dashed, kinds shaped and coloured, counts on the edges). Method: golden files in
// reports/testdata for the run graphs of three scenarios and the static graph of one, plus a
// few targeted checks of the style. On a difference the test writes <name>.actual beside the
// test binary.
#include <gtest/gtest.h>

#include "reports/export.hpp"
#include "reports/testing.hpp"

namespace routesim::reports {
namespace {

using testing::expect_golden;
using testing::load;

TopologyGraph run_graph(const std::string& name) {
    const scenarios::Scenario scenario = load(name);
    const CollectedRun run = run_collected(scenario);
    return build_run_topology(scenario, run.result, run.facts);
}

TEST(DotGolden, ContentDispatch) {
    expect_golden(to_dot(run_graph("content-dispatch")), "content-dispatch.dot");
}

TEST(DotGolden, RouteRestarts) {
    expect_golden(to_dot(run_graph("route-restarts")), "route-restarts.dot");
}

TEST(DotGolden, RegistryShards) {
    expect_golden(to_dot(run_graph("registry-shards")), "registry-shards.dot");
}

TEST(MermaidGolden, ContentDispatch) {
    expect_golden(to_mermaid(run_graph("content-dispatch")), "content-dispatch.mmd");
}

TEST(MermaidGolden, RouteRestarts) {
    expect_golden(to_mermaid(run_graph("route-restarts")), "route-restarts.mmd");
}

TEST(MermaidGolden, RegistryShards) {
    expect_golden(to_mermaid(run_graph("registry-shards")), "registry-shards.mmd");
}

TEST(MermaidGolden, StaticContentDispatch) {
    expect_golden(to_mermaid(build_topology(load("content-dispatch"))),
                  "content-dispatch.static.mmd");
}

TEST(MermaidStyle, FollowsTheRouterPageUseCases) {
    const std::string text = to_mermaid(build_topology(load("content-dispatch")));
    EXPECT_TRUE(text.starts_with("graph TB\n"));
    // router.md: `R -.->|"by type"| Sh[shipments worker]`: routes are dashed and labelled.
    EXPECT_NE(text.find("v0 -.->|\"ShipmentEvent\"| v2"), std::string::npos) << text;
    EXPECT_NE(text.find("v0{{\"event_router"), std::string::npos) << text;
    EXPECT_NE(text.find("-->|\"send ×15"), std::string::npos) << text;
}

TEST(DotStyle, RoutingEdgesAreDashedAndDeadNodesGrey) {
    const std::string text = to_dot(run_graph("route-restarts"));
    EXPECT_NE(text.find("v0 -> v1 [label=\"Payment\\n10 msgs\""), std::string::npos) << text;
    EXPECT_NE(text.find("style=dashed"), std::string::npos);
    EXPECT_NE(text.find("shape=hexagon"), std::string::npos);
    EXPECT_NE(text.find("style=\"filled,rounded,dashed\", fillcolor=\"#e4e4e4\""),
              std::string::npos);
    EXPECT_NE(text.find("{ rank=min; v5; v6; }"), std::string::npos);
}

TEST(DotStyle, QuotesAreEscaped) {
    TopologyGraph graph;
    graph[boost::graph_bundle].name = "a \"quoted\" name";
    boost::add_vertex(VertexProps{.name = "back\\slash \"x\""}, graph);
    const std::string text = to_dot(graph);
    EXPECT_NE(text.find("digraph \"a \\\"quoted\\\" name\""), std::string::npos) << text;
    EXPECT_NE(text.find("back\\\\slash \\\"x\\\""), std::string::npos) << text;
}

} // namespace
} // namespace routesim::reports
