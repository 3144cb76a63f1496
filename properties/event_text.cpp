// Rendering events for witnesses: describe_event's writer and KeptWitness.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/event_text.hpp"

#include <charconv>
#include <cstring>

#include "sim/assert.hpp"

namespace routesim::properties {

std::optional<std::size_t> write_event(const sim::TraceEvent& event, char* out,
                                       std::size_t capacity) {
    std::size_t used = 0;
    const auto put = [&](std::string_view part) {
        if (used + part.size() > capacity) {
            return false;
        }
        if (!part.empty()) { // an empty view may have no data pointer
            std::memcpy(out + used, part.data(), part.size());
            used += part.size();
        }
        return true;
    };
    if (!put(event.kind.name)) {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (!put(" ") || !put(field.key.name) || !put("=")) {
            return std::nullopt;
        }
        char number[24];
        std::string_view value;
        switch (field.value.type()) {
        case sim::TraceValue::Type::Int: {
            const auto written = std::to_chars(number, number + sizeof number, field.value.as_int());
            value = std::string_view(number, static_cast<std::size_t>(written.ptr - number));
            break;
        }
        case sim::TraceValue::Type::Uint: {
            const auto written = std::to_chars(number, number + sizeof number, field.value.as_uint());
            value = std::string_view(number, static_cast<std::size_t>(written.ptr - number));
            break;
        }
        case sim::TraceValue::Type::Bool:
            value = field.value.as_bool() ? "true" : "false";
            break;
        case sim::TraceValue::Type::Text:
            value = field.value.as_text();
            break;
        }
        if (!put(value)) {
            return std::nullopt;
        }
    }
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
