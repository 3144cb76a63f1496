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

namespace {

// The settings of a second run of the run that gave `first`: the same run, to no output and no
// caller's sink, checking nothing more. Monitors only read the trace, except that one may stop
// the run: when none reported anything the re-run needs none (issue 24), else it replays with
// them.
RunSettings replay_settings(const RunSettings& settings, const RunResult& first) {
    RunSettings again = settings;
    again.trace_out = nullptr;
    again.extra_sinks.clear();
    again.check_determinism = false;
    again.explain_checks = false;
    again.hash_only = first.violations.empty();
    return again;
}

// Check::witnesses of the failed checks of `result`, the first run `first` made: the run is
// made again, hashing only, with a CheckWitnesses sink; the processes it names are the first
// run's, so the first run's view names them.
void add_check_witnesses(const Scenario& scenario, const RunSettings& settings,
                         const detail::Runner& first, RunResult& result) {
    detail::CheckWitnesses sink(first.witness_queries());
    RunSettings again = replay_settings(settings, result);
    again.extra_sinks = {&sink};
    again.monitors = nullptr; // a campaign's kit holds the first run's view
    detail::Runner second(scenario, again);
    const RunResult replay = second.execute();
    if (replay.trace_hash != result.trace_hash) {
        return; // not the same run: its events witness nothing (determinism reports it)
    }
    for (std::size_t i = 0; i < sink.queries().size(); i++) {
        const std::size_t check = sink.queries()[i].check;
        RS_ASSERT(check < result.checks.size() && !result.checks[check].ok);
        result.checks[check].witnesses = sink.witnesses(i, first.view());
    }
}

} // namespace

RunResult run_scenario(const Scenario& scenario, const RunSettings& settings) {
    detail::Runner state(scenario, settings);
    RunResult result = state.execute();
    if (!state.witness_queries().empty()) {
        add_check_witnesses(scenario, settings, state, result);
    }
    const auto& wanted = scenario.expect.invariants;
    const bool wants_determinism =
        std::find(wanted.begin(), wanted.end(), Invariant::Determinism) != wanted.end();
    if (wants_determinism) {
        InvariantResult verdict{"determinism", "unchecked"};
        if (settings.check_determinism) {
            const RunSettings again = replay_settings(settings, result); // the Runner refers to it
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
