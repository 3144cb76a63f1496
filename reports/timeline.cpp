// The SVG message sequence chart of the HTML report (one window of the trace).
// Part of reports/: uses the collector's facts.
#include "reports/timeline.hpp"

#include <algorithm>
#include <vector>

#include "properties/process_names.hpp"
#include "reports/detail/html_text.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

using detail::escape;
using detail::shorten;

constexpr int row_height = 15;
constexpr int time_column = 78;
constexpr int note_column = 190;
/// Lanes side by side fit in this width; wider labels widen the lanes up to it, then rotate.
constexpr int lanes_width_max = 1180;
/// The width of one character of a lane label (bold 11px), in tenths of a pixel: a little
/// over the average.
constexpr int label_char_tenths = 75;
/// Rotated lane labels rise at this angle (degrees) from the lane's top; its sine and cosine
/// in thousandths (integer layout: the same bytes everywhere).
constexpr int label_angle = 40;
constexpr int label_sin_milli = 643;
constexpr int label_cos_milli = 766;

bool is_shown(const sim::TraceRecord& record) {
    static constexpr std::string_view kinds[] = {
        "send", "forward",     "take",          "spawn",       "spawn_failed",
        "exit", "kill",        "route_restart", "sup_restart", "route_pending",
        "drop", "send_failed", "fault_kill",    "route_admin", "fault_aim"};
    return std::find(std::begin(kinds), std::end(kinds), record.kind) != std::end(kinds);
}

// Characters of UTF-8 text (continuation bytes not counted).
int char_count(const std::string& text) {
    return static_cast<int>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    }));
}

