// GoogleTest helpers to run scenarios from your own suite and assert on their verdicts: load a
// scenario file or a document built in C++, run it (with your registered behaviours and
// rules, scenarios/run/registry.hpp), and check that it passed, that a given expectation
// failed or that an invariant was violated. A failing assertion's message names every failed
// check with its expected and actual value and its deciding events, every violation with its
// witnesses, and the seed and scheduler that replay the run.
//     TEST_F(MyRouterTest, KeepsKeysOnTheirRoute) {
//         auto result = run_file("scenarios/my-router.json");
//         ASSERT_TRUE(result);
//         EXPECT_TRUE(routesim::testing::RunPassed(*result));
//     }
// Part of tools/ (library routesim::testing; GoogleTest).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::testing {

/// Loads a scenario file. When it does not load, the test fails (ADD_FAILURE) with the
/// loader's error ("file: /json/pointer: what was expected") and the result is nullopt.
std::optional<scenarios::Scenario> load_scenario_file(const std::filesystem::path& path);

/// The same for a document built in C++, labelled `label` in errors.
std::optional<scenarios::Scenario> load_scenario_json(const nlohmann::json& document,
                                                      const std::string& label = "inline.json");

/// Everything that makes `result` fail, one item a line: each failed check (what, expected,
/// actual, its JSON pointer and deciding events), each invariant violation with its
/// witnesses, a root that did not start, a limit hit; then "replay: seed S scheduler P".
/// "passed" when the run passed.
std::string failure_report(const scenarios::RunResult& result);

/// Success when the run passed (every expectation and invariant held, no limit hit); else a
/// failure whose message is failure_report(result).
::testing::AssertionResult RunPassed(const scenarios::RunResult& result);

/// Success when the run's check at `pointer` (the expectation's JSON pointer in the file,
/// "/expect/clients/c/received") was made and failed; the message lists the checks otherwise.
::testing::AssertionResult CheckFailed(const scenarios::RunResult& result,
                                       std::string_view pointer);

/// Success when invariant `name` ("key_affinity", ...) was violated in the run.
::testing::AssertionResult InvariantViolated(const scenarios::RunResult& result,
                                             std::string_view name);

/// A fixture that loads and runs scenarios, keeping the last one loaded (for its summary).
class ScenarioTest : public ::testing::Test {
protected:
    /// Loads and runs a file; nullopt (and a failed test) when it does not load. Default
    /// settings: the file's own seed, scheduler and schedule, as `routesim run` does.
    std::optional<scenarios::RunResult> run_file(const std::filesystem::path& path,
                                                 const scenarios::RunSettings& settings = {});
    /// The same for a document built in C++.
    std::optional<scenarios::RunResult> run_json(const nlohmann::json& document,
                                                 const scenarios::RunSettings& settings = {});
    /// The scenario last loaded. Precondition: one was.
    const scenarios::Scenario& scenario() const;
    /// The summary `routesim run` prints for `result` of the last scenario loaded.
    std::string summary(const scenarios::RunResult& result) const;

private:
    std::optional<scenarios::Scenario> scenario_;
};

} // namespace routesim::testing
