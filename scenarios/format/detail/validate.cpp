// Loader internals: cross-reference checks after parsing (unique names, clients, targets,
// router targets, static process count). Private to scenarios/; never throws.
#include <algorithm>
#include <array>

#include "runtime/inspect_keys.hpp"
#include "scenarios/format/detail/parse.hpp"
#include "scenarios/format/resolve.hpp"

namespace routesim::scenarios::detail {
namespace {

/// The Inspect keys of a scenario worker (an actor node): Worker::handle_inspect in
/// scenarios/run/behaviours.cpp.
constexpr std::array<std::string_view, 2> worker_inspect_keys = {"behavior", "processed"};

/// What a target must resolve to.
enum class Want : std::uint8_t { Anything, Node, Router };

/// Registered names of the topology must be unique node-wide (Ergo's SpawnRegister).
bool check_unique_names(Errors& errors, const Node& topology) {
    std::map<std::string, const Node*, std::less<>> seen;
    bool ok = true;
    for (const Node* node : preorder(topology)) {
        if (node->name.empty()) {
            continue;
        }
        const auto [found, inserted] = seen.emplace(node->name, node);
        if (inserted) {
            continue;
        }
        const bool same_entry = found->second->pointer == node->pointer;
        ok = errors.fail(node->pointer + "/name",
                         "duplicate name " + quote(node->name) + " (already used by the node at " +
                             found->second->pointer +
                             (same_entry ? "; expected \"{i}\" in the name of a repeated node"
                                         : "; expected every registered name once") +
                             ")");
    }
    return ok;
}

/// Node names of the topology and of timeline workers -> pointer of the first such node.
std::map<std::string, std::string, std::less<>> node_names(const Scenario& scenario) {
    std::map<std::string, std::string, std::less<>> names;
    std::vector<const Node*> roots{&scenario.topology};
    for (const Action& action : scenario.timeline) {
        if (action.worker.has_value()) {
            roots.push_back(&*action.worker);
        }
    }
    for (const Node* root : roots) {
        for (const Node* node : preorder(*root)) {
            if (!node->name.empty()) {
                names.emplace(node->name, node->pointer);
            }
        }
    }
    return names;
}

/// Collects the clients in order of first appearance; a client may not share a node's name.
bool collect_clients(Errors& errors, Scenario& scenario) {
    const auto names = node_names(scenario);
    const auto add = [&](const std::string& client, const std::string& pointer) {
        if (const auto node = names.find(client); node != names.end()) {
            return errors.fail(pointer, "client name " + quote(client) +
                                            " is also the name of the node at " + node->second +
                                            " (expected a name that no node registers)");
        }
        if (std::find(scenario.clients.begin(), scenario.clients.end(), client) ==
            scenario.clients.end()) {
            scenario.clients.push_back(client);
        }
        return true;
    };
    // Entries with an error count too once their `from` was read (LoadContext::name_errors).
    bool ok = true;
    for (const WorkloadSource& source : scenario.workload) {
        if (!source.from.empty()) {
            ok = add(source.from, source.pointer + "/from") && ok;
        }
    }
    for (const Action& action : scenario.timeline) {
        if ((action.verb == Verb::Send || action.verb == Verb::Call) && !action.from.empty()) {
            ok = add(action.from, action.pointer + "/from") && ok;
        }
    }
    return ok;
}

/// Topology processes at build time; a pool multiplies its worker subtree by its size.
/// Saturates instead of overflowing.
std::uint64_t process_count(const Node& root) {
    // Preorder with parent indices: every child comes after its parent, so one reverse pass
    // folds each subtree into its parent.
    std::vector<std::pair<const Node*, std::size_t>> order;
    std::vector<std::pair<const Node*, std::size_t>> stack{{&root, 0}};
    while (!stack.empty()) {
        const auto [node, parent] = stack.back();
        stack.pop_back();
        const std::size_t index = order.size();
        order.emplace_back(node, parent);
        for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
            stack.emplace_back(&*child, index);
        }
    }
    std::vector<std::uint64_t> counts(order.size(), 1);
    for (std::size_t i = order.size(); i-- > 1;) {
        const Node& parent = *order[order[i].second].first;
        std::uint64_t added = counts[i];
        if (parent.kind == NodeKind::Pool) {
            const std::uint64_t size = effective_pool_size(parent.pool.size);
            added = added > UINT64_MAX / size ? UINT64_MAX : added * size;
        }
        std::uint64_t& total = counts[order[i].second];
        total = total > UINT64_MAX - added ? UINT64_MAX : total + added;
    }
    return counts[0];
}

/// Resolves every target of a scenario against a TargetResolver. Every check goes on after
/// an error, so that all dangling targets are reported; parts in `failed` are skipped.
class TargetChecker {
public:
    TargetChecker(Errors& errors, const Scenario& scenario,
                  const std::set<std::string, std::less<>>& failed)
        : errors_(errors), scenario_(scenario), failed_(failed), resolver_(scenario) {}

