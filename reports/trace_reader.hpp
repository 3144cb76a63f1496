// Reading a `--trace` file back: one JSON Lines event at a time (streamed, never the whole
// file), turned into a sim::TraceEvent whose fields have the value types of its kind's event
// struct (runtime/events.hpp), so that the typed reads (properties::read_event) decode it.
// Part of reports/: uses properties/, runtime/, sim/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/result.hpp"
#include "sim/trace.hpp"

namespace routesim::reports {

/// Reads the events of one JSON Lines trace (sim::JsonlSink's format, runtime/EVENTS.md).
/// A line of a kind the runtime lists must carry that kind's fields in their order with
/// their value types (`uint`, `int`, `bool`, `text`; "text or uint" either; an optional last
/// field may be missing); a field written with a leading underscore (`_kind`) is read under
/// its own name. A line of another kind is read as it is: a non-negative integer as uint, a
/// negative one as int, booleans and strings as such.
class TraceReader {
public:
    /// Reads from `in`; `file` names it in errors.
    TraceReader(std::istream& in, std::string file);
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    /// Reads the next line into event(): true, or false at the end of the input. Error (one
    /// line): `FILE:LINE: what was expected`, e.g. `t.jsonl:3: /pid: expected an unsigned
    /// integer, got "x"`. Cost: one JSON parse of the line.
    sim::Result<bool, std::string> next();
    /// The event read last (its texts live until the next call of next() or parse()).
    /// Precondition: next() or parse() returned true.
    const sim::TraceEvent& event() const;
    /// The number of the line read last (1-based; 0 before the first).
    std::uint64_t line_number() const { return line_number_; }
    /// The text of the line read last.
    const std::string& line() const { return line_; }

    /// Parses one line as next() does (for tests); the error has no `FILE:LINE: ` prefix.
    sim::Result<bool, std::string> parse(std::string_view text);

private:
    sim::Result<bool, std::string> parse_document();
    sim::Result<bool, std::string> read_fields(std::string_view kind);

    std::istream& in_;
    std::string file_;
    std::string line_;
    std::uint64_t line_number_ = 0;
    nlohmann::ordered_json document_;       // the texts of event_ point into it
    std::vector<sim::TraceKey> other_keys_; // the keys of a kind no struct lists
    std::vector<sim::TraceField> fields_;
    sim::TraceKey other_kind_{""};
    sim::TraceEvent event_{0, sim::Instant::zero(), sim::TraceKey(""), nullptr, 0};
    bool has_event_ = false;
};

/// True when the two events have the same kind, time and fields (keys, value types and
/// values); the sequence numbers are not compared.
bool same_event(const sim::TraceEvent& left, const sim::TraceEvent& right);

} // namespace routesim::reports
