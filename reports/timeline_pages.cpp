// The pages of the report's timeline: the points of interest of a run (failures, management
// operations, faults) and the windows of the trace that show them.
// Part of reports/: uses the collector's facts and the run's result.
#include <algorithm>
#include <utility>

#include "properties/process_names.hpp"
#include "reports/timeline.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

std::uint64_t uint_field(const sim::TraceRecord& record, std::string_view key) {
    const std::int64_t value = record.number(key, 0);
    return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

// "sup/outer/payments <…1004>": the label of the report (path or name) and the PID.
std::string process_text(const std::map<std::uint64_t, std::string>& labels, std::uint64_t pid) {
    const auto label = labels.find(pid);
    const std::string pid_text = properties::pid_part(pid);
    return label == labels.end() ? pid_text : label->second + " " + pid_text;
}

// The points of the kept records: management operations and faults, in trace order.
class RecordPoints {
public:
    explicit RecordPoints(const std::map<std::uint64_t, std::string>& labels) : labels_(labels) {}

    void add(const sim::TraceRecord& record) {
        const std::string& kind = record.kind;
        const std::uint64_t pid = uint_field(record, "pid");
        if (kind == "route_admin") {
            on_admin(record);
        } else if (kind == "fault_kill") {
            point(record, PointKind::Fault, "fault kill " + process_text(labels_, pid));
            injected_.insert(pid);
        } else if (kind == "fault_aim") {
            on_aim(record);
        } else if (kind == "kill") {
            // The kill of an injected or aimed fault is that fault's point.
            if (injected_.erase(pid) == 0) {
                point(record, PointKind::Fault, "fault kill " + process_text(labels_, pid));
            }
        } else if (kind == "exit" && record.text("reason").starts_with("panic")) {
            point(record, PointKind::Fault, "fault crash " + process_text(labels_, pid));
        } else if (kind == "spawn_failed") {
            point(record, PointKind::Fault, "fault spawn failed " + process_text(labels_, pid));
        }
    }

    std::vector<TimelinePoint> take() { return std::move(points_); }

private:
    void on_admin(const sim::TraceRecord& record) {
        std::string text = record.text("op") + "_route " + record.text("name");
        const std::string result = record.text("result");
        if (!result.empty() && result != "ok") {
            text += " (" + result + ")";
        }
        const auto aim = aimed_.find({uint_field(record, "router"), record.text("name")});
        if (aim != aimed_.end()) {
            aimed_.erase(aim);
            point(record, PointKind::Fault, "fault admin " + text + ", aimed");
            return;
        }
        point(record, PointKind::Admin, "admin " + text);
    }

    void on_aim(const sim::TraceRecord& record) {
        const std::uint64_t pid = uint_field(record, "pid");
        const std::string what = record.text("what");
        if (record.find("name") != nullptr) {
            // A management verb: its route_admin (now or when the router runs it) is the point.
            aimed_.emplace(std::make_pair(pid, record.text("name")), what);
            return;
        }
        if (what == "kill") {
            injected_.insert(pid);
            point(record, PointKind::Fault, "fault kill " + process_text(labels_, pid) + ", aimed");
        }
        // An aimed crash is the point of the panic it causes.
    }

    void point(const sim::TraceRecord& record, PointKind kind, std::string text) {
        points_.push_back(TimelinePoint{kind, record.seq, record.at, std::move(text)});
    }

    const std::map<std::uint64_t, std::string>& labels_;
    std::vector<TimelinePoint> points_;
    /// Victims of injected and aimed kills whose `kill` event has not come yet.
    std::set<std::uint64_t> injected_;
    /// (router, route) of aimed management faults whose route_admin has not come yet.
    std::map<std::pair<std::uint64_t, std::string>, std::string> aimed_;
};

// The first kept record at or after `at` (timeline actions that leave no event of their own).
const sim::TraceRecord* first_record_at(const RunFacts& facts, sim::Instant at) {
    const auto found = std::lower_bound(
        facts.records.begin(), facts.records.end(), at,
        [](const sim::TraceRecord& record, sim::Instant t) { return record.at < t; });
    return found == facts.records.end() ? nullptr : &*found;
}

void add_failures(const scenarios::RunResult& result, std::vector<TimelinePoint>& points) {
    for (const properties::Violation& violation : result.violations) {
        for (const properties::Witness& witness : violation.witnesses) {
            points.push_back(TimelinePoint{PointKind::Failure, witness.seq, witness.at,
                                           "failure: " + violation.invariant});
        }
    }
    for (const scenarios::Check& check : result.checks) {
        if (check.ok) {
            continue;
        }
        for (const properties::Witness& witness : check.witnesses) {
            points.push_back(TimelinePoint{PointKind::Failure, witness.seq, witness.at,
                                           "failure: expect " + check.what});
        }
    }
}

// Windows of shown rows, [first, end) indexes, and the points each holds; the first window is
// the start of the run.
struct Windows {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    std::vector<std::vector<TimelinePoint>> held;
};

// Gives each point (in trace order) the current window when it falls inside, else a new window
// starting a third of a window before it, never before the end of the previous one. Points
// beyond the kept records go to plan.left_out.
Windows place_points(const std::vector<const sim::TraceRecord*>& rows, std::uint64_t last_seq,
                     const std::vector<TimelinePoint>& points, std::size_t rows_max,
                     TimelinePlan& plan) {
    Windows windows{.spans = {{0, std::min(rows_max, rows.size())}}, .held = {{}}};
    for (const TimelinePoint& point : points) {
        if (point.seq > last_seq) {
            plan.left_out.push_back(point);
            plan.beyond_records++;
            continue;
        }
        const auto found = std::lower_bound(
            rows.begin(), rows.end(), point.seq,
            [](const sim::TraceRecord* record, std::uint64_t seq) { return record->seq < seq; });
        const auto row = std::min(static_cast<std::size_t>(found - rows.begin()), rows.size() - 1);
        if (row < windows.spans.back().second) {
            std::vector<TimelinePoint>& held = windows.held.back();
            const bool listed = point.kind == PointKind::Failure &&
                                std::any_of(held.begin(), held.end(), [&](const TimelinePoint& p) {
                                    return p.kind == point.kind && p.text == point.text;
                                });
            if (!listed) { // another witness of a failure the page lists already: no new entry
                plan.merged += held.empty() ? 0U : 1U;
                held.push_back(point);
            }
            continue;
        }
        const std::size_t first =
            std::max(windows.spans.back().second, row - std::min(row, rows_max / 3));
        windows.spans.emplace_back(first, std::min(first + rows_max, rows.size()));
        windows.held.push_back({point});
    }
    return windows;
}

// Which windows become pages: at most pages_max, the start and those with failures first,
// then the earliest others.
std::vector<bool> kept_windows(const std::vector<std::vector<TimelinePoint>>& held,
                               std::size_t pages_max) {
    std::vector<std::size_t> order(held.size());
    for (std::size_t index = 0; index < order.size(); index++) {
        order[index] = index;
    }
    const auto failing = [&held](std::size_t index) {
        return std::any_of(held[index].begin(), held[index].end(), [](const TimelinePoint& point) {
            return point.kind == PointKind::Failure;
        });
    };
    std::stable_partition(order.begin() + 1, order.end(), failing);
    std::vector<bool> kept(held.size(), false);
    for (std::size_t index = 0; index < order.size() && index < pages_max; index++) {
        kept[order[index]] = true;
    }
    return kept;
}

} // namespace

