// Rendering events for witnesses: describe_event's writer and KeptWitness.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/event_text.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <system_error>
#include <vector>

#include "properties/process_names.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {

namespace {

// The keys whose numbers are pids (runtime/events.hpp): the ones a named witness labels.
bool holds_pid(const sim::TraceKey& key) {
    static constexpr std::string_view keys[] = {
        "pid", "parent", "from", "to", "by", "caller", "target", "router", "worker", "pool", "sup"};
    return std::find(std::begin(keys), std::end(keys), key.name) != std::end(keys);
}

} // namespace

std::optional<std::size_t> write_event(const sim::TraceEvent& event, char* out,
                                       std::size_t capacity, const TopologyView* names) {
    // Each part goes straight into `out` (numbers too), so that keeping a witness costs few
    // more instructions than the bytes it writes.
    std::size_t used = 0;
    const auto put = [&](std::string_view part) {
        if (part.size() > capacity - used) {
            return false;
        }
        if (!part.empty()) { // an empty view may have no data pointer
            std::memcpy(out + used, part.data(), part.size());
            used += part.size();
        }
        return true;
    };
    const auto put_char = [&](char c) {
        if (used == capacity) {
            return false;
        }
        out[used++] = c;
        return true;
    };
    const auto put_number = [&](auto number) {
        const std::to_chars_result written = std::to_chars(out + used, out + capacity, number);
        if (written.ec != std::errc()) {
            return false;
        }
        used = static_cast<std::size_t>(written.ptr - out);
        return true;
    };
    if (!put(event.kind.name)) {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (!put_char(' ') || !put(field.key.name) || !put_char('=')) {
            return std::nullopt;
        }
        bool fits = true;
        switch (field.value.type()) {
        case sim::TraceValue::Type::Int:
            fits = put_number(field.value.as_int());
            break;
        case sim::TraceValue::Type::Uint:
            if (names != nullptr && field.value.as_uint() != 0 && holds_pid(field.key)) {
                fits = put(process_label(*names, field.value.as_uint()));
            } else {
                fits = put_number(field.value.as_uint());
            }
            break;
        case sim::TraceValue::Type::Bool:
            fits = put(field.value.as_bool() ? "true" : "false");
            break;
        case sim::TraceValue::Type::Text:
            fits = put(field.value.as_text());
            break;
        }
        if (!fits) {
            return std::nullopt;
        }
    }
    RS_ASSERT(used <= capacity);
    return used;
}

std::string describe_event(const sim::TraceEvent& event, const TopologyView* names) {
    // The text is written into a stack buffer and copied once; a longer one is written into
    // a growing string. (Monitors keep possible witnesses as KeptWitness, without a string.)
    char buffer[256];
    if (const std::optional<std::size_t> length =
            write_event(event, buffer, sizeof buffer, names)) {
        return std::string(buffer, *length);
    }
    std::string text(1024, '\0');
    for (;;) {
        if (const std::optional<std::size_t> length =
                write_event(event, text.data(), text.size(), names)) {
            text.resize(*length);
            return text;
        }
        text.resize(2 * text.size());
    }
}

std::string pid_field_text(std::uint64_t pid, const TopologyView* names) {
    return names != nullptr && pid != 0 ? process_label(*names, pid) : std::to_string(pid);
}

std::string pid_text(std::uint64_t pid, const TopologyView* names) {
    return names != nullptr ? process_label(*names, pid) : "<" + std::to_string(pid) + ">";
}

Witness witness_of(const sim::TraceEvent& event, const TopologyView* names) {
    return Witness{event.seq, event.at, describe_event(event, names)};
}

