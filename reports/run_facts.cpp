// The trace collector of the reports and the pid -> topology path reconstruction.
// Part of reports/: uses scenarios/, properties/, runtime/ and sim/.
#include "reports/run_facts.hpp"

#include <string_view>

#include "properties/event_kind.hpp"
#include "properties/route_model.hpp"
#include "runtime/events.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

namespace ev = runtime::ev;
using properties::read_event;

} // namespace

bool is_normal_exit(std::string_view reason) {
    for (const std::string_view normal :
         {std::string_view("normal"), std::string_view("shutdown")}) {
        if (reason == normal) {
            return true;
        }
        if (reason.ends_with(normal) && reason.size() > normal.size() + 2 &&
            reason.substr(reason.size() - normal.size() - 2, 2) == ": ") {
            return true;
        }
    }
    return false;
}

const ProcessFacts* RunFacts::process(std::uint64_t pid) const {
    const auto found = processes.find(pid);
    return found == processes.end() ? nullptr : &found->second;
}

void TraceCollector::on_event(const sim::TraceEvent& event) {
    view_.on_event(event);
    facts_.events++;
    if (facts_.records.size() < options_.records_max) {
        facts_.records.push_back(sim::MemorySink::copy(event));
    }
    const ev::Kind kind = ev::kind_of(event.kind);
    switch (kind) {
    case ev::Kind::Take:
        if (const auto take = read_event<ev::Take>(event)) {
            taken_[take->pid.value]++;
        }
        return;
    case ev::Kind::Send:
        if (const auto send = read_event<ev::Send>(event)) {
            facts_.sends[{send->from.value, send->to.value}]++;
        }
        return;
    case ev::Kind::Route:
        if (const auto routed = read_event<ev::Route>(event)) {
            on_route(*routed);
        }
        return;
    case ev::Kind::RoutePending:
        if (const auto pending = read_event<ev::RoutePending>(event)) {
            on_route_pending(*pending, event);
        }
        return;
    case ev::Kind::Exit:
        if (const auto exit = read_event<ev::Exit>(event)) {
            on_ended(exit->pid, event, false);
        }
        return;
    case ev::Kind::SpawnFailed:
        if (const auto failed = read_event<ev::SpawnFailed>(event)) {
            on_ended(failed->pid, event, true);
        }
        return;
    default:
        on_marked(kind, event);
        return;
    }
}

void TraceCollector::on_marked(ev::Kind kind, const sim::TraceEvent& event) {
    if (kind == ev::Kind::RouteRestart) {
        if (const auto restart = read_event<ev::RouteRestart>(event)) {
            mark(event, MarkerKind::Restart, restart->router,
                 "restart " + std::string(restart->name.text) + " (" +
                     std::string(restart->restart.text) + ")");
        }
    } else if (kind == ev::Kind::SupRestart) {
        if (const auto sup = read_event<ev::SupRestart>(event)) {
            mark(event, MarkerKind::Restart, sup->sup, "restart " + std::string(sup->child.text));
        }
    } else if (kind == ev::Kind::PoolForward) {
        const auto forward = read_event<ev::PoolForward>(event);
        if (forward && (forward->outcome.text == "ok" || forward->outcome.text == "respawned")) {
            facts_.pool_hits[{forward->pool, forward->worker}]++;
        }
    } else if (kind == ev::Kind::FaultKill) {
        if (const auto injected = read_event<ev::FaultKill>(event)) {
            injected_kill_ = injected->pid;
        }
    } else if (kind == ev::Kind::Kill) {
        if (const auto kill = read_event<ev::Kill>(event)) {
            const std::uint64_t victim = kill->pid;
            mark(event, MarkerKind::Fault, victim,
                 victim == injected_kill_ ? "injected kill" : "kill");
            injected_kill_ = 0;
        }
    }
}

const RunFacts& TraceCollector::facts() const {
    facts_.processes.clear();
    for (const properties::ProcessView& seen : view_.processes()) {
        if (seen.behavior.empty() && seen.kind.empty()) {
            continue; // an exit of a process whose spawn the trace does not show
        }
        ProcessFacts& process = facts_.processes[seen.pid];
        process = ProcessFacts{.pid = seen.pid,
                               .parent = seen.parent,
                               .name = seen.name,
                               .behavior = seen.behavior,
                               .spawned = seen.spawned,
                               .ended = std::nullopt,
                               .end_reason = seen.end_reason,
                               .init_failed = seen.init_failed,
                               .taken = 0,
                               .route = seen.route};
        if (seen.exited) {
            process.ended = seen.ended;
        }
        if (const auto count = taken_.find(seen.pid); count != taken_.end()) {
            process.taken = count->second;
        }
    }
    facts_.restarts.clear();
    facts_.discarded.clear();
    for (const properties::RouterView& router : view_.routers()) {
        for (const properties::RouteView& route : router.routes) {
            if (route.restarts > 0) {
                facts_.restarts[{router.pid, route.name}] += route.restarts;
            }
        }
        for (const properties::RouteRemoval& removed : router.removals) {
            if (removed.restarts > 0) {
                facts_.restarts[{router.pid, removed.name}] += removed.restarts;
            }
        }
        if (router.discarded > 0) {
            facts_.discarded[router.pid] = router.discarded;
        }
    }
    for (const properties::SupervisorView& sup : view_.supervisors()) {
        for (const properties::SupervisorChild& child : sup.children) {
            if (child.restarts > 0) {
                facts_.restarts[{sup.pid, child.name}] += child.restarts;
            }
        }
    }
    return facts_;
}

