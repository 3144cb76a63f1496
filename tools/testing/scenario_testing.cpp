// The GoogleTest helpers that run scenarios and explain their verdicts.
// Part of tools/ (library routesim::testing; GoogleTest).
#include "tools/testing/scenario_testing.hpp"

#include "scenarios/format/loader.hpp"
#include "sim/scheduler.hpp"
#include "sim/time.hpp"
#include "sim/world.hpp"

namespace routesim::testing {
namespace {

std::string check_line(const scenarios::Check& check) {
    std::string line = "FAIL " + check.what + ": expected " + check.expected + ", got " +
                       check.actual + " (" + check.pointer + ", at " +
                       sim::format_instant(check.at) + ")";
    for (const properties::Witness& witness : check.witnesses) {
        line += "\n    " + witness.line();
    }
    return line;
}

std::optional<scenarios::Scenario>
loaded_or_failure(sim::Result<scenarios::Scenario, scenarios::LoadError> loaded) {
    if (!loaded.has_value()) {
        ADD_FAILURE() << "the scenario does not load: " << loaded.error().to_string();
        return std::nullopt;
    }
    return std::move(loaded).value();
}

} // namespace

std::optional<scenarios::Scenario> load_scenario_file(const std::filesystem::path& path) {
    return loaded_or_failure(scenarios::load_scenario_file(path.string()));
}

std::optional<scenarios::Scenario> load_scenario_json(const nlohmann::json& document,
                                                      const std::string& label) {
    return loaded_or_failure(scenarios::load_scenario_text(document.dump(), label));
}

std::string failure_report(const scenarios::RunResult& result) {
    if (result.passed() && result.violations.empty()) {
        return "passed";
    }
    std::string text;
    for (const scenarios::Check& check : result.checks) {
        if (!check.ok) {
            text += check_line(check) + "\n";
        }
    }
    for (const properties::Violation& violation : result.violations) {
        text += "VIOLATION " + violation.to_string() + "\n";
    }
    if (!result.root_failure.empty()) {
        text += "root did not start: " + result.root_failure + "\n";
    }
    if (result.outcome.reason == sim::StopReason::EventLimit ||
        result.outcome.reason == sim::StopReason::TimeLimit) {
        text += "limit hit: " + std::string(sim::stop_reason_name(result.outcome.reason)) + " at " +
                sim::format_instant(result.outcome.end) + "\n";
    }
    text += "replay: seed " + std::to_string(result.seed) + " scheduler " +
            std::string(sim::policy_name(result.scheduler));
    return text;
}

::testing::AssertionResult RunPassed(const scenarios::RunResult& result) {
    if (result.passed() && result.violations.empty()) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "the run failed:\n" << failure_report(result);
}

::testing::AssertionResult CheckFailed(const scenarios::RunResult& result,
                                       std::string_view pointer) {
    std::string checks;
    for (const scenarios::Check& check : result.checks) {
        if (check.pointer == pointer) {
            if (!check.ok) {
                return ::testing::AssertionSuccess() << check_line(check);
            }
            return ::testing::AssertionFailure()
                   << "the check at " << pointer << " held: " << check.what << " is "
                   << check.actual;
        }
        checks += "\n  " + check.pointer + (check.ok ? " (held)" : " (failed)");
    }
    return ::testing::AssertionFailure()
           << "the run made no check at " << pointer << "; its checks:" << checks;
}

::testing::AssertionResult InvariantViolated(const scenarios::RunResult& result,
                                             std::string_view name) {
    for (const properties::Violation& violation : result.violations) {
        if (violation.invariant == name) {
            return ::testing::AssertionSuccess() << violation.to_string();
        }
    }
    return ::testing::AssertionFailure()
           << "invariant " << name << " was not violated; the run: " << failure_report(result);
}

std::optional<scenarios::RunResult> ScenarioTest::run_file(const std::filesystem::path& path,
                                                           const scenarios::RunSettings& settings) {
    scenario_ = load_scenario_file(path);
    if (!scenario_.has_value()) {
        return std::nullopt;
    }
    return scenarios::run_scenario(*scenario_, settings);
}

std::optional<scenarios::RunResult> ScenarioTest::run_json(const nlohmann::json& document,
                                                           const scenarios::RunSettings& settings) {
    scenario_ = load_scenario_json(document);
    if (!scenario_.has_value()) {
        return std::nullopt;
    }
    return scenarios::run_scenario(*scenario_, settings);
}

const scenarios::Scenario& ScenarioTest::scenario() const {
    RS_ASSERT(scenario_.has_value());
    return *scenario_;
}

std::string ScenarioTest::summary(const scenarios::RunResult& result) const {
    return scenarios::format_summary(scenario(), result);
}

} // namespace routesim::testing
