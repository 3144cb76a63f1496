// Loader internals: topology nodes, `repeat` expansion with "{i}" substitution, and the limits
// on depth and node count. Walks the tree with an explicit stack, never by recursion.
// Private to scenarios/; never throws.
#include <array>
#include <deque>
#include <utility>

#include "scenarios/format/detail/parse.hpp"

namespace routesim::scenarios::detail {
namespace {

/// Where a node sits, which decides whether it needs a name and how its path is made.
enum class Role : std::uint8_t { Root, SupervisorChild, PoolWorker, RouteWorker };

/// A node whose object is known but not parsed yet.
struct Pending {
    const Json* json = nullptr;
    std::string pointer;
    /// Root: the given path (or nullopt). Others: the parent's path.
    std::optional<std::string> base_path;
    /// RouteWorker: the route name; PoolWorker: "#*". Unused for the other roles.
    std::string segment;
    /// RouteWorker: the target that addresses the worker ("<router name>/<route>").
    std::string address;
    std::uint32_t depth = 1;
    Role role = Role::Root;
    std::optional<std::uint64_t> repeat_index;
    Node* out = nullptr;
};

/// One element of a children or routes list after expansion.
struct Source {
    const Json* json = nullptr;
    std::string pointer;
    std::optional<std::uint64_t> repeat_index;
};

constexpr std::string_view what_node = "a node object with \"kind\"";
constexpr std::string_view index_marker = "{i}";

constexpr std::array<std::string_view, 5> actor_fields = {"kind", "name", "mailbox_size", "args",
                                                          "behavior"};
constexpr std::array<std::string_view, 7> supervisor_fields = {
    "kind", "name", "mailbox_size", "args", "type", "restart", "children"};
constexpr std::array<std::string_view, 7> pool_fields = {
    "kind", "name", "mailbox_size", "args", "size", "worker", "worker_mailbox_size"};
constexpr std::array<std::string_view, 8> router_fields = {
    "kind",   "name",          "mailbox_size", "args",
    "routes", "route_message", "route_call",   "on_route_failed"};

std::span<const std::string_view> node_fields(NodeKind kind) {
    switch (kind) {
    case NodeKind::Actor:
        return actor_fields;
    case NodeKind::Supervisor:
        return supervisor_fields;
    case NodeKind::Pool:
        return pool_fields;
    case NodeKind::Router:
        return router_fields;
    }
    RS_ASSERT(false);
    return {};
}

/// Counts the JSON values of a subtree (itself included), iteratively.
std::uint64_t count_values(const Json& root) {
    std::uint64_t count = 0;
    std::vector<const Json*> stack{&root};
    while (!stack.empty()) {
        const Json* value = stack.back();
        stack.pop_back();
        count++;
        if (value->is_structured()) {
            for (const Json& child : *value) {
                stack.push_back(&child);
            }
        }
    }
    return count;
}

void replace_marker(std::string& text, const std::string& index) {
    std::size_t at = text.find(index_marker);
    while (at != std::string::npos) {
        text.replace(at, index_marker.size(), index);
        at = text.find(index_marker, at + index.size());
    }
}

/// Renames the keys of `object` that contain "{i}". False on a key collision.
bool substitute_keys(Json& object, const std::string& index, std::string& collision) {
    std::vector<std::string> marked;
    for (const auto& item : object.items()) {
        if (item.key().find(index_marker) != std::string::npos) {
            marked.push_back(item.key());
        }
    }
    for (const std::string& key : marked) {
        std::string renamed = key;
        replace_marker(renamed, index);
        if (object.contains(renamed)) {
            collision = renamed;
            return false;
        }
        Json value = std::move(object[key]);
        object.erase(key);
        object[renamed] = std::move(value);
    }
    return true;
}

/// Replaces "{i}" by `index` in every string and key of `root`, except inside nested
/// children/routes entries that carry their own `repeat` (the nearest repeat binds {i}).
bool substitute_index(Json& root, std::uint64_t index_value, std::string& collision) {
    const std::string index = std::to_string(index_value);
    std::vector<std::pair<Json*, bool>> stack{{&root, false}}; // (value, is a node list)
    while (!stack.empty()) {
        auto [value, node_list] = stack.back();
        stack.pop_back();
        if (value->is_string()) {
            replace_marker(value->get_ref<std::string&>(), index);
        } else if (value->is_object()) {
            if (!substitute_keys(*value, index, collision)) {
                return false;
            }
            for (auto& item : value->items()) {
                const bool list = item.key() == "children" || item.key() == "routes";
                stack.emplace_back(&item.value(), list && item.value().is_array());
            }
        } else if (value->is_array()) {
            for (Json& element : *value) {
                if (!(node_list && element.is_object() && element.contains("repeat"))) {
                    stack.emplace_back(&element, false);
                }
            }
        }
    }
    return true;
}

/// Parses the tree below one root. Owns the repeat copies until the parse ends.
class TreeParser {
public:
    explicit TreeParser(LoadContext& context) : context_(context) {}

