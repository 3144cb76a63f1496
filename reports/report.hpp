// A whole report on disk: runs a scenario with a trace collector attached and writes
// index.html, topology.dot, topology.svg (when Graphviz runs), topology.mmd and trace.json.
// Part of reports/: uses scenarios/run/runner.hpp's public API and the exporters of this folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/run_facts.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/result.hpp"

namespace routesim::reports {

/// A run together with the facts its report needs.
struct CollectedRun {
    scenarios::RunResult result;
    RunFacts facts;
};

/// Runs `scenario` with `settings` plus a TraceCollector. Never throws for a validated scenario.
CollectedRun run_collected(const scenarios::Scenario& scenario,
                           scenarios::RunSettings settings = {}, CollectorOptions collector = {});

/// How to write a report.
struct ReportOptions {
    /// The scenario file as the user named it (shown in the replay command line).
    std::string source;
    /// The complete command line that replays the run, with every flag that changed it;
    /// empty: `routesim run <source> --seed <seed>`.
    std::string replay;
    /// Run Graphviz for topology.svg and the picture in index.html.
    bool render_svg = true;
    /// Graphs with more vertices are not laid out (Graphviz would take too long).
    std::size_t svg_vertices_max = 2000;
    /// Timeline rows in index.html.
    std::size_t timeline_rows = 300;
};

/// What write_report wrote.
struct ReportFiles {
    std::vector<std::filesystem::path> written;
    /// Whether topology.svg exists and index.html shows the picture.
    bool has_picture = false;
    /// Why there is no picture (empty when there is one).
    std::string note;
};

/// Creates `dir` when missing and checks that files can be written in it (a probe file is
/// written and removed). Errors: one line naming the directory and the cause.
sim::Result<void, std::string> prepare_report_dir(const std::filesystem::path& dir);

/// Writes the report files into `dir` (which prepare_report_dir accepted). Graphviz missing
/// or failing is not an error (ReportFiles::note says so); failing to write a file is.
sim::Result<ReportFiles, std::string> write_report(const std::filesystem::path& dir,
                                                   const scenarios::Scenario& scenario,
                                                   const CollectedRun& run,
                                                   const ReportOptions& options = {});

} // namespace routesim::reports
