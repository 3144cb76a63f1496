// Where the emitters put the fields of the commonest events, so that monitors read each with
// one comparison (find_field with a FieldAt). The orders are those listed beside the kinds in
// runtime/trace_keys.hpp and runtime/router.hpp; the trace hash folds fields in this order, so
// they are stable. An event laid out otherwise is still read right, only by a scan.
// EventLayout tests pin every position against the real emitters.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include "properties/monitor.hpp"
#include "properties/router_monitors.hpp"
#include "runtime/router.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::properties::layout {

namespace send { // id from to queue type msg
inline constexpr FieldAt id{runtime::trace::id, 0};
inline constexpr FieldAt from{runtime::trace::from, 1};
inline constexpr FieldAt to{runtime::trace::to, 2};
inline constexpr FieldAt queue{runtime::trace::queue, 3};
} // namespace send

namespace take { // pid id queue type from
inline constexpr FieldAt pid{runtime::trace::pid, 0};
inline constexpr FieldAt id{runtime::trace::id, 1};
inline constexpr FieldAt queue{runtime::trace::queue, 2};
inline constexpr FieldAt type{runtime::trace::type, 3};
inline constexpr FieldAt from{runtime::trace::from, 4};
} // namespace take

namespace forward { // id by to from queue
inline constexpr FieldAt id{runtime::trace::id, 0};
inline constexpr FieldAt by{runtime::trace::by, 1};
inline constexpr FieldAt to{runtime::trace::to, 2};
inline constexpr FieldAt from{runtime::trace::from, 3};
inline constexpr FieldAt queue{runtime::trace::queue, 4};
} // namespace forward

namespace drop { // pid id queue reason
inline constexpr FieldAt pid{runtime::trace::pid, 0};
inline constexpr FieldAt id{runtime::trace::id, 1};
inline constexpr FieldAt reason{runtime::trace::reason, 3};
} // namespace drop

namespace route { // router id name resolution worker [reason]
inline constexpr FieldAt router{runtime::trace::router, 0};
inline constexpr FieldAt id{runtime::trace::id, 1};
inline constexpr FieldAt name{runtime::trace::name, 2};
inline constexpr FieldAt resolution{runtime::trace::resolution, 3};
inline constexpr FieldAt worker{runtime::trace::worker, 4};
} // namespace route

namespace route_key { // router key name (scenario routers, properties::route_key)
inline constexpr FieldAt router{runtime::trace::router, 0};
inline constexpr FieldAt key{route_key_field, 1};
inline constexpr FieldAt name{runtime::trace::name, 2};
} // namespace route_key

} // namespace routesim::properties::layout
