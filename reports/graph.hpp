// The Boost.Graph model of a topology: one vertex per node spec of the scenario (a pool's
// workers share their spec's vertex) and per client; edges for supervision and ownership,
// routing, registry resolution and client traffic. Built from a Scenario alone (static) or
// from a finished run (message counts, final states, incarnations).
// Part of reports/: uses scenarios/ and the layers below, Boost.Graph; not how runs are made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "reports/run_facts.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::reports {

/// What a vertex stands for.
enum class VertexKind : std::uint8_t { Actor, Supervisor, Pool, Router, Client };

/// A vertex's state at the end of a run; Static when the graph was built without a run.
enum class VertexState : std::uint8_t { Static, Alive, Dead, NeverStarted };

/// A node spec (or a client) and what the run did with it.
struct VertexProps {
    VertexKind kind = VertexKind::Actor;
    /// The name shown: registered name, route name, "worker" (pool worker spec), client name.
    std::string name;
    /// Tree path of the node spec; a client's name for a client.
    std::string path;
    /// The name registered in the node registry ("" when none); a client's name.
    std::string registered;
    /// One line about the spec: behaviour, supervisor type, pool size, routing rule.
    std::string detail;
    /// Pool worker spec: how many workers the pool runs (else 1).
    std::uint64_t replicas = 1;
    VertexState state = VertexState::Static;
    /// Every pid id that ran this spec, in spawn order (run graphs only).
    std::vector<std::uint64_t> incarnations;
    /// Incarnations alive at the end.
    std::uint64_t alive = 0;
    /// Mailbox items taken, summed over incarnations.
    std::uint64_t taken = 0;
    /// Restarts counted by the parent (route_restart, sup_restart).
    std::uint64_t restarts = 0;
    /// The last abnormal exit reason ("" when none).
    std::string last_fault;
};

/// What an edge stands for.
enum class EdgeKind : std::uint8_t {
    Supervises, ///< supervisor -> child spec
    PoolWorker, ///< pool -> worker spec (ownership; counts are the pool's forwards)
    Route,      ///< router -> owned route worker (ownership and routing in one edge)
    Registry,   ///< router -> a registered process it may reach or did reach by name
    Client,     ///< client -> target of its sends and calls
};

/// One edge.
struct EdgeProps {
    EdgeKind kind = EdgeKind::Supervises;
    /// The static part of the label: a rule hint ("PaymentEvent", "hash(key) % 4", "send").
    std::string label;
    /// Messages counted on this edge (run graphs; for static client edges, the planned
    /// number of messages).
    std::optional<std::uint64_t> messages;
};

/// Graph-wide properties.
struct GraphProps {
    std::string name;
    bool from_run = false;
};

/// The topology graph. Vertex descriptors are indices (vecS), so every iteration is in
/// insertion order: deterministic.
using TopologyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                            VertexProps, EdgeProps, GraphProps>;
using Vertex = TopologyGraph::vertex_descriptor;
using Edge = TopologyGraph::edge_descriptor;

/// The static topology of a scenario: node specs (timeline add_route workers included),
/// ownership edges, owned routes, registry edges the routing rules can reach, and client
/// edges with the planned message counts. Cost: linear in the expanded topology.
TopologyGraph build_topology(const scenarios::Scenario& scenario);

/// The topology of a finished run: the static graph with final states, incarnations and
/// message counts from `facts`, plus registry and client edges the run used.
TopologyGraph build_run_topology(const scenarios::Scenario& scenario,
                                 const scenarios::RunResult& result, const RunFacts& facts);

/// The vertex with this path (a client's path is its name), or nullopt.
std::optional<Vertex> find_vertex(const TopologyGraph& graph, std::string_view path);

/// A scenario target ("shard_router", "event_router/payments", "shard:3/#2") resolved over
/// the static graph: a registered name, then path segments; "#k" is a pool's worker spec.
std::optional<Vertex> resolve_target(const TopologyGraph& graph, std::string_view target);

/// The spellings used in exports.
std::string_view vertex_kind_name(VertexKind kind);
std::string_view vertex_state_name(VertexState state);
std::string_view edge_kind_name(EdgeKind kind);

} // namespace routesim::reports
