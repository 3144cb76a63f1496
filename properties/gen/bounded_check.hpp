// Runs a rapidcheck property inside a GoogleTest with the suite's own default budget
// (max_success, max_size), unless RC_PARAMS sets them: the default CI run stays short, and
// the nightly CTest passes RC_PARAMS=max_success=<large> to the same test.
// Test support beside properties/ (GoogleTest and rapidcheck).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace routesim::properties::gen {

/// The suite's default budget for one property.
struct Budget {
    int max_success = 100;
    int max_size = 100;
    std::uint64_t seed = 20240601; ///< used unless RC_PARAMS sets a seed
};

/// Checks `testable` as RC_GTEST_PROP does, with `budget` replacing rapidcheck's defaults
/// (100 cases, size 100) for every key RC_PARAMS leaves at its default, and uses the
/// budget's fixed seed unless RC_PARAMS sets one (a failure prints the seed to replay).
template <class Testable>
void check_bounded(Budget budget, Testable&& testable) {
    const rc::detail::Configuration& config = rc::detail::configuration();
    rc::detail::TestParams params = config.testParams;
    const rc::detail::TestParams defaults;
    if (params.maxSuccess == defaults.maxSuccess) {
        params.maxSuccess = budget.max_success;
    }
    if (params.maxSize == defaults.maxSize) {
        params.maxSize = budget.max_size;
    }
    // STYLE §6: default tests use fixed seeds; RC_PARAMS=seed=<n> picks another.
    const char* rc_params = std::getenv("RC_PARAMS");
    if (rc_params == nullptr ||
        std::string_view(rc_params).find("seed") == std::string_view::npos) {
        params.seed = budget.seed;
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    rc::detail::TestMetadata metadata;
    metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
    metadata.description = info->name();
    const rc::detail::TestResult result = rc::detail::checkProperty(
        rc::detail::toProperty(std::forward<Testable>(testable)), metadata, params);
    if (result.template is<rc::detail::SuccessResult>()) {
        if (!result.template get<rc::detail::SuccessResult>().distribution.empty()) {
            rc::detail::printResultMessage(result, std::cout); // the RC_CLASSIFY table
            std::cout << "\n";
        }
        return;
    }
    std::ostringstream os;
    rc::detail::printResultMessage(result, os);
    FAIL() << os.str() << "\nrapidcheck seed=" << params.seed << "\n";
}

} // namespace routesim::properties::gen
