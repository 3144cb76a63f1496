// act::Router: named routes resolved per message (own routes, then the registry), forwarding
// with the original sender, worker restarts, pending operations and management methods
// (router.md; §8, rules R1..R55, both semantics profiles).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/behavior.hpp"
#include "runtime/node_impl.hpp"
#include "runtime/route_state.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::runtime::act {

/// A route's pending operation (R3, R25): set while the router waits for the old worker's exit.
enum class RoutePending : std::uint8_t { None = 0, Disable = 1, Replace = 2, Remove = 3 };

/// "none", "disable", "replace", "remove", or "pending#<n>" for any other value (R3).
std::string route_pending_name(RoutePending pending);

/// The name a routing callback returns to drop a message (R11): the empty Atom.
inline constexpr Atom RouteDiscard{};

/// One owned route: a stable name and the spec its worker is spawned from (R3).
struct Route {
    Atom name;
    Factory factory;
    Args args;
};

/// What init returns (R3). `mailbox_size` is stored and reported, and applied to nothing (A1).
struct RouterOptions {
    std::vector<Route> routes;
    std::int64_t mailbox_size = 0;
};

/// The state of a route with `pending`, `disabled` and a worker recorded or not (R3, R25): a
/// pending operation first, then disabled, then whether a worker is recorded. Never Absent.
constexpr RouteState route_state_of(RoutePending pending, bool disabled, bool has_worker) {
    switch (pending) {
    case RoutePending::Disable:
        return RouteState::PendingDisable;
    case RoutePending::Replace:
        return RouteState::PendingReplace;
    case RoutePending::Remove:
        return RouteState::PendingRemove;
    case RoutePending::None:
        break;
    }
    if (disabled) {
        return RouteState::Disabled;
    }
    return has_worker ? RouteState::Running : RouteState::Dead;
}

/// A snapshot of one route (R3, R35). `pid` is empty when no worker is recorded.
struct RouterRouteInfo {
    Atom name;
    PID pid;
    bool disabled = false;
    RoutePending pending = RoutePending::None;
    bool operator==(const RouterRouteInfo& other) const = default;
    /// The route's state (R3, R25): a pending operation first, then disabled, then whether a
    /// worker is recorded. Never Absent (an absent route has no info).
    RouteState state() const { return route_state_of(pending, disabled, !pid.empty()); }
};

/// An asynchronous routing failure, handed inline to handle_message with from = the router's
/// own pid (R4, R19, A15).
struct MessageRouteFailed {
    static constexpr std::string_view type_name = "MessageRouteFailed";
    Atom name;
    PID from;
    Message message;
    Error reason;
    std::string describe() const;
};

/// The router's counters (R42).
struct RouterCounters {
    std::uint64_t forwarded = 0;
    std::uint64_t discarded = 0;
    std::uint64_t failed = 0;
    std::uint64_t restarts = 0;
    bool operator==(const RouterCounters& other) const = default;
};

/// The outcome of a management method: nothing, or the error (a named Err or an R48 text).
using RouteResult = sim::Result<void, Error>;