void TraceCollector::on_route(const ev::Route& routed) {
    const std::uint64_t router = routed.router.value;
    if (routed.resolution == ev::Resolution::Discard) {
        return; // counted by the view (RouterView::discarded)
    }
    RouteTraffic& traffic = facts_.routes[{router, std::string(routed.name.text)}];
    switch (routed.resolution) {
    case ev::Resolution::Owned:
        traffic.owned++;
        return;
    case ev::Resolution::Registry:
        traffic.registry++;
        facts_.registry_hits[{router, routed.worker}]++;
        return;
    default:
        traffic.failed++;
        traffic.failed_by_reason[std::string(routed.reason ? routed.reason->text : "")]++;
        return;
    }
}

void TraceCollector::on_route_pending(const ev::RoutePending& pending,
                                      const sim::TraceEvent& event) {
    const std::uint64_t router = pending.router;
    const std::string name(pending.name.text);
    const std::string_view from = runtime::act::route_state_name(pending.from_state);
    const std::string_view to = runtime::act::route_state_name(pending.to_state);
    const std::string key = std::to_string(router) + "/" + name;
    if (properties::is_pending(pending.from_state)) {
        mark(event, MarkerKind::PendingEnd, router,
             name + ": " + std::string(from) + " -> " + std::string(to), key);
    }
    if (properties::is_pending(pending.to_state)) {
        mark(event, MarkerKind::PendingBegin, router, name + ": " + std::string(to), key);
    }
}

void TraceCollector::on_ended(std::uint64_t pid, const sim::TraceEvent& event, bool init_failed) {
    const properties::ProcessView* process = view_.process(pid);
    if (process == nullptr || process->behavior.empty()) {
        return;
    }
    if (init_failed) {
        mark(event, MarkerKind::Fault, pid, "init failed: " + process->end_reason);
    } else if (!is_normal_exit(process->end_reason)) {
        mark(event, MarkerKind::Fault, pid, "exit: " + process->end_reason);
    }
}

void TraceCollector::mark(const sim::TraceEvent& event, MarkerKind kind, std::uint64_t pid,
                          std::string text, std::string key) {
    facts_.markers.push_back(Marker{.kind = kind,
                                    .seq = event.seq,
                                    .at = event.at,
                                    .pid = pid,
                                    .key = std::move(key),
                                    .text = std::move(text)});
}

// -- paths --------------------------------------------------------------------------------

std::map<std::string, const scenarios::Node*> nodes_by_path(const scenarios::Scenario& scenario) {
    std::map<std::string, const scenarios::Node*> nodes;
    std::vector<const scenarios::Node*> stack{&scenario.topology};
    for (const scenarios::Action& action : scenario.timeline) {
        if (action.worker.has_value()) {
            stack.push_back(&*action.worker);
        }
    }
    while (!stack.empty()) {
        const scenarios::Node* node = stack.back();
        stack.pop_back();
        // A replaced route keeps the first spec seen at its path (the topology's).
        nodes.emplace(node->path, node);
        for (const scenarios::Node& child : node->children) {
            stack.push_back(&child);
        }
    }
    return nodes;
}

namespace {

// The path of a child of the process at `parent_path`, whose spec is `parent`.
std::optional<std::string> child_path(const scenarios::Node& parent, const std::string& parent_path,
                                      const ProcessFacts& child) {
    using scenarios::NodeKind;
    switch (parent.kind) {
    case NodeKind::Supervisor:
        if (!child.name.empty()) {
            return parent_path + "/" + child.name;
        }
        // simple_one_for_one children are not registered; such a supervisor has one spec.
        if (parent.children.size() == 1) {
            return parent.children.front().path;
        }
        return std::nullopt;
    case NodeKind::Pool:
        return parent_path + "/" + std::string(scenarios::pool_worker_segment);
    case NodeKind::Router:
        if (child.route.empty()) {
            return std::nullopt;
        }
        return parent_path + "/" + child.route;
    case NodeKind::Actor:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

std::map<std::uint64_t, std::string> process_paths(const scenarios::Scenario& scenario,
                                                   const RunFacts& facts) {
    const auto nodes = nodes_by_path(scenario);
    std::map<std::uint64_t, std::string> paths;
    // Parents spawn before their children, so pid order visits parents first.
    for (const auto& [pid, process] : facts.processes) {
        if (process.behavior == "client") {
            continue;
        }
        const auto parent_path = paths.find(process.parent);
        if (parent_path == paths.end()) {
            if (process.parent == core_pid && process.name == scenario.topology.name) {
                paths[pid] = scenario.topology.path;
            }
            continue;
        }
        const auto parent_node = nodes.find(parent_path->second);
        RS_ASSERT(parent_node != nodes.end());
        auto path = child_path(*parent_node->second, parent_path->second, process);
        if (path.has_value() && nodes.contains(*path)) {
            paths[pid] = std::move(*path);
        }
    }
    return paths;
}

std::map<std::uint64_t, std::string> process_labels(const scenarios::Scenario& scenario,
                                                    const RunFacts& facts) {
    std::map<std::uint64_t, std::string> labels = process_paths(scenario, facts);
    labels.emplace(core_pid, "node");
    for (const auto& [pid, process] : facts.processes) {
        labels.emplace(pid, process.name.empty() ? process.behavior : process.name);
    }
    return labels;
}

} // namespace routesim::reports
