// Runner internals: the state of one scenario run (world, node, harness, sinks) and the
// driver of its workload, timeline and random faults. Private to scenarios/.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "properties/monitor.hpp"
#include "properties/monitors.hpp"
#include "properties/runtime_monitors.hpp"
#include "runtime/events.hpp"
#include "runtime/node.hpp"
#include "runtime/router.hpp"
#include "runtime/trace_keys.hpp"
#include "scenarios/format/resolve.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/monitors.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/instrument.hpp"
#include "scenarios/run/message_cache.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/tally.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios::detail {

/// Wraps the node's step runner to count the process steps taken at the current instant, so
/// that a fault can be placed "after the k-th step at time t" and pinned there.
class StepClock final : public sim::StepRunner {
public:
    StepClock(sim::World& world, sim::StepRunner& inner) : world_(world), inner_(inner) {}
    void run_step(sim::TaskId task) override;
    /// Steps completed at the current instant (inside a step: the ones before it).
    std::uint64_t steps_now() const { return world_.now().ns() == instant_ns_ ? steps_ : 0; }
    bool in_step() const { return in_step_; }
    /// Runs after every step (set only when pinned actions wait for a step count).
    std::function<void()> after_step;

private:
    sim::World& world_;
    sim::StepRunner& inner_;
    std::int64_t instant_ns_ = -1;
    std::uint64_t steps_ = 0;
    bool in_step_ = false;
};

/// One run of one scenario.
class RunState {
public:
    RunState(const Scenario& scenario, const RunSettings& settings);
    ~RunState();
    RunState(const RunState&) = delete;
    RunState& operator=(const RunState&) = delete;

    /// Builds, drives, runs and checks; call once.
    RunResult execute();

private:
    static sim::WorldOptions world_options(const Scenario& scenario, const RunSettings& settings);
    /// True when some expectation reads `processed` (the Tally counts takes only then).
    static bool counts_taken(const Scenario& scenario);
    void install_monitors();
    /// The sink of the run's own bookkeeping: the instrument (which feeds the Tally), or the
    /// Tally when there is no instrument.
    sim::TraceSink& own_sink();
    void build();
    void schedule_workload();
    void schedule_source(std::uint32_t index, std::uint64_t repetition);
    void schedule_timeline();
    void schedule_faults();
    void schedule_kill_fault();
    void schedule_admin_fault();
    // random and aimed faults, pinned actions (run_faults.cpp)
    void install_fault_hooks();
    void fire_fault(const FaultOrder& order);
    /// Performs `order` on `worker` (order.worker, or its fault_worker copy).
    void perform_fault(const FaultOrder& order, const Node* worker);
    void record_drawn_fault(Verb verb, const Node& spec, const runtime::PID* pid);
    FiredFault placed(Verb verb, std::string origin) const;
    std::optional<std::string> target_of(const runtime::PID& pid) const;
    const Node* fault_worker(const Node& spec, const std::string& router, const std::string& route);
    void schedule_pinned(std::uint32_t index);
    void fire_due_pins();
    void report_missed_pins();
    struct Pin;
    void report_missed_pin(const Pin& pin);
    bool world_is_quiet() const;
    Json instantiate(const Json& message, std::uint64_t index);
    /// Repetition `repetition` of workload source `source` (from the campaign's cache when
    /// there is one).
    runtime::Message workload_message(std::uint32_t source, std::uint64_t repetition);
    /// Sends from a client; returns "ok" or the Ergo error name it recorded for the client.
    std::string send_from(const std::string& from, const std::string& to, runtime::Message message,
                          Priority priority);
    /// send_from for workload source `source` (its client's atom and record looked up once).
    void send_workload(std::uint32_t source, runtime::Message message);
    /// Has a client call; `action` is the timeline action index whose `expect` gets the
    /// outcome (Outcomes::call_results), or -1 for a workload call.
    void call_from(const std::string& from, const std::string& to, runtime::Message message,
                   Priority priority, sim::Duration timeout, std::int64_t action);
    void perform(std::uint32_t index);
    std::string perform_management(std::uint32_t index, const Action& action);
    void check_outcome(const Action& action, const std::string& actual);
    /// Fails the `expect` of every timeline call made with no outcome by the end of the run.
    void report_unresolved_calls();
    /// Fails every timed timeline action with an `expect` (or a `check`) that the run did not
    /// reach because it stopped at its `until` first: its verdict would otherwise be lost.
    void report_actions_not_reached();
    void evaluate(const Expect& expect);
    /// evaluate()'s parts: `inspect`, `routes` and `clients`.
    void evaluate_inspect(const Expect& expect);
    void evaluate_routes(const Expect& expect);
    void evaluate_clients(const Expect& expect);
    void summarise();
    RouterSummary summarise_router(const Node& spec);
    void add_check(std::string what, std::string expected, std::string actual, std::string pointer);
    /// The same, with the verdict given (the actual text may say more than the value).
    void add_check(std::string what, std::string expected, std::string actual, std::string pointer,
                   bool ok);
    const Node* spec_of_target(const std::string& target) const;
    std::uint64_t processed(const std::string& target) const;
    /// The PID `target` resolves to when that process is alive (a stale PID is dead).
    std::optional<runtime::PID> live(const std::string& target) const;
    bool is_live(const runtime::PID& pid) const;
    /// Restarts of route `name` of the router `router` names, over all its incarnations.
    std::uint64_t route_restarts(const std::string& router, std::string_view name) const;
    /// The same for the router node `router` of the topology.
    std::uint64_t route_restarts(const Node& router, std::string_view name) const;
    /// Adds summary rows "absent" for the routes that `expect.routes` names at `router` and
    /// its table lacks.
    void add_absent_rows(const Node& router, RouterSummary& summary) const;
    void judge_invariants();

