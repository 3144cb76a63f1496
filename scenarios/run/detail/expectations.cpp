// Runner internals: expectations, invariant verdicts and the end-of-run summary data.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include <algorithm>

#include "properties/process_names.hpp"
#include "runtime/router.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/expectations.hpp"

#include "scenarios/run/detail/tree_summary.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {
namespace {

// RFC 6901: "~" becomes "~0" and "/" becomes "~1" inside a pointer token.
std::string token(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out.push_back(c);
        }
    }
    return "/" + out;
}

std::string count_text(std::uint64_t value) {
    return std::to_string(value);
}

// An Inspect key the process did not report: say which keys it did report.
std::string absent_key(const runtime::Inspection& values) {
    std::string out = "<absent; reported:";
    for (const auto& [key, value] : values) {
        out += " " + key;
    }
    return out + (values.empty() ? " nothing>" : ">");
}

} // namespace

Expectations::Expectations(const RunCore& core, const Links& links)
    : node_(core.node), scenario_(core.scenario), links_(links) {
    RS_ASSERT(&core.node.world() == &core.world);
}

std::optional<runtime::PID> Expectations::live(const std::string& target) const {
    // A route path resolves to the PID the route table records; when that worker exited and
    // its exit signal was lost (R54), the PID is stale: the process it names is dead.
    const auto pid = links_.targets.resolve(target);
    if (!pid.has_value() || !is_live(*pid)) {
        return std::nullopt;
    }
    return pid;
}

bool Expectations::is_live(const runtime::PID& pid) const {
    const runtime::Process* process = node_.find(pid);
    return process != nullptr && process->is_alive();
}

std::uint64_t Expectations::route_restarts(const std::string& router, std::string_view name) const {
    const Node* spec = spec_of_target(router);
    if (spec == nullptr || spec->kind != NodeKind::Router) {
        const auto pid = links_.targets.resolve(router);
        return pid ? links_.tally.restarts(pid->id, name) : 0;
    }
    return route_restarts(*spec, name);
}

std::uint64_t Expectations::route_restarts(const Node& router, std::string_view name) const {
    // scenarios/FORMAT.md `expect.routes`: restarts over the whole run, every incarnation of
    // the router, also after the route was removed or the router died.
    std::uint64_t total = 0;
    for (const runtime::PID& pid : links_.specs.incarnations(router.path)) {
        total += links_.tally.restarts(pid.id, name);
    }
    return total;
}

const Node* Expectations::spec_of_target(const std::string& target) const {
    if (!static_targets_.has_value()) {
        static_targets_.emplace(scenario_); // indexed on first use: most runs never need it
    }
    const auto resolved = static_targets_->resolve(target);
    return resolved ? resolved.value().node : nullptr;
}

std::vector<std::uint64_t> Expectations::pids_named(const std::string& target,
                                                    const properties::TopologyView& view) const {
    std::vector<std::uint64_t> pids;
    if (const auto pid = links_.targets.resolve(target)) {
        pids.push_back(pid->id);
    }
    if (const Node* spec = spec_of_target(target)) {
        for (const runtime::PID& pid : links_.specs.incarnations(spec->path)) {
            pids.push_back(pid.id);
        }
    }
    for (const properties::ProcessView& process : view.processes()) {
        if (process.pid != 0 &&
            (process.name == target || properties::process_path(view, process.pid) == target)) {
            pids.push_back(process.pid);
        }
    }
    std::sort(pids.begin(), pids.end());
    pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
    RS_ASSERT(std::find(pids.begin(), pids.end(), 0) == pids.end());
    return pids;
}

std::uint64_t Expectations::processed(const std::string& target) const {
    if (target.find("/#") != std::string::npos) {
        // A pool worker "#k" shares its spec with its siblings: count the live one only.
        const auto pid = live(target);
        if (!pid) {
            return 0;
        }
        return links_.tally.taken(pid->id);
    }
    const Node* spec = spec_of_target(target);
    if (spec == nullptr) {
        return 0;
    }
    std::uint64_t total = 0;
    for (const runtime::PID& pid : links_.specs.incarnations(spec->path)) {
        total += links_.tally.taken(pid.id);
    }
    return total;
}

