// The single-file HTML report: self-contained (inline CSS and SVG, no scripts, nothing
// fetched), with the topology picture, routing tables, counters, ledger, invariant and
// expectation results, messages per route, and a timeline; a run with violations opens
// with the violation and its witness events.
// Part of reports/: uses the graph model, the collector's facts and scenarios/run/runner.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "reports/graph.hpp"
#include "reports/run_facts.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::reports {

/// Everything one page shows. The pointers must outlive render_html.
struct ReportPage {
    const scenarios::Scenario* scenario = nullptr;
    const scenarios::RunResult* result = nullptr;
    const RunFacts* facts = nullptr;
    const TopologyGraph* graph = nullptr;
    /// The scenario file as the user named it (for the replay command line).
    std::string source;
    /// The command line that replays the run (ReportOptions::replay); empty: `routesim run
    /// <source> --seed <seed>`.
    std::string replay;
    /// Track names by pid id (process_labels()).
    std::map<std::uint64_t, std::string> labels;
    /// The inline `<svg>` of the topology, or "" when there is no picture.
    std::string topology_svg;
    /// Why there is no picture (shown instead of it).
    std::string topology_note;
    /// The Mermaid text, shown under the picture.
    std::string mermaid;
    /// Rows of the timeline.
    std::size_t timeline_rows = 300;
};

/// The whole HTML document. Deterministic for a deterministic page.
std::string render_html(const ReportPage& page);

namespace detail {

/// Sections of the page (html_sections.cpp), each a complete `<section>` element.
std::string routers_section(const ReportPage& page);
std::string route_bars_section(const ReportPage& page);
std::string counters_section(const ReportPage& page);
/// Supervisors (children, restart window, why one terminated), pools and calls still waiting.
std::string tree_section(const ReportPage& page);
std::string verdicts_section(const ReportPage& page);

} // namespace detail

} // namespace routesim::reports
