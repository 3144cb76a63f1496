// Static target resolution over the typed scenario model (no runtime involved).
// Part of scenarios/: walks trees with explicit stacks, never by recursion.
#include "scenarios/format/resolve.hpp"

#include <algorithm>

#include "scenarios/format/detail/reader.hpp"

namespace routesim::scenarios {
namespace {

constexpr std::size_t listed_names_max = 10;

std::string list_names(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < listed_names_max; i++) {
        text += (i == 0 ? "" : ", ") + detail::list_item(names[i]);
    }
    if (names.size() > listed_names_max) {
        text += ", ... (" + std::to_string(names.size()) + " in all)";
    }
    return text;
}

std::vector<std::string_view> split_path(std::string_view target) {
    std::vector<std::string_view> segments;
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = target.find('/', start);
        segments.push_back(target.substr(start, slash - start));
        if (slash == std::string_view::npos) {
            return segments;
        }
        start = slash + 1;
    }
}

/// Parses "#<index>" (decimal, no sign); nullopt for anything else.
std::optional<std::uint64_t> parse_worker_index(std::string_view segment) {
    if (segment.size() < 2 || segment.size() > 20 || segment[0] != '#') {
        return std::nullopt;
    }
    std::uint64_t index = 0;
    for (char c : segment.substr(1)) {
        if (c < '0' || c > '9' || index > (UINT64_MAX - 9) / 10) {
            return std::nullopt;
        }
        index = index * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return index;
}

} // namespace

TargetResolver::TargetResolver(const Scenario& scenario) {
    index_tree(scenario.topology);
    for (const Action& action : scenario.timeline) {
        if (action.worker.has_value()) {
            index_tree(*action.worker);
        }
    }
    for (const MessageWorker& message : scenario.message_workers) {
        index_tree(message.worker);
    }
    clients_.insert(scenario.clients.begin(), scenario.clients.end());
    index_timeline_routes(scenario);
}

void TargetResolver::index_tree(const Node& root) {
    std::vector<const Node*> stack{&root};
    while (!stack.empty()) {
        const Node* node = stack.back();
        stack.pop_back();
        if (!node->name.empty()) {
            names_[node->name].push_back(node);
        }
        for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
            stack.push_back(&*child);
        }
    }
}

void TargetResolver::index_timeline_routes(const Scenario& scenario) {
    // A route may be added to a router that is itself added by a later action, so repeat
    // while actions still get placed.
    // Routes come from timeline actions and from `router.admin` messages with a worker.
    struct Added {
        const std::string* router;
        const std::string* route;
        const Node* worker;
    };
    std::vector<Added> pending;
    for (const Action& action : scenario.timeline) {
        if (action.worker.has_value()) {
            pending.push_back(Added{&action.router, &action.route, &*action.worker});
        }
    }
    for (const MessageWorker& message : scenario.message_workers) {
        pending.push_back(Added{&message.router, &message.route, &message.worker});
    }
    // Each pass places at least one action; the pass limit bounds the cost for crafted files
    // (a longer chain of routers added in reverse file order is not followed).
    constexpr int passes_max = 16;
    bool progress = true;
    for (int pass = 0; pass < passes_max && progress && !pending.empty(); pass++) {
        progress = false;
        std::vector<Added> unplaced;
        for (const Added& added : pending) {
            const auto router = resolve(*added.router);
            if (router.has_value() && router->node != nullptr &&
                router->node->kind == NodeKind::Router) {
                added_routes_[router->node->path].push_back(AddedRoute{*added.route, added.worker});
                progress = true;
            } else {
                unplaced.push_back(added);
            }
        }
        pending = std::move(unplaced);
    }
}

const std::vector<const Node*>& TargetResolver::named(std::string_view name) const {
    static const std::vector<const Node*> none;
    const auto found = names_.find(name);
    return found == names_.end() ? none : found->second;
}

std::vector<std::string_view> TargetResolver::registered_names() const {
    std::vector<std::string_view> names;
    names.reserve(names_.size());
    for (const auto& [name, nodes] : names_) {
        names.push_back(name);
    }
    return names;
}