    bool target(const std::string& target, const std::string& pointer, Want want) {
        const auto resolved = resolver_.resolve(target);
        if (!resolved.has_value()) {
            return errors_.fail(pointer, resolved.error());
        }
        if (want == Want::Anything) {
            return true;
        }
        const std::string expected = want == Want::Router ? "a router" : "a topology node";
        if (resolved->node == nullptr) {
            return errors_.fail(pointer, "target " + quote(target) + " is a client (expected " +
                                             expected + ")");
        }
        if (want == Want::Router && resolved->node->kind != NodeKind::Router) {
            return errors_.fail(pointer, "target " + quote(target) + " is " +
                                             std::string(spelling(resolved->node->kind)) + " " +
                                             quote(resolved->node->path) + " (expected a router)");
        }
        return true;
    }

    bool failed(const std::string& pointer) const { return failed_.contains(pointer); }

    /// The tree path of the node that `target` names. Precondition: target(target, ...,
    /// Want::Node) passed.
    std::string node_path(const std::string& target) const {
        const auto resolved = resolver_.resolve(target);
        RS_ASSERT(resolved.has_value());
        RS_ASSERT(resolved->node != nullptr);
        return resolved->node->path;
    }

    /// Targets inside a tree: forward behaviours and dead-letter targets.
    bool tree(const Node& root) {
        bool ok = true;
        for (const Node* node : preorder(root)) {
            if (node->kind == NodeKind::Actor && node->behaviour.type == BehaviourType::Forward) {
                ok = target(node->behaviour.to, node->pointer + "/behavior/to", Want::Anything) &&
                     ok;
            }
            if (node->kind == NodeKind::Router &&
                node->router.on_route_failed == OnRouteFailed::DeadLetter) {
                ok = target(node->router.dead_letter,
                            node->pointer + "/on_route_failed/dead_letter", Want::Anything) &&
                     ok;
            }
        }
        return ok;
    }

    /// Precondition: the action parsed whole, or it is a check whose expect was parsed.
    bool action(const Action& action) {
        const std::string at = action.pointer + "/" + std::string(spelling(action.verb));
        const bool worker_ok = !action.worker.has_value() || tree(*action.worker);
        switch (action.verb) {
        case Verb::Kill:
        case Verb::Crash:
            return target(action.target, at, Want::Anything) && worker_ok;
        case Verb::Exit:
            return target(action.target, at + "/target", Want::Anything) && worker_ok;
        case Verb::FailSpawns:
            return target(action.node, at + "/node", Want::Node) && worker_ok;
        case Verb::Send:
        case Verb::Call:
            return target(action.to, action.pointer + "/to", Want::Anything) && worker_ok;
        case Verb::Check:
            return expect(*action.check) && worker_ok;
        default:
            RS_ASSERT(is_management_verb(action.verb));
            return target(action.router, at + "/router", Want::Router) && worker_ok;
        }
    }

