// Event kind codes.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/event_kind.hpp"

#include "properties/router_monitors.hpp"
#include "runtime/events.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::properties {
namespace {

namespace trace = runtime::trace;

// `code` when `kind` is `key` (the hash already matched): the same constant's text, or the
// same bytes (keys built elsewhere, hand traces).
EventKind if_named(const sim::TraceKey& kind, const sim::TraceKey& key, EventKind code) {
    return kind.name.data() == key.name.data() || kind.name == key.name ? code : EventKind::Other;
}

} // namespace

EventKind event_kind_of(const sim::TraceKey& kind) {
    // A switch on the precomputed hash (a few comparisons), then one name check.
    switch (kind.hash) {
    case trace::spawn.hash:
        return if_named(kind, trace::spawn, EventKind::Spawn);
    case trace::spawn_failed.hash:
        return if_named(kind, trace::spawn_failed, EventKind::SpawnFailed);
    case trace::send.hash:
        return if_named(kind, trace::send, EventKind::Send);
    case trace::take.hash:
        return if_named(kind, trace::take, EventKind::Take);
    case trace::forward.hash:
        return if_named(kind, trace::forward, EventKind::Forward);
    case trace::call.hash:
        return if_named(kind, trace::call, EventKind::Call);
    case trace::call_result.hash:
        return if_named(kind, trace::call_result, EventKind::CallResult);
    case trace::response.hash:
        return if_named(kind, trace::response, EventKind::Response);
    case trace::response_dropped.hash:
        return if_named(kind, trace::response_dropped, EventKind::ResponseDropped);
    case trace::exit.hash:
        return if_named(kind, trace::exit, EventKind::Exit);
    case trace::drop.hash:
        return if_named(kind, trace::drop, EventKind::Drop);
    case trace::preserve.hash:
        return if_named(kind, trace::preserve, EventKind::Preserve);
    case trace::kill.hash:
        return if_named(kind, trace::kill, EventKind::Kill);
    case trace::route.hash:
        return if_named(kind, trace::route, EventKind::Route);
    case trace::route_init.hash:
        return if_named(kind, trace::route_init, EventKind::RouteInit);
    case trace::route_admin.hash:
        return if_named(kind, trace::route_admin, EventKind::RouteAdmin);
    case trace::route_pending.hash:
        return if_named(kind, trace::route_pending, EventKind::RoutePending);
    case trace::route_restart.hash:
        return if_named(kind, trace::route_restart, EventKind::RouteRestart);
    case route_key.hash:
        return if_named(kind, route_key, EventKind::RouteKey);
    case trace::pool_forward.hash:
        return if_named(kind, trace::pool_forward, EventKind::PoolForward);
    case trace::sup_restart.hash:
        return if_named(kind, trace::sup_restart, EventKind::SupRestart);
    case trace::sup_intensity_exceeded.hash:
        return if_named(kind, trace::sup_intensity_exceeded, EventKind::SupIntensityExceeded);
    case runtime::ev::SupChildExit::kind.hash:
        return if_named(kind, runtime::ev::SupChildExit::kind, EventKind::SupChildExit);
    case runtime::ev::SupShutdown::kind.hash:
        return if_named(kind, runtime::ev::SupShutdown::kind, EventKind::SupShutdown);
    case runtime::ev::PoolWorkers::kind.hash:
        return if_named(kind, runtime::ev::PoolWorkers::kind, EventKind::PoolWorkers);
    case runtime::ev::Register::kind.hash:
        return if_named(kind, runtime::ev::Register::kind, EventKind::Register);
    case runtime::ev::Unregister::kind.hash:
        return if_named(kind, runtime::ev::Unregister::kind, EventKind::Unregister);
    default:
        return EventKind::Other;
    }
}

} // namespace routesim::properties
