// One run of `routesim run` or `routesim report` set up from its flags: the scenario loaded,
// the flags turned into run settings, and the --trace file opened and closed.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/run/runner.hpp"
#include "sim/trace.hpp"
#include "tools/commands.hpp"

namespace routesim::tools {

/// True when `left` and `right` name the same file: by filesystem identity when both exist
/// (hard links, symlinks, "./a" and "a"), else by their absolute, normalised paths with
/// symlinks of the existing part resolved.
bool same_file(const std::filesystem::path& left, const std::filesystem::path& right);

/// Checks that no output is the input file and no two outputs are the same file. Error, for
/// `routesim <command>: <error>`: `--flag: OUT would overwrite the input file IN` or
/// `--flag: OUT is also written by --other (PATH)`.
sim::Result<void, std::string> check_outputs(const std::string& input,
                                             const std::vector<OutputFile>& outputs);

/// The --trace file's sink: JSON Lines as sim::JsonlSink writes them, up to a size. The first
/// line that would take the file past `bytes_max` is not written, nor any line after it, so
/// the file ends with a whole line; the run itself (and its trace hash) goes on unchanged.
class CappedTraceSink final : public sim::TraceSink {
public:
    CappedTraceSink(std::ostream& out, std::uint64_t bytes_max);
    void on_event(const sim::TraceEvent& event) override;

    /// Bytes written so far (at most bytes_max).
    std::uint64_t bytes() const { return bytes_; }
    /// True once an event was left out.
    bool stopped() const { return stopped_; }
    /// The sequence number and time of the first event left out; precondition: stopped().
    std::uint64_t stopped_seq() const;
    sim::Instant stopped_at() const;

private:
    std::ostream& out_;
    std::uint64_t bytes_max_;
    std::ostringstream line_;
    sim::JsonlSink format_;
    std::uint64_t bytes_ = 0;
    bool stopped_ = false;
    std::uint64_t stopped_seq_ = 0;
    sim::Instant stopped_at_;
};

/// The scenario document `text` with the run's settings pinned in its `run` section: `seed`,
/// `scheduler`, `semantics` and `until` ("idle" or a duration) as `settings` make them for
/// `scenario` (the flags' overrides, else the file's values). Loading the result and running
/// it without flags gives the same run. Error: the text is not JSON.
sim::Result<std::string, std::string> pinned_scenario(std::string_view text,
                                                      const scenarios::Scenario& scenario,
                                                      const scenarios::RunSettings& settings);

/// Sets up a run from RunArgs, for the subcommands that share the run flags.
class RunSetup {
public:
    /// `command` names the subcommand in messages ("run", "report").
    explicit RunSetup(std::string_view command) : command_(command) {}
    RunSetup(const RunSetup&) = delete;
    RunSetup& operator=(const RunSetup&) = delete;

    /// Loads `args.file`, checks the flags' values, refuses outputs (--trace and `outputs`,
    /// the command's other files) that would overwrite the input or each other, writes the
    /// --save-repro file and opens the --trace file. Returns exit_ok, or prints one error
    /// line and returns exit_bad_input; nothing has run then, and nothing was written unless
    /// only the --trace file failed to open (the --save-repro file is written before it).
    int open(const RunArgs& args, const std::vector<OutputFile>& outputs = {});

    /// The loaded scenario; precondition: open() returned exit_ok.
    const scenarios::Scenario& scenario() const;
    /// The seed the run uses (--seed, else run.seed).
    std::uint64_t seed() const;
    /// The settings of the run: the flags' overrides, and the trace file's sink among
    /// extra_sinks (add more sinks to the copy).
    const scenarios::RunSettings& settings() const { return settings_; }

    /// Finishes the --trace file after the run; says on stderr where --trace-max stopped it.
    /// Returns exit_failed when writing it failed (with one line on stderr), else exit_ok.
    int close();

private:
    int fail(const std::string& message) const;
    int save_repro() const;

    std::string command_;
    const RunArgs* args_ = nullptr;
    std::optional<scenarios::Scenario> scenario_;
    scenarios::RunSettings settings_;
    std::ofstream trace_file_;
    std::unique_ptr<CappedTraceSink> trace_sink_;
};

} // namespace routesim::tools
