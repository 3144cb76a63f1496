// The trace view's lines: each trace event told in words (time, sequence number, processes
// by path and PID, what happened, the message type), and the filters of `routesim trace`.
// Part of reports/: uses properties/, runtime/ and sim/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "properties/event_kind.hpp"
#include "properties/topology_view.hpp"
#include "sim/result.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::reports {

/// Tells trace events in words. Feed it every event of a trace in order (apply), then ask
/// for the text of the event just fed; it keeps its own TopologyView, so processes are
/// named by properties::process_label, and the message type of every message id it saw sent.
/// Memory: the view's, plus four bytes per message id.
class TraceLines {
public:
    /// Checks that `event` may follow the events applied so far, as the TopologyView
    /// requires of a trace (a hand-edited one may break it): its time is not before the
    /// previous event's, a pid is spawned once and exits (or fails its Init) once, and a
    /// message id is not far beyond the trace's length (the view keeps a record per id).
    /// Error: `/field: what was expected`, for the caller to prefix with `FILE:LINE: `.
    sim::Result<void, std::string> check(const sim::TraceEvent& event) const;
    /// Feeds `event` to the view and remembers a send's message type.
    void apply(const sim::TraceEvent& event);
    /// What `event` (the event applied last) says, e.g. `r/a <…1004> took user message #17
    /// "Order" from shop <…1009>`; a kind no struct lists is written as `kind field=value ...`.
    std::string describe(const sim::TraceEvent& event) const;
    /// The whole line: the time (as the summary writes times), the sequence number, then
    /// describe(): `     5ms      23  r/a <…1004> took ...`.
    std::string line(const sim::TraceEvent& event) const;
    /// True when a field of `event` that holds a pid names the process at `path` or one of
    /// its descendants (by properties::process_path, as of now).
    bool names_process(const sim::TraceEvent& event, std::string_view path) const;
    const properties::TopologyView& view() const { return view_; }

private:
    std::string label(std::uint64_t pid) const;
    std::string message(std::uint64_t id) const;
    std::string process_event(properties::EventKind kind, const sim::TraceEvent& event) const;
    std::string message_event(properties::EventKind kind, const sim::TraceEvent& event) const;
    std::string call_event(properties::EventKind kind, const sim::TraceEvent& event) const;
    std::string router_event(properties::EventKind kind, const sim::TraceEvent& event) const;
    std::string tree_event(properties::EventKind kind, const sim::TraceEvent& event) const;
    std::string kernel_event(properties::EventKind kind, const sim::TraceEvent& event) const;

    properties::TopologyView view_;
    std::uint64_t applied_ = 0;
    sim::Instant last_at_ = sim::Instant::zero();
    // per pid: 1 the view has a record of it (spawned, or an exit of an unseen pid), 2 ended
    std::unordered_map<std::uint64_t, std::uint8_t> pid_states_;
    std::vector<std::uint32_t> type_of_id_; // message id -> index into type_names_ + 1
    std::map<std::uint64_t, std::uint32_t> type_of_far_id_; // ids from far_id
    static constexpr std::uint64_t far_id = std::uint64_t{1} << 26;
    std::vector<std::string> type_names_;
    std::map<std::string, std::uint32_t, std::less<>> type_index_;
};

/// Which events `routesim trace` prints: all, or those within a window around a time, naming
/// a process (or a descendant), of some kinds; every condition given must hold.
struct TraceFilter {
    std::optional<sim::Instant> around;
    sim::Duration window = sim::Duration::milliseconds(10);
    std::string process;                      ///< a process path; "" for any
    std::vector<properties::EventKind> kinds; ///< empty for any
    /// True when `event` (applied to `lines` last) passes.
    bool keeps(const TraceLines& lines, const sim::TraceEvent& event) const;
};

/// Parses a --kinds list ("send,take"). Error: `unknown event kind "x"; kinds are: spawn,
/// spawn_failed, ...` (every kind runtime/EVENTS.md lists), or `expected a kind, got ""`
/// for an empty item.
sim::Result<std::vector<properties::EventKind>, std::string> parse_kinds(std::string_view list);

} // namespace routesim::reports
