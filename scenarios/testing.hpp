// Test support of the scenarios tests: loading inline scenario text, reading files of the
// source tree, and finding a run's check by its JSON pointer.
// Part of scenarios/ (tests only; uses GoogleTest).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::scenarios::testing {

/// The repository root (the tests' ROUTESIM_SOURCE_DIR).
inline const std::filesystem::path source_dir = ROUTESIM_SOURCE_DIR;

/// Loads scenario text labelled "inline.json"; fails the test (and returns an empty scenario)
/// when it does not load.
inline Scenario load(const std::string& text) {
    auto loaded = load_scenario_text(text, "inline.json");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

/// The whole content of a file, or "" when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The check of `result` whose pointer is `pointer`, or nullptr.
inline const Check* check_at(const RunResult& result, std::string_view pointer) {
    for (const Check& check : result.checks) {
        if (check.pointer == pointer) {
            return &check;
        }
    }
    return nullptr;
}

} // namespace routesim::scenarios::testing
