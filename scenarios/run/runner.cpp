// The scenario runner's entry point: run_scenario (with the determinism re-run) and the
// verdict of a result.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/runner.hpp"

#include <algorithm>

#include "scenarios/run/detail/runner.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

bool RunResult::passed() const {
    if (outcome.reason == sim::StopReason::EventLimit ||
        outcome.reason == sim::StopReason::TimeLimit) {
        return false;
    }
    for (const Check& check : checks) {
        if (!check.ok) {
            return false;
        }
    }
    for (const InvariantResult& invariant : invariants) {
        if (invariant.verdict == "violated") {
            return false;
        }
    }
    return true;
}

std::string route_state_name(const runtime::act::RouterRouteInfo& info) {
    return std::string(runtime::act::route_state_name(info.state()));
}

RunResult run_scenario(const Scenario& scenario, const RunSettings& settings) {
    detail::Runner state(scenario, settings);
    RunResult result = state.execute();
    const auto& wanted = scenario.expect.invariants;
    const bool wants_determinism =
        std::find(wanted.begin(), wanted.end(), Invariant::Determinism) != wanted.end();
    if (wants_determinism) {
        InvariantResult verdict{"determinism", "unchecked"};
        if (settings.check_determinism) {
            RunSettings again = settings;
            again.trace_out = nullptr;
            again.extra_sinks.clear();
            again.check_determinism = false;
            // Monitors only read the trace, except that one may stop the run: when none
            // reported anything the re-run needs none (issue 24), else it replays with them.
            again.hash_only = result.violations.empty();
            detail::Runner second(scenario, again);
            const RunResult replay = second.execute();
            const bool same = replay.trace_hash == result.trace_hash;
            verdict.verdict = same ? "holds" : "violated";
            if (!same) {
                result.violations.push_back(
                    properties::Violation{"determinism",
                                          result.outcome.end,
                                          "the same scenario and seed gave trace hash " +
                                              sim::format_hash(result.trace_hash) + " then " +
                                              sim::format_hash(replay.trace_hash),
                                          {}});
            }
        }
        result.invariants.push_back(verdict);
    }
    return result;
}

} // namespace routesim::scenarios
