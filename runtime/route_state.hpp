// act::RouteState: the one route state of the Router (R3, R25), with its one name table; the
// route_pending event, the monitors, the summary and the report all spell states through it.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/event_codec.hpp"

namespace routesim::runtime::act {

/// A route's state as the Router sees it (R3, R25, R27, R50): running (a worker recorded),
/// dead (no worker), disabled, one of the three pending operations waiting for the old
/// worker's exit, or absent (no such route in the table).
enum class RouteState : std::uint8_t {
    Running,
    Dead,
    Disabled,
    PendingDisable,
    PendingReplace,
    PendingRemove,
    Absent,
};

/// The number of RouteState values.
inline constexpr std::size_t route_state_count = 7;

/// The one name table, in enumerator order.
inline constexpr std::array<std::string_view, route_state_count> route_state_names = {
    "running",         "dead",           "disabled", "pending_disable",
    "pending_replace", "pending_remove", "absent"};
static_assert(static_cast<std::size_t>(RouteState::Absent) + 1 == route_state_count);

/// "running", "dead", "disabled", "pending_disable", "pending_replace", "pending_remove" or
/// "absent".
constexpr std::string_view route_state_name(RouteState state) {
    const auto index = static_cast<std::size_t>(state);
    RS_ASSERT(index < route_state_count);
    return route_state_names[index];
}

/// The state named `name`, or nothing for any other text.
constexpr std::optional<RouteState> route_state_from_name(std::string_view name) {
    for (std::size_t i = 0; i < route_state_count; i++) {
        if (route_state_names[i] == name) {
            return static_cast<RouteState>(i);
        }
    }
    return std::nullopt;
}

} // namespace routesim::runtime::act

/// RouteState is traced by name (route_pending's from_state and to_state).
template <>
struct routesim::sim::TraceEnumNames<routesim::runtime::act::RouteState> {
    static constexpr const auto& names = routesim::runtime::act::route_state_names;
};