    bool expect(const Expect& expect) {
        const std::string& base = expect.pointer;
        bool ok = true;
        if (!failed(base + "/inspect")) {
            for (const auto& [name, values] : expect.inspect) {
                const std::string pointer = base + "/inspect/" + pointer_key(name);
                ok = target(name, pointer, Want::Anything) && inspect_keys(name, values, pointer) &&
                     ok;
            }
        }
        if (!failed(base + "/routes")) {
            for (const auto& [router, routes] : expect.routes) {
                ok = routes_exist(router, routes, base + "/routes/" + pointer_key(router)) && ok;
            }
        }
        if (!failed(base + "/clients")) {
            for (const auto& [client, values] : expect.clients) {
                ok = is_client(client, base + "/clients/" + pointer_key(client)) && ok;
            }
        }
        ok = target_list(expect.alive, base + "/alive") && ok;
        ok = target_list(expect.dead, base + "/dead") && ok;
        ok = route_failed(expect, base) && ok;
        ok = probes(expect, base) && ok;
        return processed(expect, base) && ok;
    }

private:
    /// Every key of an expect.inspect entry is one that the target's kind reports
    /// (runtime/inspect_keys.hpp, scenarios/run/behaviours.cpp). Precondition: `target` resolves.
    bool inspect_keys(const std::string& target, const std::map<std::string, std::string>& values,
                      const std::string& pointer) {
        const auto resolved = resolver_.resolve(target);
        RS_ASSERT(resolved.has_value());
        const InspectKeys keys = inspect_keys_of(resolved->node);
        bool ok = true;
        for (const auto& [key, value] : values) {
            if (std::find(keys.valid.begin(), keys.valid.end(), key) != keys.valid.end()) {
                continue;
            }
            std::string message = keys.kind + " " + quote(target) + " has no Inspect key " +
                                  quote(key) +
                                  (keys.listed.empty() ? std::string(" (its Inspect map is empty)")
                                                       : " (expected one of: " + keys.listed + ")");
            const std::vector<std::string_view> candidates(keys.valid.begin(), keys.valid.end());
            if (const auto near = closest(key, candidates)) {
                message += "; did you mean " + quote(*near) + "?";
            }
            ok = errors_.fail(pointer + "/" + pointer_key(key), message);
        }
        return ok;
    }

    /// The Inspect keys a node reports: every valid key (route and child keys spelled out)
    /// and the list for messages (with patterns).
    struct InspectKeys {
        std::string kind;
        std::vector<std::string> valid;
        std::string listed;
    };

    InspectKeys inspect_keys_of(const Node* node) const {
        InspectKeys keys;
        const auto add = [&keys](const auto& table) {
            for (std::string_view key : table) {
                keys.valid.emplace_back(key);
                keys.listed += (keys.listed.empty() ? "" : ", ") + std::string(key);
            }
        };
        if (node == nullptr) {
            keys.kind = "client"; // a plain recorder: act::Actor's empty map
            return keys;
        }
        keys.kind = std::string(spelling(node->kind));
        switch (node->kind) {
        case NodeKind::Actor:
            add(worker_inspect_keys);
            break;
        case NodeKind::Pool:
            add(runtime::inspect_keys::pool);
            break;
        case NodeKind::Router:
            add(runtime::inspect_keys::router);
            add_route_keys(*node, keys);
            break;
        case NodeKind::Supervisor:
            add(runtime::inspect_keys::supervisor);
            add_supervisor_keys(*node, keys, add);
            break;
        }
        return keys;
    }

    void add_route_keys(const Node& router, InspectKeys& keys) const {
        const std::string_view prefix = runtime::inspect_keys::router_route_prefix;
        for (const std::string& route : resolver_.route_names(router)) {
            for (std::string_view field : runtime::inspect_keys::router_route_fields) {
                keys.valid.push_back(std::string(prefix) + route + ":" + std::string(field));
            }
        }
        keys.listed += ", " + std::string(prefix) + "<route>:(disabled|pending|pid)";
    }

    template <class Add>
    static void add_supervisor_keys(const Node& node, InspectKeys& keys, const Add& add) {
        if (node.supervisor.type != SupervisorType::SimpleOneForOne) {
            add(runtime::inspect_keys::supervisor_named);
            if (node.supervisor.type != SupervisorType::OneForOne) {
                add(std::array{runtime::inspect_keys::supervisor_keep_order});
            }
            return;
        }
        add(runtime::inspect_keys::supervisor_simple);
        const std::string_view prefix = runtime::inspect_keys::supervisor_simple_child_prefix;
        for (const Node& child : node.children) {
            keys.valid.push_back(std::string(prefix) + child.name);
        }
        keys.listed += ", " + std::string(prefix) + "<child>";
    }

    bool target_list(const std::vector<std::string>& targets, const std::string& pointer) {
        if (failed(pointer)) {
            return true;
        }
        bool ok = true;
        for (std::size_t i = 0; i < targets.size(); i++) {
            ok = target(targets[i], pointer + "/" + std::to_string(i), Want::Anything) && ok;
        }
        return ok;
    }

    bool route_failed(const Expect& expect, const std::string& base) {
        if (failed(base + "/route_failed")) {
            return true;
        }
        bool ok = true;
        for (const auto& [router, counts] : expect.route_failed) {
            ok = target(router, base + "/route_failed/" + pointer_key(router), Want::Router) && ok;
        }
        return ok;
    }