    bool parse(const Located& at, std::optional<std::string> path, Node& out, TreeRoot root) {
        if (!count_nodes(1, at.pointer)) {
            return false;
        }
        // A route worker given whole (timeline, router.admin) keeps the Root role for its
        // path; only the name check of route workers applies to it.
        std::string address =
            root == TreeRoot::RouteWorker ? path.value_or(std::string()) : std::string();
        stack_.push_back(Pending{.json = at.value,
                                 .pointer = at.pointer,
                                 .base_path = std::move(path),
                                 .address = std::move(address),
                                 .out = &out});
        // A node with an error leaves out its subtree; its siblings are still parsed, unless
        // a limit was hit (then every later node would hit it too).
        bool ok = true;
        while (!stack_.empty()) {
            Pending item = std::move(stack_.back());
            stack_.pop_back();
            if (!parse_node(item)) {
                ok = false;
                if (limit_hit_) {
                    return false;
                }
            }
        }
        return ok;
    }

private:
    bool parse_node(const Pending& item) {
        Errors& errors = context_.errors;
        const Located at{item.json, item.pointer};
        if (!expect_object(errors, at, what_node)) {
            return false;
        }
        Fields fields(errors, at);
        Node& node = *item.out;
        node.pointer = item.pointer;
        node.repeat_index = item.repeat_index;
        if (!fields.enumeration("kind", node.kind, Need::Required)) {
            return false;
        }
        if (fields.has("repeat")) {
            return errors.fail(fields.at("repeat").pointer,
                               "\"repeat\" is only allowed on supervisor children and route "
                               "entries (expected a single node here)");
        }
        if (!fields.only(node_fields(node.kind)) || !parse_common(fields, item, node)) {
            return false;
        }
        std::vector<Source> children;
        bool parsed = false;
        switch (node.kind) {
        case NodeKind::Actor:
            parsed = fields.need("behavior", "a behavior object with \"type\"") &&
                     parse_behaviour(errors, fields.at("behavior"), node.behaviour);
            break;
        case NodeKind::Supervisor:
            parsed = parse_supervisor(fields, node, children);
            break;
        case NodeKind::Pool:
            parsed = parse_pool(fields, node, children);
            break;
        case NodeKind::Router:
            parsed = parse_router(fields, node, children);
            break;
        }
        return parsed && push_children(item, node, std::move(children));
    }

    bool parse_common(const Fields& fields, const Pending& item, Node& node) {
        if (!item.address.empty() && fields.has("name")) {
            return fail_route_worker_name(fields.at("name"), item.address);
        }
        if (item.role == Role::SupervisorChild &&
            !fields.need("name", "an Atom (a supervisor child needs the child spec name it is "
                                 "registered under)")) {
            return false;
        }
        const IntRange mailbox{.max = static_cast<std::uint64_t>(INT64_MAX)};
        if (!fields.atom("name", node.name) ||
            !fields.u64("mailbox_size", node.mailbox_size, mailbox)) {
            return false;
        }
        if (fields.has("args")) {
            node.args = fields.at("args").json();
        }
        switch (item.role) {
        case Role::Root:
            node.path = item.base_path.value_or(node.name);
            break;
        case Role::SupervisorChild:
            node.path = *item.base_path + "/" + node.name;
            break;
        case Role::PoolWorker:
        case Role::RouteWorker:
            node.path = *item.base_path + "/" + item.segment;
            break;
        }
        return true;
    }

    /// R5: a router spawns its workers anonymously, so a name on one would
    /// never be registered and a send or forward to it would find nothing.
    bool fail_route_worker_name(const Located& name, const std::string& address) {
        return context_.errors.fail(
            name.pointer, "a route's worker cannot have a name: route workers are spawned "
                          "unnamed (R5), so " +
                              describe(name.json()) +
                              " would never be registered (expected no \"name\"; address it "
                              "as " +
                              quote(address) + ")");
    }

