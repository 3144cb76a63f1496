// The event kinds the invariant monitors read: the runtime's one kind code (runtime/events.hpp,
// ev::Kind), decoded once per kind by a MonitorSet, and the typed read of an event's fields.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "runtime/events.hpp"
#include "sim/event_codec.hpp"
#include "sim/trace.hpp"

namespace routesim::properties {

/// A trace event kind: the runtime's code (Other for a kind no event struct lists).
using EventKind = runtime::ev::Kind;

/// The number of EventKind values, Other included.
inline constexpr std::size_t event_kind_count = runtime::ev::kind_count + 1;

/// The code of `kind` (runtime::ev::kind_of). Cost: a few comparisons; a MonitorSet asks once
/// per kind, not per event.
inline EventKind event_kind_of(const sim::TraceKey& kind) {
    return runtime::ev::kind_of(kind);
}

/// `event` as the event struct `E`: every field a monitor reads comes through here, by name
/// (the struct's member), never by position or key. Nothing when the event has another kind
/// or is laid out otherwise than E's table (a hand-edited trace): a reader then skips it.
template <class E>
std::optional<E> read_event(const sim::TraceEvent& event) {
    return sim::try_decode<E>(event);
}

/// A set of EventKind values, for Monitor::watches.
class EventKinds {
public:
    constexpr EventKinds() = default;
    constexpr EventKinds(std::initializer_list<EventKind> kinds) {
        for (EventKind kind : kinds) {
            bits_ |= bit(kind);
        }
    }
    constexpr bool has(EventKind kind) const { return (bits_ & bit(kind)) != 0; }
    constexpr EventKinds operator|(EventKinds other) const {
        EventKinds both;
        both.bits_ = bits_ | other.bits_;
        return both;
    }

private:
    static constexpr std::uint64_t bit(EventKind kind) {
        return std::uint64_t{1} << static_cast<unsigned>(kind);
    }
    static_assert(event_kind_count <= 64);
    std::uint64_t bits_ = 0;
};

} // namespace routesim::properties
