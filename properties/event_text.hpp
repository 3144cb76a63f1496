// Rendering events for witnesses: the writer behind describe_event (monitor.hpp), and
// KeptWitness, an event rendered once and held without allocation until a violation needs it.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "properties/monitor.hpp"

namespace routesim::properties {

/// Writes `kind field=value ...` (describe_event's text) into `out`, at most `capacity` bytes;
/// returns the length, or nothing when the text does not fit.
std::optional<std::size_t> write_event(const sim::TraceEvent& event, char* out,
                                       std::size_t capacity);

/// An event kept as a possible witness (a route's last change, an open call). It is rendered
/// at once, because an event's texts live only during the sink call, into an inline buffer:
/// keeping one costs no allocation unless its text is longer than `inline_max` bytes.
class KeptWitness {
public:
    KeptWitness() = default;
    explicit KeptWitness(const sim::TraceEvent& event);
    /// The witness, as witness_of(event) makes it.
    Witness witness() const;

private:
    static constexpr std::size_t inline_max = 112;
    std::uint64_t seq_ = 0;
    sim::Instant at_;
    std::uint32_t length_ = 0;       // of the inline text; unused when long_text_ is set
    std::array<char, inline_max> text_{};
    std::string long_text_;          // a text longer than inline_max
};

} // namespace routesim::properties
