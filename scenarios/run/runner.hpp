// The runner: builds a scenario on a fresh World and Node, drives its workload, timeline and
// random faults, runs it under the chosen scheduler with the invariant monitors attached, and
// checks its expectations. A run is a pure function of (scenario, settings).
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/monitor.hpp"
#include "properties/runtime_monitors.hpp"
#include "runtime/router.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/message_cache.hpp"
#include "scenarios/run/monitor_kit.hpp"
#include "scenarios/run/records.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios {

class RunInstrument;

/// What one run reached, counted by entry (the run's instrument counts and names the
/// entries: tools/fuzz/race_observer.hpp). Counts by index so that a campaign of thousands of
/// runs tallies arrays, not maps of strings; empty when coverage was not asked for.
class Coverage {
public:
    Coverage() = default;
    /// Takes one count per entry.
    explicit Coverage(std::vector<std::uint64_t> counts) : counts_(std::move(counts)) {}

    bool empty() const { return counts_.empty(); }
    /// Times entry `entry` was reached (0 when empty).
    std::uint64_t at(std::size_t entry) const {
        return entry < counts_.size() ? counts_[entry] : 0;
    }
    /// Every entry's count, in entry order (none when empty).
    const std::vector<std::uint64_t>& counts() const { return counts_; }

    bool operator==(const Coverage& other) const = default;

private:
    std::vector<std::uint64_t> counts_;
};

/// Overrides of the scenario's `run` section (the CLI's flags) and output options.
struct RunSettings {
    std::optional<std::uint64_t> seed;
    std::optional<sim::Policy> scheduler;
    std::optional<Semantics> semantics;
    /// Stop time; overrides `run.until`.
    std::optional<sim::Instant> until;
    /// Run until idle whatever `run.until` says (`--until idle`); wins over `until`.
    bool until_idle = false;
    /// Replay these choices instead of `run.schedule`.
    std::optional<std::vector<std::uint32_t>> schedule;
    /// When set, the whole trace is written here as JSON Lines.
    std::ostream* trace_out = nullptr;
    /// More trace sinks to attach for the run (reports collect events this way). Not owned;
    /// each must outlive run_scenario. The determinism re-run does not feed them.
    std::vector<sim::TraceSink*> extra_sinks;
    /// Stop the run at the first invariant violation (the fuzzer does).
    bool stop_on_violation = false;
    /// Run a second time to check `determinism` when the scenario asks for it.
    bool check_determinism = true;
    /// The determinism re-run of a run no monitor stopped (run_scenario sets it): only the
    /// trace hash and event count are made. No monitor, Tally, check, verdict or summary is
    /// kept: those read the trace and never change it, and a run whose monitors reported
    /// nothing was not stopped by one, so the world runs exactly as in the first run.
    bool hash_only = false;
    /// Aim the scenario's fault budget at racy moments (as `faults.aim` does): `routesim fuzz`
    /// sets it; plain `routesim run` leaves it to the scenario.
    bool aim_faults = false;
    /// Count the (route state, event) pairs and pending windows the run reaches
    /// (RunResult::coverage).
    bool coverage = false;
    /// What aims faults and counts coverage (tools/fuzz/race_observer.hpp). Required when
    /// aim_faults, coverage or the scenario's `faults.aim` is set; not owned, and serves one
    /// run at a time (a campaign passes the same one to every run).
    RunInstrument* instrument = nullptr;
    /// Messages shared by the runs of a campaign (message_cache.hpp); must have been made for the
    /// same scenario. Null: every run builds its own. Results are the same either way.
    MessageCache* cache = nullptr;
    /// Monitors shared by the runs of a campaign. Null: every run makes its own. Results are
    /// the same either way.
    MonitorKit* monitors = nullptr;
    /// False: a run that passes (no failed check or invariant, no violation, no limit) leaves
    /// RunResult::routers, clients, admin_results and decisions empty, since a campaign reads
    /// only a passing run's coverage; a failing run is summarised in full either way.
    bool summarise_passing = true;
    /// Find the deciding events of each failed check (Check::witnesses): a run with a failed
    /// check is made once more, hashing only, with a sink that keeps them. `routesim run` and
    /// `report` set it; a campaign leaves it off (its failing runs are shrunk instead).
    bool explain_checks = false;
    /// Test-only: the race observer asserts that each route state it keeps instead of asking
    /// the router again is the one the router's table holds (RaceObserver::Options).
    bool check_observer = false;
    /// Judge the scenario's probes (`expect.sometimes`): an unreached probe is a failed check.
    /// A campaign leaves it off: it counts the probes reached (RunResult::probes) instead.
    bool judge_probes = true;
};

