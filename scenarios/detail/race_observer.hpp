// Race observer: watches one run's trace for the moments where restart and pending races
// happen (a routing decision, a route entering a pending state, a restart, a pool forward),
// counts the (route state, event) pairs and pending windows the run reaches, and, when asked,
// aims the scenario's fault budget at those moments. Private to scenarios/.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/detail/run_state.hpp"
#include "scenarios/harness.hpp"
#include "scenarios/model.hpp"
#include "sim/prng.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios::detail {

/// The state of a route as the coverage counts it (route_state_name spellings, plus absent).
enum class CoverState : std::uint8_t {
    Running,
    Dead,
    Disabled,
    PendingDisable,
    PendingReplace,
    PendingRemove,
    Absent,
};
inline constexpr std::size_t cover_state_count = 7;

/// The events a route can meet, counted per state.
enum class CoverEvent : std::uint8_t {
    MessageOwned,
    MessageRegistry,
    MessageDiscard,
    MessageFailed,
    CallOwned,
    CallRegistry,
    CallDiscard,
    CallFailed,
    AdminOk,         ///< + op * 4 (add, remove, disable, enable, replace, respawn)
    AdminBusy = AdminOk + 1,
    AdminDuplicate = AdminOk + 2,
    AdminError = AdminOk + 3,
    PendingBegins = AdminOk + 24,
    WorkerExitEndsPending,
    RestartEager,
    RestartLazy,
    RestartRetry,
    FaultKill,
    FaultCrash,
    Count,
};
inline constexpr std::size_t cover_event_count = static_cast<std::size_t>(CoverEvent::Count);

/// The pending and restart windows a campaign wants to reach.
enum class Window : std::uint8_t {
    MessageWhilePendingDisable,
    MessageWhilePendingReplace,
    MessageWhilePendingRemove,
    CallWhilePendingDisable,
    CallWhilePendingReplace,
    CallWhilePendingRemove,
    ManagementWhilePending,
    WorkerExitWhilePending,
    KillWhilePending,
    KillDuringRestart,
    KillDuringSupervisorRestart,
    KillWhileCallInFlight,
    PoolForwardToDeadWorker,
    EagerRestart,
    Count,
};
inline constexpr std::size_t window_count = static_cast<std::size_t>(Window::Count);
/// Entries of a scenarios::Coverage: the pairs, state by state, then the windows.
inline constexpr std::size_t coverage_entries = cover_state_count * cover_event_count + window_count;

/// Watches the trace; see the file comment.
class RaceObserver final : public sim::TraceSink {
public:
    struct Options {
        bool aim = false;
        bool coverage = false;
    };
    using Fire = std::function<void(const FaultOrder&)>;

    /// `fire` runs an aimed fault (from a zero-delay timer in the faults lane).
    RaceObserver(runtime::Node& node, Harness& harness, const Scenario& scenario, Options options,
                 Fire fire);

    void on_event(const sim::TraceEvent& event) override;
    /// A kill or crash hits `victim` now: counts the window it lands in.
    void note_fault(Verb verb, const runtime::PID& victim);
    /// Times each "<state> x <event>" pair and "window:<name>" was reached.
    Coverage coverage() const;

private:
    struct RouteKey {
        std::uint64_t router;
        std::string name;
        bool operator<(const RouteKey& other) const {
            return router != other.router ? router < other.router : name < other.name;
        }
    };
    /// A candidate fault at the current moment.
    struct Candidate {
        Verb verb = Verb::Kill;
        std::uint64_t victim = 0;
        std::uint64_t router = 0;
        std::string route;
    };

    void on_route(const sim::TraceEvent& event);
    void on_admin(const sim::TraceEvent& event);
    void on_pending(const sim::TraceEvent& event);
    void on_restart(const sim::TraceEvent& event);
    void on_supervisor_restart(const sim::TraceEvent& event);
    void on_pool_forward(const sim::TraceEvent& event);
    void count(CoverState state, CoverEvent event);
    void reach(Window window) { windows_[static_cast<std::size_t>(window)]++; }
    /// The live router's state of route `name` (whose FNV-1a hash is `name_hash`).
    CoverState query(std::uint64_t router, std::string_view name, std::uint64_t name_hash) const;
    CoverState query(std::uint64_t router, std::string_view name) const {
        return query(router, name, sim::fnv1a64(name));
    }
    CoverState known(std::uint64_t router, std::string_view name);
    void remember(std::uint64_t router, std::string_view name, CoverState state);
    void note_restart(std::uint64_t pid);
    runtime::PID pid_of(std::uint64_t id) const;

    // aiming (race_aim.cpp)
    bool wants_aim();
    void aim(std::string_view window, std::vector<Candidate> candidates);
    void add_process_candidates(std::vector<Candidate>& out, std::uint64_t pid) const;
    void add_admin_candidates(std::vector<Candidate>& out, std::uint64_t router,
                              std::string_view route) const;
    void fire_candidate(const Candidate& candidate, const std::string& origin);
    /// The first faults.admin.routers target that resolves to `router`, or "" (cached per
    /// router once found: a pid is never reused, so its target does not change).
    const std::string& admin_target(std::uint64_t router) const;

    runtime::Node& node_;
    Harness& harness_;
    const Scenario& scenario_;
    Options options_;
    Fire fire_;
    sim::Prng prng_;
    /// Per run: an aim at one trigger in `aim_one_in_`, at most `aims_left_` of them.
    std::uint64_t aim_one_in_ = 1;
    std::uint64_t aims_left_ = 0;
    /// Per run: extra PCT change points still to place at racy moments.
    std::uint64_t pct_changes_left_ = 0;
    std::array<std::array<std::uint64_t, cover_event_count>, cover_state_count> pairs_{};
    std::array<std::uint64_t, window_count> windows_{};
    std::map<RouteKey, CoverState> states_;
    /// Routers looked up by query() (pid id, behaviour), dropped at their exit event: a
    /// router emits route events only while it runs. Few, searched linearly.
    mutable std::vector<std::pair<std::uint64_t, runtime::act::Router*>> routers_;
    /// Route names query() has interned (at most atoms_max): a route event names one of a
    /// few routes. A name is matched by its FNV-1a hash (which the trace value carries and
    /// the atom keeps), then by the text's address or bytes: cheaper than the atom table.
    mutable std::vector<runtime::Atom> atoms_;
    static constexpr std::size_t atoms_max = 64;
    runtime::Atom route_atom(std::string_view name, std::uint64_t name_hash) const;
    /// admin_target results found so far (router pid id, target); few, searched linearly.
    mutable std::vector<std::pair<std::uint64_t, std::string>> admin_targets_;
    /// The last `take`: which process took which kind of item (a router routes right after).
    std::uint64_t last_take_pid_ = 0;
    std::uint64_t last_take_type_ = 0;
    /// route_pending seen inside the current management call (same step): its route and
    /// from_state, the state the call found.
    std::uint64_t pending_router_ = 0;
    std::string pending_name_;
    CoverState pending_from_ = CoverState::Absent;
    bool pending_seen_ = false;
    std::int64_t calls_in_flight_ = 0;
    /// Pids (re)started at the current instant, and whether a supervisor restarted there.
    std::int64_t restart_instant_ns_ = -1;
    std::vector<std::uint64_t> restarted_;
    bool supervisor_restarted_ = false;
};

} // namespace routesim::scenarios::detail
