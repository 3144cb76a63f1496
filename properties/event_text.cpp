// Rendering events for witnesses: describe_event's writer and KeptWitness.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/event_text.hpp"

#include <charconv>
#include <cstring>
#include <system_error>

#include "sim/assert.hpp"

namespace routesim::properties {

std::optional<std::size_t> write_event(const sim::TraceEvent& event, char* out,
                                       std::size_t capacity) {
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
            fits = put_number(field.value.as_uint());
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

std::string describe_event(const sim::TraceEvent& event) {
    // The text is written into a stack buffer and copied once; a longer one is written into
    // a growing string. (Monitors keep possible witnesses as KeptWitness, without a string.)
    char buffer[256];
    if (const std::optional<std::size_t> length = write_event(event, buffer, sizeof buffer)) {
        return std::string(buffer, *length);
    }
    std::string text(1024, '\0');
    for (;;) {
        if (const std::optional<std::size_t> length = write_event(event, text.data(), text.size())) {
            text.resize(*length);
            return text;
        }
        text.resize(2 * text.size());
    }
}

Witness witness_of(const sim::TraceEvent& event) {
    return Witness{event.seq, event.at, describe_event(event)};
}

KeptWitness::KeptWitness(const sim::TraceEvent& event) : seq_(event.seq), at_(event.at) {
    if (const std::optional<std::size_t> length = write_event(event, text_.data(), text_.size())) {
        length_ = static_cast<std::uint32_t>(*length);
        return;
    }
    long_text_ = describe_event(event);
    RS_ASSERT(long_text_.size() > inline_max);
}

Witness KeptWitness::witness() const {
    return Witness{seq_, at_,
                   long_text_.empty() ? std::string(text_.data(), length_) : long_text_};
}

} // namespace routesim::properties