/// A random fault that fired, written so that a timeline action can pin it: `verb` at `at`,
/// after `step` process steps of that instant (scenarios/FORMAT.md, timeline `step`).
struct FiredFault {
    sim::Instant at;
    /// Process steps taken at `at` before the fault fired (or before the step it hit).
    std::uint64_t step = 0;
    /// kill, crash, fail_spawns or a management verb.
    Verb verb = Verb::Kill;
    /// kill and crash: a target that resolves to the victim at that moment ("router/route",
    /// "pool/#k", "sup/child" or a registered name); fail_spawns: the node path; management:
    /// the router target.
    std::string target;
    /// Management verbs: the route name and how the call reached the router.
    std::string route;
    Via via = Via::Admin;
    /// add_route / replace_route: JSON pointer of the worker node in the scenario file.
    std::string worker_pointer;
    /// What fired it: faults.kill, faults.admin, faults.crash, faults.spawn_fail, or
    /// aim:<window> for a fault aimed at a racy moment.
    std::string origin;
    /// False when no timeline action replays it (a spawn failure during the build or inside a
    /// timeline action, a victim no target string reaches).
    bool pinnable = true;
};

/// One checked expectation.
struct Check {
    /// What was checked, as a path into `expect` ("clients.client:1.received").
    std::string what;
    std::string expected;
    std::string actual;
    bool ok = false;
    /// The JSON pointer of the expectation in the file.
    std::string pointer;
    sim::Instant at;
    /// A failed check's deciding events, oldest first (RunSettings::explain_checks): the few
    /// that made the value what it is, e.g. the timeout that ended a client's call, the route
    /// changes that left a route in its state. Empty for a check that holds, or when not asked.
    std::vector<properties::Witness> witnesses;
};

/// A reachability probe of `expect.sometimes` and whether the run reached it.
struct ProbeResult {
    std::string name;
    /// The JSON pointer of the probe in the file.
    std::string pointer;
    bool reached = false;
    /// The first event after which it held (valid when reached).
    std::uint64_t seq = 0;
    sim::Instant at;
};

/// One row of a router's route table at the end of the run.
struct RouteRow {
    std::string name;
    std::string state; ///< running, dead, disabled, pending_disable, ...
    std::string pid;
    std::uint64_t restarts = 0;
    /// The recorded PID belongs to a process that has exited (a stale PID: its exit signal
    /// was lost, R54), so the route's worker is dead although the table says running.
    bool exited = false;
};

/// A router at the end of the run.
struct RouterSummary {
    std::string path;
    std::string pid;
    bool alive = false;
    /// When the router's last incarnation terminated, and why; set only for a router that
    /// died, whose `counters` and `routes` are then its last table.
    std::optional<sim::Instant> died_at;
    std::string died_reason;
    runtime::act::RouterCounters counters;
    /// The route table: the live router's, or a dead router's last one. Routes that an
    /// expectation names and the table does not hold follow with state "absent".
    std::vector<RouteRow> routes;
    std::map<std::string, std::uint64_t> route_failed;
};

/// One child of a supervisor at the end of the run: its latest incarnation.
struct ChildRow {
    std::string name; ///< the child spec's name
    /// "running", "exited" (its latest incarnation ended) or "not started".
    std::string state;
    std::string pid;            ///< the latest incarnation ("" when none started)
    std::uint64_t restarts = 0; ///< the supervisor's restart decisions for this child
    std::string last_exit;      ///< the reason its latest incarnation ended ("" when running)
};

