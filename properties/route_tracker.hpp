// RouteTracker: rebuilds every router's route table from the trace alone and checks each
// step against the route state model (route_model.hpp); the route monitors filter its findings.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/event_decodes.hpp"
#include "properties/event_kind.hpp"
#include "properties/event_text.hpp"
#include "properties/monitor.hpp"
#include "properties/route_model.hpp"
#include "runtime/events.hpp"
#include "runtime/node.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {

/// A kind of discrepancy between a router's trace and the route state model, named after
/// the check; each belongs to one invariant (see router_monitors.hpp).
enum class RouteCheck : std::uint8_t {
    StaleWorker,           ///< route_stability: routed to a worker that is not the current one
    ForwardMismatch,       ///< route_stability: the forward does not match the route event
    SlotMoved,             ///< route_stability: a restart reports another table slot
    SharedWorker,          ///< route_stability: one worker recorded under two names
    SecondPending,         ///< pending_exclusivity: a pending operation on a pending route
    AdminResult,           ///< pending_exclusivity: a management result the model rejects
    PendingEndWithoutExit, ///< pending_exclusivity: pending ended before the worker exited
    ForwardToDisabled,     ///< no_forward_to_disabled
};

/// A bit set of RouteCheck values.
using RouteChecks = std::uint32_t;

/// The bit of one check.
constexpr RouteChecks check_bit(RouteCheck check) {
    return RouteChecks{1} << static_cast<unsigned>(check);
}

/// Reconstructs each router's table (names in table order, states, recorded workers) from
/// its trace and reports discrepancies of the enabled checks. Each event is decoded once
/// (read_event) and its fields read by name; an event that does not decode as its kind's
/// struct (a hand-edited trace) is skipped. Cost per event: one decode and a few map
/// lookups; per route event also a lookup by name. Memory: one entry per live route.
class RouteTracker {
public:
    /// One discrepancy, worded for people, with the events that show it.
    struct Finding {
        RouteCheck check;
        sim::Instant at;
        std::string explanation;
        std::vector<Witness> witnesses;
    };

    /// `semantics` is the profile management results are checked against; only the checks
    /// in `checks` produce findings.
    RouteTracker(runtime::Semantics semantics, RouteChecks checks)
        : semantics_(semantics), checks_(checks) {}

    // -- queries ----------------------------------------------------------------------------
    /// The route names of a live router in table order (empty for an unknown router).
    std::vector<std::string> route_names(std::uint64_t router) const;
    /// The state of a route; Absent for an unknown router or name.
    RouteState state(std::uint64_t router, std::string_view name) const;
    /// The recorded worker pid id of a route; 0 when none.
    std::uint64_t worker(std::uint64_t router, std::string_view name) const;
    /// True when the tracker holds a table for `pid` (a live router, lost or not).
    bool has_router(std::uint64_t pid) const { return held(pid) != nullptr; }
    /// True when the tracker stopped following `router` after a management result the model
    /// rejects (its table is no longer known).
    bool lost(std::uint64_t router) const;

    /// Enables more checks (before the first event).
    void add_checks(RouteChecks checks) { checks_ |= checks; }
    /// Names processes in the findings' witnesses with `names` (the owning monitor's view, or
    /// nullptr for bare pids).
    void name_processes_with(const TopologyView* names) { names_ = names; }
    /// Forgets every event seen (the checks stay).
    void reset() {
        routers_used_ = 0; // the tables stay allocated for the next run's routers
        held_.clear();
        last_router_ = nullptr;
        last_router_pid_ = 0;
        routers_low_ = UINT64_MAX;
        routers_high_ = 0;
        watched_.clear();
        findings_.clear();
    }
    /// The findings not yet taken; the caller clears them.
    std::vector<Finding>& findings() { return findings_; }

