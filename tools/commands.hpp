// The routesim subcommands behind the CLI11 front end. Each returns the process exit code:
// 0 all good, 1 something failed (an expectation, an invariant, a limit), 2 invalid input.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace routesim::sim {
class TraceSink;
} // namespace routesim::sim

namespace routesim::scenarios {
struct Scenario;
struct RunResult;
} // namespace routesim::scenarios

namespace routesim::tools {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_bad_input = 2;

/// Options of `routesim run`; all but `json` are shared with `routesim report`
/// (tools/run_flags.hpp).
struct RunArgs {
    std::string file;
    std::optional<std::uint64_t> seed;
    std::string scheduler;  // empty: the scenario's
    std::string semantics;  // empty: the scenario's
    std::string until;      // empty: the scenario's
    std::string trace_path; // empty: no trace file
    /// --trace-max: the trace file stops before the line that would take it past this size.
    std::uint64_t trace_bytes_max = std::uint64_t{1} << 30;
    std::string save_repro; // empty: no reproducer file
    bool json = false;
    /// --explain: after the summary, the events around each failure (a second run).
    bool explain = false;
};

/// A file a command will write, with the flag that asked for it. Before a run, every output
/// is checked against the input file and the other outputs (tools/run_setup.hpp).
struct OutputFile {
    std::string flag;
    std::string path;
};

/// Extra work around one `routesim run` (the report of `--report`): a step after the flags
/// are checked and before the run (a code other than exit_ok stops there), trace sinks
/// attached to the run, and a step after the normal output whose exit code wins when it is
/// worse.
struct RunHooks {
    /// More files the command writes besides --trace (the --report directory's).
    std::vector<OutputFile> outputs;
    std::function<int()> before_run;
    std::vector<sim::TraceSink*> sinks;
    std::function<int(const scenarios::Scenario&, const scenarios::RunResult&)> after_run;
};

int run_command(const RunArgs& args, const RunHooks& hooks = {});

/// Prints the warnings of a loaded scenario on stderr, one line each (scenario_warnings): a
/// likely typo that is still valid input, so the exit code is not changed.
void print_warnings(const scenarios::Scenario& scenario, const std::string& file);

/// `routesim validate FILE...`: one error per line, exit 0 or 2.
int validate_command(const std::vector<std::string>& files);

} // namespace routesim::tools
