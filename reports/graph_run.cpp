// The run topology graph (final states, incarnations, message counts from the collector's
// facts), vertex lookup and static target resolution.
// Part of reports/: uses scenarios/ and the layers below, Boost.Graph.
#include <map>

#include "reports/graph.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

std::string last_segment(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<Edge> find_edge_of_kind(const TopologyGraph& graph, Vertex from, Vertex to,
                                      EdgeKind kind) {
    for (const Edge edge : boost::make_iterator_range(boost::out_edges(from, graph))) {
        if (boost::target(edge, graph) == to && graph[edge].kind == kind) {
            return edge;
        }
    }
    return std::nullopt;
}

// Adds `count` to the edge of `kind` from -> to, creating it with `label` when missing.
void add_count(TopologyGraph& graph, Vertex from, Vertex to, EdgeKind kind,
               const std::string& label, std::uint64_t count) {
    std::optional<Edge> edge = find_edge_of_kind(graph, from, to, kind);
    if (!edge.has_value()) {
        edge = boost::add_edge(from, to, EdgeProps{.kind = kind, .label = label}, graph).first;
    }
    EdgeProps& props = graph[*edge];
    props.messages = props.messages.value_or(0) + count;
}

class RunAnnotator {
public:
    RunAnnotator(const scenarios::Scenario& scenario, const RunFacts& facts)
        : facts_(facts), graph_(build_topology(scenario)) {
        graph_[boost::graph_bundle].from_run = true;
        for (const auto& [pid, path] : process_paths(scenario, facts)) {
            if (const auto vertex = find_vertex(graph_, path)) {
                by_pid_.emplace(pid, *vertex);
            }
        }
        for (const auto& [pid, process] : facts.processes) {
            if (process.behavior == "client") {
                if (const auto vertex = find_vertex(graph_, process.name)) {
                    by_pid_.emplace(pid, *vertex);
                }
            }
        }
    }

    TopologyGraph annotate() {
        annotate_vertices();
        count_edges();
        return std::move(graph_);
    }

private:
    void annotate_vertices() {
        for (const auto& [pid, vertex] : by_pid_) {
            const ProcessFacts* process = facts_.process(pid);
            RS_ASSERT(process != nullptr);
            VertexProps& props = graph_[vertex];
            props.incarnations.push_back(pid);
            props.alive += process->is_alive() ? 1U : 0U;
            props.taken += process->taken;
            if (process->ended.has_value() && !is_normal_exit(process->end_reason)) {
                props.last_fault = process->end_reason;
            }
        }
        for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph_))) {
            VertexProps& props = graph_[vertex];
            if (props.incarnations.empty()) {
                props.state = VertexState::NeverStarted;
            } else {
                props.state = props.alive > 0 ? VertexState::Alive : VertexState::Dead;
            }
        }
        for (const auto& [key, count] : facts_.restarts) {
            const auto parent = by_pid_.find(key.first);
            if (parent == by_pid_.end()) {
                continue;
            }
            if (const auto child =
                    find_vertex(graph_, graph_[parent->second].path + "/" + key.second)) {
                graph_[*child].restarts += count;
            }
        }
    }

    void count_edges() {
        // Every traffic edge of a run graph shows a count, zero included; client edges
        // trade their planned counts for the counted ones.
        for (const Edge edge : boost::make_iterator_range(boost::edges(graph_))) {
            EdgeProps& props = graph_[edge];
            if (props.kind != EdgeKind::Supervises) {
                props.messages = 0;
            }
        }
        count_routes();
        count_pairs(facts_.registry_hits, EdgeKind::Registry, "via registry");
        count_pairs(facts_.pool_hits, EdgeKind::PoolWorker, "round-robin");
        std::map<PidPair, std::uint64_t> client_sends;
        for (const auto& [pair, count] : facts_.sends) {
            const ProcessFacts* sender = facts_.process(pair.first);
            if (sender != nullptr && sender->behavior == "client") {
                client_sends.emplace(pair, count);
            }
        }
        count_pairs(client_sends, EdgeKind::Client, "send");
    }

    void count_routes() {
        for (const auto& [key, traffic] : facts_.routes) {
            const auto router = by_pid_.find(key.first);
            if (router == by_pid_.end() || traffic.owned == 0) {
                continue;
            }
            const auto worker = find_vertex(graph_, graph_[router->second].path + "/" + key.second);
            if (worker.has_value()) {
                add_count(graph_, router->second, *worker, EdgeKind::Route,
                          last_segment(key.second), traffic.owned);
            }
        }
    }

    void count_pairs(const std::map<PidPair, std::uint64_t>& pairs, EdgeKind kind,
                     const std::string& label) {
        for (const auto& [pair, count] : pairs) {
            const auto from = by_pid_.find(pair.first);
            const auto to = by_pid_.find(pair.second);
            if (from != by_pid_.end() && to != by_pid_.end()) {
                add_count(graph_, from->second, to->second, kind, label, count);
            }
        }
    }

    const RunFacts& facts_;
    TopologyGraph graph_;
    std::map<std::uint64_t, Vertex> by_pid_;
};

} // namespace

TopologyGraph build_run_topology(const scenarios::Scenario& scenario,
                                 const scenarios::RunResult& result, const RunFacts& facts) {
    (void)result; // the facts carry everything the graph shows; kept for future annotations
    return RunAnnotator(scenario, facts).annotate();
}

std::optional<Vertex> find_vertex(const TopologyGraph& graph, std::string_view path) {
    for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph))) {
        if (graph[vertex].path == path) {
            return vertex;
        }
    }
    return std::nullopt;
}

std::optional<Vertex> resolve_target(const TopologyGraph& graph, std::string_view target) {
    const std::size_t slash = target.find('/');
    const std::string_view first = target.substr(0, slash);
    std::optional<Vertex> at;
    for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph))) {
        if (graph[vertex].registered == first) {
            at = vertex;
            break;
        }
    }
    std::string_view rest = slash == std::string_view::npos ? "" : target.substr(slash + 1);
    while (at.has_value() && !rest.empty()) {
        const std::size_t next = rest.find('/');
        std::string segment(rest.substr(0, next));
        if (segment.starts_with('#')) {
            segment = scenarios::pool_worker_segment;
        }
        at = find_vertex(graph, graph[*at].path + "/" + segment);
        rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
    }
    return at;
}

std::string_view vertex_kind_name(VertexKind kind) {
    static constexpr std::string_view names[] = {"actor", "supervisor", "pool", "router", "client"};
    return names[static_cast<std::size_t>(kind)];
}

std::string_view vertex_state_name(VertexState state) {
    static constexpr std::string_view names[] = {"static", "alive", "dead", "never started"};
    return names[static_cast<std::size_t>(state)];
}

std::string_view edge_kind_name(EdgeKind kind) {
    static constexpr std::string_view names[] = {"supervises", "pool_worker", "route", "registry",
                                                 "client"};
    return names[static_cast<std::size_t>(kind)];
}

} // namespace routesim::reports
