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
                                       std::size_t capacity, const TopologyView* names = nullptr);

/// The text describe_event writes for the value of a pid field: with `names`, the process's
/// label (`r/a <…1004>`), else the number (and 0, no process, is always "0"). For witnesses
/// written by hand in describe_event's form.
std::string pid_field_text(std::uint64_t pid, const TopologyView* names);

/// How a violation's explanation names process `pid`: with `names`, its label (`r/a <…1004>`,
/// or `<…1004>` when no spawn named it), as the summary and the witnesses do; without, `<1004>`.
std::string pid_text(std::uint64_t pid, const TopologyView* names);

/// An event kept as a possible witness (a route's last change, an open call). Its parts are
/// copied at once, because an event's texts live only during the sink call, into an inline
/// buffer, and rendered only when a violation asks for the witness (most never are): keeping
/// one costs a few byte copies, no number formatting, and no allocation unless the event's
/// parts are longer than `inline_max` bytes (then they are copied to the heap).
class KeptWitness {
public:
    KeptWitness() = default;
    explicit KeptWitness(const sim::TraceEvent& event);
    /// The witness, as witness_of(event, names) makes it (`names` as of now).
    Witness witness(const TopologyView* names = nullptr) const;

private:
    static constexpr std::size_t inline_max = 112;
    /// Writes the event's parts into `out`; their length, or 0 when they do not fit.
    static std::size_t write_parts(const sim::TraceEvent& event, char* out, std::size_t capacity);

    std::uint64_t seq_ = 0;
    sim::Instant at_;
    std::uint32_t length_ = 0; // bytes of parts_ in use (0: not inline, or no event)
    std::array<char, inline_max> parts_{};
    std::string long_parts_; // the parts of an event that do not fit inline
    std::string long_text_;  // the text of an event with a text over 255 bytes
};

} // namespace routesim::properties
