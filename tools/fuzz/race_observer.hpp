// Race observer: watches one run's trace for the moments where restart and pending races
// happen (a routing decision, a route entering a pending state, a restart, a pool forward),
// counts the (route state, event) pairs and pending windows the run reaches, and, when asked,
// aims the scenario's fault budget at those moments: the run layer's RunInstrument, which the
// fuzzer and `routesim run` / `report` attach (RunSettings::instrument).
// Part of tools/: uses scenarios/run/, runtime/ and sim/.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/events.hpp"
#include "runtime/node.hpp"
#include "runtime/route_state.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/instrument.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/tally.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/prng.hpp"
#include "sim/trace.hpp"

namespace routesim::tools::fuzz {

using scenarios::Coverage;
using scenarios::FaultOrder;
using scenarios::RunContext;
using scenarios::Scenario;
using scenarios::SpecIndex;
using scenarios::Tally;
using scenarios::Targets;
using scenarios::Verb;

/// The state of a route as the coverage counts it: the Router's one RouteState.
using CoverState = runtime::act::RouteState;
inline constexpr std::size_t cover_state_count = runtime::act::route_state_count;

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
    AdminOk, ///< + op * 4 (add, remove, disable, enable, replace, respawn)
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
/// Entries of a scenarios::Coverage this counts: the pairs, state by state, then the windows.
inline constexpr std::size_t coverage_entries =
    cover_state_count * cover_event_count + window_count;

/// Watches the trace; see the file comment.
class RaceObserver final : public scenarios::RunInstrument {
public:
    struct Options {
        bool aim = false;
        bool coverage = false;
        /// Test only: asserts that every answer kept in fresh_ equals the route table's.
        bool check_fresh = false;
    };
    using Fire = std::function<void(const FaultOrder&)>;

    /// Watches no run until start().
    RaceObserver() = default;
    /// `fire` runs an aimed fault (from a zero-delay timer in the faults lane).
    RaceObserver(runtime::Node& node, const SpecIndex& specs, const Targets& targets,
                 const Scenario& scenario, Options options, Fire fire);
    RaceObserver(const RaceObserver&) = delete;
    RaceObserver& operator=(const RaceObserver&) = delete;
    RaceObserver(RaceObserver&&) = default;
    RaceObserver& operator=(RaceObserver&&) = default;
    /// Starts over for another run, as a new observer would (a campaign keeps one), but keeps
    /// its buffers' room and the route names it has interned.
    void restart(runtime::Node& node, const SpecIndex& specs, const Targets& targets,
                 const Scenario& scenario, Options options, Fire fire);
    /// RunInstrument: restart() for the run of `context`, fed its Tally.
    void start(RunContext context) override;
    /// Runs start() began (the first included).
    std::uint64_t starts() const { return starts_; }

    void on_event(const sim::TraceEvent& event) override;
    /// Passes the run's Tally every event it counts, so that the run needs one sink of its own
    /// (a sink costs a virtual call per event). Null: none.
    void set_tally(Tally* tally) {
        tally_ = tally;
        tally_takes_ = tally != nullptr && tally->counts_taken();
    }
    /// A kill or crash hits `victim` now: counts the window it lands in.
    void note_fault(Verb verb, const runtime::PID& victim) override;
    /// Times each "<state> x <event>" pair and "window:<name>" was reached, by entry.
    std::vector<std::uint64_t> coverage() const override;

private:
    /// A candidate fault at the current moment.
    struct Candidate {
        Verb verb = Verb::Kill;
        std::uint64_t victim = 0;
        std::uint64_t router = 0;
        std::string route;
    };

