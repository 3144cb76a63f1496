// The timeline of the HTML report: SVG message sequence charts of windows of the trace (one
// lane per process, arrows from send to take, restarts, pending windows and faults marked,
// witness events highlighted), and the pages: which windows the report shows and why.
// Part of reports/: uses the collector's facts and the run's result.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reports/run_facts.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::reports {

/// What part of the trace the chart shows and how big it may get.
struct TimelineOptions {
    /// The first trace sequence number shown.
    std::uint64_t first_seq = 0;
    /// Rows (events) at most.
    std::size_t rows_max = 300;
    /// Lanes at most; the processes beyond share a last "other" lane.
    std::size_t lanes_max = 24;
    /// Sequence numbers to highlight (failure witnesses), drawn whatever their kind.
    std::set<std::uint64_t> highlight;
    /// Sequence numbers of the other points of interest (admin operations, faults), drawn on a
    /// lighter background.
    std::set<std::uint64_t> marked;
    /// Appended to the ids inside the SVG, so that several charts can share one page.
    std::string id_suffix;
};

/// One `<svg>` element (no XML prolog). Only the collected records are drawn; an empty
/// window gives a small SVG saying so. Lane labels are the full process labels (path and
/// PID), rotated when they do not fit side by side. Deterministic.
std::string timeline_svg(const RunFacts& facts, const std::map<std::uint64_t, std::string>& labels,
                         const TimelineOptions& options);

/// Whether `record` is a row of the chart: a kind the chart draws, or highlighted.
bool is_timeline_row(const sim::TraceRecord& record, const std::set<std::uint64_t>& highlight);

/// What a point of interest is.
enum class PointKind : std::uint8_t { Failure, Admin, Fault };

/// A moment that gets a page of the timeline.
struct TimelinePoint {
    PointKind kind = PointKind::Fault;
    std::uint64_t seq = 0;
    sim::Instant at;
    /// "failure: route_stability", "admin disable_route a", "fault kill r/a <…1002>".
    std::string text;
};

/// The points of interest of a run, in trace order: every witness of a violation and of a
/// failed expectation, every management operation (route_admin; an aimed one is a fault),
/// every fault (kills, injected and aimed faults, crashes, failed spawns, timeline `exit`
/// actions). `labels` names processes (process_labels()).
std::vector<TimelinePoint> timeline_points(const scenarios::Scenario& scenario,
                                           const scenarios::RunResult& result,
                                           const RunFacts& facts,
                                           const std::map<std::uint64_t, std::string>& labels);

/// One page: a window of shown rows and the points it was made for.
struct TimelinePage {
    /// The page that starts the run.
    bool start = false;
    /// The first shown row's sequence number and the number of rows.
    std::uint64_t first_seq = 0;
    std::size_t rows = 0;
    /// The last shown row's sequence number and the window's times.
    std::uint64_t last_seq = 0;
    sim::Instant first_at;
    sim::Instant last_at;
    /// The points inside the window, in trace order.
    std::vector<TimelinePoint> points;

    bool has_failure() const;
};

/// The pages of a timeline and what did not get one.
struct TimelinePlan {
    /// In trace order; the first is the start of the run (when there are rows at all).
    std::vector<TimelinePage> pages;
    /// Points without a page: beyond the kept records, or over the page cap.
    std::vector<TimelinePoint> left_out;
    /// How many of `left_out` are beyond the kept records.
    std::size_t beyond_records = 0;
    /// Points that share a page with an earlier point.
    std::size_t merged = 0;
};

/// Pages of at most `rows_max` shown rows (is_timeline_row with the failure witnesses as
/// highlight): the start of the run, then, for each point in trace order that the current
/// page does not hold, a page beginning a third of a window before it (never before the end
/// of the previous page, so pages do not overlap). Over `pages_max`, the start and the pages
/// with failures are kept first, then the earliest others. Cost: one pass over the records.
TimelinePlan plan_timeline(const RunFacts& facts, const std::vector<TimelinePoint>& points,
                           std::size_t rows_max, std::size_t pages_max);

} // namespace routesim::reports