/// The Router behaviour (R1). Derive, implement init, route_message and route_call (pure
/// virtual: a router that does not route does not compile), and optionally override the
/// other callbacks. Normal-priority messages are routed; High/Max ones reach handle_message /
/// handle_call (the admin path, R46). Management methods follow the node's semantics profile:
/// documented (callable from outside while the router is alive) or upstream (only from the
/// router's own callbacks, R36/R37).
class Router : public Behavior {
public:
    // -- callbacks ----------------------------------------------------------------------
    /// Returns the routes to spawn (in order, atomically: R5, R6) and the mailbox size.
    virtual sim::Result<RouterOptions, Error> init(const Args& args) = 0;
    /// Names the route of a Normal-priority message; RouteDiscard drops it (R8, R11).
    virtual Atom route_message(const PID& from, const Message& message) = 0;
    /// Names the route of a Normal-priority call; RouteDiscard answers ErrDiscarded (R8, R11).
    virtual Atom route_call(const PID& from, const Ref& ref, const Message& request) = 0;
    /// Admin messages, Down notices and MessageRouteFailed. Default: log a warning (R2).
    virtual Status handle_message(const PID& from, const Message& message);
    /// Admin calls (R46). Default: log a warning and reply nothing, so the caller times out.
    virtual CallReply handle_call(const PID& from, const Ref& ref, const Message& request);
    /// Event messages, from any queue; never routed (A3). Default: log a warning.
    virtual Status handle_event(const PID& from, const Message& message);
    /// Extra inspect keys, merged on top of the built-in ones (R41). Default: the built-ins.
    virtual Inspection handle_inspect(const PID& from, const std::vector<std::string>& items);
    /// Runs after teardown with the original reason. Default: nothing (R2).
    virtual void terminate(const Error& reason);

    // -- queries ------------------------------------------------------------------------
    /// Every route in table order: Init order, then add_route appends (R35). Any state.
    std::vector<RouterRouteInfo> routes() const;
    /// The owned route `name`, or nothing (R35). Any state. Cost: linear in the table.
    std::optional<RouterRouteInfo> route(Atom name) const;
    RouterCounters counters() const { return counters_; }
    /// RouterOptions.mailbox_size as init returned it (A1).
    std::int64_t mailbox_size() const { return mailbox_size_; }
    /// The built-in inspect map (R40).
    Inspection stats() const;
    const PID& self() const { return process().pid(); }
    /// The mailbox item being handled; precondition: inside a callback.
    const MailboxMessage& current() const;
    /// Whether a management method may run now (R36, R37 and the documented profile).
    bool management_allowed() const;

    // -- management (R25–R38, check orders R55) -------------------------------------------
    /// Appends and spawns a route. Errors: NotAllowed, "route name can not be empty",
    /// `route "<n>" has nil Factory`, RouteDuplicate (documented: Busy when that route is
    /// pending, R26), or the spawn error (the route is then not added).
    RouteResult add_route(Route route);
    /// Removes a route (pending Remove while its worker stops). Unknown name: ok. Errors:
    /// NotAllowed, Busy.
    RouteResult remove_route(Atom name);
    /// Takes a route offline (pending Disable while its worker stops). Errors: NotAllowed,
    /// NoRoute, Busy.
    RouteResult disable_route(Atom name);
    /// Clears the disabled flag and spawns a worker. Errors: NotAllowed, NoRoute, Busy, the
    /// spawn error (documented: the route stays disabled; upstream: enabled and Dead, R32).
    RouteResult enable_route(Atom name);
    /// Swaps a route's factory and args (R27–R29, R34). Errors: NotAllowed, nil factory,
    /// name mismatch, NoRoute, Busy, the spawn error (documented: route unchanged;
    /// upstream: Dead with the new spec, R38).
    RouteResult replace_route(Atom name, Route route);
    /// Spawns the worker of a Dead route (R33). Errors: NotAllowed, NoRoute, Busy, Disabled,
    /// RouteRunning, the spawn error.
    RouteResult respawn_route(Atom name);

    // -- Behavior -----------------------------------------------------------------------
    Status process_init(const Args& args) final;
    /// Dispatches one mailbox item (R8, R9). Subclasses may override it only to observe the
    /// router (tests do) and must call Router::process_message.
    Status process_message(Queue queue, MailboxMessage& message) override;
    void process_terminate(const Error& reason) final;
    Inspection process_inspect(PID from, const std::vector<std::string>& items) final;
    std::string_view kind_name() const override { return "Router"; }

private:
    struct Entry {
        Route spec;
        PID pid;
        bool disabled = false;
        RoutePending pending = RoutePending::None;
        Route pending_spec; // the new spec of a pending Replace
    };
    enum class Op : std::uint8_t { Add, Remove, Disable, Enable, Replace, Respawn };
    struct Routed;