    void on_route(const sim::TraceEvent& event);
    void on_admin(const runtime::ev::RouteAdmin& admin);
    void on_pending(const runtime::ev::RoutePending& pending);
    void on_restart(const runtime::ev::RouteRestart& restart);
    void on_supervisor_restart(const runtime::ev::SupRestart& restart);
    void on_pool_forward(const runtime::ev::PoolForward& forward);
    /// A take that the Tally counts or check_fresh reads (on_event handles the others).
    void on_take(const sim::TraceEvent& event);
    /// Every kind but the commonest (which change no route state): see fresh_.
    void on_other(const sim::TraceEvent& event);
    /// Drops the fresh_ answer of route `name` of `router` (an event named it: it may have
    /// changed state).
    void drop_route(std::uint64_t router, std::string_view name);
    /// Drops the fresh_ answers of router `pid`'s routes.
    void drop_router(std::uint64_t pid);
    /// Aims at a message or call that `router` routed to `worker` (a route event).
    void aim_at_route(std::uint64_t worker, std::uint64_t router, std::string_view name,
                      bool is_call);
    void count(CoverState state, CoverEvent event);
    void reach(Window window) { windows_[static_cast<std::size_t>(window)]++; }
    /// The live router's state of route `name` (whose FNV-1a hash is `name_hash`).
    CoverState query(std::uint64_t router, std::string_view name, std::uint64_t name_hash);
    /// query()'s miss: asks the router and keeps the answer in fresh_ (out of line, so that
    /// a hit saves no registers for it).
    [[gnu::noinline]] CoverState query_and_keep(std::uint64_t router, std::string_view name,
                                                std::uint64_t name_hash);
    /// The live router behaviour of pid id `router` (routers_), or null.
    runtime::act::Router* router_behaviour(std::uint64_t router) {
        for (const auto& [id, behaviour] : routers_) {
            if (id == router) {
                return behaviour;
            }
        }
        return find_router(router);
    }
    /// router_behaviour()'s miss: looks the router up and keeps it in routers_.
    [[gnu::noinline]] runtime::act::Router* find_router(std::uint64_t router);
    /// Whether the route event of `router` at hand routes a call (else a message).
    bool call_routed(std::uint64_t router);
    /// query() without fresh_.
    CoverState query_router(std::uint64_t router, std::string_view name, std::uint64_t name_hash);
    CoverState known(std::uint64_t router, std::string_view name, std::uint64_t name_hash);
    void remember(std::uint64_t router, std::string_view name, std::uint64_t name_hash,
                  CoverState state);
    void note_restart(std::uint64_t pid);
    runtime::PID pid_of(std::uint64_t id) const;

    // aiming (race_aim.cpp)
    bool wants_aim();
    /// False once no trigger can aim again nor place a PCT change point: wants_aim() need not
    /// draw (its stream is read by nothing else).
    bool still_aiming() const { return aims_left_ > 0 || pct_changes_left_ > 0; }
    void aim(std::string_view window, std::vector<Candidate> candidates);
    void add_process_candidates(std::vector<Candidate>& out, std::uint64_t pid) const;
    void add_admin_candidates(std::vector<Candidate>& out, std::uint64_t router,
                              std::string_view route) const;
    void fire_candidate(const Candidate& candidate, const std::string& origin);
    /// The first faults.admin.routers target that resolves to `router`, or "" (cached per
    /// router once found: a pid is never reused, so its target does not change).
    const std::string& admin_target(std::uint64_t router) const;

