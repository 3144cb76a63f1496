// The static topology graph of a scenario: vertices for node specs and clients, ownership,
// route, registry and client edges with rule hints as labels.
// Part of reports/: uses scenarios/ and the layers below, Boost.Graph.
#include <map>
#include <set>
#include <utility>

#include "reports/graph.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

using scenarios::Node;
using scenarios::NodeKind;
using scenarios::Rule;
using scenarios::RuleKind;

// Hash rules with more targets than this are not expanded into static registry edges.
constexpr std::uint64_t hash_targets_max = 256;

VertexKind vertex_kind(NodeKind kind) {
    switch (kind) {
    case NodeKind::Actor:
        return VertexKind::Actor;
    case NodeKind::Supervisor:
        return VertexKind::Supervisor;
    case NodeKind::Pool:
        return VertexKind::Pool;
    case NodeKind::Router:
        return VertexKind::Router;
    }
    return VertexKind::Actor;
}

std::string last_segment(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_pool_worker_spec(const Node& node) {
    return last_segment(node.path) == scenarios::pool_worker_segment;
}

std::string rule_summary(const Rule& rule) {
    switch (rule.kind) {
    case RuleKind::Discard:
        return "discard";
    case RuleKind::ByType:
        return "by type";
    case RuleKind::Hash:
        return "hash(" + rule.field + ") % " +
               std::to_string(rule.count > 0 ? rule.count : rule.routes.size());
    case RuleKind::Field:
        return "by field " + rule.field;
    case RuleKind::Route:
        return "always " + rule.route;
    case RuleKind::Custom:
        return rule.custom;
    }
    return "";
}

std::string node_detail(const Node& node) {
    switch (node.kind) {
    case NodeKind::Actor: {
        std::string text(scenarios::behaviour_name(node.behaviour));
        if (node.behaviour.type == scenarios::BehaviourType::Forward) {
            text += " to " + node.behaviour.to;
        }
        if (node.behaviour.crash_on.has_value()) {
            text += ", crash_on";
        }
        if (node.behaviour.init.fail || node.behaviour.init.fail_first > 0) {
            text += ", init fails";
        }
        return text;
    }
    case NodeKind::Supervisor:
        return std::string(scenarios::spelling(node.supervisor.type)) + ", " +
               std::string(scenarios::spelling(node.supervisor.strategy));
    case NodeKind::Pool:
        return "pool of " + std::to_string(scenarios::effective_pool_size(node.pool.size));
    case NodeKind::Router:
        return (node.router.routes.empty() ? "free, " : "") +
               rule_summary(node.router.route_message);
    }
    return "";
}

std::string display_name(const Node& node, bool route_worker) {
    if (route_worker) {
        return last_segment(node.path);
    }
    if (!node.name.empty()) {
        return node.name;
    }
    if (is_pool_worker_spec(node)) {
        return "worker";
    }
    return std::string(scenarios::spelling(node.kind));
}

// The label of the edge router -> route `index`: what sends messages there.
std::string route_hint(const Rule& rule, const std::string& route, std::size_t index) {
    switch (rule.kind) {
    case RuleKind::ByType: {
        std::string types;
        for (const auto& [type, target] : rule.by_type) {
            if (target == route) {
                types += (types.empty() ? "" : ", ") + type;
            }
        }
        if (types.empty() && rule.default_route == route) {
            return "default";
        }
        return types;
    }
    case RuleKind::Hash:
    case RuleKind::Field:
    case RuleKind::Custom:
        return index == 0 ? rule_summary(rule) : "";
    case RuleKind::Route:
        return rule.route == route ? "always" : "";
    case RuleKind::Discard:
        return "";
    }
    return "";
}

// The label of the edge to an owned route: what messages and what calls go there.
std::string routes_hint(const scenarios::RouterSpec& router, const std::string& route,
                        std::size_t index) {
    std::string hint = route_hint(router.route_message, route, index);
    const std::string calls = route_hint(router.route_call, route, index);
    if (!calls.empty() && calls != hint) {
        hint += (hint.empty() ? "" : " / ") + std::string("call: ") + calls;
    }
    return hint;
}

// The route names a rule can return, for the static registry edges.
std::vector<std::string> rule_targets(const Rule& rule) {
    std::vector<std::string> names;
    switch (rule.kind) {
    case RuleKind::ByType:
        for (const auto& [type, target] : rule.by_type) {
            names.push_back(target);
        }
        break;
    case RuleKind::Hash:
        names = rule.routes;
        if (rule.count > 0 && rule.count <= hash_targets_max) {
            for (std::uint64_t i = 0; i < rule.count; i++) {
                names.push_back(rule.prefix + std::to_string(i));
            }
        }
        break;
    case RuleKind::Route:
        names.push_back(rule.route);
        break;
    case RuleKind::Field:
    case RuleKind::Discard:
    case RuleKind::Custom: // whatever the registered rule answers: nothing known here
        break;
    }
    names.push_back(rule.default_route);
    return names;
}

class StaticBuilder {
public:
    explicit StaticBuilder(const scenarios::Scenario& scenario) : scenario_(scenario) {
        graph_[boost::graph_bundle].name = scenario.name;
    }

    TopologyGraph build() {
        add_tree(scenario_.topology, std::nullopt);
        for (const scenarios::Action& action : scenario_.timeline) {
            if (action.verb == scenarios::Verb::AddRoute && action.worker.has_value()) {
                add_added_route(action);
            }
        }
        add_registry_edges();
        add_clients();
        return std::move(graph_);
    }

private:
    struct Pending {
        const Node* node;
        std::optional<Vertex> parent;
        std::string hint;
        std::uint64_t replicas = 1;
    };

    Vertex add_node(const Node& node, bool route_worker, std::uint64_t replicas) {
        const Vertex vertex =
            boost::add_vertex(VertexProps{.kind = vertex_kind(node.kind),
                                          .name = display_name(node, route_worker),
                                          .path = node.path,
                                          .registered = is_pool_worker_spec(node) ? "" : node.name,
                                          .detail = node_detail(node),
                                          .replicas = replicas},
                              graph_);
        by_path_.emplace(node.path, vertex);
        specs_.emplace_back(vertex, &node);
        if (!node.name.empty() && !route_worker) {
            registered_.emplace(node.name, vertex);
        }
        return vertex;
    }

    void add_tree(const Node& root, std::optional<Vertex> root_parent) {
        std::vector<Pending> stack{{&root, root_parent, {}}};
        while (!stack.empty()) {
            const Pending item = stack.back();
            stack.pop_back();
            const Node& node = *item.node;
            const EdgeKind kind =
                item.parent.has_value() ? parent_edge_kind(*item.parent) : EdgeKind::Supervises;
            const Vertex vertex = add_node(node, kind == EdgeKind::Route, item.replicas);
            if (item.parent.has_value()) {
                boost::add_edge(*item.parent, vertex, EdgeProps{.kind = kind, .label = item.hint},
                                graph_);
            }
            push_children(node, vertex, stack);
        }
    }

    EdgeKind parent_edge_kind(Vertex parent) const {
        switch (graph_[parent].kind) {
        case VertexKind::Pool:
            return EdgeKind::PoolWorker;
        case VertexKind::Router:
            return EdgeKind::Route;
        default:
            return EdgeKind::Supervises;
        }
    }

    void push_children(const Node& node, Vertex vertex, std::vector<Pending>& stack) {
        // Reverse order on the stack, so that children come out in file order.
        for (std::size_t i = node.children.size(); i-- > 0;) {
            std::string hint;
            std::uint64_t replicas = 1;
            if (node.kind == NodeKind::Router) {
                const std::string& route = node.router.routes[i].name;
                hint = routes_hint(node.router, route, i);
            } else if (node.kind == NodeKind::Pool) {
                hint = "round-robin";
                replicas = scenarios::effective_pool_size(node.pool.size);
            }
            stack.push_back(Pending{&node.children[i], vertex, std::move(hint), replicas});
        }
    }

    void add_added_route(const scenarios::Action& action) {
        const Node& worker = *action.worker;
        if (by_path_.contains(worker.path)) {
            return; // the route existed in the topology (removed and added again)
        }
        const std::size_t slash = worker.path.rfind('/');
        RS_ASSERT(slash != std::string::npos);
        const auto router = by_path_.find(worker.path.substr(0, slash));
        if (router == by_path_.end()) {
            return; // added to a router that is not in the topology (a timeline worker)
        }
        std::string hint;
        for (const auto& [vertex, node] : specs_) {
            if (vertex == router->second && node->kind == NodeKind::Router) {
                hint = routes_hint(node->router, last_segment(worker.path),
                                   node->router.routes.size());
            }
        }
        hint += (hint.empty() ? "" : ", ") + std::string("added at ") +
                sim::format_instant(sim::Instant::zero() + action.at);
        std::vector<Pending> stack;
        stack.push_back(Pending{&worker, router->second, hint});
        add_pending_subtree(stack);
    }

    void add_pending_subtree(std::vector<Pending>& stack) {
        while (!stack.empty()) {
            const Pending item = stack.back();
            stack.pop_back();
            RS_ASSERT(item.parent.has_value());
            const EdgeKind kind = parent_edge_kind(*item.parent);
            const Vertex vertex = add_node(*item.node, kind == EdgeKind::Route, item.replicas);
            boost::add_edge(*item.parent, vertex, EdgeProps{.kind = kind, .label = item.hint},
                            graph_);
            push_children(*item.node, vertex, stack);
        }
    }

    void add_registry_edges() {
        for (const auto& [vertex, node] : specs_) {
            if (node->kind != NodeKind::Router) {
                continue;
            }
            std::set<std::string> owned;
            for (const auto& route : node->router.routes) {
                owned.insert(route.name);
            }
            std::set<Vertex> reached;
            for (const Rule* rule : {&node->router.route_message, &node->router.route_call}) {
                for (const std::string& name : rule_targets(*rule)) {
                    const auto target = registered_.find(name);
                    if (owned.contains(name) || target == registered_.end() ||
                        target->second == vertex || !reached.insert(target->second).second) {
                        continue;
                    }
                    boost::add_edge(vertex, target->second,
                                    EdgeProps{.kind = EdgeKind::Registry, .label = "via registry"},
                                    graph_);
                }
            }
        }
    }

    void add_clients() {
        for (const std::string& client : scenario_.clients) {
            by_path_.emplace(client, boost::add_vertex(VertexProps{.kind = VertexKind::Client,
                                                                   .name = client,
                                                                   .path = client,
                                                                   .registered = client,
                                                                   .detail = "client"},
                                                       graph_));
        }
        for (const scenarios::WorkloadSource& source : scenario_.workload) {
            add_client_edge(source.from, source.to, source.is_call, source.count);
        }
        for (const scenarios::Action& action : scenario_.timeline) {
            if (action.verb == scenarios::Verb::Send || action.verb == scenarios::Verb::Call) {
                add_client_edge(action.from, action.to, action.verb == scenarios::Verb::Call, 1);
            }
        }
    }

    void add_client_edge(const std::string& from, const std::string& to, bool is_call,
                         std::uint64_t count) {
        const auto client = by_path_.find(from);
        const std::optional<Vertex> target = resolve_target(graph_, to);
        if (client == by_path_.end() || !target.has_value()) {
            return;
        }
        const std::string label = is_call ? "call" : "send";
        const auto existing = client_edges_.find({client->second, *target});
        if (existing != client_edges_.end()) {
            EdgeProps& props = graph_[existing->second];
            props.messages = props.messages.value_or(0) + count;
            if (props.label != label) {
                props.label = "send, call";
            }
            return;
        }
        const auto [edge, added] = boost::add_edge(
            client->second, *target,
            EdgeProps{.kind = EdgeKind::Client, .label = label, .messages = count}, graph_);
        RS_ASSERT(added);
        client_edges_.emplace(std::make_pair(client->second, *target), edge);
    }

    const scenarios::Scenario& scenario_;
    TopologyGraph graph_;
    std::map<std::string, Vertex> by_path_;
    std::map<std::string, Vertex> registered_;
    std::vector<std::pair<Vertex, const Node*>> specs_;
    std::map<std::pair<Vertex, Vertex>, Edge> client_edges_;
};

} // namespace

TopologyGraph build_topology(const scenarios::Scenario& scenario) {
    return StaticBuilder(scenario).build();
}

} // namespace routesim::reports
