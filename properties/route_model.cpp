// The route state model: predictions for management calls (R25–R38, R55, the R-table and the
// profile points), worker exits (R22, R23, R27) and routing (R12–R16, R45), and the table
// model that applies them. Part of properties/: uses runtime/ and sim/.
#include "properties/route_model.hpp"

#include <array>

#include "sim/assert.hpp"

namespace routesim::properties {

using runtime::Err;
using runtime::Semantics;

namespace {

CallPrediction failed(CallPrediction prediction, CallOutcome outcome) {
    prediction.outcome = outcome;
    return prediction;
}

// Remove and Disable on a route with a worker (R25, R50).
CallPrediction stop_worker(CallPrediction p, RouteState pending, const CallEnv& env) {
    p.sends_exit = true;
    if (env.worker_alive) {
        p.after.state = pending;
        return p;
    }
    p.drops_worker = true; // R50: inline completion
    p.worker = WorkerChange::Clear;
    p.after.state =
        pending == RouteState::PendingRemove ? RouteState::Absent : RouteState::Disabled;
    return p;
}

CallPrediction predict_add(CallPrediction p, const CallArgs& args, const CallEnv& env) {
    if (args.name_empty) {
        return failed(p, CallOutcome::EmptyName);
    }
    if (args.factory_nil) {
        return failed(p, CallOutcome::NilFactory);
    }
    if (p.after.state != RouteState::Absent) {
        // R26: upstream never looks at pending; documented answers Busy (profile point 1).
        const bool busy = is_pending(p.after.state) && env.semantics == Semantics::Documented;
        return failed(p, busy ? CallOutcome::Busy : CallOutcome::RouteDuplicate);
    }
    p.spawns = true;
    if (!env.spawn_ok) {
        return failed(p, CallOutcome::SpawnError); // not added
    }
    p.after = RouteSlot{RouteState::Running, args.spec, 0};
    p.worker = WorkerChange::New;
    return p;
}

CallPrediction predict_remove(CallPrediction p, const CallEnv& env) {
    switch (p.after.state) {
    case RouteState::Absent:
        return p; // R31
    case RouteState::Dead:
    case RouteState::Disabled:
        p.after.state = RouteState::Absent; // R28, R29
        return p;
    case RouteState::Running:
        return stop_worker(p, RouteState::PendingRemove, env);
    default:
        return failed(p, CallOutcome::Busy);
    }
}

CallPrediction predict_disable(CallPrediction p, const CallEnv& env) {
    switch (p.after.state) {
    case RouteState::Absent:
        return failed(p, CallOutcome::NoRoute);
    case RouteState::Disabled:
        return p; // R29: no-op
    case RouteState::Dead:
        p.after.state = RouteState::Disabled; // R28
        return p;
    case RouteState::Running:
        return stop_worker(p, RouteState::PendingDisable, env);
    default:
        return failed(p, CallOutcome::Busy);
    }
}

CallPrediction predict_enable(CallPrediction p, const CallEnv& env) {
    switch (p.after.state) {
    case RouteState::Absent:
        return failed(p, CallOutcome::NoRoute);
    case RouteState::Running:
    case RouteState::Dead:
        return p; // R32: no spawn, a Dead route stays Dead
    case RouteState::Disabled:
        p.spawns = true;
        if (!env.spawn_ok) {
            // R32 upstream: enabled and Dead; documented (point 2): still disabled.
            p.after.state =
                env.semantics == Semantics::Documented ? RouteState::Disabled : RouteState::Dead;
            return failed(p, CallOutcome::SpawnError);
        }
        p.after.state = RouteState::Running;
        p.worker = WorkerChange::New;
        return p;
    default:
        return failed(p, CallOutcome::Busy);
    }
}

// Replace on a route without a live worker: swap first, then spawn (R28, R50).
CallPrediction swap_and_spawn(CallPrediction p, const CallArgs& args, const CallEnv& env,
                              bool stale) {
    const RouteSlot before = p.after;
    p.spawns = true;
    if (env.spawn_ok) {
        p.after = RouteSlot{RouteState::Running, args.spec, 0};
        p.worker = WorkerChange::New;
        p.drops_worker = stale;
        return p;
    }
    if (env.semantics == Semantics::Documented) {
        p.after = before; // profile point 2: exactly as it was (a stale PID stays recorded)
        return failed(p, CallOutcome::SpawnError);
    }
    p.after = RouteSlot{RouteState::Dead, args.spec, 0}; // R38: Dead with the new spec
    p.worker = WorkerChange::Clear;
    p.drops_worker = stale;
    return failed(p, CallOutcome::SpawnError);
}

CallPrediction predict_replace(CallPrediction p, const CallArgs& args, const CallEnv& env) {
    if (args.factory_nil) {
        return failed(p, CallOutcome::NilFactory);
    }
    if (args.name_mismatch) {
        return failed(p, CallOutcome::NameMismatch);
    }
    switch (p.after.state) {
    case RouteState::Absent:
        return failed(p, CallOutcome::NoRoute);
    case RouteState::Disabled:
        p.after.spec = args.spec; // R29: swap only
        return p;
    case RouteState::Dead:
        return swap_and_spawn(p, args, env, false);
    case RouteState::Running:
        p.sends_exit = true;
        if (!env.worker_alive) {
            return swap_and_spawn(p, args, env, true); // R50 inline completion
        }
        p.after.state = RouteState::PendingReplace;
        p.after.pending_spec = args.spec;
        return p;
    default:
        return failed(p, CallOutcome::Busy);
    }
}

CallPrediction predict_respawn(CallPrediction p, const CallEnv& env) {
    switch (p.after.state) {
    case RouteState::Absent:
        return failed(p, CallOutcome::NoRoute);
    case RouteState::Disabled:
        return failed(p, CallOutcome::Disabled);
    case RouteState::Running:
        return failed(p, CallOutcome::RouteRunning); // the table, not liveness (R33)
    case RouteState::Dead:
        p.spawns = true;
        if (!env.spawn_ok) {
            return failed(p, CallOutcome::SpawnError);
        }
        p.after.state = RouteState::Running;
        p.worker = WorkerChange::New;
        return p;
    default:
        return failed(p, CallOutcome::Busy);
    }
}

} // namespace

// -- names --------------------------------------------------------------------------------

bool is_pending(RouteState state) {
    return state == RouteState::PendingDisable || state == RouteState::PendingReplace ||
           state == RouteState::PendingRemove;
}

bool has_worker(RouteState state) {
    return state == RouteState::Running || is_pending(state);
}

RouteState state_of(const runtime::act::RouterRouteInfo& info) {
    using runtime::act::RoutePending;
    switch (info.pending) {
    case RoutePending::Disable:
        return RouteState::PendingDisable;
    case RoutePending::Replace:
        return RouteState::PendingReplace;
    case RoutePending::Remove:
        return RouteState::PendingRemove;
    case RoutePending::None:
        break;
    }
    if (info.disabled) {
        return RouteState::Disabled;
    }
    return info.pid.empty() ? RouteState::Dead : RouteState::Running;
}

std::string_view route_op_name(RouteOp op) {
    static constexpr std::array<std::string_view, 6> names = {"add",    "remove",  "disable",
                                                              "enable", "replace", "respawn"};
    return names[static_cast<std::size_t>(op)];
}

std::optional<RouteOp> parse_route_op(std::string_view text) {
    for (RouteOp op : {RouteOp::Add, RouteOp::Remove, RouteOp::Disable, RouteOp::Enable,
                       RouteOp::Replace, RouteOp::Respawn}) {
        if (route_op_name(op) == text) {
            return op;
        }
    }
    return std::nullopt;
}

std::string_view call_outcome_name(CallOutcome outcome) {
    static constexpr std::array<std::string_view, 11> names = {
        "ok",
        "gen.ErrNotAllowed",
        "gen.ErrNoRoute",
        "gen.ErrBusy",
        "gen.ErrDisabled",
        "act.ErrRouteDuplicate",
        "act.ErrRouteRunning",
        "empty name",
        "nil factory",
        "name mismatch",
        "spawn error",
    };
    return names[static_cast<std::size_t>(outcome)];
}

std::optional<Err> outcome_err(CallOutcome outcome) {
    switch (outcome) {
    case CallOutcome::NotAllowed:
        return Err::NotAllowed;
    case CallOutcome::NoRoute:
        return Err::NoRoute;
    case CallOutcome::Busy:
        return Err::Busy;
    case CallOutcome::Disabled:
        return Err::Disabled;
    case CallOutcome::RouteDuplicate:
        return Err::RouteDuplicate;
    case CallOutcome::RouteRunning:
        return Err::RouteRunning;
    default:
        return std::nullopt;
    }
}

CallOutcome classify_result(std::string_view result) {
    if (result == "ok") {
        return CallOutcome::Ok;
    }
    if (const std::optional<Err> err = runtime::parse_ergo_name(result)) {
        for (CallOutcome named :
             {CallOutcome::NotAllowed, CallOutcome::NoRoute, CallOutcome::Busy,
              CallOutcome::Disabled, CallOutcome::RouteDuplicate, CallOutcome::RouteRunning}) {
            if (outcome_err(named) == *err) {
                return named;
            }
        }
        return CallOutcome::SpawnError;
    }
    constexpr std::string_view nil_factory_tail = "\" has nil Factory";
    if (result == "route name can not be empty") {
        return CallOutcome::EmptyName;
    }
    if (result.starts_with("route \"") && result.ends_with(nil_factory_tail)) {
        return CallOutcome::NilFactory;
    }
    if (result.starts_with("ReplaceRoute name mismatch: ")) {
        return CallOutcome::NameMismatch;
    }
    return CallOutcome::SpawnError;
}

CallOutcome classify_result(const runtime::act::RouteResult& result) {
    return result ? CallOutcome::Ok : classify_result(result.error().name());
}

// -- pure predictions ---------------------------------------------------------------------

bool predict_allowed(Semantics semantics, runtime::ProcessState router_state,
                     bool router_executing) {
    using runtime::ProcessState;
    if (semantics == Semantics::Upstream) {
        return router_state == ProcessState::Running && router_executing; // R36, R37
    }
    return router_state == ProcessState::Sleep || router_state == ProcessState::Running ||
           router_state == ProcessState::WaitResponse;
}

CallPrediction predict_call(const RouteSlot& slot, const CallArgs& args, const CallEnv& env) {
    CallPrediction p;
    p.after = slot;
    if (!env.allowed) {
        return failed(p, CallOutcome::NotAllowed); // R55: the state is checked first
    }
    switch (args.op) {
    case RouteOp::Add:
        return predict_add(p, args, env);
    case RouteOp::Remove:
        return predict_remove(p, env);
    case RouteOp::Disable:
        return predict_disable(p, env);
    case RouteOp::Enable:
        return predict_enable(p, env);
    case RouteOp::Replace:
        return predict_replace(p, args, env);
    case RouteOp::Respawn:
        return predict_respawn(p, env);
    }
    RS_ASSERT(false);
    return p;
}

ExitPrediction predict_exit(const RouteSlot& slot, bool spawn_ok) {
    RS_ASSERT(has_worker(slot.state));
    ExitPrediction p;
    p.after = slot;
    switch (slot.state) {
    case RouteState::Running:
        // R22 eager restart (any reason); R23 Dead when it fails.
        p.spawns = true;
        p.counts_restart = spawn_ok;
        p.worker = spawn_ok ? WorkerChange::New : WorkerChange::Clear;
        p.after.state = spawn_ok ? RouteState::Running : RouteState::Dead;
        return p;
    case RouteState::PendingDisable:
        p.after.state = RouteState::Disabled;
        return p;
    case RouteState::PendingReplace:
        // R27: the new spec, then a spawn that is not a restart; A8 Dead when it fails.
        p.spawns = true;
        p.after =
            RouteSlot{spawn_ok ? RouteState::Running : RouteState::Dead, slot.pending_spec, 0};
        p.worker = spawn_ok ? WorkerChange::New : WorkerChange::Clear;
        return p;
    case RouteState::PendingRemove:
        p.after.state = RouteState::Absent;
        return p;
    default:
        break;
    }
    RS_ASSERT(false);
    return p;
}

RoutePrediction predict_route(const RouteSlot& slot, const RouteEnv& env) {
    RS_ASSERT(slot.state != RouteState::Absent);
    RoutePrediction p;
    p.after = slot;
    switch (slot.state) {
    case RouteState::Disabled:
    case RouteState::PendingDisable:
        p.reason = Err::Disabled; // R14
        return p;
    case RouteState::PendingRemove:
        p.reason = Err::NoRoute; // R15
        return p;
    case RouteState::PendingReplace:
        // R16; documented profile point 4 answers Busy once the old worker is gone.
        p.forwarded = env.worker_alive;
        if (!env.worker_alive) {
            p.reason = env.semantics == Semantics::Documented ? Err::Busy : env.dead_error;
        }
        return p;
    case RouteState::Running:
        if (env.worker_alive) {
            p.forwarded = true; // R12
            return p;
        }
        p.drops_worker = true; // R45 retry
        break;
    default: // Dead: R13 lazy restart
        break;
    }
    p.spawns = true;
    p.counts_restart = env.spawn_ok;
    p.forwarded = env.spawn_ok;
    p.spawn_error = !env.spawn_ok;
    p.worker = env.spawn_ok ? WorkerChange::New : WorkerChange::Clear;
    p.after.state = env.spawn_ok ? RouteState::Running : RouteState::Dead;
    return p;
}

// -- the table ----------------------------------------------------------------------------

std::optional<std::size_t> RouteTable::index_of(runtime::Atom name) const {
    for (std::size_t i = 0; i < entries_.size(); i++) {
        if (entries_[i].name == name) {
            return i;
        }
    }
    return std::nullopt;
}

RouteSlot RouteTable::slot(runtime::Atom name) const {
    const std::optional<std::size_t> index = index_of(name);
    return index ? entries_[*index].slot : RouteSlot{};
}

std::uint64_t RouteTable::worker(runtime::Atom name) const {
    const std::optional<std::size_t> index = index_of(name);
    return index ? entries_[*index].worker : 0;
}

RouteTable::ExitKind RouteTable::classify_exit(std::uint64_t pid) const {
    if (!route_of(pid).empty()) {
        return ExitKind::Recorded;
    }
    return pending_exit_.count(pid) > 0 ? ExitKind::PendingExit : ExitKind::Stray;
}

runtime::Atom RouteTable::route_of(std::uint64_t pid) const {
    for (const Entry& entry : entries_) {
        if (pid != 0 && entry.worker == pid) {
            return entry.name;
        }
    }
    return runtime::Atom();
}

void RouteTable::add_initial(runtime::Atom name, std::uint32_t spec, std::uint64_t worker) {
    RS_ASSERT(!index_of(name).has_value());
    RS_ASSERT(worker != 0);
    entries_.push_back(Entry{name, RouteSlot{RouteState::Running, spec, 0}, worker});
}

CallPrediction RouteTable::predict_call(runtime::Atom name, const CallArgs& args,
                                        const CallEnv& env) const {
    return properties::predict_call(slot(name), args, env);
}

void RouteTable::commit_call(runtime::Atom name, const CallPrediction& prediction,
                             std::uint64_t new_worker) {
    const std::optional<std::size_t> index = index_of(name);
    if (!index) {
        if (prediction.after.state != RouteState::Absent) {
            RS_ASSERT(prediction.worker == WorkerChange::New);
            RS_ASSERT(new_worker != 0);
            entries_.push_back(Entry{name, prediction.after, new_worker}); // R30: appended
        }
        return;
    }
    apply(*index, prediction.after, prediction.worker, new_worker, prediction.drops_worker);
}

RoutePrediction RouteTable::predict_route(runtime::Atom name, const RouteEnv& env) const {
    return properties::predict_route(slot(name), env);
}

void RouteTable::commit_route(runtime::Atom name, const RoutePrediction& prediction,
                              std::uint64_t new_worker) {
    const std::optional<std::size_t> index = index_of(name);
    RS_ASSERT(index.has_value());
    (prediction.forwarded ? counters_.forwarded : counters_.failed)++;
    counters_.restarts += prediction.counts_restart ? 1U : 0U;
    apply(*index, prediction.after, prediction.worker, new_worker, prediction.drops_worker);
}

void RouteTable::commit_unowned(bool forwarded) {
    (forwarded ? counters_.forwarded : counters_.failed)++;
}

void RouteTable::commit_discard() {
    counters_.discarded++;
}

ExitPrediction RouteTable::predict_exit(std::uint64_t pid, bool spawn_ok) const {
    const runtime::Atom name = route_of(pid);
    RS_ASSERT(!name.empty());
    return properties::predict_exit(slot(name), spawn_ok);
}

void RouteTable::commit_exit(std::uint64_t pid, const ExitPrediction& prediction,
                             std::uint64_t new_worker) {
    const ExitKind kind = classify_exit(pid);
    RS_ASSERT(kind != ExitKind::Stray);
    if (kind == ExitKind::PendingExit) {
        pending_exit_.erase(pid); // R50: ignored once
        return;
    }
    const std::optional<std::size_t> index = index_of(route_of(pid));
    RS_ASSERT(index.has_value());
    counters_.restarts += prediction.counts_restart ? 1U : 0U;
    apply(*index, prediction.after, prediction.worker, new_worker, false);
}

void RouteTable::apply(std::size_t index, const RouteSlot& after, WorkerChange change,
                       std::uint64_t new_worker, bool drops_worker) {
    Entry& entry = entries_[index];
    if (drops_worker) {
        RS_ASSERT(entry.worker != 0);
        pending_exit_.insert(entry.worker);
    }
    if (change == WorkerChange::Clear) {
        entry.worker = 0;
    } else if (change == WorkerChange::New) {
        RS_ASSERT(new_worker != 0);
        entry.worker = new_worker;
    }
    if (after.state == RouteState::Absent) {
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index)); // later move up
        return;
    }
    entry.slot = after;
    RS_ASSERT(has_worker(after.state) == (entry.worker != 0));
}

} // namespace routesim::properties