    /// The targets of `expect.sometimes`: a route path's router and route, a route_failed
    /// router, a restarts node, an event's process.
    bool probes(const Expect& expect, const std::string& base) {
        if (failed(base + "/sometimes")) {
            return true;
        }
        bool ok = true;
        for (const Probe& probe : expect.sometimes) {
            const std::string at = probe.pointer + "/" +
                                   std::string(probe_condition_field(probe.condition)) + "/" +
                                   pointer_key(probe.target);
            switch (probe.condition) {
            case ProbeCondition::RouteStateSeen:
                ok = probe_route(probe, at) && ok;
                break;
            case ProbeCondition::RouteFailedSeen:
                ok = target(probe.target, at, Want::Router) && ok;
                break;
            case ProbeCondition::RestartsSeen:
                ok = target(probe.target, at, Want::Node) && ok;
                break;
            case ProbeCondition::EventSeen:
                ok = (probe.target.empty() ||
                      target(probe.target, probe.pointer + "/event/at", Want::Anything)) &&
                     ok;
                break;
            }
        }
        return ok;
    }

    bool probe_route(const Probe& probe, const std::string& pointer) {
        if (!target(probe.router, pointer, Want::Router)) {
            return false;
        }
        const std::vector<std::string> names = route_names(probe.router);
        if (std::find(names.begin(), names.end(), probe.route) != names.end()) {
            return true;
        }
        std::string list;
        for (const std::string& name : names) {
            list += (list.empty() ? "" : ", ") + list_item(name);
        }
        return errors_.fail(
            pointer,
            "router " + quote(probe.router) + " has no route " + quote(probe.route) +
                (names.empty() ? " (it owns no routes)" : " (expected one of: " + list + ")"));
    }

    bool processed(const Expect& expect, const std::string& base) {
        if (failed(base + "/processed")) {
            return true;
        }
        bool ok = true;
        for (const auto& [name, count] : expect.processed) {
            ok = target(name, base + "/processed/" + pointer_key(name), Want::Anything) && ok;
        }
        return ok;
    }

    bool routes_exist(const std::string& router, const std::map<std::string, RouteExpect>& routes,
                      const std::string& pointer) {
        if (!target(router, pointer, Want::Router)) {
            return false;
        }
        const std::vector<std::string> names = route_names(router);
        bool ok = true;
        for (const auto& [route, expected] : routes) {
            if (std::find(names.begin(), names.end(), route) != names.end()) {
                continue;
            }
            std::string list;
            for (const std::string& name : names) {
                list += (list.empty() ? "" : ", ") + list_item(name);
            }
            ok = errors_.fail(
                pointer + "/" + pointer_key(route),
                "router " + quote(router) + " has no route " + quote(route) +
                    (names.empty() ? " (it owns no routes)" : " (expected one of: " + list + ")"));
        }
        return ok;
    }

    std::vector<std::string> route_names(const std::string& router) const {
        const auto resolved = resolver_.resolve(router);
        RS_ASSERT(resolved.has_value());
        RS_ASSERT(resolved->node != nullptr);
        return resolver_.route_names(*resolved->node);
    }

    bool is_client(const std::string& name, const std::string& pointer) {
        const std::vector<std::string>& clients = scenario_.clients;
        if (std::find(clients.begin(), clients.end(), name) != clients.end()) {
            return true;
        }
        std::string list;
        for (const std::string& client : clients) {
            list += (list.empty() ? "" : ", ") + list_item(client);
        }
        return errors_.fail(pointer, quote(name) + " is not a client of this scenario" +
                                         (clients.empty()
                                              ? std::string(" (it has no clients: clients are the "
                                                            "\"from\" names of sends and calls)")
                                              : " (expected one of: " + list + ")"));
    }