/// A supervisor at the end of the run.
struct SupervisorSummary {
    std::string path;
    std::string pid; ///< its latest incarnation ("" when none started)
    SupervisorType type = SupervisorType::OneForOne;
    bool alive = false;
    std::vector<ChildRow> children;    ///< in the spec's order
    std::uint64_t restarts = 0;        ///< every restart decision of the run
    std::uint64_t window_restarts = 0; ///< the decisions within the current window
    std::uint64_t intensity = 0;       ///< as Ergo applies it (0 in the file means 5, §6.1)
    sim::Duration period;              ///< likewise (0 means 5 s)
    /// When and why it terminated; set only for a supervisor that did.
    std::optional<sim::Instant> terminated_at;
    std::string terminated_reason;
    /// What made it terminate, in words, when the restart intensity did: "restart intensity
    /// exceeded: 4 restarts in 5s > 3, last: w2 panic at 41ms".
    std::string cause;
};

/// A pool at the end of the run.
struct PoolSummary {
    std::string path;
    std::string pid; ///< its latest incarnation ("" when none started)
    bool alive = false;
    std::uint64_t size = 0; ///< workers it keeps (Ergo's default 3 for a size below 1, §5)
    std::uint64_t live_workers = 0;
    std::uint64_t forwarded = 0; ///< messages and calls handed to a worker
    std::uint64_t unhandled = 0; ///< found no live worker
    std::uint64_t worker_restarts = 0;
};

/// A call still waiting for its result at the end of the run.
struct WaitingCall {
    std::string caller; ///< "path <pid>" (the pid alone for a process of no spec)
    std::string target; ///< likewise; "" when the call's target is not known
    sim::Instant since;
    std::uint64_t ref = 0;
};

/// An invariant's verdict.
struct InvariantResult {
    std::string name;
    /// "holds", "violated", or "unchecked" (no monitor for it in this build).
    std::string verdict;
};

/// Everything a run produced.
struct RunResult {
    std::uint64_t seed = 0;
    std::uint64_t trace_hash = 0;
    std::uint64_t trace_events = 0;
    sim::RunOutcome outcome;
    sim::Policy scheduler = sim::Policy::Fifo;
    Semantics semantics = Semantics::Documented;
    /// Why the topology root did not start; empty when it did.
    std::string root_failure;
    std::vector<Check> checks;
    std::vector<InvariantResult> invariants;
    std::vector<properties::Violation> violations;
    /// Every message: user messages and the runtime's (exit signals, admin, internal).
    properties::Ledger ledger;
    /// User messages only (sent by behaviours: workload, replies, forwards of those).
    properties::Ledger user_ledger;
    /// Messages the runtime sent, by class: exit signals, admin requests, internal ones.
    std::uint64_t exit_signals_sent = 0;
    std::uint64_t admin_sent = 0;
    std::uint64_t internal_sent = 0;
    std::vector<RouterSummary> routers;
    std::vector<SupervisorSummary> supervisors; ///< tree order
    std::vector<PoolSummary> pools;             ///< tree order
    std::vector<WaitingCall> waiting_calls;     ///< in the order they began
    std::map<std::string, ClientRecord> clients;
    std::vector<std::uint32_t> decisions;
    /// Admin-path results by timeline action index.
    std::map<std::int64_t, std::string> admin_results;
    /// Every random fault that fired, in firing order (the order pinned actions must keep).
    std::vector<FiredFault> faults;
    /// With RunSettings::coverage: how often this run reached each "<route state> x <event>"
    /// pair and "window:<name>".
    Coverage coverage;
    /// The scenario's probes in file order, reached or not (empty when it has none).
    std::vector<ProbeResult> probes;

    /// True when every expectation and required invariant held and no limit was hit.
    bool passed() const;
};

/// Runs a scenario. Never throws for a validated scenario.
RunResult run_scenario(const Scenario& scenario, const RunSettings& settings = {});

/// The readable summary `routesim run` prints after the seed and hash lines.
std::string format_summary(const Scenario& scenario, const RunResult& result);

/// The route state name used in summaries and `expect.routes` for a route snapshot.
std::string route_state_name(const runtime::act::RouterRouteInfo& info);

} // namespace routesim::scenarios