    const Scenario& scenario_;
    const RunSettings& settings_;
    /// Worker specs of random add_route / replace_route faults, one per "<router>/<route>"
    /// path (as a timeline action that pins the fault would declare it): the campaign's
    /// (MessageCache::fault_worker) or this run's own. Declared before the node: its
    /// processes refer to them.
    std::vector<std::unique_ptr<Node>> own_fault_workers_;
    std::map<std::string, const Node*> fault_workers_;
    sim::World world_;
    runtime::Node node_;
    StepClock step_clock_;
    SpecIndex specs_;
    FaultDraws draws_;
    Targets targets_;
    ClientRecords clients_;
    Outcomes outcomes_;
    RouterRecords routers_;
    /// The campaign's messages (RunSettings::cache), or null.
    MessageCache* cache_ = nullptr;
    /// What the topology's processes and the clients use (stable: factories refer to them).
    BuildContext build_context_;
    ClientContext client_context_;
    mutable std::optional<TargetResolver> static_targets_;
    sim::Prng workload_prng_;
    sim::Prng kill_prng_;
    sim::Prng admin_prng_;
    std::unique_ptr<sim::JsonlSink> jsonl_;
    Tally tally_{counts_taken(scenario_)};
    /// This run's monitors: its own, or a campaign's kit's (RunSettings::monitors).
    std::unique_ptr<Monitors> own_monitors_;
    Monitors* monitors_ = nullptr;
    std::uint64_t admin_fault_count_ = 0;
    /// Timeline calls made so far, by action index (report_unresolved_calls).
    std::set<std::uint32_t> calls_made_;
    /// Timeline actions performed so far, by action index (report_actions_not_reached).
    std::vector<bool> performed_;
    /// Timed random-fault timers not yet fired (faults.kill, faults.admin).
    std::size_t fault_timers_pending_ = 0;
    /// Aimed faults and coverage (RunSettings::instrument); null unless asked for.
    RunInstrument* observer_ = nullptr;
    /// Timeline actions with `step` > 0, sorted by (at, step, index), and the next to fire.
    struct Pin {
        std::int64_t at_ns;
        std::uint64_t step;
        std::uint32_t index;
    };
    std::vector<Pin> pins_;
    /// Per workload source: its client's atom and record, looked up on its first message.
    struct SourceClient {
        runtime::Atom from;
        ClientRecord* record = nullptr;
        /// `to` when it is a single registered name (no path): looked up by this atom per
        /// message, as resolve_target would, without interning the text again.
        std::optional<runtime::Atom> to_name;
        /// The record's count of ProcessUnknown (a target that is gone: often many in a row).
        std::uint64_t* unknown_count = nullptr;
        /// The PIDs `from` and `to_name` were last registered to (empty until found): a live
        /// process that still bears the name is the one the registry holds, so a message
        /// costs a table index instead of two registry lookups.
        runtime::PID from_pid;
        runtime::PID to_pid;
    };
    std::vector<SourceClient> source_clients_;
    std::size_t next_pin_ = 0;
    /// While a fault runs: its index in result_.faults (spawn failures it causes go before it).
    std::optional<std::size_t> firing_fault_;
    /// result_.faults reserves room for this many (more regrow the vector).
    static constexpr std::size_t faults_reserved = 32;
    RunResult result_;
};

} // namespace routesim::scenarios::detail