std::vector<std::string> TargetResolver::route_names(const Node& router) const {
    RS_ASSERT(router.kind == NodeKind::Router);
    std::vector<std::string> names;
    for (const RouteSpec& route : router.router.routes) {
        names.push_back(route.name);
    }
    if (const auto added = added_routes_.find(router.path); added != added_routes_.end()) {
        for (const AddedRoute& route : added->second) {
            names.push_back(route.name);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

sim::Result<Resolved, std::string> TargetResolver::resolve(std::string_view target) const {
    // A whole registered name or client wins over a path, so names containing '/' still work.
    if (clients_.contains(target)) {
        return Resolved{.client = std::string(target)};
    }
    if (const std::vector<const Node*>& exact = named(target); !exact.empty()) {
        return Resolved{.node = exact.front()};
    }
    const std::vector<std::string_view> segments = split_path(target);
    for (std::string_view segment : segments) {
        if (segment.empty()) {
            return sim::fail("target " + detail::quote(target) +
                             " has an empty path segment (expected names separated by single "
                             "slashes)");
        }
    }
    if (clients_.contains(segments[0])) {
        return sim::fail("target " + detail::quote(target) + ": " + detail::quote(segments[0]) +
                         " is a client and has no children (expected the path to end there)");
    }
    if (named(segments[0]).empty()) {
        return sim::fail(explain_unknown(target, segments[0]));
    }
    return walk(target, segments);
}

std::string TargetResolver::explain_unknown(std::string_view target, std::string_view first) const {
    std::string message = "target " + detail::quote(target) +
                          " names nothing in the scenario (expected a registered node name, a "
                          "client name or a tree path such as \"router/route\", \"pool/#0\" or "
                          "\"supervisor/child\")";
    std::vector<std::string_view> known;
    for (const auto& [name, nodes] : names_) {
        known.push_back(name);
    }
    known.insert(known.end(), clients_.begin(), clients_.end());
    if (const auto near = detail::closest(first, known)) {
        message += "; did you mean " + detail::quote(*near) + "?";
    }
    return message;
}

sim::Result<Resolved, std::string>
TargetResolver::walk(std::string_view target, const std::vector<std::string_view>& segments) const {
    // Depth-first over (node, next segment); the first complete walk wins, and the first
    // failure explains a target that reaches nothing. Timeline variants of a route can make
    // several walks; a budget keeps crafted files from making this explode.
    constexpr std::size_t steps_max = 1'000'000;
    const std::vector<const Node*>& roots = named(segments[0]);
    RS_ASSERT(!roots.empty());
    std::vector<std::pair<const Node*, std::size_t>> stack;
    for (auto root = roots.rbegin(); root != roots.rend(); ++root) {
        stack.emplace_back(*root, 1);
    }
    std::string first_reason;
    for (std::size_t steps = 0; !stack.empty(); steps++) {
        if (steps == steps_max) {
            return sim::fail("target " + detail::quote(target) +
                             " has too many possible walks to check (expected fewer timeline "
                             "variants of the routes on its path)");
        }
        const auto [node, index] = stack.back();
        stack.pop_back();
        if (index == segments.size()) {
            return Resolved{.node = node};
        }
        const auto prefix_length =
            static_cast<std::size_t>(segments[index].data() - target.data()) - 1;
        std::string reason;
        const std::vector<const Node*> next =
            step(*node, target.substr(0, prefix_length), segments[index], reason);
        if (next.empty() && first_reason.empty()) {
            first_reason = std::move(reason);
        }
        for (auto child = next.rbegin(); child != next.rend(); ++child) {
            stack.emplace_back(*child, index + 1);
        }
    }
    RS_ASSERT(!first_reason.empty());
    return sim::fail("target " + detail::quote(target) + ": " + first_reason);
}

std::vector<const Node*> TargetResolver::step(const Node& node, std::string_view prefix,
                                              std::string_view segment, std::string& reason) const {
    const std::string owner = detail::quote(prefix);
    switch (node.kind) {
    case NodeKind::Actor:
        reason = "actor " + owner + " has no children (expected the path to end there)";
        return {};
    case NodeKind::Supervisor: {
        std::vector<std::string> names;
        for (const Node& child : node.children) {
            if (child.name == segment) {
                return {&child};
            }
            names.push_back(child.name);
        }
        reason = "supervisor " + owner + " has no child " + detail::quote(segment) +
                 (names.empty() ? " (it has no children)"
                                : " (expected one of: " + list_names(names) + ")");
        return {};
    }
    case NodeKind::Pool: {
        RS_ASSERT(node.children.size() == 1);
        const std::uint64_t size = effective_pool_size(node.pool.size);
        const auto index = parse_worker_index(segment);
        if (segment == pool_worker_segment || (index.has_value() && *index < size)) {
            return {&node.children[0]};
        }
        reason = "pool " + owner + " has " + std::to_string(size) + " workers, so " +
                 detail::quote(segment) + " is not one of them (expected #0 to #" +
                 std::to_string(size - 1) + ")";
        return {};
    }
    case NodeKind::Router:
        return step_router(node, prefix, segment, reason);
    }
    RS_ASSERT(false);
    return {};
}

std::vector<const Node*> TargetResolver::step_router(const Node& node, std::string_view prefix,
                                                     std::string_view segment,
                                                     std::string& reason) const {
    RS_ASSERT(node.children.size() == node.router.routes.size());
    std::vector<const Node*> next;
    for (std::size_t i = 0; i < node.router.routes.size(); i++) {
        if (node.router.routes[i].name == segment) {
            next.push_back(&node.children[i]);
        }
    }
    if (const auto added = added_routes_.find(node.path); added != added_routes_.end()) {
        for (const AddedRoute& route : added->second) {
            if (route.name == segment) {
                next.push_back(route.worker);
            }
        }
    }
    if (next.empty()) {
        const std::vector<std::string> names = route_names(node);
        reason = "router " + detail::quote(prefix) + " has no owned route " +
                 detail::quote(segment) +
                 (names.empty() ? " (it owns no routes; a free router's targets are addressed "
                                  "by their registered names)"
                                : " (expected one of: " + list_names(names) + ")");
    }
    return next;
}

} // namespace routesim::scenarios
