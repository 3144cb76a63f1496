// The event kinds the invariant monitors read, as a one-byte code decoded once per event: a
// MonitorSet decodes each kind once, and a monitor then switches on the code instead of
// comparing kind names one after another.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/trace.hpp"

namespace routesim::properties {

/// A trace event kind some monitor of this folder reads; every other kind is Other.
enum class EventKind : std::uint8_t {
    Other,
    // runtime/trace_keys.hpp
    Spawn,
    SpawnFailed,
    Send,
    Take,
    Forward,
    Call,
    CallResult,
    Response,
    ResponseDropped,
    Exit,
    Drop,
    Preserve,
    Kill,
    // runtime/router.hpp, and route_key (router_monitors.hpp)
    Route,
    RouteInit,
    RouteAdmin,
    RoutePending,
    RouteRestart,
    RouteKey,
    // runtime/pool.hpp and runtime/supervisor.hpp
    PoolForward,
    SupRestart,
    SupIntensityExceeded,
    SupChildExit,
    SupShutdown,
    PoolWorkers,
    Register,
    Unregister,
};

/// The number of EventKind values.
inline constexpr std::size_t event_kind_count = 28;
static_assert(static_cast<std::size_t>(EventKind::Unregister) + 1 == event_kind_count);

/// The code of `kind`: compares the precomputed hash, then the name (Other for a kind no
/// monitor reads). Cost: a few comparisons; a MonitorSet asks once per kind, not per event.
EventKind event_kind_of(const sim::TraceKey& kind);

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
    static constexpr std::uint32_t bit(EventKind kind) {
        return std::uint32_t{1} << static_cast<unsigned>(kind);
    }
    static_assert(event_kind_count <= 32);
    std::uint32_t bits_ = 0;
};

} // namespace routesim::properties