void Expectations::evaluate(const Expect& expect) {
    evaluate_inspect(expect);
    evaluate_routes(expect);
    evaluate_clients(expect);
    const std::string& base = expect.pointer;
    for (std::size_t i = 0; i < expect.alive.size(); i++) {
        links_.checks.add("alive." + expect.alive[i], "alive",
                          live(expect.alive[i]) ? "alive" : "dead",
                          base + "/alive/" + std::to_string(i),
                          {CheckSubject::Topic::Process, expect.alive[i], ""});
    }
    for (std::size_t i = 0; i < expect.dead.size(); i++) {
        links_.checks.add("dead." + expect.dead[i], "dead", live(expect.dead[i]) ? "alive" : "dead",
                          base + "/dead/" + std::to_string(i),
                          {CheckSubject::Topic::Process, expect.dead[i], ""});
    }
    for (const auto& [target, reasons] : expect.route_failed) {
        const Node* spec = spec_of_target(target);
        const std::string path = spec != nullptr ? spec->path : target;
        const auto& counted = links_.routers.route_failed(path);
        for (const auto& [reason, count] : reasons) {
            auto found = counted.find(reason);
            links_.checks.add("route_failed." + target + "." + reason, count_text(count),
                              count_text(found == counted.end() ? 0 : found->second),
                              base + "/route_failed" + token(target) + token(reason),
                              {CheckSubject::Topic::RouteFailed, target, reason});
        }
    }
    for (const auto& [target, count] : expect.processed) {
        links_.checks.add("processed." + target, count_text(count), count_text(processed(target)),
                          base + "/processed" + token(target),
                          {CheckSubject::Topic::Takes, target, ""});
    }
}

void Expectations::evaluate_inspect(const Expect& expect) {
    const std::string& base = expect.pointer;
    for (const auto& [target, keys] : expect.inspect) {
        const auto pid = live(target);
        const auto values = pid ? node_.inspect(*pid)
                                : sim::Result<runtime::Inspection, runtime::Err>(
                                      sim::fail(runtime::Err::ProcessUnknown));
        for (const auto& [key, expected] : keys) {
            std::string actual = "<" + target + " is not running>";
            if (values) {
                auto found = values.value().find(key);
                actual = found == values.value().end() ? absent_key(values.value()) : found->second;
            }
            links_.checks.add("inspect." + target + "." + key, expected, actual,
                              base + "/inspect" + token(target) + token(key),
                              {CheckSubject::Topic::Inspect, target, ""});
        }
    }
}

void Expectations::evaluate_routes(const Expect& expect) {
    const std::string& base = expect.pointer;
    for (const auto& [target, routes] : expect.routes) {
        const auto pid = live(target);
        runtime::act::Router* router = pid ? router_of(node_, *pid) : nullptr;
        for (const auto& [name, want] : routes) {
            const std::string where = "routes." + target + "." + name;
            const std::string pointer = base + "/routes" + token(target) + token(name);
            std::optional<runtime::act::RouterRouteInfo> info;
            if (router != nullptr && !name.empty() && name.size() <= runtime::atom_length_max) {
                info = router->route(runtime::Atom(name));
            }
            if (want.state.has_value()) {
                // scenarios/FORMAT.md: absent = not in the table, or its router is gone.
                const RouteState state = info ? info->state() : RouteState::Absent;
                const std::string actual(runtime::act::route_state_name(state));
                links_.checks.add(where + ".state", std::string(spelling(*want.state)),
                                  router == nullptr ? actual + " (" + target + " is not running)"
                                                    : actual,
                                  pointer + "/state", state == *want.state,
                                  {CheckSubject::Topic::Route, target, name});
            }
            if (want.restarts.has_value()) {
                links_.checks.add(where + ".restarts", count_text(*want.restarts),
                                  count_text(route_restarts(target, name)), pointer + "/restarts",
                                  {CheckSubject::Topic::Restarts, target, name});
            }
        }
    }
}

