// The timeline of the HTML report: an SVG message sequence chart of a window of the trace
// (one lane per process, arrows from send to take, restarts, pending windows and faults
// marked, witness events highlighted).
// Part of reports/: uses the collector's facts.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "reports/run_facts.hpp"

namespace routesim::reports {

/// What part of the trace the chart shows and how big it may get.
struct TimelineOptions {
    /// The first trace sequence number shown.
    std::uint64_t first_seq = 0;
    /// Rows (events) at most.
    std::size_t rows_max = 300;
    /// Lanes at most; the processes beyond share a last "other" lane.
    std::size_t lanes_max = 24;
    /// Sequence numbers to highlight (a violation's witnesses).
    std::set<std::uint64_t> highlight;
};

/// One `<svg>` element (no XML prolog). Only the collected records are drawn; an empty
/// window gives a small SVG saying so. Deterministic.
std::string timeline_svg(const RunFacts& facts, const std::map<std::uint64_t, std::string>& labels,
                         const TimelineOptions& options);

/// The first sequence number of the window that best shows `highlight`: 0 when the first
/// witness fits in the first rows, else a little before it.
std::uint64_t timeline_start(const RunFacts& facts, const std::set<std::uint64_t>& highlight,
                             std::size_t rows_max);

} // namespace routesim::reports
