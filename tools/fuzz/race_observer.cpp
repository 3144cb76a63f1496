// Race observer: route states from the trace, (state, event) pairs and pending windows.
// Part of tools/: uses scenarios/run/, runtime/ and sim/.
#include "tools/fuzz/race_observer.hpp"

#include <algorithm>

#include "properties/monitor.hpp"
#include "runtime/events.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "scenarios/run/builder.hpp"
#include "sim/assert.hpp"

namespace routesim::tools::fuzz {

using namespace scenarios; // the run layer's model and hooks

namespace {

constexpr const auto& state_names = runtime::act::route_state_names;

constexpr std::array<std::string_view, 6> op_names = {"add",    "remove",  "disable",
                                                      "enable", "replace", "respawn"};
constexpr std::array<std::string_view, 4> admin_results = {"ok", "busy", "duplicate", "error"};

CoverState cover_state(const runtime::act::RouterRouteInfo& info) {
    return info.state();
}

bool is_pending(CoverState state) {
    return state == CoverState::PendingDisable || state == CoverState::PendingReplace ||
           state == CoverState::PendingRemove;
}

std::string event_name(std::size_t event) {
    static constexpr std::array<std::string_view, 8> routed = {
        "message:owned", "message:registry", "message:discard", "message:failed",
        "call:owned",    "call:registry",    "call:discard",    "call:failed"};
    const auto admin = static_cast<std::size_t>(CoverEvent::AdminOk);
    if (event < admin) {
        return std::string(routed[event]);
    }
    if (event < static_cast<std::size_t>(CoverEvent::PendingBegins)) {
        const std::size_t offset = event - admin;
        return "admin:" + std::string(op_names[offset / 4]) + ":" +
               std::string(admin_results[offset % 4]);
    }
    static constexpr std::array<std::string_view, 7> rest = {
        "pending_begins", "worker_exit_ends_pending",
        "restart:eager",  "restart:lazy",
        "restart:retry",  "fault:kill",
        "fault:crash"};
    return std::string(rest[event - static_cast<std::size_t>(CoverEvent::PendingBegins)]);
}

std::string_view window_name(std::size_t window) {
    static constexpr std::array<std::string_view, window_count> names = {
        "message_routed_while_pending_disable",
        "message_routed_while_pending_replace",
        "message_routed_while_pending_remove",
        "call_routed_while_pending_disable",
        "call_routed_while_pending_replace",
        "call_routed_while_pending_remove",
        "management_call_while_pending",
        "worker_exit_while_pending",
        "kill_while_pending",
        "kill_during_restart",
        "kill_during_supervisor_restart",
        "kill_while_call_in_flight",
        "pool_forward_to_dead_worker",
        "eager_restart",
    };
    return names[window];
}

std::size_t admin_offset(std::string_view op, std::string_view result) {
    std::size_t op_index = 0;
    while (op_index + 1 < op_names.size() && op_names[op_index] != op) {
        op_index++;
    }
    std::size_t result_index = 3;
    if (result == "ok") {
        result_index = 0;
    } else if (result == "gen.ErrBusy") {
        result_index = 1;
    } else if (result == "act.ErrRouteDuplicate") {
        result_index = 2;
    }
    return op_index * 4 + result_index;
}

} // namespace

RaceObserver::RaceObserver(runtime::Node& node, const SpecIndex& specs, const Targets& targets,
                           const Scenario& scenario, Options options, Fire fire)
    : node_(&node), specs_(&specs), targets_(&targets), scenario_(&scenario), options_(options),
      fire_(std::move(fire)), prng_(node.world().stream("faults.aim")) {
    if (options_.aim) {
        // Swarm-style per-run intensity: some runs aim often, some rarely.
        static constexpr std::array<std::uint64_t, 6> one_in = {1, 2, 4, 8, 16, 64};
        aim_one_in_ = one_in[prng_.below(one_in.size())];
        aims_left_ = 1 + prng_.below(4);
        const std::uint64_t pct_changes = 1 + prng_.below(3);
        // Change points are placed only under PCT (wants_aim): none to place otherwise.
        pct_changes_left_ = node.world().scheduler().policy() == sim::Policy::Pct ? pct_changes : 0;
    }
}

void RaceObserver::start(RunContext context) {
    RS_ASSERT(context.node != nullptr && context.specs != nullptr && context.targets != nullptr);
    RS_ASSERT(context.scenario != nullptr && context.tally != nullptr);
    const std::uint64_t starts = starts_;
    restart(*context.node, *context.specs, *context.targets, *context.scenario,
            Options{context.aim, context.coverage, context.check_fresh}, std::move(context.fire));
    starts_ = starts + 1;
    set_tally(context.tally);
}

void RaceObserver::restart(runtime::Node& node, const SpecIndex& specs, const Targets& targets,
                           const Scenario& scenario, Options options, Fire fire) {
    // Every member as the constructor sets it, then the emptied buffers back in place.
    auto states = std::move(states_);
    auto fresh = std::move(fresh_);
    auto routers = std::move(routers_);
    auto atoms = std::move(atoms_);
    auto admin_targets = std::move(admin_targets_);
    auto restarted = std::move(restarted_);
    auto pending_name = std::move(pending_name_);
    *this = RaceObserver(node, specs, targets, scenario, options, std::move(fire));
    const auto refill = [](auto& member, auto& buffer) {
        buffer.clear();
        member = std::move(buffer);
    };
    refill(states_, states);
    refill(fresh_, fresh);
    refill(routers_, routers);
    refill(admin_targets_, admin_targets);
    refill(restarted_, restarted);
    refill(pending_name_, pending_name);
    atoms_ = std::move(atoms);
}

runtime::PID RaceObserver::pid_of(std::uint64_t id) const {
    runtime::PID pid = node_->core_pid();
    pid.id = id;
    return pid;
}

CoverState RaceObserver::query(std::uint64_t router, std::string_view name,
                               std::uint64_t name_hash) {
    for (const FreshState& fresh : fresh_) {
        if (fresh.is(router, name, name_hash)) {
            if (options_.check_fresh) [[unlikely]] {
                RS_ASSERT(fresh.state == query_router(router, name, name_hash));
            }
            return fresh.state;
        }
    }
    return query_and_keep(router, name, name_hash);
}

CoverState RaceObserver::query_and_keep(std::uint64_t router, std::string_view name,
                                        std::uint64_t name_hash) {
    const CoverState state = query_router(router, name, name_hash);
    if (fresh_.size() < fresh_max && !name.empty() && name.size() <= runtime::atom_length_max) {
        const runtime::Atom atom = route_atom(name, name_hash);
        fresh_.push_back(FreshState{router, name_hash, atom.text(), state});
    }
    return state;
}

runtime::act::Router* RaceObserver::find_router(std::uint64_t router) {
    runtime::act::Router* behaviour = router_of(*node_, pid_of(router));
    if (behaviour != nullptr) {
        routers_.emplace_back(router, behaviour);
    }
    return behaviour;
}

CoverState RaceObserver::query_router(std::uint64_t router, std::string_view name,
                                      std::uint64_t name_hash) {
    runtime::act::Router* behaviour = router_behaviour(router);
    if (behaviour == nullptr || name.empty() || name.size() > runtime::atom_length_max) {
        return CoverState::Absent;
    }
    const auto info = behaviour->route(route_atom(name, name_hash));
    return info ? cover_state(*info) : CoverState::Absent;
}

runtime::Atom RaceObserver::route_atom(std::string_view name, std::uint64_t name_hash) {
    for (const runtime::Atom& atom : atoms_) {
        if (atom.hash() == name_hash &&
            (atom.text().data() == name.data() || atom.text() == name)) {
            return atom;
        }
    }
    const runtime::Atom atom(name);
    if (atoms_.size() < atoms_max) {
        atoms_.push_back(atom);
    }
    return atom;
}

CoverState RaceObserver::known(std::uint64_t router, std::string_view name,
                               std::uint64_t name_hash) {
    for (const SeenState& entry : states_) {
        if (entry.is(router, name, name_hash)) {
            return entry.state;
        }
    }
    const CoverState state = query(router, name, name_hash);
    remember(router, name, name_hash, state);
    return state;
}

void RaceObserver::remember(std::uint64_t router, std::string_view name, std::uint64_t name_hash,
                            CoverState state) {
    for (SeenState& entry : states_) {
        if (entry.is(router, name, name_hash)) {
            entry.state = state;
            return;
        }
    }
    if (name.size() > runtime::atom_length_max) {
        return; // no route has such a name: known() asks the router (which says Absent)
    }
    states_.push_back(SeenState{router, route_atom(name, name_hash), state});
}

void RaceObserver::count(CoverState state, CoverEvent event) {
    pairs_[static_cast<std::size_t>(state)][static_cast<std::size_t>(event)]++;
}

void RaceObserver::note_restart(std::uint64_t pid) {
    const std::int64_t now = node_->world().now().ns();
    if (now != restart_instant_ns_) {
        restart_instant_ns_ = now;
        restarted_.clear();
        supervisor_restarted_ = false;
    }
    if (pid != 0) {
        restarted_.push_back(pid);
    }
}

namespace {

namespace ev = runtime::ev;

/// True when `event` (whose kind hash is `kind`) is of kind `Event`: its hash, then its name.
template <class Event>
bool is(const sim::TraceEvent& event, std::uint64_t kind) {
    return kind == Event::kind.hash && sim::is_event_kind<Event>(event.kind);
}

/// Field `Member` of an event known to be of its kind, where the kind's one field table puts
/// it (sim::event_field_index): the commonest event read here (route) is read this way
/// instead of decoding every field.
template <auto Member>
const sim::TraceValue& value_of(const sim::TraceEvent& event) {
    constexpr std::size_t index = sim::event_field_index<Member>();
    RS_ASSERT(index < event.field_count);
    return event.fields[index].value;
}

/// A route event's resolution, by the text the codec writes for it (its hash first).
ev::Resolution resolution_of(const sim::TraceValue& value) {
    // Once per routed message: each name compared as a constant (hash, then text), in the
    // order of how often routing decides it.
    constexpr std::string_view owned = ev::resolution_names[0];
    constexpr std::string_view registry = ev::resolution_names[1];
    constexpr std::string_view discard = ev::resolution_names[2];
    static_assert(ev::Resolution{0} == ev::Resolution::Owned);
    static_assert(ev::Resolution{1} == ev::Resolution::Registry);
    static_assert(ev::Resolution{2} == ev::Resolution::Discard);
    constexpr std::uint64_t owned_hash = sim::fnv1a64(owned);
    constexpr std::uint64_t registry_hash = sim::fnv1a64(registry);
    constexpr std::uint64_t discard_hash = sim::fnv1a64(discard);
    const std::uint64_t hash = value.hash_word();
    const std::string_view text = value.as_text();
    if (hash == owned_hash && text == owned) {
        return ev::Resolution::Owned;
    }
    if (hash == registry_hash && text == registry) {
        return ev::Resolution::Registry;
    }
    if (hash == discard_hash && text == discard) {
        return ev::Resolution::Discard;
    }
    return ev::Resolution::Failed;
}

} // namespace

void RaceObserver::on_event(const sim::TraceEvent& event) {
    // The commonest kinds first, by hash (then by name); none of them goes with a change of
    // route state (fresh_). Each branch ends in one call, so that this dispatch needs no
    // frame of its own.
    const std::uint64_t kind = event.kind.hash;
    if (is<ev::Take>(event, kind)) {
        pending_seen_ = false; // a new step: no management call is in progress
        if (tally_takes_ || options_.check_fresh) [[unlikely]] {
            on_take(event);
        }
    } else if (is<ev::Send>(event, kind) || is<ev::RouteKey>(event, kind) ||
               is<ev::Forward>(event, kind)) {
        return; // read by nothing below
    } else if (is<ev::Route>(event, kind)) {
        on_route(event);
    } else {
        on_other(event);
    }
}

void RaceObserver::on_take(const sim::TraceEvent& event) {
    if (tally_takes_) {
        tally_->on_event(event);
    }
    if (options_.check_fresh) {
        // What call_routed() must agree with: the router's own take comes right before.
        const ev::Take take = *sim::decode<ev::Take>(event);
        last_take_pid_ = take.pid.value;
        last_take_type_ = static_cast<std::uint64_t>(take.type);
    }
}

void RaceObserver::on_other(const sim::TraceEvent& event) {
    if (tally_ != nullptr) {
        tally_->on_event(event);
    }
    // One hash comparison per kind this reads, then its name.
    const std::uint64_t kind = event.kind.hash;
    if (is<ev::RoutePending>(event, kind)) {
        const ev::RoutePending pending = *sim::decode<ev::RoutePending>(event);
        drop_route(pending.router, pending.name.text);
        on_pending(pending);
    } else if (is<ev::RouteAdmin>(event, kind)) {
        const ev::RouteAdmin admin = *sim::decode<ev::RouteAdmin>(event);
        drop_route(admin.router, admin.name.text);
        on_admin(admin);
    } else if (is<ev::RouteRestart>(event, kind)) {
        const ev::RouteRestart restart = *sim::decode<ev::RouteRestart>(event);
        drop_route(restart.router, restart.name.text);
        on_restart(restart);
    } else if (is<ev::RouteInit>(event, kind)) {
        const ev::RouteInit init = *sim::decode<ev::RouteInit>(event);
        drop_route(init.router, init.name.text);
    } else if (is<ev::Call>(event, kind)) {
        calls_in_flight_++;
    } else if (is<ev::CallResult>(event, kind)) {
        calls_in_flight_--;
    } else if (is<ev::SupRestart>(event, kind)) {
        on_supervisor_restart(*sim::decode<ev::SupRestart>(event));
    } else if (is<ev::PoolForward>(event, kind)) {
        on_pool_forward(*sim::decode<ev::PoolForward>(event));
    } else if (is<ev::Exit>(event, kind)) {
        // A router's routes end with it, and it emits route events only while it runs.
        const std::uint64_t pid = value_of<&ev::Exit::pid>(event).as_uint();
        drop_router(pid);
        if (!routers_.empty()) {
            std::erase_if(routers_, [pid](const auto& entry) { return entry.first == pid; });
        }
    } else if (is<ev::Log>(event, kind) && value_of<&ev::Log::level>(event).as_text() == "error") {
        // A failed respawn's log names no route.
        drop_router(value_of<&ev::Log::pid>(event).as_uint());
    }
}

void RaceObserver::drop_route(std::uint64_t router, std::string_view name) {
    if (fresh_.empty()) {
        return;
    }
    std::erase_if(fresh_, [router, name](const FreshState& fresh) {
        return fresh.router == router && fresh.name == name;
    });
}

void RaceObserver::drop_router(std::uint64_t pid) {
    if (!fresh_.empty()) {
        std::erase_if(fresh_, [pid](const FreshState& fresh) { return fresh.router == pid; });
    }
}

void RaceObserver::on_route(const sim::TraceEvent& event) {
    // The fields this reads, by the route kind's table (on_event checked the kind).
    const std::uint64_t router = value_of<&ev::Route::router>(event).as_uint();
    const sim::TraceValue& name_value = value_of<&ev::Route::name>(event);
    const std::string_view name = name_value.as_text();
    const std::uint64_t name_hash = name_value.hash_word();
    const ev::Resolution resolution = resolution_of(value_of<&ev::Route::resolution>(event));
    const std::uint64_t worker = value_of<&ev::Route::worker>(event).as_uint();
    const bool aims =
        options_.aim && resolution == ev::Resolution::Owned && still_aiming() && worker != 0;
    if ((!options_.coverage || resolution == ev::Resolution::Discard) && !aims) {
        return;
    }
    const bool is_call = call_routed(router);
    if (options_.coverage && resolution != ev::Resolution::Discard) {
        // Routing changes no route state (a lazy restart has its own event before this one).
        const std::size_t event_index = static_cast<std::size_t>(resolution) + (is_call ? 4 : 0);
        const CoverState state = query(router, name, name_hash);
        count(state, static_cast<CoverEvent>(event_index));
        if (state == CoverState::PendingDisable) {
            reach(is_call ? Window::CallWhilePendingDisable : Window::MessageWhilePendingDisable);
        } else if (state == CoverState::PendingReplace) {
            reach(is_call ? Window::CallWhilePendingReplace : Window::MessageWhilePendingReplace);
        } else if (state == CoverState::PendingRemove) {
            reach(is_call ? Window::CallWhilePendingRemove : Window::MessageWhilePendingRemove);
        }
    }
    if (aims && wants_aim()) {
        aim_at_route(worker, router, name, is_call);
    }
}

bool RaceObserver::call_routed(std::uint64_t router) {
    // A router routes the item it took in this step: a call when that item is a request.
    runtime::act::Router* behaviour = router_behaviour(router);
    const bool is_call =
        behaviour != nullptr && behaviour->current().type == runtime::MailboxType::Request;
    if (options_.check_fresh) [[unlikely]] {
        constexpr auto request = static_cast<std::uint64_t>(runtime::MailboxType::Request);
        RS_ASSERT(is_call == (last_take_pid_ == router && last_take_type_ == request));
    }
    return is_call;
}

void RaceObserver::aim_at_route(std::uint64_t worker, std::uint64_t router, std::string_view name,
                                bool is_call) {
    std::vector<Candidate> candidates;
    add_process_candidates(candidates, worker);
    add_process_candidates(candidates, router);
    add_admin_candidates(candidates, router, name);
    aim(is_call ? "call_routed" : "message_routed", std::move(candidates));
}

void RaceObserver::on_pending(const runtime::ev::RoutePending& pending) {
    const std::uint64_t router = pending.router;
    const std::string_view name = pending.name.text;
    const std::uint64_t name_hash = pending.name.hash;
    const CoverState from = pending.from_state;
    const CoverState to = pending.to_state;
    pending_router_ = router;
    pending_name_.assign(name);
    pending_from_ = from;
    pending_seen_ = true;
    remember(router, name, name_hash, to);
    if (options_.coverage) {
        if (is_pending(from) && !is_pending(to)) {
            count(from, CoverEvent::WorkerExitEndsPending);
            reach(Window::WorkerExitWhilePending);
        } else if (is_pending(to)) {
            count(from, CoverEvent::PendingBegins);
        }
    }
    if (options_.aim && is_pending(to) && wants_aim()) {
        std::vector<Candidate> candidates;
        add_process_candidates(candidates, pending.worker);
        add_process_candidates(candidates, router);
        add_admin_candidates(candidates, router, name);
        aim("route_pending", std::move(candidates));
    }
}

void RaceObserver::on_admin(const runtime::ev::RouteAdmin& admin) {
    const std::uint64_t router = admin.router;
    const std::string_view name = admin.name.text;
    const std::uint64_t name_hash = admin.name.hash;
    if (options_.coverage) {
        // The state before the call: a route_pending inside it names it, else the last known.
        const std::string_view op = admin.op.text;
        const std::string_view result = admin.result.text;
        const bool inside = pending_seen_ && pending_router_ == router && pending_name_ == name;
        CoverState before = inside ? pending_from_ : known(router, name, name_hash);
        if (result == "ok" && (op == "add" || op == "respawn")) {
            // What a successful call implies (R30, R33); a dead route may have had no event.
            before = op == "add" ? CoverState::Absent : CoverState::Dead;
        }
        const std::size_t offset = admin_offset(op, result);
        count(before,
              static_cast<CoverEvent>(static_cast<std::size_t>(CoverEvent::AdminOk) + offset));
        if (is_pending(before)) {
            reach(Window::ManagementWhilePending);
        }
        remember(router, name, name_hash, query(router, name, name_hash));
    }
    pending_seen_ = false;
}

void RaceObserver::on_restart(const runtime::ev::RouteRestart& restart) {
    const std::uint64_t router = restart.router;
    const std::string_view name = restart.name.text;
    const std::uint64_t name_hash = restart.name.hash;
    const std::string_view kind = restart.restart.text;
    const std::uint64_t worker = restart.worker;
    note_restart(worker);
    if (options_.coverage) {
        const CoverState before = known(router, name, name_hash);
        count(before, kind == "eager"  ? CoverEvent::RestartEager
                      : kind == "lazy" ? CoverEvent::RestartLazy
                                       : CoverEvent::RestartRetry);
        if (kind == "eager") {
            reach(Window::EagerRestart);
        }
        remember(router, name, name_hash, CoverState::Running);
    }
    if (options_.aim && wants_aim()) {
        std::vector<Candidate> candidates;
        add_process_candidates(candidates, worker);
        add_process_candidates(candidates, router);
        add_admin_candidates(candidates, router, name);
        aim("route_restart", std::move(candidates));
    }
}

void RaceObserver::on_supervisor_restart(const runtime::ev::SupRestart& restart) {
    note_restart(0);
    supervisor_restarted_ = true;
    if (options_.aim && wants_aim()) {
        std::vector<Candidate> candidates;
        add_process_candidates(candidates, restart.sup);
        // The restarted child is resolved when the fault fires (after this step spawned it).
        Candidate child;
        child.verb = Verb::Kill;
        child.router = restart.sup;
        child.route = std::string(restart.child.text);
        if (scenario_->faults.kill.has_value()) {
            candidates.push_back(child);
        }
        aim("sup_restart", std::move(candidates));
    }
}

void RaceObserver::on_pool_forward(const runtime::ev::PoolForward& forward) {
    const std::string_view outcome = forward.outcome.text;
    const std::uint64_t worker = forward.worker;
    if (outcome == "respawned") {
        note_restart(worker);
    }
    if (options_.coverage && outcome == "dead") {
        reach(Window::PoolForwardToDeadWorker);
    }
    if (options_.aim && outcome == "ok" && wants_aim()) {
        std::vector<Candidate> candidates;
        add_process_candidates(candidates, worker);
        add_process_candidates(candidates, forward.pool);
        aim("pool_forward", std::move(candidates));
    }
}

void RaceObserver::note_fault(Verb verb, const runtime::PID& victim) {
    if (!options_.coverage) {
        return;
    }
    const CoverEvent event = verb == Verb::Crash ? CoverEvent::FaultCrash : CoverEvent::FaultKill;
    const runtime::Process* process = node_->find(victim);
    bool pending = false;
    if (process != nullptr) {
        // A route worker: the state of its route.
        if (runtime::act::Router* router = router_of(*node_, process->parent())) {
            for (const auto& info : router->routes()) {
                if (info.pid == victim) {
                    const CoverState state = cover_state(info);
                    count(state, event);
                    pending = pending || is_pending(state);
                }
            }
        }
        // A router with a pending route.
        if (runtime::act::Router* router = router_of(*node_, victim)) {
            for (const auto& info : router->routes()) {
                pending = pending || info.pending != runtime::act::RoutePending::None;
            }
        }
    }
    if (pending) {
        reach(Window::KillWhilePending);
    }
    const bool same_instant = node_->world().now().ns() == restart_instant_ns_;
    if (same_instant &&
        std::find(restarted_.begin(), restarted_.end(), victim.id) != restarted_.end()) {
        reach(Window::KillDuringRestart);
    }
    if (same_instant && supervisor_restarted_) {
        reach(Window::KillDuringSupervisorRestart);
    }
    if (calls_in_flight_ > 0) {
        reach(Window::KillWhileCallInFlight);
    }
}

std::vector<std::uint64_t> RaceObserver::coverage() const {
    std::vector<std::uint64_t> counts(coverage_entries);
    auto out = counts.begin();
    for (const auto& events : pairs_) {
        out = std::copy(events.begin(), events.end(), out);
    }
    std::copy(windows_.begin(), windows_.end(), out);
    return counts;
}

std::vector<std::string> coverage_windows() {
    std::vector<std::string> names;
    for (std::size_t window = 0; window < window_count; window++) {
        names.emplace_back(window_name(window));
    }
    return names;
}

std::vector<std::string> coverage_states() {
    return {state_names.begin(), state_names.end()};
}

namespace {

/// Every coverage key in entry order, spelled once per process.
const std::vector<std::string>& coverage_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (std::size_t state = 0; state < cover_state_count; state++) {
            for (std::size_t event = 0; event < cover_event_count; event++) {
                out.push_back(std::string(state_names[state]) + " x " + event_name(event));
            }
        }
        for (std::size_t window = 0; window < window_count; window++) {
            out.push_back("window:" + std::string(window_name(window)));
        }
        return out;
    }();
    return keys;
}

} // namespace

RaceObserver& shared_observer() {
    thread_local RaceObserver observer;
    return observer;
}

std::size_t coverage_entries_count() {
    return coverage_entries;
}

const std::string& coverage_name(std::size_t entry) {
    RS_ASSERT(entry < coverage_entries);
    return coverage_keys()[entry];
}

std::uint64_t coverage_times(const Coverage& coverage, std::string_view key) {
    const std::vector<std::string>& keys = coverage_keys();
    for (std::size_t entry = 0; entry < keys.size(); entry++) {
        if (keys[entry] == key) {
            return coverage.at(entry);
        }
    }
    return 0;
}

std::map<std::string, std::uint64_t> coverage_reached(const Coverage& coverage) {
    RS_ASSERT(coverage.empty() || coverage.counts().size() == coverage_entries);
    std::map<std::string, std::uint64_t> out;
    for (std::size_t entry = 0; entry < coverage.counts().size(); entry++) {
        if (coverage.counts()[entry] > 0) {
            out.emplace(coverage_name(entry), coverage.counts()[entry]);
        }
    }
    return out;
}

} // namespace routesim::tools::fuzz
