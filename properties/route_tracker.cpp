// RouteTracker: the route table of every router rebuilt from the trace, each management
// result checked against predict_call (§8: R5, R13, R22–R30, R45, R50).
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/route_tracker.hpp"

#include <algorithm>

#include "properties/event_text.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/router.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace ev = runtime::ev;
namespace {

std::string quoted(std::string_view name) {
    return "\"" + std::string(name) + "\"";
}

// How a route's state reads in an explanation.
std::string state_phrase(RouteState state) {
    switch (state) {
    case RouteState::Absent:
        return "not in the table";
    case RouteState::Disabled:
        return "disabled";
    case RouteState::PendingDisable:
        return "being disabled (pending_disable)";
    case RouteState::PendingRemove:
        return "being removed (pending_remove)";
    default:
        return std::string(route_state_name(state));
    }
}

} // namespace

Witness RouteTracker::LastForward::witness(std::uint64_t by, const TopologyView* names) const {
    return Witness{seq, at,
                   "forward id=" + std::to_string(id) + " by=" + pid_field_text(by, names) +
                       " to=" + pid_field_text(to, names) + " from=" + pid_field_text(from, names) +
                       " queue=" + std::to_string(queue)};
}

// -- queries ------------------------------------------------------------------------------

const RouteTracker::Router* RouteTracker::held(std::uint64_t pid) const {
    auto found =
        std::lower_bound(held_.begin(), held_.end(), pid,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    return found == held_.end() || found->first != pid ? nullptr : found->second;
}

std::uint64_t RouteTracker::watcher_of(std::uint64_t worker) const {
    auto found =
        std::lower_bound(watched_.begin(), watched_.end(), worker,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    return found == watched_.end() || found->first != worker ? 0 : found->second;
}

std::vector<std::string> RouteTracker::route_names(std::uint64_t router) const {
    std::vector<std::string> names;
    if (const Router* found = held(router)) {
        for (const Route& route : found->routes) {
            names.push_back(route.name);
        }
    }
    return names;
}

RouteState RouteTracker::state(std::uint64_t router, std::string_view name) const {
    const Router* found = held(router);
    const std::size_t index = found == nullptr ? no_route : route_index(*found, name);
    return index == no_route ? RouteState::Absent : found->routes[index].state;
}

std::uint64_t RouteTracker::worker(std::uint64_t router, std::string_view name) const {
    const Router* found = held(router);
    const std::size_t index = found == nullptr ? no_route : route_index(*found, name);
    return index == no_route ? 0 : found->routes[index].worker;
}

bool RouteTracker::lost(std::uint64_t router) const {
    const Router* found = held(router);
    return found != nullptr && found->lost;
}

// -- dispatch -----------------------------------------------------------------------------

std::size_t RouteTracker::route_index(const Router& router, std::string_view name) {
    for (std::size_t index = 0; index < router.routes.size(); index++) {
        if (router.routes[index].name == name) {
            return index;
        }
    }
    return no_route;
}

std::size_t RouteTracker::named_route(Router& router, const ev::Text& text) {
    const std::string_view name = text.text;
    const std::uint64_t hash = text.hash;
    NameCache& cached = router.names[hash & (name_cache_size - 1)];
    if (cached.text == name.data() && cached.hash == hash && cached.size == name.size()) {
        RS_ASSERT(cached.index < router.routes.size());
        return cached.index; // same hash and address: the same text (as is_kind trusts)
    }
    const std::size_t found = route_index(router, name);
    if (found != no_route) {
        cached = NameCache{hash, name.data(), name.size(), found};
    }
    return found;
}

std::size_t RouteTracker::worker_route(const Router& router, std::uint64_t worker) {
    for (std::size_t index = 0; index < router.routes.size(); index++) {
        const Route& route = router.routes[index];
        if (route.owns_worker && route.worker == worker) {
            return index;
        }
    }
    return no_route;
}

RouteTracker::Router& RouteTracker::add_router(std::uint64_t pid) {
    auto found =
        std::lower_bound(held_.begin(), held_.end(), pid,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    if (found != held_.end() && found->first == pid) {
        return *found->second;
    }
    routers_low_ = std::min(routers_low_, pid);
    routers_high_ = std::max(routers_high_, pid);
    if (routers_used_ == routers_.size()) {
        routers_.emplace_back();
    }
    Router& made = routers_[routers_used_++];
    made.pid = pid;
    made.routes.clear(); // keeps its allocation
    made.names.fill(NameCache{});
    made.fresh_spawn = 0;
    made.last_forward.reset();
    made.before.reset();
    made.forward_reported = 0;
    made.lost = false;
    held_.insert(found, {pid, &made});
    RS_ASSERT(std::is_sorted(held_.begin(), held_.end()));
    return made;
}

RouteTracker::Router* RouteTracker::find_router_slow(std::uint64_t router) {
    Router* found = const_cast<Router*>(held(router));
    if (found == nullptr) {
        return nullptr;
    }
    // Routers stay put (a deque) and erase_router forgets the cache first.
    last_router_pid_ = router;
    last_router_ = found;
    return found->lost ? nullptr : found;
}

void RouteTracker::erase_router(std::uint64_t pid) {
    if (pid < routers_low_ || pid > routers_high_) {
        return; // most exits are workers' and clients'
    }
    if (last_router_pid_ == pid) {
        last_router_ = nullptr;
        last_router_pid_ = 0;
    }
    auto found =
        std::lower_bound(held_.begin(), held_.end(), pid,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    if (found != held_.end() && found->first == pid) {
        held_.erase(found); // its slot in routers_ waits for the next reset
    }
}

std::uint64_t RouteTracker::on_other(EventKind kind, const sim::TraceEvent& event,
                                     EventDecodes& decodes, std::vector<Finding>& out) {
    switch (kind) {
    case EventKind::Forward:
        if (const ev::Forward* forward = decodes.get<ev::Forward>(event)) {
            if (Router* router = find_router(forward->by.value)) {
                on_forward(*router, forward->by.value, *forward, event, out);
            }
        }
        return 0;
    case EventKind::Spawn: {
        const ev::Spawn* spawn = decodes.get<ev::Spawn>(event);
        return spawn ? on_spawn(*spawn) : 0;
    }
    case EventKind::SpawnFailed:
        if (const ev::SpawnFailed* failed = decodes.get<ev::SpawnFailed>(event)) {
            on_spawn_failed(*failed);
        }
        return 0;
    case EventKind::Exit:
        if (const ev::Exit* exit = decodes.get<ev::Exit>(event)) {
            on_exit(exit->pid);
        }
        return 0;
    case EventKind::Kill:
        if (const ev::Kill* kill = decodes.get<ev::Kill>(event)) {
            on_kill(kill->pid);
        }
        return 0;
    case EventKind::RouteInit: {
        const ev::RouteInit* init = decodes.get<ev::RouteInit>(event);
        if (!init) {
            return 0;
        }
        on_route_init(*init, event, out); // adds the router if new
        return init->router;
    }
    case EventKind::Route: // the most common route event: straight to its handler
        if (const ev::Route* route = decodes.get<ev::Route>(event)) {
            if (Router* router = find_router(route->router.value)) {
                on_route(*router, route->router.value, *route, event, out);
            }
        }
        return 0;
    case EventKind::RouteRestart:
    case EventKind::RoutePending:
    case EventKind::RouteAdmin:
        on_route_event(kind, event, decodes, out);
        return 0;
    default:
        return 0;
    }
}

void RouteTracker::on_route_event(EventKind kind, const sim::TraceEvent& event,
                                  EventDecodes& decodes, std::vector<Finding>& out) {
    // Each kind is decoded once; its router field says whose table it changes.
    if (kind == EventKind::RouteRestart) {
        if (const ev::RouteRestart* restart = decodes.get<ev::RouteRestart>(event)) {
            if (Router* router = find_router(restart->router)) {
                on_restart(*router, restart->router, *restart, event, out);
            }
        }
    } else if (kind == EventKind::RoutePending) {
        if (const ev::RoutePending* pending = decodes.get<ev::RoutePending>(event)) {
            if (Router* router = find_router(pending->router)) {
                on_pending(*router, pending->router, *pending, event, out);
            }
        }
    } else {
        RS_ASSERT(kind == EventKind::RouteAdmin);
        if (const ev::RouteAdmin* admin = decodes.get<ev::RouteAdmin>(event)) {
            if (Router* router = find_router(admin->router)) {
                on_admin(*router, admin->router, *admin, event, out);
            }
        }
    }
}

// -- processes ----------------------------------------------------------------------------

std::uint64_t RouteTracker::on_spawn(const ev::Spawn& spawn) {
    if (Router* parent = find_router(spawn.parent)) {
        parent->fresh_spawn = spawn.pid; // a management call's spawn, claimed by its route_admin
    }
    if (spawn.behavior_kind.text != "Router") {
        return 0;
    }
    add_router(spawn.pid);
    return spawn.pid;
}

void RouteTracker::on_spawn_failed(const ev::SpawnFailed& failed) {
    Router* parent = find_router(failed.parent);
    erase_router(failed.pid); // R6: a router whose Init failed has no table
    if (parent != nullptr && parent->fresh_spawn == failed.pid) {
        parent->fresh_spawn = 0;
    }
}

void RouteTracker::on_exit(std::uint64_t pid) {
    erase_router(pid);
    auto watched =
        std::lower_bound(watched_.begin(), watched_.end(), pid,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    if (watched == watched_.end() || watched->first != pid) {
        return;
    }
    Router* router = find_router(watched->second);
    watched_.erase(watched);
    if (router == nullptr) {
        return;
    }
    const std::size_t index = worker_route(*router, pid);
    if (index != no_route) {
        router->routes[index].worker_exited = true;
    }
}

void RouteTracker::on_kill(std::uint64_t pid) {
    // §3.3: a killed Running/WaitResponse process is a Zombee until its step ends (or its
    // terminate delay runs out): not alive, so a SendExit to it fails and a Disable/Remove/
    // Replace completes inline (R25, R50) before its exit event appears.
    const std::uint64_t watcher = watcher_of(pid);
    Router* router = watcher == 0 ? nullptr : find_router(watcher);
    if (router == nullptr) {
        return;
    }
    const std::size_t index = worker_route(*router, pid);
    if (index != no_route) {
        router->routes[index].worker_killed = true;
    }
}

void RouteTracker::on_take(Router& router, std::uint64_t pid, const ev::Take& take,
                           const sim::TraceEvent& event, std::vector<Finding>& out) {
    router.fresh_spawn = 0;
    router.last_forward.reset();
    router.before.reset();
    if (take.type == runtime::MailboxType::Exit) {
        on_exit_taken(router, pid, take.from, event, out);
    }
}

// Out of line: most of a router's takes are messages to route, and on_take then saves no
// registers for this.
[[gnu::noinline]] void RouteTracker::on_exit_taken(Router& router, std::uint64_t pid,
                                                   std::uint64_t from, const sim::TraceEvent& event,
                                                   std::vector<Finding>& out) {
    const std::size_t self = worker_route(router, from);
    if (self == no_route) {
        return; // R44, R50: a dropped worker's exit, or one that ends the router
    }
    Route& route = router.routes[self];
    if (route.state != RouteState::Running) {
        return; // R27: the route_pending that follows in this step tells the outcome
    }
    // R22, R23: the PID is cleared first; a successful eager respawn follows as route_restart.
    set_worker(router, pid, self, 0, event, out);
    route.state = RouteState::Dead;
    route.since = KeptWitness(event);
}

void RouteTracker::on_forward(Router& router, std::uint64_t pid, const ev::Forward& forwarded,
                              const sim::TraceEvent& event, std::vector<Finding>& out) {
    const LastForward forward{event.seq,      event.at,
                              forwarded.id,   forwarded.to.value,
                              forwarded.from, static_cast<std::uint64_t>(forwarded.queue)};
    router.last_forward = forward;
    if (!wants(RouteCheck::ForwardToDisabled)) {
        return;
    }
    const std::size_t index = worker_route(router, forward.to);
    if (index == no_route) {
        return;
    }
    const Route& route = router.routes[index];
    if (!takes_no_messages(route.state)) {
        return;
    }
    router.forward_reported = forward.id;
    out.push_back(Finding{RouteCheck::ForwardToDisabled,
                          event.at,
                          "router " + pid_text(pid, names_) + " forwarded message " +
                              std::to_string(forward.id) + " to " + pid_text(forward.to, names_) +
                              ", the worker of route " + quoted(route.name) +
                              ", while the route is " + state_phrase(route.state),
                          {route.since.witness(names_), witness_of(event, names_)}});
}

// -- route events -------------------------------------------------------------------------

void RouteTracker::set_worker(Router& router, std::uint64_t pid, std::size_t self,
                              std::uint64_t worker, const sim::TraceEvent& event,
                              std::vector<Finding>& out) {
    Route& route = router.routes[self];
    route.owns_worker = false;
    route.worker = worker;
    route.worker_exited = false;
    route.worker_killed = false;
    if (worker == 0) {
        return;
    }
    const std::size_t other_index = worker_route(router, worker);
    if (other_index != no_route) {
        Route& other = router.routes[other_index];
        RS_ASSERT(other_index != self);
        if (wants(RouteCheck::SharedWorker)) {
            out.push_back(
                Finding{RouteCheck::SharedWorker,
                        event.at,
                        "router " + pid_text(pid, names_) + " recorded worker " +
                            pid_text(worker, names_) + " for route " + quoted(route.name) +
                            ", but it is already the worker of route " + quoted(other.name) +
                            " (a restart must stay under its own name)",
                        {other.since.witness(names_), witness_of(event, names_)}});
        }
        other.owns_worker = false; // the worker is recorded under the later name
    }
    route.owns_worker = true;
    auto watched =
        std::lower_bound(watched_.begin(), watched_.end(), worker,
                         [](const auto& entry, std::uint64_t key) { return entry.first < key; });
    if (watched != watched_.end() && watched->first == worker) {
        watched->second = pid;
    } else {
        watched_.insert(watched, {worker, pid});
    }
}

void RouteTracker::erase_route(Router& router, std::size_t index) {
    RS_ASSERT(index < router.routes.size());
    router.routes.erase(router.routes.begin() + static_cast<std::ptrdiff_t>(index)); // R27
    router.names.fill(NameCache{}); // later entries moved up: no cached index stays true
}

void RouteTracker::on_route_init(const ev::RouteInit& init, const sim::TraceEvent& event,
                                 std::vector<Finding>& out) {
    const std::uint64_t pid = init.router;
    Router& router = add_router(pid); // a hand-built trace may start here
    if (router.lost) {
        return;
    }
    if (route_index(router, init.name.text) != no_route) {
        return; // R48: Init refuses a duplicate name before spawning anything
    }
    Route& added = router.routes.emplace_back(); // R5: table order is declaration order
    added.name = init.name.text;
    added.since = KeptWitness(event);
    set_worker(router, pid, router.routes.size() - 1, init.worker, event, out);
}

void RouteTracker::on_route(Router& router, std::uint64_t pid, const ev::Route& routed,
                            const sim::TraceEvent& event, std::vector<Finding>& out) {
    const std::size_t found = named_route(router, routed.name);
    if (found == no_route) {
        return; // discard, registry or unknown: not an owned route (R10)
    }
    Route& route = router.routes[found];
    if (routed.resolution == ev::Resolution::Owned) {
        check_owned(router, pid, route, routed, event, out);
        return;
    }
    if (routed.resolution == ev::Resolution::Failed && routed.worker == 0 &&
        route.state == RouteState::Running) {
        // R45 step 2: the retry's respawn failed; the old PID is dropped and the route is Dead.
        set_worker(router, pid, found, 0, event, out);
        route.state = RouteState::Dead;
        route.since = KeptWitness(event);
    }
}

// Out of line: the owned route events that break no check never come here.
[[gnu::noinline]] void RouteTracker::report_owned(Router& router, std::uint64_t pid,
                                                  const Route& route, const ev::Route& routed,
                                                  const sim::TraceEvent& event, OwnedChecks found,
                                                  std::vector<Finding>& out) {
    const std::uint64_t id = routed.id;
    const std::uint64_t worker = routed.worker;
    const std::string_view name = route.name;
    const bool forwarded = found.forwarded;
    const bool to_disabled = found.to_disabled;
    const bool stale = found.stale;
    const bool mismatch = found.mismatch;
    std::vector<Witness> witnesses{route.since.witness(names_)};
    if (forwarded) {
        witnesses.push_back(router.last_forward->witness(pid, names_));
    }
    witnesses.push_back(witness_of(event, names_));
    const std::string head = "router " + pid_text(pid, names_) + " routed message " +
                             std::to_string(id) + " to route " + quoted(name);
    if (to_disabled) {
        out.push_back(Finding{RouteCheck::ForwardToDisabled, event.at,
                              head + " while the route is " + state_phrase(route.state),
                              witnesses});
    }
    if (stale) {
        const std::string current =
            route.worker == 0
                ? ", but the route has no current worker"
                : ", which is not the route's current worker " + pid_text(route.worker, names_);
        out.push_back(Finding{RouteCheck::StaleWorker, event.at,
                              head + " and delivered it to " + pid_text(worker, names_) + current,
                              witnesses});
    }
    if (mismatch) {
        const std::string what =
            forwarded ? " but forwarded it to " + pid_text(router.last_forward->to, names_)
                      : " but never forwarded it";
        out.push_back(Finding{RouteCheck::ForwardMismatch, event.at,
                              head + " (worker " + pid_text(worker, names_) + ")" + what,
                              witnesses});
    }
}

void RouteTracker::on_restart(Router& router, std::uint64_t pid, const ev::RouteRestart& restart,
                              const sim::TraceEvent& event, std::vector<Finding>& out) {
    router.fresh_spawn = 0;
    const std::size_t found = named_route(router, restart.name);
    if (found == no_route) {
        return;
    }
    Route& route = router.routes[found];
    const std::string& name = route.name;
    const std::uint64_t slot = restart.slot;
    const auto index = static_cast<std::uint64_t>(found);
    if (wants(RouteCheck::SlotMoved) && slot != index) {
        // R22: a replacement goes into the same slot, at the same table position.
        out.push_back(Finding{RouteCheck::SlotMoved,
                              event.at,
                              "router " + pid_text(pid, names_) + " restarted route " +
                                  quoted(name) + " in slot " + std::to_string(slot) +
                                  ", but the route holds slot " + std::to_string(index) +
                                  " (a restart keeps the route's place)",
                              {route.since.witness(names_), witness_of(event, names_)}});
    }
    route.state = RouteState::Running; // R13, R22, R45
    route.since = KeptWitness(event);
    set_worker(router, pid, found, restart.worker, event, out);
}

void RouteTracker::on_pending(Router& router, std::uint64_t pid, const ev::RoutePending& pending,
                              const sim::TraceEvent& event, std::vector<Finding>& out) {
    router.fresh_spawn = 0;
    const RouteState from = pending.from_state;
    const RouteState to = pending.to_state;
    const std::size_t found = named_route(router, pending.name);
    if (found == no_route) {
        return;
    }
    Route& route = router.routes[found];
    const std::string& name = route.name; // erase_route below is the last use
    const std::uint64_t worker = pending.worker;
    if (is_pending(to)) {
        // R25, R26: only a management call starts a pending operation, on a route without one.
        Before before{name, route, true, false};
        if (wants(RouteCheck::SecondPending) && (is_pending(route.state) || is_pending(from))) {
            before.second_pending = true;
            const RouteState first = is_pending(route.state) ? route.state : from;
            out.push_back(Finding{
                RouteCheck::SecondPending,
                event.at,
                "router " + pid_text(pid, names_) + " started a second pending operation (" +
                    std::string(route_state_name(to)) + ") on route " + quoted(name) + " while " +
                    std::string(route_state_name(first)) +
                    " had not ended; a route has at most one",
                {route.since.witness(names_), witness_of(event, names_)}});
        }
        router.before = std::move(before);
        route.state = to;
        route.since = KeptWitness(event);
        if (worker != route.worker) {
            set_worker(router, pid, found, worker, event, out);
        }
        return;
    }
    if (wants(RouteCheck::PendingEndWithoutExit) && is_pending(route.state) && route.worker != 0 &&
        !route.worker_exited) {
        // R27: pending ends when the router processes the recorded worker's exit.
        out.push_back(Finding{RouteCheck::PendingEndWithoutExit,
                              event.at,
                              "router " + pid_text(pid, names_) + " ended the " +
                                  std::string(route_state_name(route.state)) + " of route " +
                                  quoted(name) + " (now " + std::string(route_state_name(to)) +
                                  ") before its worker " + pid_text(route.worker, names_) +
                                  " exited; pending ends only on the worker's exit",
                              {route.since.witness(names_), witness_of(event, names_)}});
    }
    if (to == RouteState::Absent) {
        erase_route(router, found); // R27 Remove: later entries move up
        return;
    }
    route.state = to;
    route.since = KeptWitness(event);
    set_worker(router, pid, found, worker, event, out);
}

// -- management ---------------------------------------------------------------------------

std::string RouteTracker::admin_problem(std::uint64_t pid, const ev::RouteAdmin& admin,
                                        const Before& before, const CallPrediction& prediction,
                                        RouteState now) const {
    const RouteState was = before.existed ? before.route.state : RouteState::Absent;
    const CallOutcome observed = classify_result(admin.result.text);
    const bool wrong_result = prediction.outcome != observed;
    if (!wrong_result && (prediction.after.state == now ||
                          (!is_pending(prediction.after.state) && !is_pending(now)))) {
        return {}; // the common path: no text is built
    }
    const std::string call = "router " + pid_text(pid, names_) + ": " + std::string(admin.op.text) +
                             "_route(" + quoted(before.name) + ")";
    const std::string profile = std::string(runtime::semantics_name(semantics_)) + " profile";
    if (wrong_result) {
        const std::string note =
            is_pending(was) ? " (a management call on a pending route changes nothing)" : "";
        return call + " returned " + std::string(admin.result.text) + ", but route " +
               quoted(before.name) + " was " + state_phrase(was) + ", where the " + profile +
               " answers " + std::string(call_outcome_name(prediction.outcome)) + note;
    }
    if (prediction.after.state != now && (is_pending(prediction.after.state) || is_pending(now))) {
        return call + " left route " + quoted(before.name) + " " + state_phrase(now) +
               ", but from " + state_phrase(was) + " the " + profile + " leads to " +
               state_phrase(prediction.after.state);
    }
    return {};
}

void RouteTracker::on_admin(Router& router, std::uint64_t pid, const ev::RouteAdmin& admin,
                            const sim::TraceEvent& event, std::vector<Finding>& out) {
    const std::string name(admin.name.text);
    const std::optional<RouteOp> op = parse_route_op(admin.op.text);
    Before before{name, Route{}, false, false};
    if (router.before.has_value() && router.before->name == name) {
        before = *router.before; // the state before this call's own route_pending
    } else if (const std::size_t found = route_index(router, name); found != no_route) {
        before = Before{name, router.routes[found], true, false};
    }
    router.before.reset();
    if (!op) {
        return;
    }
    const CallOutcome observed = classify_result(admin.result.text);
    // Facts of the world read from the trace: the validation errors the result names (the
    // trace does not show the arguments), whether the recorded worker had exited, and whether
    // the router spawned a worker during the call.
    const CallArgs args{.op = *op,
                        .spec = 0,
                        .name_empty = name.empty(),
                        .factory_nil = observed == CallOutcome::NilFactory,
                        .name_mismatch = observed == CallOutcome::NameMismatch};
    const CallEnv env{.semantics = semantics_,
                      .allowed = observed != CallOutcome::NotAllowed,
                      .worker_alive = !before.route.worker_exited && !before.route.worker_killed,
                      .spawn_ok = router.fresh_spawn != 0};
    const RouteSlot slot{before.existed ? before.route.state : RouteState::Absent, 0, 0};
    const CallPrediction prediction = properties::predict_call(slot, args, env);
    const std::size_t now = route_index(router, name);
    const RouteState now_state = now == no_route ? RouteState::Absent : router.routes[now].state;
    std::string problem = admin_problem(pid, admin, before, prediction, now_state);
    if (!problem.empty()) {
        if (wants(RouteCheck::AdminResult) && !before.second_pending) {
            std::vector<Witness> witnesses;
            if (before.existed) {
                witnesses.push_back(before.route.since.witness(names_));
            }
            witnesses.push_back(witness_of(event, names_));
            out.push_back(Finding{RouteCheck::AdminResult, event.at, std::move(problem),
                                  std::move(witnesses)});
        }
        router.lost = true; // the table is no longer known: stop following this router
        return;
    }
    commit_admin(router, pid, name, prediction, event, out);
    router.fresh_spawn = 0;
}

void RouteTracker::commit_admin(Router& router, std::uint64_t pid, const std::string& name,
                                const CallPrediction& prediction, const sim::TraceEvent& event,
                                std::vector<Finding>& out) {
    const RouteState after = prediction.after.state;
    std::size_t found = route_index(router, name);
    if (after == RouteState::Absent) {
        if (found != no_route) {
            erase_route(router, found); // R28, R29, R50
        }
        return;
    }
    const bool inserted = found == no_route;
    if (inserted) {
        found = router.routes.size();
        router.routes.emplace_back().name = name; // R30: appended at the end of the table
    }
    Route& route = router.routes[found];
    const bool changed =
        inserted || route.state != after || prediction.worker != WorkerChange::Keep;
    route.state = after;
    if (changed) {
        route.since = KeptWitness(event);
    }
    if (prediction.worker == WorkerChange::New) {
        set_worker(router, pid, found, router.fresh_spawn, event, out);
    } else if (prediction.worker == WorkerChange::Clear) {
        set_worker(router, pid, found, 0, event, out);
    }
}

} // namespace routesim::properties