    bool parse_supervisor(const Fields& fields, Node& node, std::vector<Source>& children) {
        SupervisorSpec& spec = node.supervisor;
        if (!fields.enumeration("type", spec.type)) {
            return false;
        }
        if (fields.has("restart")) {
            const Located restart = fields.at("restart");
            if (!expect_object(context_.errors, restart, "a restart object")) {
                return false;
            }
            const Fields sub(context_.errors, restart);
            const IntRange intensity{.max = 65535}; // Ergo: Intensity uint16
            if (!sub.only({"strategy", "intensity", "period", "keep_order"}) ||
                !sub.enumeration("strategy", spec.strategy) ||
                !sub.u64("intensity", spec.intensity, intensity) ||
                !sub.duration("period", spec.period) ||
                !sub.boolean("keep_order", spec.keep_order)) {
                return false;
            }
        }
        if (!fields.has("children")) {
            return true;
        }
        return expand_list(fields.at("children"), "an array of child nodes", children);
    }

    bool parse_pool(const Fields& fields, Node& node, std::vector<Source>& children) {
        const IntRange size{.max = context_.limits.processes_max, .limit = "process limit"};
        const IntRange mailbox{.max = static_cast<std::uint64_t>(INT64_MAX)};
        if (!fields.u64("size", node.pool.size, size) ||
            !fields.u64("worker_mailbox_size", node.pool.worker_mailbox_size, mailbox) ||
            !fields.need("worker", what_node)) {
            return false;
        }
        const Located worker = fields.at("worker");
        children.push_back(Source{worker.value, worker.pointer, std::nullopt});
        return true;
    }

    bool parse_router(const Fields& fields, Node& node, std::vector<Source>& children) {
        Errors& errors = context_.errors;
        RouterSpec& spec = node.router;
        if (fields.has("route_message") &&
            !parse_rule(errors, fields.at("route_message"), spec.route_message)) {
            return false;
        }
        if (fields.has("route_call") &&
            !parse_rule(errors, fields.at("route_call"), spec.route_call)) {
            return false;
        }
        if (fields.has("on_route_failed") &&
            !parse_on_route_failed(fields.at("on_route_failed"), spec)) {
            return false;
        }
        std::vector<Source> entries;
        if (fields.has("routes") &&
            !expand_list(fields.at("routes"), "an array of route entries", entries)) {
            return false;
        }
        for (const Source& entry : entries) {
            const Located at{entry.json, entry.pointer};
            if (!expect_object(errors, at, "a route entry object with \"name\" and \"worker\"")) {
                return false;
            }
            const Fields route(errors, at);
            RouteSpec parsed{.pointer = entry.pointer};
            if (!route.only({"name", "worker", "args"}) ||
                !route.atom("name", parsed.name, Need::Required) ||
                !route.need("worker", what_node)) {
                return false;
            }
            if (route.has("args")) {
                parsed.args = route.at("args").json();
            }
            const Located worker = route.at("worker");
            children.push_back(Source{worker.value, worker.pointer, entry.repeat_index});
            spec.routes.push_back(std::move(parsed));
        }
        return true;
    }

    bool parse_on_route_failed(const Located& at, RouterSpec& spec) {
        Errors& errors = context_.errors;
        constexpr std::string_view what = "\"log\", \"terminate\" or {\"dead_letter\": name}";
        if (at.json().is_string()) {
            const auto& text = at.json().get_ref<const std::string&>();
            if (text == "log" || text == "terminate") {
                spec.on_route_failed =
                    text == "log" ? OnRouteFailed::Log : OnRouteFailed::Terminate;
                return true;
            }
            return errors.fail(at.pointer, "unknown on_route_failed action " + quote(text) +
                                               " (expected " + std::string(what) + ")");
        }
        if (!expect_object(errors, at, what)) {
            return false;
        }
        const Fields fields(errors, at);
        spec.on_route_failed = OnRouteFailed::DeadLetter;
        return fields.only({"dead_letter"}) &&
               fields.atom("dead_letter", spec.dead_letter, Need::Required, what_target);
    }

    /// Expands a children or routes array: entries with `repeat` become N substituted copies.
    bool expand_list(const Located& list, std::string_view what, std::vector<Source>& out) {
        if (!expect_array(context_.errors, list, what)) {
            return false;
        }
        for (std::size_t i = 0; i < list.json().size(); i++) {
            const Located entry = list.element(i);
            if (!entry.json().is_object() || !entry.json().contains("repeat")) {
                out.push_back(Source{entry.value, entry.pointer, std::nullopt});
                continue;
            }
            if (!expand_repeat(entry, out)) {
                return false;
            }
        }
        return true;
    }