    // -- commands ---------------------------------------------------------------------------
    /// Applies one event; findings are appended to findings(). Returns the router the event
    /// made known (its spawn, a route_init), whose takes matter from then on, or 0.
    std::uint64_t on_event(const sim::TraceEvent& event) {
        own_decodes_.begin(event);
        return on_event(event_kind_of(event.kind), event, own_decodes_);
    }
    /// on_event with the event's kind decoded, read through `decodes` (begun for `event`: a
    /// MonitorSet's, shared with the view and the other monitors). Inline: a take by a worker
    /// or a client is turned away here, and a router's goes straight to on_take.
    std::uint64_t on_event(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes) {
        if (kind == EventKind::Take) {
            const runtime::ev::Take* take = decodes.get<runtime::ev::Take>(event);
            if (take == nullptr) {
                return 0;
            }
            if (Router* router = find_router(take->pid.value)) {
                on_take(*router, take->pid.value, *take, event, findings_);
            }
            return 0;
        }
        return on_other(kind, event, decodes, findings_);
    }

private:
    struct Route {
        std::string name;
        RouteState state = RouteState::Running;
        std::uint64_t worker = 0;   // recorded worker pid id, 0 when none
        bool owns_worker = false;   // the route `worker` was last recorded for (see worker_route)
        bool worker_exited = false; // the recorded worker's exit event was seen
        bool worker_killed = false; // Node.Kill made it a Zombee: not alive, exit still to come
        KeptWitness since;          // the event that gave the route its state or worker
    };
    struct Before { // a route as it was when a management call began
        std::string name;
        Route route;
        bool existed = false;
        bool second_pending = false; // already reported as a second pending operation
    };
    struct LastForward { // the router's last forward, rendered only for witnesses
        std::uint64_t seq = 0;
        sim::Instant at;
        std::uint64_t id = 0;
        std::uint64_t to = 0;
        std::uint64_t from = 0;
        std::uint64_t queue = 0;
        Witness witness(std::uint64_t by, const TopologyView* names) const; // as describe_event
    };
    using RouteTable = std::vector<Route>; // table order (R5, R27, R30); tables are short
    // A route name last seen in a route event, by the text's hash and address: the emitter
    // names routes with interned atoms, so the same route arrives with the same text.
    struct NameCache {
        std::uint64_t hash = 0;
        const char* text = nullptr;
        std::size_t size = 0;
        std::size_t index = 0; // into routes
    };
    static constexpr std::size_t name_cache_size = 16;
    struct Router {
        std::uint64_t pid = 0;
        RouteTable routes;
        std::array<NameCache, name_cache_size> names{}; // cleared when a route is erased
        std::uint64_t fresh_spawn = 0; // last worker spawned by the router in this step
        std::optional<LastForward> last_forward;
        std::optional<Before> before;       // set by a route_pending inside a management call
        std::uint64_t forward_reported = 0; // message id already reported as a forward
        bool lost = false;
    };