bool TimelinePage::has_failure() const {
    return std::any_of(points.begin(), points.end(),
                       [](const TimelinePoint& point) { return point.kind == PointKind::Failure; });
}

std::vector<TimelinePoint> timeline_points(const scenarios::Scenario& scenario,
                                           const scenarios::RunResult& result,
                                           const RunFacts& facts,
                                           const std::map<std::uint64_t, std::string>& labels) {
    RecordPoints from_records(labels);
    for (const sim::TraceRecord& record : facts.records) {
        from_records.add(record);
    }
    std::vector<TimelinePoint> points = from_records.take();
    // A timeline `exit` sends an exit signal: no event of its own names the action.
    for (const scenarios::Action& action : scenario.timeline) {
        if (action.verb != scenarios::Verb::Exit) {
            continue;
        }
        const sim::Instant at = sim::Instant::zero() + action.at;
        if (const sim::TraceRecord* record = first_record_at(facts, at)) {
            points.push_back(
                TimelinePoint{PointKind::Fault, record->seq, at,
                              "fault exit " + action.target + " (" + action.reason + ")"});
        }
    }
    add_failures(result, points);
    std::stable_sort(points.begin(), points.end(),
                     [](const TimelinePoint& a, const TimelinePoint& b) { return a.seq < b.seq; });
    return points;
}

TimelinePlan plan_timeline(const RunFacts& facts, const std::vector<TimelinePoint>& points,
                           std::size_t rows_max, std::size_t pages_max) {
    RS_ASSERT(rows_max > 0 && pages_max > 0);
    std::set<std::uint64_t> highlight;
    for (const TimelinePoint& point : points) {
        if (point.kind == PointKind::Failure) {
            highlight.insert(point.seq);
        }
    }
    std::vector<const sim::TraceRecord*> rows; // every shown row of the kept records
    for (const sim::TraceRecord& record : facts.records) {
        if (is_timeline_row(record, highlight)) {
            rows.push_back(&record);
        }
    }
    TimelinePlan plan;
    if (rows.empty()) {
        plan.left_out = points;
        plan.beyond_records = points.size();
        return plan;
    }
    Windows windows = place_points(rows, facts.records.back().seq, points, rows_max, plan);
    const std::vector<bool> kept = kept_windows(windows.held, pages_max);
    for (std::size_t index = 0; index < windows.spans.size(); index++) {
        std::vector<TimelinePoint>& held = windows.held[index];
        if (!kept[index]) {
            plan.left_out.insert(plan.left_out.end(), held.begin(), held.end());
            continue;
        }
        const auto [first, end] = windows.spans[index];
        RS_ASSERT(first < end && end <= rows.size());
        plan.pages.push_back(TimelinePage{.start = index == 0,
                                          .first_seq = rows[first]->seq,
                                          .rows = end - first,
                                          .last_seq = rows[end - 1]->seq,
                                          .first_at = rows[first]->at,
                                          .last_at = rows[end - 1]->at,
                                          .points = std::move(held)});
    }
    for (std::size_t index = 1; index < plan.pages.size(); index++) {
        RS_ASSERT(plan.pages[index - 1].last_seq < plan.pages[index].first_seq); // no overlap
    }
    std::stable_sort(plan.left_out.begin(), plan.left_out.end(),
                     [](const TimelinePoint& a, const TimelinePoint& b) { return a.seq < b.seq; });
    return plan;
}

} // namespace routesim::reports