    bool expand_repeat(const Located& entry, std::vector<Source>& out) {
        Errors& errors = context_.errors;
        const Located repeat_at = entry.member("repeat");
        std::uint64_t count = 0;
        const IntRange range{.max = context_.limits.repeat_max, .limit = "repeat limit"};
        if (!read_u64(errors, repeat_at, range, count)) {
            return false;
        }
        const std::uint64_t nodes_max = context_.limits.nodes_max;
        if (count > nodes_max - std::min(nodes_max, context_.nodes + out.size())) {
            limit_hit_ = true;
            return errors.fail(repeat_at.pointer,
                               "repeat " + std::to_string(count) +
                                   " takes the topology over the node limit of " +
                                   std::to_string(nodes_max) + " (expected at most " +
                                   std::to_string(nodes_max) + " nodes in total)");
        }
        const std::uint64_t values = count_values(entry.json()) * count;
        context_.repeat_values += values;
        if (context_.repeat_values > context_.limits.repeat_values_max) {
            limit_hit_ = true;
            return errors.fail(repeat_at.pointer,
                               "repeat copies exceed the limit of " +
                                   std::to_string(context_.limits.repeat_values_max) +
                                   " JSON values in total (expected smaller repeated entries)");
        }
        for (std::uint64_t index = 0; index < count; index++) {
            Json copy = entry.json();
            copy.erase("repeat");
            std::string collision;
            if (!substitute_index(copy, index, collision)) {
                return errors.fail(entry.pointer, "replacing {i} by " + std::to_string(index) +
                                                      " makes the key " + quote(collision) +
                                                      " appear twice (expected unique keys)");
            }
            copies_.push_back(std::move(copy));
            out.push_back(Source{&copies_.back(), entry.pointer, index});
        }
        return true;
    }

    bool count_nodes(std::uint64_t added, const std::string& pointer) {
        context_.nodes += added;
        if (context_.nodes <= context_.limits.nodes_max) {
            return true;
        }
        limit_hit_ = true;
        return context_.errors.fail(pointer, "topology has more than " +
                                                 std::to_string(context_.limits.nodes_max) +
                                                 " nodes after repeat expansion (expected at "
                                                 "most " +
                                                 std::to_string(context_.limits.nodes_max) + ")");
    }

    /// Sizes `node.children` once (so the pointers stay valid) and queues every child.
    bool push_children(const Pending& item, Node& node, std::vector<Source> sources) {
        if (sources.empty()) {
            return true;
        }
        if (!count_nodes(sources.size(), sources.front().pointer)) {
            return false;
        }
        const std::uint32_t depth = item.depth + 1;
        if (depth > context_.limits.tree_depth_max) {
            limit_hit_ = true;
            const std::string limit = std::to_string(context_.limits.tree_depth_max);
            return context_.errors.fail(sources.front().pointer, "topology is nested deeper than " +
                                                                     limit +
                                                                     " levels (expected at most " +
                                                                     limit + " levels of nodes)");
        }
        const Role role = node.kind == NodeKind::Supervisor ? Role::SupervisorChild
                          : node.kind == NodeKind::Pool     ? Role::PoolWorker
                                                            : Role::RouteWorker;
        RS_ASSERT(node.kind != NodeKind::Actor);
        RS_ASSERT(role != Role::RouteWorker || sources.size() == node.router.routes.size());
        node.children.resize(sources.size());
        // Reverse order on the stack, so nodes are parsed (and errors found) in file order.
        for (std::size_t i = sources.size(); i-- > 0;) {
            std::string segment = role == Role::PoolWorker    ? std::string(pool_worker_segment)
                                  : role == Role::RouteWorker ? node.router.routes[i].name
                                                              : std::string();
            // A named router is addressed by its name, an unnamed one by its tree path (an
            // unnamed root has none: the hint then says where the router's name goes).
            std::string address = role != Role::RouteWorker ? std::string()
                                  : !node.name.empty()      ? node.name + "/" + segment
                                  : !node.path.empty()      ? node.path + "/" + segment
                                                            : "<router name>/" + segment;
            stack_.push_back(Pending{.json = sources[i].json,
                                     .pointer = sources[i].pointer,
                                     .base_path = node.path,
                                     .segment = std::move(segment),
                                     .address = std::move(address),
                                     .depth = depth,
                                     .role = role,
                                     .repeat_index = sources[i].repeat_index,
                                     .out = &node.children[i]});
        }
        return true;
    }

    LoadContext& context_;
    std::deque<Json> copies_; // repeat copies; a deque keeps their addresses stable
    std::vector<Pending> stack_;
    bool limit_hit_ = false;
};

} // namespace

bool parse_node_tree(LoadContext& context, const Located& at, std::optional<std::string> path,
                     Node& out, TreeRoot root) {
    TreeParser parser(context);
    return parser.parse(at, std::move(path), out, root);
}

} // namespace routesim::scenarios::detail
