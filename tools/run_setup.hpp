// One run of `routesim run` or `routesim report` set up from its flags: the scenario loaded,
// the flags turned into run settings, and the --trace file opened and closed.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "scenarios/runner.hpp"
#include "tools/commands.hpp"

namespace routesim::tools {

/// Sets up a run from RunArgs, for the subcommands that share the run flags.
class RunSetup {
public:
    /// `command` names the subcommand in messages ("run", "report").
    explicit RunSetup(std::string_view command) : command_(command) {}
    RunSetup(const RunSetup&) = delete;
    RunSetup& operator=(const RunSetup&) = delete;

    /// Loads `args.file`, checks the flags' values and opens the --trace file. Returns exit_ok,
    /// or prints one error line and returns exit_bad_input; nothing has run either way.
    int open(const RunArgs& args);

    /// The loaded scenario; precondition: open() returned exit_ok.
    const scenarios::Scenario& scenario() const;
    /// The seed the run uses (--seed, else run.seed).
    std::uint64_t seed() const;
    /// The settings of the run: the flags' overrides, and the trace file's sink among
    /// extra_sinks (add more sinks to the copy).
    const scenarios::RunSettings& settings() const { return settings_; }

    /// Finishes the --trace file after the run. Returns exit_failed when writing it failed
    /// (with one line on stderr), exit_ok otherwise.
    int close();

private:
    int fail(const std::string& message) const;

    std::string command_;
    const RunArgs* args_ = nullptr;
    std::optional<scenarios::Scenario> scenario_;
    scenarios::RunSettings settings_;
    std::ofstream trace_file_;
    std::unique_ptr<sim::TraceSink> trace_sink_;
};

} // namespace routesim::tools