// KeptWitness's parts: the kind, the field count, then per field its key, its type and its
// value (8 bytes for a number, 1 for a bool, a text like a name); a name or text is one length
// byte and its bytes. Written into `out` (at most `capacity` bytes); returns the length, or 0
// when the parts do not fit (or a text is longer than 255 bytes).
std::size_t KeptWitness::write_parts(const sim::TraceEvent& event, char* out,
                                     std::size_t capacity) {
    std::size_t used = 0;
    const auto put_text = [&](std::string_view text) {
        if (text.size() > UINT8_MAX || text.size() + 1 > capacity - used) {
            return false;
        }
        out[used++] = static_cast<char>(text.size());
        if (!text.empty()) { // an empty view may have no data pointer
            std::memcpy(out + used, text.data(), text.size());
            used += text.size();
        }
        return true;
    };
    const auto put_byte = [&](std::uint8_t byte) {
        if (used == capacity) {
            return false;
        }
        out[used++] = static_cast<char>(byte);
        return true;
    };
    if (event.field_count > UINT8_MAX || !put_text(event.kind.name) ||
        !put_byte(static_cast<std::uint8_t>(event.field_count))) {
        return 0;
    }
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        const sim::TraceValue::Type type = field.value.type();
        if (!put_text(field.key.name) || !put_byte(static_cast<std::uint8_t>(type))) {
            return 0;
        }
        if (type == sim::TraceValue::Type::Text) {
            if (!put_text(field.value.as_text())) {
                return 0;
            }
        } else if (type == sim::TraceValue::Type::Bool) {
            if (!put_byte(field.value.as_bool() ? 1 : 0)) {
                return 0;
            }
        } else {
            const std::uint64_t word = field.value.as_uint(); // an int's two's complement too
            if (sizeof word > capacity - used) {
                return 0;
            }
            std::memcpy(out + used, &word, sizeof word);
            used += sizeof word;
        }
    }
    RS_ASSERT(used > 0 && used <= capacity);
    return used;
}

KeptWitness::KeptWitness(const sim::TraceEvent& event) : seq_(event.seq), at_(event.at) {
    length_ = static_cast<std::uint32_t>(write_parts(event, parts_.data(), parts_.size()));
    if (length_ > 0) {
        return;
    }
    // Longer parts go to the heap, so that the witness still names its processes when asked.
    std::string parts(4 * inline_max, '\0');
    for (std::size_t length = 0; parts.size() <= 256 * 1024; parts.resize(2 * parts.size())) {
        if ((length = write_parts(event, parts.data(), parts.size())) > 0) {
            parts.resize(length);
            long_parts_ = std::move(parts);
            return;
        }
    }
    long_text_ = describe_event(event); // a text over 255 bytes: rendered now, unnamed
    RS_ASSERT(!long_text_.empty());
}

Witness KeptWitness::witness(const TopologyView* names) const {
    const bool inline_parts = length_ > 0;
    if (!inline_parts && long_parts_.empty()) {
        return Witness{seq_, at_, long_text_}; // a very long event, or made from no event
    }
    // The event is rebuilt from its parts and rendered as describe_event renders it.
    const char* data = inline_parts ? parts_.data() : long_parts_.data();
    const std::size_t length = inline_parts ? length_ : long_parts_.size();
    std::size_t at = 0;
    const auto take_text = [&]() {
        const auto size = static_cast<std::uint8_t>(data[at++]);
        const std::string_view text(data + at, size);
        at += size;
        return text;
    };
    const sim::TraceKey kind(take_text());
    const auto count = static_cast<std::uint8_t>(data[at++]);
    std::vector<sim::TraceKey> keys;
    keys.reserve(count); // fields refer to their keys: no reallocation
    std::vector<sim::TraceField> fields;
    fields.reserve(count);
    for (std::size_t i = 0; i < count; i++) {
        keys.emplace_back(take_text());
        const auto type = static_cast<sim::TraceValue::Type>(data[at++]);
        if (type == sim::TraceValue::Type::Text) {
            fields.push_back(sim::TraceField{keys.back(), sim::TraceValue(take_text())});
        } else if (type == sim::TraceValue::Type::Bool) {
            fields.push_back(sim::TraceField{keys.back(), sim::TraceValue(data[at++] != 0)});
        } else {
            std::uint64_t word = 0;
            std::memcpy(&word, data + at, sizeof word);
            at += sizeof word;
            fields.push_back(
                sim::TraceField{keys.back(), type == sim::TraceValue::Type::Int
                                                 ? sim::TraceValue(static_cast<std::int64_t>(word))
                                                 : sim::TraceValue(word)});
        }
    }
    RS_ASSERT(at == length);
    return Witness{
        seq_, at_,
        describe_event(sim::TraceEvent{seq_, at_, kind, fields.data(), fields.size()}, names)};
}

} // namespace routesim::properties