void Expectations::evaluate_clients(const Expect& expect) {
    const std::string& base = expect.pointer;
    for (const auto& [client, want] : expect.clients) {
        const ClientRecord& record = links_.clients.record(client);
        const std::string where = "clients." + client;
        const std::string pointer = base + "/clients" + token(client);
        if (want.received.has_value()) {
            links_.checks.add(where + ".received", count_text(*want.received),
                              count_text(record.received), pointer + "/received",
                              {CheckSubject::Topic::Client, client, ""});
        }
        for (const auto& [type, count] : want.types) {
            auto found = record.types.find(type);
            links_.checks.add(where + ".types." + type, count_text(count),
                              count_text(found == record.types.end() ? 0 : found->second),
                              pointer + "/types" + token(type),
                              {CheckSubject::Topic::Client, client, ""});
        }
        for (const auto& [error, count] : want.errors) {
            auto found = record.errors.find(error);
            links_.checks.add(where + ".errors." + error, count_text(count),
                              count_text(found == record.errors.end() ? 0 : found->second),
                              pointer + "/errors" + token(error),
                              {CheckSubject::Topic::ClientError, client, error});
        }
    }
}

void Expectations::judge_invariants(const Monitors& monitors, RunResult& result) const {
    result.invariants.reserve(result.invariants.size() + scenario_.expect.invariants.size());
    RS_ASSERT(monitors.judges.size() == scenario_.expect.invariants.size());
    for (std::size_t i = 0; i < monitors.judges.size(); i++) {
        if (scenario_.expect.invariants[i] == Invariant::Determinism) {
            continue; // run_scenario runs the scenario twice for it
        }
        const auto& [name, monitor] = monitors.judges[i];
        if (monitor == nullptr) {
            result.invariants.push_back(InvariantResult{name, "unchecked"});
            continue;
        }
        result.invariants.push_back(InvariantResult{name, monitor->holds() ? "holds" : "violated"});
        for (const properties::Violation& violation : monitor->violations()) {
            result.violations.push_back(violation);
        }
    }
    summarise_ledger(monitors.set.view(), result);
}

std::vector<RouterSummary> Expectations::summarise() const {
    std::vector<RouterSummary> routers;
    for (const Node* spec : preorder(scenario_.topology)) { // routers in tree order
        if (spec->kind == NodeKind::Router) {
            routers.push_back(summarise_router(*spec));
        }
    }
    return routers;
}

RouterSummary Expectations::summarise_router(const Node& spec) const {
    RouterSummary summary;
    summary.path = spec.path;
    summary.route_failed = links_.routers.route_failed(spec.path);
    if (const runtime::PID* latest = links_.specs.latest(spec.path)) {
        const runtime::PID pid = *latest;
        summary.pid = properties::pid_part(pid);
        runtime::act::Router* router = router_of(node_, pid);
        summary.alive = router != nullptr;
        const RouterLastTable* last = links_.routers.last_table(pid.id);
        std::vector<runtime::act::RouterRouteInfo> table;
        if (router != nullptr) {
            summary.counters = router->counters();
            table = router->routes();
        } else if (last != nullptr) {
            // A router that died: its last table, marked with when and why it died.
            summary.died_at = last->at;
            summary.died_reason = last->reason;
            summary.counters = last->counters;
            table = last->routes;
        }
        for (const auto& info : table) {
            const std::string_view name = info.name.text();
            summary.routes.push_back(
                RouteRow{std::string(name), route_state_name(info), properties::pid_part(info.pid),
                         route_restarts(spec, name), !info.pid.empty() && !is_live(info.pid)});
        }
    }
    add_absent_rows(spec, summary);
    return summary;
}

void Expectations::add_absent_rows(const Node& router, RouterSummary& summary) const {
    for (const auto& [target, routes] : scenario_.expect.routes) {
        if (spec_of_target(target) != &router) {
            continue;
        }
        for (const auto& entry : routes) {
            // Not a structured binding: clang 14 cannot capture one in the lambda.
            const std::string& name = entry.first;
            const bool listed = std::any_of(summary.routes.begin(), summary.routes.end(),
                                            [&](const RouteRow& row) { return row.name == name; });
            if (!listed) {
                summary.routes.push_back(
                    RouteRow{name, "absent", "", route_restarts(router, name), false});
            }
        }
    }
}

} // namespace routesim::scenarios::detail
