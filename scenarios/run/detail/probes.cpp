// Runner internals: reachability probes (`expect.sometimes`), tested after every trace event.
// Part of scenarios/run/: uses properties/, runtime/ and sim/.
#include "scenarios/run/detail/probes.hpp"

#include <array>
#include <string_view>

#include "scenarios/format/resolve.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {
namespace {

/// The fields that name the process an event is at, in the order they are looked for: the
/// first one an event has is its process (scenarios/FORMAT.md, `expect.sometimes`).
constexpr std::array<std::string_view, 8> process_fields = {"pid",    "router",   "pool", "sup",
                                                            "caller", "consumer", "by",   "from"};

/// The pid id of the process `event` is at, 0 when it names none.
std::uint64_t process_of(const sim::TraceEvent& event) {
    for (std::string_view name : process_fields) {
        for (std::size_t i = 0; i < event.field_count; i++) {
            const sim::TraceField& field = event.fields[i];
            if (field.key.name == name && field.value.type() == sim::TraceValue::Type::Uint) {
                return field.value.as_uint();
            }
        }
    }
    return 0;
}

/// Kinds after which a target may name another process (or none).
bool changes_processes(runtime::ev::Kind code) {
    using runtime::ev::Kind;
    return code == Kind::Spawn || code == Kind::SpawnFailed || code == Kind::Exit ||
           code == Kind::Kill || code == Kind::Register || code == Kind::Unregister ||
           code == Kind::RouteInit || code == Kind::RouteRestart || code == Kind::RoutePending ||
           code == Kind::RouteAdmin || code == Kind::PoolForward || code == Kind::PoolWorkers;
}

} // namespace

Probes::Probes(const Scenario& scenario, const Targets& targets,
               const properties::TopologyView& view)
    : targets_(targets), view_(view) {
    states_.reserve(scenario.expect.sometimes.size());
    for (const Probe& probe : scenario.expect.sometimes) {
        State state;
        state.probe = &probe;
        if (probe.condition == ProbeCondition::RestartsSeen) {
            set_parent(scenario, state);
        }
        states_.push_back(std::move(state));
    }
    remaining_ = states_.size();
}

void Probes::set_parent(const Scenario& scenario, State& state) const {
    // The target's tree path names its parent: "<parent>/<child>".
    const TargetResolver resolver(scenario);
    const auto resolved = resolver.resolve(state.probe->target);
    if (!resolved.has_value() || resolved->node == nullptr) {
        return;
    }
    std::string path = resolved->node->path;
    const std::string& target = state.probe->target;
    if (const std::size_t hash = target.rfind("/#"); hash != std::string::npos) {
        path = target; // a pool worker: its spec's path does not name the slot
    }
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) {
        return; // a root: nothing restarts it
    }
    state.parent_target = path.substr(0, slash);
    state.child = path.substr(slash + 1);
    const auto parent = resolver.resolve(state.parent_target);
    if (!parent.has_value() || parent->node == nullptr) {
        return;
    }
    switch (parent->node->kind) {
    case NodeKind::Router:
        state.parent = Parent::Router;
        break;
    case NodeKind::Supervisor:
        state.parent = Parent::Supervisor;
        break;
    case NodeKind::Pool:
        state.parent = Parent::Pool;
        break;
    case NodeKind::Actor:
        break;
    }
}

void Probes::on_event(const sim::TraceEvent& event) {
    if (remaining_ == 0) [[likely]] {
        return;
    }
    const runtime::ev::Kind code = runtime::ev::kind_of(event.kind);
    const bool moved = changes_processes(code);
    for (State& state : states_) {
        if (state.reached) {
            continue;
        }
        if (moved) {
            state.resolved = false;
        }
        if (holds(state, code, event)) {
            state.reached = true;
            state.seq = event.seq;
            state.at = event.at;
            remaining_--;
        }
    }
}

bool Probes::holds(State& state, runtime::ev::Kind code, const sim::TraceEvent& event) {
    const Probe& probe = *state.probe;
    switch (probe.condition) {
    case ProbeCondition::RouteStateSeen:
        return route_state_holds(state);
    case ProbeCondition::RouteFailedSeen: {
        if (code != runtime::ev::Kind::Route) {
            return false;
        }
        const auto routed = runtime::ev::decode<runtime::ev::Route>(event);
        return routed.has_value() && routed->resolution == runtime::ev::Resolution::Failed &&
               routed->reason.has_value() && routed->reason->text == probe.reason &&
               routed->router.value == pid_of(state, probe.target);
    }
    case ProbeCondition::RestartsSeen:
        return restarted(state, code, event);
    case ProbeCondition::EventSeen:
        return event_holds(state, event);
    }
    return false;
}

bool Probes::route_state_holds(State& state) {
    const Probe& probe = *state.probe;
    RouteState now = RouteState::Absent;
    const std::uint64_t pid = pid_of(state, probe.router);
    const properties::RouterView* router = pid == 0 ? nullptr : view_.router(pid);
    if (router != nullptr && router->alive) {
        if (const properties::RouteView* route = router->route(probe.route)) {
            now = route->state;
        }
    }
    return now == probe.state;
}

bool Probes::restarted(State& state, runtime::ev::Kind code, const sim::TraceEvent& event) {
    using runtime::ev::Kind;
    bool counted = false;
    if (state.parent == Parent::Router && code == Kind::RouteRestart) {
        const auto restart = runtime::ev::decode<runtime::ev::RouteRestart>(event);
        counted = restart && restart->name.text == state.child &&
                  restart->router == pid_of(state, state.parent_target);
    } else if (state.parent == Parent::Supervisor && code == Kind::SupRestart) {
        const auto restart = runtime::ev::decode<runtime::ev::SupRestart>(event);
        counted = restart && restart->child.text == state.child &&
                  restart->sup == pid_of(state, state.parent_target);
    } else if (state.parent == Parent::Pool && code == Kind::PoolForward) {
        const auto forward = runtime::ev::decode<runtime::ev::PoolForward>(event);
        counted = forward && forward->outcome.text == "respawned" &&
                  forward->pool == pid_of(state, state.parent_target);
    }
    if (counted) {
        state.count++;
    }
    return state.count >= state.probe->count;
}

bool Probes::event_holds(State& state, const sim::TraceEvent& event) {
    const Probe& probe = *state.probe;
    if (event.kind.name != probe.kind) {
        return false;
    }
    if (probe.target.empty()) {
        return true;
    }
    const std::uint64_t at = process_of(event);
    return at != 0 && at == pid_of(state, probe.target);
}

std::uint64_t Probes::pid_of(State& state, const std::string& target) {
    if (!state.resolved) {
        const auto pid = targets_.resolve(target);
        state.pid = pid.has_value() ? pid->id : 0;
        state.resolved = true;
    }
    return state.pid;
}

std::vector<ProbeResult> Probes::results() const {
    std::vector<ProbeResult> out;
    out.reserve(states_.size());
    for (const State& state : states_) {
        out.push_back(ProbeResult{state.probe->name, state.probe->pointer, state.reached, state.seq,
                                  state.at});
    }
    return out;
}

} // namespace routesim::scenarios::detail
