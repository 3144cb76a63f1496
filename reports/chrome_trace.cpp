// Chrome trace event JSON of a run.
// Part of reports/: uses the collector's facts and nlohmann_json.
#include "reports/chrome_trace.hpp"

#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

using Json = nlohmann::json;

// Trace timestamps are microseconds; virtual time is integer nanoseconds.
double micros(sim::Instant at) {
    return static_cast<double>(at.ns()) / 1000.0;
}

Json event(std::string_view phase, std::string name, std::string_view category, std::uint64_t track,
           sim::Instant at) {
    return Json{{"ph", phase},  {"name", std::move(name)}, {"cat", category}, {"pid", core_pid},
                {"tid", track}, {"ts", micros(at)}};
}

Json metadata(std::string_view name, std::uint64_t track, Json args) {
    return Json{
        {"ph", "M"}, {"name", name}, {"pid", core_pid}, {"tid", track}, {"args", std::move(args)}};
}

class TraceWriter {
public:
    TraceWriter(const RunFacts& facts, const std::map<std::uint64_t, std::string>& labels)
        : facts_(facts), labels_(labels) {}

    Json events(const std::string& title) {
        events_.push_back(metadata("process_name", 0, Json{{"name", "routesim: " + title}}));
        for (const auto& [pid, label] : labels_) {
            events_.push_back(metadata("thread_name", pid,
                                       Json{{"name", label + " <" + std::to_string(pid) + ">"}}));
            events_.push_back(metadata("thread_sort_index", pid, Json{{"sort_index", pid}}));
        }
        for (const sim::TraceRecord& record : facts_.records) {
            add_record(record);
        }
        for (const Marker& marker : facts_.markers) {
            add_marker(marker);
        }
        return std::move(events_);
    }

private:
    void add_record(const sim::TraceRecord& record) {
        if (record.kind == "send") {
            message_types_[static_cast<std::uint64_t>(record.number("id"))] = record.text("msg");
        } else if (record.kind == "take") {
            add_take(record);
        } else if (record.kind == "busy") {
            const auto open = last_take_.find(static_cast<std::uint64_t>(record.number("pid")));
            if (open != last_take_.end()) {
                events_[open->second]["dur"] =
                    static_cast<double>(record.number("cost_ns", 0)) / 1000.0;
            }
        } else if (record.kind == "spawn") {
            Json spawn = event("i", "spawn " + record.text("behavior"), "spawn",
                               static_cast<std::uint64_t>(record.number("pid")), record.at);
            spawn["s"] = "t";
            events_.push_back(std::move(spawn));
        } else if (record.kind == "exit") {
            const std::string reason = record.text("reason");
            if (is_normal_exit(reason)) {
                Json exit = event("i", "exit: " + reason, "exit",
                                  static_cast<std::uint64_t>(record.number("pid")), record.at);
                exit["s"] = "t";
                events_.push_back(std::move(exit));
            }
        }
    }

    void add_take(const sim::TraceRecord& record) {
        const auto pid = static_cast<std::uint64_t>(record.number("pid"));
        const auto id = static_cast<std::uint64_t>(record.number("id", 0));
        const auto type = message_types_.find(id);
        std::string name = type != message_types_.end() && !type->second.empty()
                               ? type->second
                               : (record.number("type", 0) == 0 ? "message" : "signal");
        Json take = event("X", std::move(name), "take", pid, record.at);
        take["dur"] = 0.0;
        take["args"] = Json{{"id", id},
                            {"from", record.number("from", 0)},
                            {"queue", record.number("queue", 0)},
                            {"seq", record.seq}};
        last_take_[pid] = events_.size();
        events_.push_back(std::move(take));
    }

    void add_marker(const Marker& marker) {
        switch (marker.kind) {
        case MarkerKind::Restart:
        case MarkerKind::Fault: {
            const bool fault = marker.kind == MarkerKind::Fault;
            Json instant =
                event("i", marker.text, fault ? "fault" : "restart", marker.pid, marker.at);
            instant["s"] = "t";
            instant["cname"] = fault ? "terrible" : "yellow";
            instant["args"] = Json{{"seq", marker.seq}};
            events_.push_back(std::move(instant));
            break;
        }
        case MarkerKind::PendingBegin:
        case MarkerKind::PendingEnd: {
            const std::size_t slash = marker.key.find('/');
            RS_ASSERT(slash != std::string::npos);
            const bool begin = marker.kind == MarkerKind::PendingBegin;
            Json window = event(begin ? "b" : "e", "pending " + marker.key.substr(slash + 1),
                                "pending", marker.pid, marker.at);
            window["id"] = marker.key;
            window["args"] = Json{{"state", marker.text}, {"seq", marker.seq}};
            events_.push_back(std::move(window));
            break;
        }
        }
    }

    const RunFacts& facts_;
    const std::map<std::uint64_t, std::string>& labels_;
    Json events_ = Json::array();
    std::map<std::uint64_t, std::string> message_types_;
    std::map<std::uint64_t, std::size_t> last_take_;
};

} // namespace

nlohmann::json to_chrome_trace(const RunFacts& facts,
                               const std::map<std::uint64_t, std::string>& labels,
                               const std::string& title) {
    Json out;
    out["traceEvents"] = TraceWriter(facts, labels).events(title);
    out["displayTimeUnit"] = "ns";
    out["otherData"] = Json{{"scenario", title},
                            {"events", facts.events},
                            {"records", facts.records.size()},
                            {"truncated", facts.records.size() < facts.events}};
    return out;
}

} // namespace routesim::reports
