// The routesim subcommands behind the CLI11 front end. Each returns the process exit code:
// 0 all good, 1 something failed (an expectation, an invariant, a limit), 2 invalid input.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace routesim::tools {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_bad_input = 2;

/// Options of `routesim run`.
struct RunArgs {
    std::string file;
    std::optional<std::uint64_t> seed;
    std::string scheduler;  // empty: the scenario's
    std::string semantics;  // empty: the scenario's
    std::string until;      // empty: the scenario's
    std::string trace_path; // empty: no trace file
    bool json = false;
};

int run_command(const RunArgs& args);

/// `routesim validate FILE...`: one error per line, exit 0 or 2.
int validate_command(const std::vector<std::string>& files);

} // namespace routesim::tools
