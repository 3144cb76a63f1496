// act::Router management methods: add, remove, disable, enable, replace, respawn, with the
// check orders of R55, the R-table, pending operations (R25–R29, R50) and the two semantics
// profiles (§8 opening, R26, R32, R36–R38).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/node_impl.hpp"
#include "runtime/router.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act {
namespace {

std::string_view op_name(std::uint8_t op) {
    static constexpr std::string_view names[] = {"add",    "remove",  "disable",
                                                 "enable", "replace", "respawn"};
    RS_ASSERT(op < 6);
    return names[op];
}

bool is_dead_target(Err err) {
    return err == Err::ProcessUnknown || err == Err::ProcessTerminated;
}

} // namespace

bool Router::management_allowed() const {
    if (!has_process()) {
        return false;
    }
    const Process& self_process = process();
    const ProcessState state = self_process.state();
    if (self_process.node().semantics() == Semantics::Upstream) {
        // R36, R37: state exactly Running, which in practice means from the router's own
        // callbacks; in the simulator, only while the router is the process executing.
        return state == ProcessState::Running && self_process.is_executing();
    }
    // Documented profile: callable from outside while the router is alive, but not in Init.
    return state == ProcessState::Sleep || state == ProcessState::Running ||
           state == ProcessState::WaitResponse;
}

RouteResult Router::manage(Op op, Atom name, const std::function<RouteResult()>& body) {
    if (!has_process()) {
        return sim::fail(Error(Err::NotAllowed));
    }
    RouteResult result;
    if (!management_allowed()) {
        result = sim::fail(Error(Err::NotAllowed)); // R36: checked first (R55)
    } else if (process().is_executing()) {
        result = body();
    } else {
        // Documented profile, a call from outside between the router's steps.
        process().run_outside([&result, &body] { result = body(); });
    }
    std::string scratch;
    const std::string_view outcome = result ? std::string_view("ok") : result.error().name(scratch);
    process().node().world().emit(
        ev::RouteAdmin{self().id, op_name(static_cast<std::uint8_t>(op)), ev::text(name), outcome});
    return result;
}

RouteResult Router::add_route(Route route) {
    const Atom name = route.name;
    return manage(Op::Add, name, [this, &route] { return do_add(std::move(route)); });
}

RouteResult Router::remove_route(Atom name) {
    return manage(Op::Remove, name, [this, name] { return do_remove(name); });
}

RouteResult Router::disable_route(Atom name) {
    return manage(Op::Disable, name, [this, name] { return do_disable(name); });
}

RouteResult Router::enable_route(Atom name) {
    return manage(Op::Enable, name, [this, name] { return do_enable(name); });
}

RouteResult Router::replace_route(Atom name, Route route) {
    return manage(Op::Replace, name, [this, name, &route] { return do_replace(name, route); });
}

RouteResult Router::respawn_route(Atom name) {
    return manage(Op::Respawn, name, [this, name] { return do_respawn(name); });
}

// -- the methods (R55 order: state, then the rest) ----------------------------------------

RouteResult Router::do_add(Route route) {
    // R30: empty name, nil factory, duplicate, spawn.
    if (RouteResult valid = validate_route(route); !valid) {
        return valid;
    }
    if (const std::optional<std::size_t> index = find(route.name)) {
        if (table_[*index].pending != RoutePending::None &&
            process().node().semantics() == Semantics::Documented) {
            return sim::fail(Error(Err::Busy)); // §8 documented profile (point 1)
        }
        return sim::fail(Error(Err::RouteDuplicate)); // R26: never looks at pending
    }
    sim::Result<PID, Error> spawned = spawn_worker(route);
    if (!spawned) {
        return sim::fail(spawned.error()); // unchanged, and the entry is not added
    }
    append_entry(Entry{std::move(route), spawned.value(), false, RoutePending::None, Route{}});
    RS_ASSERT(!table_.back().pid.empty());
    return {};
}

RouteResult Router::do_remove(Atom name) {
    // R55: unknown (nil), pending, no-PID drop, SendExit.
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return {}; // R31
    }
    // R28, R29: a disabled route records no PID (the table's invariant).
    RS_ASSERT(!table_[*index].disabled || table_[*index].pid.empty());
    if (table_[*index].pending != RoutePending::None) {
        return sim::fail(Error(Err::Busy)); // R26
    }
    if (table_[*index].pid.empty()) {
        erase_entry(*index); // R28, R29
        return {};
    }
    return stop_worker(*index, RoutePending::Remove);
}

RouteResult Router::do_disable(Atom name) {
    // R55: unknown, pending, already disabled (nil), no-PID disable, SendExit.
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return sim::fail(Error(Err::NoRoute));
    }
    Entry& entry = table_[*index];
    RS_ASSERT(!entry.disabled || entry.pid.empty()); // R28, R29
    if (entry.pending != RoutePending::None) {
        return sim::fail(Error(Err::Busy));
    }
    if (entry.disabled) {
        return {}; // R29, A10
    }
    if (entry.pid.empty()) {
        entry.disabled = true; // R28
        return {};
    }
    return stop_worker(*index, RoutePending::Disable);
}

