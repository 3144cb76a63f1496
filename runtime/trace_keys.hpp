// The runtime's trace kind and field keys under their historical names (trace::spawn,
// trace::pid, ...), only those that readers not yet converted to the typed events still use.
// Every name here is a reference to the one constant in runtime/events.hpp, where the kinds and
// fields are declared; a name goes when its last reader is converted.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include "runtime/events.hpp"
#include "runtime/gen.hpp"
#include "sim/trace.hpp"

namespace routesim::runtime::trace {

using sim::TraceKey;

// Event kinds.
inline constexpr const TraceKey& spawn = ev::Spawn::kind;
inline constexpr const TraceKey& spawn_failed = ev::SpawnFailed::kind;
inline constexpr const TraceKey& send = ev::Send::kind;
inline constexpr const TraceKey& take = ev::Take::kind;
inline constexpr const TraceKey& forward = ev::Forward::kind;
inline constexpr const TraceKey& call = ev::Call::kind;
inline constexpr const TraceKey& call_result = ev::CallResult::kind;
inline constexpr const TraceKey& response = ev::Response::kind;
inline constexpr const TraceKey& response_dropped = ev::ResponseDropped::kind;
inline constexpr const TraceKey& exit = ev::Exit::kind;
inline constexpr const TraceKey& drop = ev::Drop::kind;
inline constexpr const TraceKey& preserve = ev::Preserve::kind;
inline constexpr const TraceKey& kill = ev::Kill::kind;
inline constexpr const TraceKey& log = ev::Log::kind;
inline constexpr const TraceKey& route = ev::Route::kind;
inline constexpr const TraceKey& route_init = ev::RouteInit::kind;
inline constexpr const TraceKey& route_admin = ev::RouteAdmin::kind;
inline constexpr const TraceKey& route_pending = ev::RoutePending::kind;
inline constexpr const TraceKey& route_restart = ev::RouteRestart::kind;
inline constexpr const TraceKey& pool_forward = ev::PoolForward::kind;
inline constexpr const TraceKey& sup_restart = ev::SupRestart::kind;
inline constexpr const TraceKey& sup_intensity_exceeded = ev::SupIntensityExceeded::kind;

// Field keys.
inline constexpr const TraceKey& pid = ev::key::pid;
inline constexpr const TraceKey& parent = ev::key::parent;
inline constexpr const TraceKey& name = ev::key::name;
inline constexpr const TraceKey& behavior = ev::key::behavior;
inline constexpr const TraceKey& kind = ev::key::kind;
inline constexpr const TraceKey& reason = ev::key::reason;
inline constexpr const TraceKey& id = ev::key::id;
inline constexpr const TraceKey& from = ev::key::from;
inline constexpr const TraceKey& to = ev::key::to;
inline constexpr const TraceKey& queue = ev::key::queue;
inline constexpr const TraceKey& type = ev::key::type;
inline constexpr const TraceKey& msg = ev::key::msg;
inline constexpr const TraceKey& by = ev::key::by;
inline constexpr const TraceKey& caller = ev::key::caller;
inline constexpr const TraceKey& ref = ev::key::ref;
inline constexpr const TraceKey& timeout_ns = ev::key::timeout_ns;
inline constexpr const TraceKey& outcome = ev::key::outcome;
inline constexpr const TraceKey& level = ev::key::level;
inline constexpr const TraceKey& router = ev::key::router;
inline constexpr const TraceKey& resolution = ev::key::resolution;
inline constexpr const TraceKey& worker = ev::key::worker;
inline constexpr const TraceKey& op = ev::key::op;
inline constexpr const TraceKey& result = ev::key::result;
inline constexpr const TraceKey& from_state = ev::key::from_state;
inline constexpr const TraceKey& to_state = ev::key::to_state;
inline constexpr const TraceKey& restart = ev::key::restart;
inline constexpr const TraceKey& slot = ev::key::slot;
inline constexpr const TraceKey& pool_key_pool = ev::key::pool;
inline constexpr const TraceKey& pool_key_worker = ev::key::worker;
inline constexpr const TraceKey& sup_key_sup = ev::key::sup;
inline constexpr const TraceKey& sup_key_child = ev::key::child;
inline constexpr const TraceKey& sup_key_intensity = ev::key::intensity;
inline constexpr const TraceKey& sup_key_period_ns = ev::key::period_ns;

/// An Atom as a trace value, with its interned hash.
inline sim::TraceValue atom_value(Atom atom) {
    return sim::TraceValue(atom.text(), atom.hash());
}

} // namespace routesim::runtime::trace
