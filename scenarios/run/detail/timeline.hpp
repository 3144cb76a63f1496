// Runner internals: the timeline (scenarios/FORMAT.md `timeline`): actions at their times or
// pinned between two process steps, their outcomes checked against `expect`, and the
// verdicts of actions that never happened (calls with no result, actions not reached, missed
// pins). Private to scenarios/run/.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/detail/expectations.hpp"
#include "scenarios/run/detail/workload.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/targets.hpp"

namespace routesim::scenarios::detail {

/// Performs the timeline of one run. Its verdicts go to `checks`; a `check` action's
/// expectations are judged by `expectations`; sends and calls go through `workload`.
class Timeline {
public:
    /// What the timeline acts on besides the world: the node registry (fail_spawns, router
    /// specs), the fault draws (crash), what the processes use (management calls), the
    /// outcomes that calls report (read only) and where its verdicts go.
    struct Links {
        SpecIndex& specs;
        FaultDraws& draws;
        const Targets& targets;
        const BuildContext& build;
        Workload& workload;
        const Outcomes& outcomes;
        Expectations& expectations;
        Checks& checks;
    };
    Timeline(const RunCore& core, const Links& links);
    Timeline(const Timeline&) = delete;
    Timeline& operator=(const Timeline&) = delete;

    /// Schedules every action (call once, before the run).
    void schedule();
    /// Compares the outcome of action `index` with its `expect`, if it has one.
    void check_outcome(std::uint32_t index, const std::string& actual);
    /// Fails the `expect` of every timeline call made with no outcome by the end of the run.
    void report_unresolved_calls();
    /// Fails every timed timeline action with an `expect` (or a `check`) that the run did not
    /// reach because it stopped at its `until` first: its verdict would otherwise be lost.
    void report_actions_not_reached(const sim::RunOutcome& outcome);
    /// Fails every pinned action whose step the run never reached.
    void report_missed_pins();

private:
    void perform(std::uint32_t index);
    std::string perform_management(std::uint32_t index, const Action& action);
    void schedule_pinned(std::uint32_t index);
    void fire_due_pins();
    struct Pin;
    void report_missed_pin(const Pin& pin);

    sim::World& world_;
    runtime::Node& node_;
    const Scenario& scenario_;
    StepClock& clock_;
    Links links_;
    /// Timeline calls made so far, by action index (report_unresolved_calls).
    std::set<std::uint32_t> calls_made_;
    /// Timeline actions performed so far, by action index (report_actions_not_reached).
    std::vector<bool> performed_;
    /// Timeline actions with `step` > 0, sorted by (at, step, index), and the next to fire.
    struct Pin {
        std::int64_t at_ns;
        std::uint64_t step;
        std::uint32_t index;
    };
    std::vector<Pin> pins_;
    std::size_t next_pin_ = 0;
};

} // namespace routesim::scenarios::detail