    // The run's (restart() points them at the next run's).
    runtime::Node* node_ = nullptr;
    const SpecIndex* specs_ = nullptr;
    const Targets* targets_ = nullptr;
    const Scenario* scenario_ = nullptr;
    Options options_;
    Fire fire_;
    sim::Prng prng_{0};
    std::uint64_t starts_ = 0;
    /// Per run: an aim at one trigger in `aim_one_in_`, at most `aims_left_` of them.
    std::uint64_t aim_one_in_ = 1;
    std::uint64_t aims_left_ = 0;
    /// Per run: extra PCT change points still to place at racy moments (none but under PCT).
    std::uint64_t pct_changes_left_ = 0;
    std::array<std::array<std::uint64_t, cover_event_count>, cover_state_count> pairs_{};
    std::array<std::uint64_t, window_count> windows_{};
    /// A route's state by (router pid id, route name).
    struct SeenState {
        std::uint64_t router;
        runtime::Atom name;
        CoverState state;
        bool is(std::uint64_t other_router, std::string_view other_name,
                std::uint64_t other_hash) const {
            return router == other_router && name.hash() == other_hash &&
                   (name.text().data() == other_name.data() || name.text() == other_name);
        }
    };
    /// The last state each route was seen in by the trace (remember, known). Few (routes of
    /// the scenario's routers): searched linearly.
    std::vector<SeenState> states_;
    /// A state query() read from a router's table, kept while it holds. The name is an
    /// interned atom's text (stable), matched by hash, then address or bytes.
    struct FreshState {
        std::uint64_t router;
        std::uint64_t name_hash;
        std::string_view name;
        CoverState state;
        bool is(std::uint64_t other_router, std::string_view other_name,
                std::uint64_t other_hash) const {
            return router == other_router && name_hash == other_hash &&
                   (name.data() == other_name.data() || name == other_name);
        }
    };
    /// The answers of query() that still hold. A route changes state only in its router's
    /// code (router.cpp, router_manage.cpp), and the router announces each change before it
    /// routes again or answers a management call: with a route_init, route_admin,
    /// route_pending or route_restart event naming the route, or an error log (a respawn that
    /// failed). drop_route and drop_router forget the answers such events may change (and a
    /// router's at its exit), so that the routing events of a busy run read these instead of
    /// the route table.
    /// Tests check them against the table (Options::check_fresh).
    std::vector<FreshState> fresh_;
    static constexpr std::size_t fresh_max = 32;
    /// Routers looked up by query() (pid id, behaviour), dropped at their exit event: a
    /// router emits route events only while it runs. Few, searched linearly.
    std::vector<std::pair<std::uint64_t, runtime::act::Router*>> routers_;
    /// Route names query() has interned (at most atoms_max): a route event names one of a
    /// few routes. A name is matched by its FNV-1a hash (which the trace value carries and
    /// the atom keeps), then by the text's address or bytes: cheaper than the atom table.
    /// Atoms live as long as the program: kept across restart().
    std::vector<runtime::Atom> atoms_;
    static constexpr std::size_t atoms_max = 64;
    runtime::Atom route_atom(std::string_view name, std::uint64_t name_hash);
    /// admin_target results found so far (router pid id, target); few, searched linearly.
    mutable std::vector<std::pair<std::uint64_t, std::string>> admin_targets_;
    /// The last `take`: which process took which kind of item (a router routes right after).
    /// Kept only with Options::check_fresh, to check call_routed().
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
    /// The run's Tally (set_tally), and whether it counts take events.
    Tally* tally_ = nullptr;
    bool tally_takes_ = false;
};

/// This thread's observer, restarted by each run that is given it (a restarted observer
/// counts and aims as a fresh one: FuzzMonitorKit tests). The instrument of fuzz_settings and
/// of `routesim run` / `report`.
RaceObserver& shared_observer();

/// Every pending and restart window a coverage can name ("window:<name>" keys), in a fixed
/// order, so a report can also say which were never reached.
std::vector<std::string> coverage_windows();
/// The route states of "<state> x <event>" coverage keys, in a fixed order (running first).
std::vector<std::string> coverage_states();
/// The number of entries every coverage has.
std::size_t coverage_entries_count();
/// Entry `entry`'s key ("<state> x <event>" or "window:<name>").
const std::string& coverage_name(std::size_t entry);
/// Times the entry named `key` was reached in `coverage` (0 for an unknown key).
std::uint64_t coverage_times(const Coverage& coverage, std::string_view key);
/// The entries of `coverage` reached at least once, by key.
std::map<std::string, std::uint64_t> coverage_reached(const Coverage& coverage);

} // namespace routesim::tools::fuzz