    Errors& errors_;
    const Scenario& scenario_;
    const std::set<std::string, std::less<>>& failed_;
    TargetResolver resolver_;
};

/// Every target of the workload, the timeline and faults.admin; skips the failed parts.
bool check_section_targets(TargetChecker& checker, Scenario& scenario) {
    bool ok = true;
    for (const WorkloadSource& source : scenario.workload) {
        if (!checker.failed(source.pointer)) {
            ok = checker.target(source.to, source.pointer + "/to", Want::Anything) && ok;
        }
    }
    for (Action& action : scenario.timeline) {
        // A check with an error in one section still has its other sections checked.
        const bool checkable = action.verb == Verb::Check && action.check.has_value();
        if (checker.failed(action.pointer) && !checkable) {
            continue;
        }
        if (!checker.action(action)) {
            ok = false;
        } else if (action.verb == Verb::FailSpawns) {
            // scenarios/FORMAT.md `timeline`: fail_spawns names a node of the topology, which a
            // registered name does as well as a path; the runner counts spawns by node path.
            action.node = checker.node_path(action.node);
        }
    }
    if (scenario.faults.admin.has_value() && !checker.failed("/faults")) {
        const std::vector<std::string>& routers = scenario.faults.admin->routers;
        for (std::size_t i = 0; i < routers.size(); i++) {
            ok = checker.target(routers[i], "/faults/admin/routers/" + std::to_string(i),
                                Want::Router) &&
                 ok;
        }
    }
    return ok;
}

} // namespace

std::uint64_t fired_messages(const Scenario& scenario) {
    // A pinned action (with `step`) fires between steps, without a timer.
    const std::optional<sim::Instant>& until = scenario.run.until;
    const auto fires = [&until](sim::Duration at) {
        return !until.has_value() || sim::Instant::zero() + at <= *until;
    };
    std::uint64_t total = 0;
    for (const WorkloadSource& source : scenario.workload) {
        std::uint64_t count = fires(source.at) ? source.count : 0;
        if (count > 0 && until.has_value() && source.every > sim::Duration::zero()) {
            const std::int64_t span = until->ns() - source.at.count_ns();
            const auto within = static_cast<std::uint64_t>(span / source.every.count_ns()) + 1;
            count = std::min(count, within);
        }
        total = total > UINT64_MAX - count ? UINT64_MAX : total + count;
    }
    for (const Action& action : scenario.timeline) {
        const bool message = action.verb == Verb::Send || action.verb == Verb::Call;
        total += message && !action.step.has_value() && fires(action.at) ? 1 : 0;
    }
    return total;
}

namespace {

/// sim/world.cpp: every workload message and timed timeline send or call is one timer
/// firing, and each firing counts as one event (Limits::events_max counts steps plus timer
/// firings); a run whose event count reaches run.max_events fails. So max_events must be
/// above the number of messages fired before run.until. A delivered message costs a second
/// event (the receiver's step), but a send that finds no live receiver does not, so that
/// bound is not certain and is not an error.
bool check_event_budget(Errors& errors, const Scenario& scenario, bool max_events_given) {
    const std::uint64_t messages = fired_messages(scenario);
    const std::uint64_t max_events = scenario.run.max_events;
    if (max_events > messages) {
        return true;
    }
    const bool timeline =
        std::any_of(scenario.timeline.begin(), scenario.timeline.end(), [](const Action& action) {
            return action.verb == Verb::Send || action.verb == Verb::Call;
        });
    return errors.fail(max_events_given ? "/run/max_events" : "",
                       std::string(max_events_given ? "" : "run.max_events (default) ") +
                           std::to_string(max_events) + " events cannot hold the " +
                           std::to_string(messages) +
                           (timeline ? " workload and timeline" : " workload") +
                           " messages (each costs at least 1 event, the timer that sends it, "
                           "and reaching max_events fails the run: expected more than " +
                           std::to_string(messages) + ")");
}

} // namespace

bool validate_scenario(LoadContext& context, Scenario& scenario) {
    Errors& errors = context.errors;
    bool ok = check_unique_names(errors, scenario.topology);
    ok = collect_clients(errors, scenario) && ok;
    const std::uint64_t processes = process_count(scenario.topology);
    if (processes > context.limits.processes_max) {
        ok = errors.fail(scenario.topology.pointer,
                         "topology spawns " + std::to_string(processes) +
                             " processes when built (expected at most " +
                             std::to_string(context.limits.processes_max) +
                             "; a pool multiplies its worker subtree by its size)");
    }
    TargetChecker checker(errors, scenario, context.failed_parts);
    ok = checker.tree(scenario.topology) && ok;
    ok = check_section_targets(checker, scenario) && ok;
    ok = checker.expect(scenario.expect) && ok;
    // The budget needs run, workload and timeline whole (every count and time read).
    const bool counts_whole = std::none_of(
        context.failed_parts.begin(), context.failed_parts.end(), [](const std::string& part) {
            return part == "/run" || part.starts_with("/workload") || part.starts_with("/timeline");
        });
    return (!counts_whole || check_event_budget(errors, scenario, context.max_events_given)) && ok;
}

} // namespace routesim::scenarios::detail