    // routing and exits (router.cpp)
    Status route_one(MailboxMessage& message);
    Status dispatch_other(Queue queue, const MailboxMessage& message);
    Routed resolve(Atom name, const MailboxMessage& message);
    Routed forward_owned(std::size_t index, const MailboxMessage& message);
    /// R45 after a forward to route `index` failed with `err`: a retry or the failure.
    Routed forward_failed(std::size_t index, const MailboxMessage& message, Err err);
    Status route_discarded(const MailboxMessage& message, Atom name);
    /// Counts and traces a routing that resolve (or a failed forward) decided (R42, R18).
    Status finish_route(const MailboxMessage& message, Atom name, const Routed& routed);
    Routed forward_replacing(std::size_t index, const MailboxMessage& message);
    Routed retry_forward(std::size_t index, const MailboxMessage& message);
    Status deliver_failure(const MailboxMessage& message, Atom name, const Error& reason);
    Status handle_exit(const MailboxMessage& message);
    void worker_exited(std::size_t index);
    void respawn_eager(std::size_t index);
    void finish_replace(std::size_t index, RouteState before);
    Status admin_call(const MailboxMessage& message);
    Inspection merged_inspect(const PID& from, const std::vector<std::string>& items);
    sim::Result<PID, Error> spawn_worker(const Route& spec);
    RouteResult validate_route(const Route& route) const;
    /// The table index of route `name`: a probe of the name index, whatever the table's
    /// length. Inline: the routing hot path.
    std::optional<std::size_t> find(Atom name) const {
        for (std::size_t at = name.hash() & name_mask_;; at = (at + 1) & name_mask_) {
            const std::uint32_t slot = name_slots_[at];
            if (slot == 0) {
                return std::nullopt;
            }
            if (names_[slot - 1] == name) {
                return slot - 1;
            }
        }
    }
    std::optional<std::size_t> find(const PID& pid) const;
    void append_entry(Entry entry);
    void erase_entry(std::size_t index);
    void index_name(std::size_t index);
    void index_names();
    RouteState route_state(std::size_t index) const;
    void trace_pending(Atom name, RouteState from, RouteState to, const PID& worker);
    void trace_restart(Atom name, std::string_view kind, const PID& worker);

    // management (router_manage.cpp)
    RouteResult manage(Op op, Atom name, const std::function<RouteResult()>& body);
    RouteResult do_add(Route route);
    RouteResult do_remove(Atom name);
    RouteResult do_disable(Atom name);
    RouteResult do_enable(Atom name);
    RouteResult do_replace(Atom name, const Route& route);
    RouteResult do_respawn(Atom name);
    RouteResult stop_worker(std::size_t index, RoutePending pending);
    RouteResult swap_and_spawn(std::size_t index, const Route& spec, const PID& stale);

    std::vector<Entry> table_;
    std::vector<Atom> names_; // table_[i].spec.name, kept beside it for the routing lookup
    // Open-addressed index of names_ by Atom::hash() (lookups only): 0 = free, else i + 1.
    // Never empty (one free slot before the first route), so a lookup needs no empty test.
    std::vector<std::uint32_t> name_slots_ = std::vector<std::uint32_t>(1, 0);
    std::size_t name_mask_ = 0;  // name_slots_.size() - 1
    std::set<PID> pending_exit_; // R50: workers dropped before their exit was consumed
    RouterCounters counters_;
    std::int64_t mailbox_size_ = 0;
    const MailboxMessage* current_ = nullptr;
    // This router's id premixed as a route event's router field (sim::TraceValue::premixed),
    // set by process_init: once per routed message.
    std::uint64_t route_router_lane_ = 0;
};

/// Go's %q quoting of a name (double quotes, Go escapes), as the R48 texts use it.
std::string go_quote(std::string_view text);

} // namespace routesim::runtime::act
