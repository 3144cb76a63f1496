// The hooks a run offers instrumentation that lives above it (tools/fuzz/: race aiming and
// coverage): one trace sink per run, told of the faults that hit, able to fire faults of its
// own. The run layer declares them and never names an implementation.
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/tally.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios {

/// A fault about to fire (a timed fault of `faults.kill` / `faults.admin`, or one that an
/// instrument aims at a racy moment: RunInstrument).
struct FaultOrder {
    /// Kill, Crash, or a management verb.
    Verb verb = Verb::Kill;
    /// Kill and Crash: the victim.
    runtime::PID victim;
    /// Management verbs: the router target (as `faults.admin.routers` names it), the route,
    /// the worker spec of add_route / replace_route, and how the call reaches the router.
    std::string router;
    std::string route;
    const Node* worker = nullptr;
    Via via = Via::Admin;
    /// FiredFault::origin.
    std::string origin;
};

/// What a run lends its instrument until the run ends.
struct RunContext {
    runtime::Node* node = nullptr;
    /// Read only: spec and fault classes by pid.
    const SpecIndex* specs = nullptr;
    /// Target resolution ("router/route" to the live PID).
    const Targets* targets = nullptr;
    const Scenario* scenario = nullptr;
    /// Fire faults at racy moments (`faults.aim` or RunSettings::aim_faults).
    bool aim = false;
    /// Count coverage (RunSettings::coverage).
    bool coverage = false;
    /// Test only: check kept answers against the route tables (RunSettings::check_observer).
    bool check_fresh = false;
    /// Fires `order` now; the run records it as a FiredFault.
    std::function<void(const FaultOrder&)> fire;
    /// The run's Tally: the instrument passes it every event (so that the run needs one sink).
    Tally* tally = nullptr;
};

/// Instrumentation of runs (RunSettings::instrument): a trace sink that serves one run at a
/// time; start() begins each run.
class RunInstrument : public sim::TraceSink {
public:
    /// Starts watching a run, as a fresh instrument would (buffers may be kept). Called once
    /// per run, before its first event.
    virtual void start(RunContext context) = 0;
    /// A kill or crash hits `victim` now.
    virtual void note_fault(Verb verb, const runtime::PID& victim) = 0;
    /// The run's coverage counts, one per entry (the instrument names them); empty unless
    /// the context asked for coverage.
    virtual std::vector<std::uint64_t> coverage() const = 0;
};

} // namespace routesim::scenarios