RouteResult Router::do_enable(Atom name) {
    // R55: unknown, pending, not disabled (nil), clear the flag, spawn if no PID.
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return sim::fail(Error(Err::NoRoute));
    }
    if (table_[*index].pending != RoutePending::None) {
        return sim::fail(Error(Err::Busy));
    }
    if (!table_[*index].disabled) {
        return {}; // R32: no spawn, even when Dead
    }
    // R32 spawns "if no PID is recorded"; a disabled route never records one here.
    RS_ASSERT(table_[*index].pid.empty());
    table_[*index].disabled = false;
    sim::Result<PID, Error> spawned = spawn_worker(table_[*index].spec);
    if (!spawned) {
        if (process().node().semantics() == Semantics::Documented) {
            table_[*index].disabled = true; // §8 documented (point 2): still disabled
        }
        return sim::fail(spawned.error()); // upstream R32: enabled and Dead
    }
    table_[*index].pid = spawned.value(); // not a restart (R42)
    return {};
}

RouteResult Router::do_replace(Atom name, const Route& route) {
    // R55: nil factory, name mismatch, unknown, pending, no-PID swap, SendExit.
    if (!route.factory) {
        return sim::fail(Error::text("route " + go_quote(name.text()) + " has nil Factory"));
    }
    if (!route.name.empty() && route.name != name) {
        return sim::fail(Error::text("ReplaceRoute name mismatch: spec Name " +
                                     go_quote(route.name.text()) + " vs key " +
                                     go_quote(name.text()))); // R34, A12
    }
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return sim::fail(Error(Err::NoRoute));
    }
    if (table_[*index].pending != RoutePending::None) {
        return sim::fail(Error(Err::Busy));
    }
    if (table_[*index].pid.empty()) {
        return swap_and_spawn(*index, route, PID{}); // R28 (Dead), R29 (Disabled)
    }
    const PID pid = table_[*index].pid;
    RS_ASSERT(!table_[*index].disabled); // R28, R29: a route with a PID is not disabled
    const SendResult sent = process().send_exit(pid, Error::shutdown()); // R25, A7
    if (sent) {
        Entry& entry = table_[*index];
        RS_ASSERT(entry.pid == pid); // sending an exit changes no table entry
        entry.pending_spec = Route{name, route.factory, route.args};
        entry.pending = RoutePending::Replace;
        trace_pending(name, RouteState::Running, RouteState::PendingReplace, pid);
        return {};
    }
    if (is_dead_target(sent.error())) {
        RS_MARK("router.inline_completion");
        return swap_and_spawn(*index, route, pid); // R50: inline completion
    }
    return sim::fail(Error(sent.error()));
}

RouteResult Router::do_respawn(Atom name) {
    // R33, R55: unknown, pending, disabled, PID recorded, spawn.
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return sim::fail(Error(Err::NoRoute));
    }
    const Entry& entry = table_[*index];
    if (entry.pending != RoutePending::None) {
        return sim::fail(Error(Err::Busy));
    }
    if (entry.disabled) {
        return sim::fail(Error(Err::Disabled));
    }
    if (!entry.pid.empty()) {
        return sim::fail(Error(Err::RouteRunning)); // the table is checked, not liveness
    }
    RS_ASSERT(entry.spec.factory != nullptr);
    sim::Result<PID, Error> spawned = spawn_worker(entry.spec);
    if (!spawned) {
        return sim::fail(spawned.error()); // stays Dead
    }
    table_[*index].pid = spawned.value(); // not a restart (R42, A11)
    return {};
}

// -- pending operations -------------------------------------------------------------------

RouteResult Router::stop_worker(std::size_t index, RoutePending pending) {
    // R25: SendExit(Shutdown), then pending; Disable and Remove only (Replace keeps a spec).
    RS_ASSERT(pending == RoutePending::Disable || pending == RoutePending::Remove);
    const PID pid = table_[index].pid;
    const Atom name = table_[index].spec.name;
    RS_ASSERT(!pid.empty());
    const SendResult sent = process().send_exit(pid, Error::shutdown());
    if (sent) {
        table_[index].pending = pending;
        trace_pending(name, RouteState::Running, route_state(index), pid);
        return {};
    }
    if (!is_dead_target(sent.error())) {
        return sim::fail(Error(sent.error())); // nothing changes
    }
    // R50: the worker is already gone; complete at once and ignore its exit later.
    RS_MARK("router.inline_completion");
    pending_exit_.insert(pid);
    if (pending == RoutePending::Remove) {
        erase_entry(index);
        return {};
    }
    table_[index].pid = PID{};
    table_[index].disabled = true;
    return {};
}

RouteResult Router::swap_and_spawn(std::size_t index, const Route& spec, const PID& stale) {
    // R28, R29, R50: swap the spec first, then spawn unless disabled.
    RS_ASSERT(table_[index].pending == RoutePending::None);
    RS_ASSERT(spec.factory != nullptr);
    Route previous = table_[index].spec;
    if (!stale.empty()) {
        pending_exit_.insert(stale);
        table_[index].pid = PID{};
    }
    table_[index].spec.factory = spec.factory;
    table_[index].spec.args = spec.args;
    if (table_[index].disabled) {
        return {};
    }
    sim::Result<PID, Error> spawned = spawn_worker(table_[index].spec);
    if (spawned) {
        table_[index].pid = spawned.value(); // not a restart (R42)
        return {};
    }
    if (process().node().semantics() == Semantics::Documented) {
        // §8 documented (point 2): the route is left exactly as it was (old spec, and the
        // stale PID whose exit will be handled as any worker's).
        table_[index].spec = std::move(previous);
        if (!stale.empty()) {
            pending_exit_.erase(stale);
            table_[index].pid = stale;
        }
    }
    return sim::fail(spawned.error()); // upstream R38: Dead with the new spec
}

} // namespace routesim::runtime::act
