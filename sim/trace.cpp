// Trace bus, hash, JSON Lines and memory sinks.
// Part of sim/: depends on the standard library only.
#include "sim/trace.hpp"

#include <algorithm>
#include <ostream>

#include "sim/assert.hpp"

namespace routesim::sim {

void TraceBus::dispatch(const TraceEvent& event) const {
    for (TraceSink* sink : sinks_) {
        sink->on_event(event);
    }
}

void TraceBus::add_sink(TraceSink& sink) {
    RS_ASSERT(std::find(sinks_.begin(), sinks_.end(), &sink) == sinks_.end());
    sinks_.push_back(&sink);
    has_sinks_ = true;
}

void TraceBus::remove_sink(TraceSink& sink) {
    auto at = std::find(sinks_.begin(), sinks_.end(), &sink);
    RS_ASSERT(at != sinks_.end());
    sinks_.erase(at);
    has_sinks_ = !sinks_.empty();
}

std::string format_hash(std::uint64_t hash) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; i--) {
        text[static_cast<std::size_t>(i)] = digits[hash & 0xf];
        hash >>= 4;
    }
    return text;
}

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char digits[] = "0123456789abcdef";
    out.push_back('"');
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (byte < 0x20) {
                out += "\\u00";
                out.push_back(digits[byte >> 4]);
                out.push_back(digits[byte & 0xf]);
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
}

namespace {

void append_value(std::string& out, const TraceValue& value) {
    switch (value.type()) {
    case TraceValue::Type::Int:
        out += std::to_string(value.as_int());
        break;
    case TraceValue::Type::Uint:
        out += std::to_string(value.as_uint());
        break;
    case TraceValue::Type::Bool:
        out += value.as_bool() ? "true" : "false";
        break;
    case TraceValue::Type::Text:
        append_json_string(out, value.as_text());
        break;
    }
}

void append_record_value(std::string& out, const TraceRecord::Value& value) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        out += std::to_string(*i);
    } else if (const auto* u = std::get_if<std::uint64_t>(&value)) {
        out += std::to_string(*u);
    } else if (const auto* b = std::get_if<bool>(&value)) {
        out += *b ? "true" : "false";
    } else {
        append_json_string(out, std::get<std::string>(value));
    }
}

void append_header(std::string& out, std::uint64_t seq, Instant at, std::string_view kind) {
    out += "{\"seq\":";
    out += std::to_string(seq);
    out += ",\"t\":";
    out += std::to_string(at.ns());
    out += ",\"kind\":";
    append_json_string(out, kind);
}

// A field's name as written: header keys get a leading underscore (JsonlSink).
void append_field_name(std::string& out, std::string_view name) {
    if (name == "seq" || name == "t" || name == "kind" || name.starts_with('_')) {
        // Underscores already leading are doubled as well, so no two names meet.
        out += "\"_";
        const std::size_t at = out.size();
        append_json_string(out, name);
        out.erase(at, 1); // the opening quote append_json_string wrote
        return;
    }
    append_json_string(out, name);
}

} // namespace

void JsonlSink::on_event(const TraceEvent& event) {
    std::string line;
    line.reserve(128);
    append_header(line, event.seq, event.at, event.kind.name);
    for (std::size_t i = 0; i < event.field_count; i++) {
        line.push_back(',');
        append_field_name(line, event.fields[i].key.name);
        line.push_back(':');
        append_value(line, event.fields[i].value);
    }
    line += "}\n";
    out_ << line;
}

const TraceRecord::Value* TraceRecord::find(std::string_view key) const {
    for (const auto& [name, value] : fields) {
        if (name == key) {
            return &value;
        }
    }
    return nullptr;
}

std::string TraceRecord::text(std::string_view key) const {
    const Value* value = find(key);
    if (value == nullptr) {
        return {};
    }
    const auto* text = std::get_if<std::string>(value);
    return text == nullptr ? std::string() : *text;
}

std::int64_t TraceRecord::number(std::string_view key, std::int64_t fallback) const {
    const Value* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    if (const auto* i = std::get_if<std::int64_t>(value)) {
        return *i;
    }
    if (const auto* u = std::get_if<std::uint64_t>(value)) {
        return static_cast<std::int64_t>(*u);
    }
    return fallback;
}

std::string TraceRecord::to_json() const {
    std::string line;
    append_header(line, seq, at, kind);
    for (const auto& [name, value] : fields) {
        line.push_back(',');
        append_field_name(line, name);
        line.push_back(':');
        append_record_value(line, value);
    }
    line.push_back('}');
    return line;
}

TraceRecord MemorySink::copy(const TraceEvent& event) {
    TraceRecord record;
    record.seq = event.seq;
    record.at = event.at;
    record.kind = std::string(event.kind.name);
    record.fields.reserve(event.field_count);
    for (std::size_t i = 0; i < event.field_count; i++) {
        const TraceValue& value = event.fields[i].value;
        TraceRecord::Value owned;
        switch (value.type()) {
        case TraceValue::Type::Int:
            owned = value.as_int();
            break;
        case TraceValue::Type::Uint:
            owned = value.as_uint();
            break;
        case TraceValue::Type::Bool:
            owned = value.as_bool();
            break;
        case TraceValue::Type::Text:
            owned = std::string(value.as_text());
            break;
        }
        record.fields.emplace_back(std::string(event.fields[i].key.name), std::move(owned));
    }
    RS_ASSERT(record.fields.size() == event.field_count);
    RS_ASSERT(record.kind == event.kind.name);
    return record;
}

void MemorySink::on_event(const TraceEvent& event) {
    if (capacity_ > 0 && records_.size() == capacity_) {
        records_.pop_front();
    }
    records_.push_back(copy(event));
}

} // namespace routesim::sim