std::uint64_t uint_field(const sim::TraceRecord& record, std::string_view key) {
    const std::int64_t value = record.number(key, 0);
    return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

// The process a row belongs to (its lane).
std::uint64_t actor_of(const sim::TraceRecord& record) {
    if (record.kind == "send" || record.kind == "send_failed") {
        return uint_field(record, "from");
    }
    if (record.kind == "forward") {
        return uint_field(record, "by");
    }
    if (record.kind == "route" || record.kind == "route_restart" ||
        record.kind == "route_pending" || record.kind == "route_admin") {
        return uint_field(record, "router");
    }
    if (record.kind.starts_with("sup_")) {
        return uint_field(record, "sup");
    }
    if (record.kind.starts_with("pool_")) {
        return uint_field(record, "pool");
    }
    if (record.kind == "call" || record.kind == "call_result") {
        return uint_field(record, "caller");
    }
    if (record.kind == "response" || record.kind == "response_dropped") {
        return uint_field(record, "from");
    }
    return uint_field(record, "pid");
}

class Chart {
public:
    Chart(const RunFacts& facts, const std::map<std::uint64_t, std::string>& labels,
          const TimelineOptions& options)
        : facts_(facts), labels_(labels), options_(options) {
        select_rows();
        assign_lanes();
        lay_out_header();
    }

    std::string render() {
        if (rows_.empty()) {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" height=\"30\">"
                   "<text x=\"8\" y=\"20\" font-size=\"13\">No events in this window.</text></svg>";
        }
        const int width = time_column + lane_count() * lane_width_ + note_column + overhang_;
        const int height = header_height_ + static_cast<int>(rows_.size()) * row_height + 12;
        std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"" +
                          std::to_string(width) + "\" height=\"" + std::to_string(height) +
                          "\" font-family=\"Helvetica, Arial, sans-serif\">";
        out += defs();
        draw_highlights(out, width);
        draw_pending(out);
        draw_lanes(out, height);
        for (std::size_t row = 0; row < rows_.size(); row++) {
            draw_row(out, row);
        }
        return out + "</svg>";
    }

private:
    void select_rows() {
        const auto first = std::lower_bound(
            facts_.records.begin(), facts_.records.end(), options_.first_seq,
            [](const sim::TraceRecord& record, std::uint64_t seq) { return record.seq < seq; });
        for (auto at = first; at != facts_.records.end(); ++at) {
            const sim::TraceRecord& record = *at;
            if (rows_.size() >= options_.rows_max) {
                break;
            }
            if (record.kind == "route" || record.kind == "pool_forward") {
                const bool route = record.kind == "route";
                const std::string name = route ? record.text("name") : "worker";
                hop_names_[{uint_field(record, route ? "router" : "pool"),
                            uint_field(record, "id")}] = name.empty() ? "discard" : name;
            }
            if (!is_timeline_row(record, options_.highlight)) {
                continue;
            }
            row_of_seq_[record.seq] = rows_.size();
            if (record.kind == "take") {
                take_rows_.emplace(
                    std::make_pair(uint_field(record, "id"), uint_field(record, "pid")),
                    rows_.size());
            }
            rows_.push_back(&record);
        }
    }

    void assign_lanes() {
        std::vector<std::uint64_t> pids;
        for (const sim::TraceRecord* record : rows_) {
            pids.push_back(actor_of(*record));
            if (record->kind == "send" || record->kind == "forward") {
                pids.push_back(uint_field(*record, "to"));
            }
        }
        std::sort(pids.begin(), pids.end());
        pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
        for (const std::uint64_t pid : pids) {
            if (lanes_.size() < options_.lanes_max) {
                lanes_.emplace(pid, lanes_.size());
            } else {
                has_other_ = true;
            }
        }
        lane_width_ = std::clamp(980 / std::max(lane_count(), 1), 64, 150);
    }

    int lane_count() const { return static_cast<int>(lanes_.size() + (has_other_ ? 1 : 0)); }

    // The lane's label, in full: its path (or registered name); its PID is drawn under it.
    std::string lane_name(std::uint64_t pid) const {
        const auto label = labels_.find(pid);
        return label == labels_.end() ? "pid" : label->second;
    }

    // Labels side by side when they fit (widening the lanes up to lanes_width_max), else
    // rotated by label_angle above their lanes, with the header as tall as the longest needs.
    void lay_out_header() {
        int longest = has_other_ ? label_width("other processes") : 0;
        for (const auto& [pid, lane] : lanes_) {
            longest = std::max(longest, label_width(lane_name(pid)));
        }
        const int needed = longest + 10;
        if (needed > lane_width_ && needed * lane_count() <= lanes_width_max) {
            lane_width_ = needed;
        }
        if (needed <= lane_width_) {
            header_height_ = 46;
            return;
        }
        rotated_ = true;
        header_height_ = 40 + (longest * label_sin_milli + 999) / 1000;
        // A rotated label reaches right of its lane; the last ones may pass the note column.
        const int right = time_column + lane_count() * lane_width_ + note_column;
        const auto reach = [&](int x, const std::string& name) {
            return x + (label_width(name) * label_cos_milli + 999) / 1000 - right;
        };
        for (const auto& [pid, lane] : lanes_) {
            overhang_ = std::max(overhang_, reach(lane_x(pid), lane_name(pid)));
        }
        if (has_other_) {
            overhang_ = std::max(overhang_, reach(lane_x(0), "other processes"));
        }
    }

    // The width in pixels a lane label takes, a little over the average.
    static int label_width(const std::string& name) {
        return (char_count(name) * label_char_tenths + 9) / 10;
    }

    int lane_x(std::uint64_t pid) const {
        const auto found = lanes_.find(pid);
        const std::size_t lane = found == lanes_.end() ? lanes_.size() : found->second;
        return time_column + static_cast<int>(lane) * lane_width_ + lane_width_ / 2;
    }

    int row_y(std::size_t row) const {
        return header_height_ + static_cast<int>(row) * row_height + row_height / 2;
    }

    std::string defs() const {
        const std::string& id = options_.id_suffix;
        return "<defs><marker id=\"rs-arrow" + id +
               "\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" "
               "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" "
               "fill=\"#1f6feb\"/></marker><marker id=\"rs-arrow-fwd" +
               id +
               "\" viewBox=\"0 0 8 8\" "
               "refX=\"7\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path "
               "d=\"M0,0 L8,4 L0,8 z\" fill=\"#c77700\"/></marker></defs>";
    }

    void draw_highlights(std::string& out, int width) const {
        for (std::size_t row = 0; row < rows_.size(); row++) {
            const bool witness = options_.highlight.contains(rows_[row]->seq);
            if (witness || options_.marked.contains(rows_[row]->seq)) {
                out += std::string("<rect class=\"") + (witness ? "witness" : "point") +
                       "\" x=\"0\" y=\"" + std::to_string(row_y(row) - row_height / 2) +
                       "\" width=\"" + std::to_string(width) + "\" height=\"" +
                       std::to_string(row_height) + "\" fill=\"" +
                       (witness ? "#ffd6d6" : "#dde8ff") + "\"/>";
            }
        }
    }

    void draw_pending(std::string& out) const {
        for (const Marker& begin : facts_.markers) {
            const auto start = row_of_seq_.find(begin.seq);
            if (begin.kind != MarkerKind::PendingBegin || start == row_of_seq_.end()) {
                continue;
            }
            std::size_t end_row = rows_.size() - 1;
            for (const Marker& end : facts_.markers) {
                const auto found = row_of_seq_.find(end.seq);
                if (end.kind == MarkerKind::PendingEnd && end.key == begin.key &&
                    end.seq > begin.seq && found != row_of_seq_.end()) {
                    end_row = found->second;
                    break;
                }
            }
            const int x = lane_x(begin.pid) - 6;
            const int y = row_y(start->second);
            out += "<rect class=\"pending\" x=\"" + std::to_string(x) + "\" y=\"" +
                   std::to_string(y) + "\" width=\"12\" height=\"" +
                   std::to_string(std::max(row_y(end_row) - y, 4)) +
                   "\" rx=\"3\" fill=\"#fff0b3\" stroke=\"#d4a000\"><title>" + escape(begin.text) +
                   "</title></rect>";
        }
    }

    void draw_lanes(std::string& out, int height) const {
        std::vector<std::pair<std::uint64_t, std::size_t>> lanes(lanes_.begin(), lanes_.end());
        for (const auto& [pid, lane] : lanes) {
            draw_lane(out, lane_x(pid), height, lane_name(pid), properties::pid_part(pid));
        }
        if (has_other_) {
            draw_lane(out, lane_x(0), height, "other processes", "");
        }
    }

    void draw_lane(std::string& out, int x, int height, const std::string& name,
                   const std::string& pid) const {
        const std::string x_text = std::to_string(x);
        out += "<line x1=\"" + x_text + "\" y1=\"" + std::to_string(header_height_ - 4) +
               "\" x2=\"" + x_text + "\" y2=\"" + std::to_string(height - 6) +
               "\" stroke=\"#c8c8c8\" stroke-dasharray=\"3 3\"/>";
        const std::string title =
            "<title>" + escape(name + (pid.empty() ? "" : " " + pid)) + "</title>";
        if (rotated_) {
            const std::string y_text = std::to_string(header_height_ - 28);
            out += "<text class=\"lane\" x=\"" + x_text + "\" y=\"" + y_text +
                   "\" font-size=\"11\" font-weight=\"bold\" transform=\"rotate(-" +
                   std::to_string(label_angle) + " " + x_text + " " + y_text + ")\">" + title +
                   escape(name) + "</text>";
        } else {
            out += "<text class=\"lane\" x=\"" + x_text +
                   "\" y=\"16\" font-size=\"11\" text-anchor=\"middle\" font-weight=\"bold\">" +
                   title + escape(name) + "</text>";
        }
        out += "<text x=\"" + x_text + "\" y=\"" +
               std::to_string(header_height_ - (rotated_ ? 12 : 16)) +
               "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#666\">" + escape(pid) + "</text>";
    }

    void draw_row(std::string& out, std::size_t row) const;
    void draw_message(std::string& out, std::size_t row, const sim::TraceRecord& record) const;
    void draw_mark(std::string& out, std::size_t row, std::string_view shape,
                   std::string_view colour, const std::string& note) const;

    const RunFacts& facts_;
    const std::map<std::uint64_t, std::string>& labels_;
    const TimelineOptions& options_;
    std::vector<const sim::TraceRecord*> rows_;
    std::map<std::uint64_t, std::size_t> row_of_seq_;
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> take_rows_;
    /// (router or pool pid, message id) -> the route (or "worker") a forward went to.
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::string> hop_names_;
    std::map<std::uint64_t, std::size_t> lanes_;
    bool has_other_ = false;
    int lane_width_ = 120;
    /// Lane labels rotated (they do not fit side by side), the header's height, and how far
    /// the last rotated label reaches beyond the note column.
    bool rotated_ = false;
    int header_height_ = 46;
    int overhang_ = 0;
};

void Chart::draw_row(std::string& out, std::size_t row) const {
    const sim::TraceRecord& record = *rows_[row];
    const int y = row_y(row);
    if (row == 0 || rows_[row - 1]->at != record.at) {
        out += "<text x=\"4\" y=\"" + std::to_string(y + 4) + "\" font-size=\"10\" fill=\"#555\">" +
               escape(sim::format_instant(record.at)) + "</text>";
    }
    const std::string& kind = record.kind;
    if (kind == "send" || kind == "forward") {
        draw_message(out, row, record);
    } else if (kind == "take") {
        out += "<circle cx=\"" + std::to_string(lane_x(actor_of(record))) + "\" cy=\"" +
               std::to_string(y) + "\" r=\"3\" fill=\"#333\"/>";
    } else if (kind == "spawn") {
        draw_mark(out, row, "square", "#2e7d32", "spawn " + record.text("behavior"));
    } else if (kind == "exit") {
        const std::string reason = record.text("reason");
        const bool normal = is_normal_exit(reason);
        draw_mark(out, row, normal ? "bar" : "cross", normal ? "#555" : "#c62828",
                  "exit " + reason);
    } else if (kind == "kill" || kind == "fault_kill") {
        draw_mark(out, row, "cross", "#c62828", kind == "kill" ? "kill" : "fault: kill");
    } else if (kind == "spawn_failed") {
        draw_mark(out, row, "cross", "#c62828", "init failed: " + record.text("reason"));
    } else if (kind == "route_restart") {
        draw_mark(out, row, "diamond", "#e8590c",
                  "restart " + record.text("name") + " (" + record.text("restart") + ")");
    } else if (kind == "sup_restart") {
        draw_mark(out, row, "diamond", "#e8590c", "restart " + record.text("child"));
    } else if (kind == "route_pending") {
        draw_mark(out, row, "square", "#d4a000",
                  record.text("name") + ": " + record.text("from_state") + " \xE2\x86\x92 " +
                      record.text("to_state"));
    } else if (kind == "drop" || kind == "send_failed") {
        draw_mark(out, row, "cross", "#c62828",
                  kind + " " + record.text("reason") + record.text("err"));
    } else if (kind == "route_admin") {
        draw_mark(out, row, "square", "#1f6feb",
                  "admin " + record.text("op") + "_route " + record.text("name") + ": " +
                      record.text("result"));
    } else if (kind == "fault_aim") {
        draw_mark(out, row, "cross", "#c62828",
                  "fault: aimed " + record.text("what") + " " + record.text("name"));
    } else {
        // Any other event is drawn only as a witness of a violation: name it.
        draw_mark(out, row, "square", "#59636e", kind + " " + record.text("name"));
    }
}

void Chart::draw_message(std::string& out, std::size_t row, const sim::TraceRecord& record) const {
    const bool forward = record.kind == "forward";
    const std::uint64_t from = actor_of(record);
    const std::uint64_t to = uint_field(record, "to");
    const auto take = take_rows_.find({uint_field(record, "id"), to});
    const bool landed = take != take_rows_.end() && take->second > row;
    const int x1 = lane_x(from);
    const int y1 = row_y(row);
    int x2 = lane_x(to);
    const int y2 = landed ? row_y(take->second) : y1;
    if (x2 == x1) {
        x2 = x1 + 14; // to itself: a short stub to the right
    }
    out += "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" +
           std::to_string(x2) + "\" y2=\"" + std::to_string(y2) + "\" stroke=\"" +
           (forward ? "#c77700" : "#1f6feb") + "\" stroke-width=\"1.2\"" +
           (forward ? " stroke-dasharray=\"5 3\"" : "") + (landed ? "" : " opacity=\"0.6\"") +
           " marker-end=\"url(#" + (forward ? "rs-arrow-fwd" : "rs-arrow") + options_.id_suffix +
           ")\"><title>" + escape("#" + std::to_string(record.seq) + " " + record.to_json()) +
           "</title></line>";
    std::string type = record.text("msg");
    if (forward) {
        const auto hop = hop_names_.find({from, uint_field(record, "id")});
        type = "\xE2\x86\x92 " + (hop == hop_names_.end() ? std::string("forward") : hop->second);
    }
    const int text_x = x1 + (x2 > x1 ? 5 : -5);
    out += "<text x=\"" + std::to_string(text_x) + "\" y=\"" + std::to_string(y1 - 2) +
           "\" font-size=\"9\" fill=\"" + (forward ? "#a35f00" : "#174ea6") + "\"" +
           (x2 > x1 ? "" : " text-anchor=\"end\"") + ">" + escape(shorten(type, 18)) + "</text>";
}

void Chart::draw_mark(std::string& out, std::size_t row, std::string_view shape,
                      std::string_view colour, const std::string& note) const {
    const sim::TraceRecord& record = *rows_[row];
    const int x = lane_x(actor_of(record));
    const int y = row_y(row);
    const std::string fill(colour);
    std::string x_text = std::to_string(x);
    std::string y_text = std::to_string(y);
    if (shape == "square") {
        out += "<rect x=\"" + std::to_string(x - 4) + "\" y=\"" + std::to_string(y - 4) +
               "\" width=\"8\" height=\"8\" fill=\"" + fill + "\"/>";
    } else if (shape == "diamond") {
        out += "<path d=\"M" + x_text + "," + std::to_string(y - 6) +
               " l6,6 l-6,6 l-6,-6 z\" fill=\"" + fill + "\"/>";
    } else if (shape == "bar") {
        out += "<rect x=\"" + std::to_string(x - 6) + "\" y=\"" + std::to_string(y - 1) +
               "\" width=\"12\" height=\"3\" fill=\"" + fill + "\"/>";
    } else {
        RS_ASSERT(shape == "cross");
        out += "<path d=\"M" + std::to_string(x - 5) + "," + std::to_string(y - 5) + " l10,10 M" +
               std::to_string(x + 5) + "," + std::to_string(y - 5) + " l-10,10\" stroke=\"" + fill +
               "\" stroke-width=\"2.4\"/>";
    }
    out += "<text x=\"" + std::to_string(x + 9) + "\" y=\"" + std::to_string(y + 4) +
           "\" font-size=\"10\" fill=\"" + fill + "\"><title>" +
           escape("#" + std::to_string(record.seq) + " " + record.to_json()) + "</title>" +
           escape(shorten(note, 48)) + "</text>";
}

} // namespace

std::string timeline_svg(const RunFacts& facts, const std::map<std::uint64_t, std::string>& labels,
                         const TimelineOptions& options) {
    return Chart(facts, labels, options).render();
}

bool is_timeline_row(const sim::TraceRecord& record, const std::set<std::uint64_t>& highlight) {
    return is_shown(record) || highlight.contains(record.seq);
}

} // namespace routesim::reports
