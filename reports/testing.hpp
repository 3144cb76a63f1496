// Test support of the reports tests: loading the example and test scenarios by name, running
// them with a collector, and comparing text with golden files.
// Part of reports/ (tests only; uses GoogleTest).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "reports/report.hpp"
#include "scenarios/format/loader.hpp"

namespace routesim::reports::testing {

/// The scenario file of a test: "content-dispatch" is scenarios/examples/, others
/// reports/testdata/.
inline std::string scenario_path(const std::string& name) {
    const std::string root = ROUTESIM_SOURCE_DIR;
    if (name == "content-dispatch") {
        return root + "/scenarios/examples/" + name + ".json";
    }
    return root + "/reports/testdata/" + name + ".json";
}

/// Loads a test scenario; fails the test when it does not load.
inline scenarios::Scenario load(const std::string& name) {
    auto loaded = scenarios::load_scenario_file(scenario_path(name));
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? loaded.value() : scenarios::Scenario{};
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Compares `actual` with reports/testdata/<file>. On a difference it writes the actual text
/// beside the test binary as <file>.actual (copy it over the golden file after review).
inline void expect_golden(const std::string& actual, const std::string& file) {
    const std::filesystem::path golden =
        std::filesystem::path(ROUTESIM_SOURCE_DIR) / "reports" / "testdata" / file;
    const std::string expected = read_text(golden);
    if (actual != expected) {
        std::ofstream(file + ".actual", std::ios::binary) << actual;
    }
    EXPECT_EQ(actual, expected) << "golden " << golden.string() << " differs; actual written to "
                                << std::filesystem::absolute(file + ".actual").string();
}

} // namespace routesim::reports::testing
