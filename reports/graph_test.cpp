// Goal: the topology graph has the right vertices and edges, built from a scenario alone and
// from a run (states, incarnations, restarts, counts), and the collector reconstructs which
// process ran which node. Method: small scenarios (scenarios/examples, reports/testdata) run
// under FIFO; assertions on the Boost.Graph model and the collected facts.
#include <gtest/gtest.h>

#include "reports/graph.hpp"
#include "reports/testing.hpp"

namespace routesim::reports {
namespace {

using testing::load;

std::size_t count_edges(const TopologyGraph& graph, EdgeKind kind) {
    std::size_t count = 0;
    for (const Edge edge : boost::make_iterator_range(boost::edges(graph))) {
        count += graph[edge].kind == kind ? 1U : 0U;
    }
    return count;
}

std::optional<Edge> edge_between(const TopologyGraph& graph, std::string_view from,
                                 std::string_view to) {
    const auto source = find_vertex(graph, from);
    const auto target = find_vertex(graph, to);
    if (!source || !target) {
        return std::nullopt;
    }
    const auto [edge, found] = boost::edge(*source, *target, graph);
    return found ? std::optional<Edge>(edge) : std::nullopt;
}

TEST(StaticTopology, HasNodeSpecsClientsAndRouteEdges) {
    const TopologyGraph graph = build_topology(load("content-dispatch"));
    EXPECT_EQ(boost::num_vertices(graph), 7U); // router, 3 route workers, 3 clients
    EXPECT_EQ(count_edges(graph, EdgeKind::Route), 3U);
    EXPECT_EQ(count_edges(graph, EdgeKind::Client), 3U);
    const auto payments = edge_between(graph, "event_router", "event_router/payments");
    ASSERT_TRUE(payments.has_value());
    EXPECT_EQ(graph[*payments].label, "PaymentEvent");
    EXPECT_FALSE(graph[*payments].messages.has_value());
    const auto client = edge_between(graph, "client:1", "event_router");
    ASSERT_TRUE(client.has_value());
    EXPECT_EQ(graph[*client].messages, 15U); // planned: 10 + 5
    EXPECT_EQ(graph[*find_vertex(graph, "event_router")].state, VertexState::Static);
}

TEST(StaticTopology, FreeRouterGetsRegistryEdgesFromItsRule) {
    const TopologyGraph graph = build_topology(load("registry-shards"));
    EXPECT_EQ(count_edges(graph, EdgeKind::Registry), 3U);
    EXPECT_TRUE(edge_between(graph, "sup_root/shard_router", "sup_root/shard:2").has_value());
    const auto worker = find_vertex(graph, "sup_root/shard:0/#*");
    ASSERT_TRUE(worker.has_value());
    EXPECT_EQ(graph[*worker].replicas, 2U);
    EXPECT_EQ(graph[*worker].name, "worker");
}

TEST(StaticTopology, ResolvesTargetsLikeTheScenarioFormat) {
    const TopologyGraph graph = build_topology(load("registry-shards"));
    EXPECT_EQ(resolve_target(graph, "shard:1"), find_vertex(graph, "sup_root/shard:1"));
    EXPECT_EQ(resolve_target(graph, "shard:1/#0"), find_vertex(graph, "sup_root/shard:1/#*"));
    EXPECT_EQ(resolve_target(graph, "sup_root/shard_router"),
              find_vertex(graph, "sup_root/shard_router"));
    EXPECT_FALSE(resolve_target(graph, "nothing").has_value());
}

TEST(StaticTopology, TimelineAddRouteBecomesAVertex) {
    const TopologyGraph graph = build_topology(load("route-restarts"));
    const auto added = edge_between(graph, "orders", "orders/audit");
    ASSERT_TRUE(added.has_value());
    EXPECT_EQ(graph[*added].label, "Audit, added at 5ms");
}

TEST(RunTopology, CountsRestartsIncarnationsAndFinalStates) {
    const scenarios::Scenario scenario = load("route-restarts");
    const CollectedRun run = run_collected(scenario);
    const TopologyGraph graph = build_run_topology(scenario, run.result, run.facts);
    EXPECT_TRUE(graph[boost::graph_bundle].from_run);
    const VertexProps& payments = graph[*find_vertex(graph, "orders/payments")];
    EXPECT_EQ(payments.incarnations.size(), 3U); // crashes on the 4th message, twice
    EXPECT_EQ(payments.restarts, 2U);
    EXPECT_EQ(payments.state, VertexState::Alive);
    EXPECT_EQ(payments.last_fault, "panic");
    const VertexProps& shipments = graph[*find_vertex(graph, "orders/shipments")];
    EXPECT_EQ(shipments.state, VertexState::Dead); // disabled
    EXPECT_TRUE(shipments.last_fault.empty());     // a shutdown is not a fault
    EXPECT_EQ(graph[*edge_between(graph, "orders", "orders/payments")].messages, 10U);
    EXPECT_EQ(graph[*edge_between(graph, "orders", "orders/audit")].messages, 2U);
    EXPECT_EQ(graph[*edge_between(graph, "shop", "orders")].messages, 16U);
}

TEST(RunTopology, RegistryEdgesCarryTheForwardsOfTheRun) {
    const scenarios::Scenario scenario = load("registry-shards");
    const CollectedRun run = run_collected(scenario);
    const TopologyGraph graph = build_run_topology(scenario, run.result, run.facts);
    std::uint64_t via_registry = 0;
    std::uint64_t through_pools = 0;
    for (const Edge edge : boost::make_iterator_range(boost::edges(graph))) {
        if (graph[edge].kind == EdgeKind::Registry) {
            via_registry += graph[edge].messages.value_or(0);
        } else if (graph[edge].kind == EdgeKind::PoolWorker) {
            through_pools += graph[edge].messages.value_or(0);
        }
    }
    ASSERT_EQ(run.result.routers.size(), 1U);
    EXPECT_EQ(via_registry, run.result.routers[0].counters.forwarded);
    EXPECT_EQ(through_pools, via_registry);
    const VertexProps& shard = graph[*find_vertex(graph, "sup_root/shard:1")];
    EXPECT_EQ(shard.incarnations.size(), 2U); // killed at 3ms, restarted by sup_root
    EXPECT_EQ(shard.restarts, 1U);
    EXPECT_EQ(shard.state, VertexState::Alive);
}

TEST(TraceCollector, MapsEveryTopologyProcessToItsPath) {
    const scenarios::Scenario scenario = load("route-restarts");
    const CollectedRun run = run_collected(scenario);
    const auto paths = process_paths(scenario, run.facts);
    std::size_t topology_processes = 0;
    for (const auto& [pid, process] : run.facts.processes) {
        topology_processes += process.behavior == "client" ? 0U : 1U;
    }
    EXPECT_EQ(paths.size(), topology_processes);
    std::size_t payments = 0;
    for (const auto& [pid, path] : paths) {
        payments += path == "orders/payments" ? 1U : 0U;
    }
    EXPECT_EQ(payments, 3U);
}

TEST(TraceCollector, PairsPendingWindowsAndMarksFaults) {
    const CollectedRun run = run_collected(load("route-restarts"));
    std::size_t begins = 0;
    std::size_t ends = 0;
    std::size_t restarts = 0;
    std::size_t faults = 0;
    for (const Marker& marker : run.facts.markers) {
        begins += marker.kind == MarkerKind::PendingBegin ? 1U : 0U;
        ends += marker.kind == MarkerKind::PendingEnd ? 1U : 0U;
        restarts += marker.kind == MarkerKind::Restart ? 1U : 0U;
        faults += marker.kind == MarkerKind::Fault ? 1U : 0U;
    }
    EXPECT_EQ(begins, 1U); // shipments: running -> pending_disable
    EXPECT_EQ(ends, 1U);   // pending_disable -> disabled when the worker exits
    EXPECT_EQ(restarts, 2U);
    EXPECT_EQ(faults, 2U); // two panics
    EXPECT_EQ(run.facts.events, run.result.trace_events);
}

TEST(TraceCollector, ExitSignalReasonsNamingTheSenderAreNormal) {
    EXPECT_TRUE(is_normal_exit("normal"));
    EXPECT_TRUE(is_normal_exit("<F055E218.0.1001>: shutdown"));
    EXPECT_FALSE(is_normal_exit("panic"));
    EXPECT_FALSE(is_normal_exit("kill"));
    EXPECT_FALSE(is_normal_exit("myshutdown"));
}

} // namespace
} // namespace routesim::reports
