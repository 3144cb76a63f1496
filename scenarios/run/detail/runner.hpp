// Runner internals: one run of one scenario. The Runner owns the world, the node, the step
// clock, the records and the sinks, and composes the parts that each do one job: Workload,
// Timeline, Faults (with the fault draws) and Expectations. Private to scenarios/run/.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/check_witnesses.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/detail/expectations.hpp"
#include "scenarios/run/detail/faults.hpp"
#include "scenarios/run/detail/monitors.hpp"
#include "scenarios/run/detail/probes.hpp"
#include "scenarios/run/detail/timeline.hpp"
#include "scenarios/run/detail/workload.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/tally.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios::detail {

/// One run of one scenario.
class Runner {
public:
    Runner(const Scenario& scenario, const RunSettings& settings);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    /// Builds, drives, runs and checks; call once.
    RunResult execute();
    /// After execute() with RunSettings::explain_checks: what to look for to find the
    /// witnesses of each failed check that has a subject (empty when all held).
    const std::vector<WitnessQuery>& witness_queries() const { return witness_queries_; }
    /// The run's topology view (names processes in witnesses); valid until the next run of
    /// the same monitors.
    const properties::TopologyView& view() const { return monitors_->set.view(); }

private:
    static sim::WorldOptions world_options(const Scenario& scenario, const RunSettings& settings);
    /// True when some expectation reads `processed` (the Tally counts takes only then).
    static bool counts_taken(const Scenario& scenario);
    void install_monitors();
    /// The sink of the run's own bookkeeping: the instrument (which feeds the Tally), or the
    /// Tally when there is no instrument.
    sim::TraceSink& own_sink();
    /// Spawns the topology root (which spawns its subtree) and the clients.
    void build();
    /// The result's tables that only a summarised run fills (RunSettings::summarise_passing).
    void summarise();
    /// witness_queries_ for the failed checks of result_.
    void make_witness_queries();
    /// The probes' results into result_, and a check per probe when they are judged.
    void judge_probes();

    const Scenario& scenario_;
    const RunSettings& settings_;
    /// Declared before the node: its processes refer to these specs.
    FaultWorkers fault_workers_;
    sim::World world_;
    runtime::Node node_;
    StepClock step_clock_;
    SpecIndex specs_;
    Targets targets_;
    ClientRecords clients_;
    Outcomes outcomes_;
    RouterRecords routers_;
    Tally tally_;
    Checks checks_;
    /// Its Links name build_context_, declared below: first used when a fault fires.
    Faults faults_;
    /// What the topology's processes and the clients use (stable: factories refer to them).
    BuildContext build_context_;
    ClientContext client_context_;
    Workload workload_;
    Expectations expectations_;
    Timeline timeline_;
    std::unique_ptr<sim::JsonlSink> jsonl_;
    /// The reachability probes, when the scenario has some (after the monitors' view).
    std::unique_ptr<Probes> probes_;
    /// This run's monitors: its own, or a campaign's kit's (RunSettings::monitors).
    std::unique_ptr<Monitors> own_monitors_;
    Monitors* monitors_ = nullptr;
    bool own_sink_attached_ = false; // the Tally or instrument is on the trace bus
    RunResult result_;
    std::vector<WitnessQuery> witness_queries_;
};

} // namespace routesim::scenarios::detail