    /// on_event past a take.
    std::uint64_t on_other(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes,
                           std::vector<Finding>& out);
    bool wants(RouteCheck check) const { return (checks_ & check_bit(check)) != 0; }
    /// The live router with this pid id, or nullptr. Most events name a worker or a client:
    /// ids outside the range routers ever had are turned away without a lookup.
    /// A router's events come in runs (its take, forward and route event of one message):
    /// the last router found answers without a search.
    Router* find_router(std::uint64_t router) {
        if (router == last_router_pid_ && last_router_ != nullptr) {
            return last_router_->lost ? nullptr : last_router_;
        }
        return router < routers_low_ || router > routers_high_ ? nullptr : find_router_slow(router);
    }
    Router* find_router_slow(std::uint64_t router);
    /// Forgets router `pid`'s table.
    void erase_router(std::uint64_t pid);
    /// The table of router `pid`, made empty when new.
    Router& add_router(std::uint64_t pid);
    /// The route named `name` (a route event's), or routes.end().
    static constexpr std::size_t no_route = ~std::size_t{0};
    /// The index of the route named by a route event's `name`, or no_route.
    static std::size_t named_route(Router& router, const runtime::ev::Text& name);
    /// The index of the route named `name`, or no_route.
    static std::size_t route_index(const Router& router, std::string_view name);
    /// The index of the route worker `worker` was last recorded for, or no_route.
    static std::size_t worker_route(const Router& router, std::uint64_t worker);
    /// The table of router `pid` (live, lost or not), or nullptr.
    const Router* held(std::uint64_t pid) const;
    /// The router that last recorded worker `worker` (0 when none).
    std::uint64_t watcher_of(std::uint64_t worker) const;
    // The handlers: each gets its event decoded (`decoded`) and the TraceEvent itself only to
    // make witnesses of it (KeptWitness, witness_of, its time).
    /// Returns the pid of a router it adds, or 0.
    std::uint64_t on_spawn(const runtime::ev::Spawn& spawn);
    void on_spawn_failed(const runtime::ev::SpawnFailed& failed);
    void on_exit(std::uint64_t pid);
    void on_kill(std::uint64_t pid);
    void on_take(Router& router, std::uint64_t pid, const runtime::ev::Take& take,
                 const sim::TraceEvent& event, std::vector<Finding>& out);
    /// A router took the exit signal of process `from`: a recorded worker's makes its route
    /// Dead.
    void on_exit_taken(Router& router, std::uint64_t pid, std::uint64_t from,
                       const sim::TraceEvent& event, std::vector<Finding>& out);
    void on_forward(Router& router, std::uint64_t pid, const runtime::ev::Forward& forward,
                    const sim::TraceEvent& event, std::vector<Finding>& out);
    void on_route_init(const runtime::ev::RouteInit& init, const sim::TraceEvent& event,
                       std::vector<Finding>& out);
    /// The route events of a router other than `route`: decoded, then handed to the handler of
    /// their kind.
    void on_route_event(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes,
                        std::vector<Finding>& out);
    void on_route(Router& router, std::uint64_t pid, const runtime::ev::Route& route,
                  const sim::TraceEvent& event, std::vector<Finding>& out);
    /// The checks of an owned route event; the findings are worded out of line.
    void check_owned(Router& router, std::uint64_t pid, const Route& route,
                     const runtime::ev::Route& routed, const sim::TraceEvent& event,
                     std::vector<Finding>& out) {
        const std::uint64_t id = routed.id;
        const bool forwarded = router.last_forward.has_value() && router.last_forward->id == id;
        const bool to_disabled = wants(RouteCheck::ForwardToDisabled) &&
                                 takes_no_messages(route.state) && router.forward_reported != id;
        const bool stale = wants(RouteCheck::StaleWorker) && routed.worker != route.worker;
        const bool mismatch = wants(RouteCheck::ForwardMismatch) &&
                              (!forwarded || router.last_forward->to != routed.worker);
        if (to_disabled || stale || mismatch) { // the hot path builds no text
            report_owned(router, pid, route, routed, event,
                         {forwarded, to_disabled, stale, mismatch}, out);
        }
    }
    struct OwnedChecks { // what check_owned found
        bool forwarded = false;
        bool to_disabled = false;
        bool stale = false;
        bool mismatch = false;
    };
    void report_owned(Router& router, std::uint64_t pid, const Route& route,
                      const runtime::ev::Route& routed, const sim::TraceEvent& event,
                      OwnedChecks found, std::vector<Finding>& out);
    /// R14, R15: a disabled route, or one pending disable or remove, is not forwarded to.
    static bool takes_no_messages(RouteState state) {
        return state == RouteState::Disabled || state == RouteState::PendingDisable ||
               state == RouteState::PendingRemove;
    }
    void on_restart(Router& router, std::uint64_t pid, const runtime::ev::RouteRestart& restart,
                    const sim::TraceEvent& event, std::vector<Finding>& out);
    void on_pending(Router& router, std::uint64_t pid, const runtime::ev::RoutePending& pending,
                    const sim::TraceEvent& event, std::vector<Finding>& out);
    void on_admin(Router& router, std::uint64_t pid, const runtime::ev::RouteAdmin& admin,
                  const sim::TraceEvent& event, std::vector<Finding>& out);
    std::string admin_problem(std::uint64_t pid, const runtime::ev::RouteAdmin& admin,
                              const Before& before, const CallPrediction& prediction,
                              RouteState now) const;
    void commit_admin(Router& router, std::uint64_t pid, const std::string& name,
                      const CallPrediction& prediction, const sim::TraceEvent& event,
                      std::vector<Finding>& out);
    /// Records `worker` as the worker of route `self` (an index, which callers hold: no
    /// second lookup by name).
    void set_worker(Router& router, std::uint64_t pid, std::size_t self, std::uint64_t worker,
                    const sim::TraceEvent& event, std::vector<Finding>& out);
    void erase_route(Router& router, std::size_t index);

    runtime::Semantics semantics_;
    RouteChecks checks_;
    EventDecodes own_decodes_;            // on_event without a set's decodes
    const TopologyView* names_ = nullptr; // names processes in witnesses
    // Every router's table, reused run after run (a deque: a Router stays put while others
    // are added); the first routers_used_ are this run's.
    std::deque<Router> routers_;
    std::size_t routers_used_ = 0;
    std::vector<std::pair<std::uint64_t, Router*>> held_; // live routers by pid id, sorted
    Router* last_router_ = nullptr;                       // the router find_router_slow found last
    std::uint64_t last_router_pid_ = 0;
    std::uint64_t routers_low_ = UINT64_MAX; // every id routers_ ever held lies in [low, high]
    std::uint64_t routers_high_ = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> watched_; // worker -> router, sorted
    std::vector<Finding> findings_;
};

} // namespace routesim::properties
