// The runtime's trace event kinds and field names. Monitors (properties/) read these names;
// they are part of the trace format and change only together with the monitors.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include "runtime/gen.hpp"
#include "sim/trace.hpp"

namespace routesim::runtime::trace {

using sim::TraceKey;

// Event kinds.
inline constexpr TraceKey spawn{"spawn"};               // pid parent name behavior kind
inline constexpr TraceKey spawn_failed{"spawn_failed"}; // pid parent name reason
inline constexpr TraceKey register_name{"register"};    // pid name
inline constexpr TraceKey unregister_name{"unregister"}; // pid name
inline constexpr TraceKey send{"send"};                 // id from to queue type msg
inline constexpr TraceKey send_failed{"send_failed"};   // from to type msg err
inline constexpr TraceKey take{"take"};                 // pid id queue type from
inline constexpr TraceKey forward{"forward"};           // id by to from queue type
inline constexpr TraceKey call{"call"};                 // caller to ref id timeout_ns
inline constexpr TraceKey call_result{"call_result"};   // caller ref outcome
inline constexpr TraceKey response{"response"};         // from to ref outcome
inline constexpr TraceKey response_dropped{"response_dropped"}; // from to ref why
inline constexpr TraceKey exit{"exit"};                 // pid reason name
inline constexpr TraceKey drop{"drop"};                 // pid id queue reason
// A queued message kept at teardown (preserve_mailbox) for the parent to hand to a successor;
// it later reappears as a `forward` (same id, by = the parent) or as a `drop`.
inline constexpr TraceKey preserve{"preserve"};         // pid id queue parent
inline constexpr TraceKey signal_lost{"signal_lost"};   // from to reason
inline constexpr TraceKey kill{"kill"};                 // pid state
inline constexpr TraceKey link{"link"};                 // consumer target name monitor
inline constexpr TraceKey timer{"timer"};               // from to what
inline constexpr TraceKey log{"log"};                   // pid level text
inline constexpr TraceKey busy{"busy"};                 // pid cost_ns

// Field names.
inline constexpr TraceKey pid{"pid"};
inline constexpr TraceKey parent{"parent"};
inline constexpr TraceKey name{"name"};
inline constexpr TraceKey behavior{"behavior"};
inline constexpr TraceKey kind{"kind"};
inline constexpr TraceKey reason{"reason"};
inline constexpr TraceKey id{"id"};
inline constexpr TraceKey from{"from"};
inline constexpr TraceKey to{"to"};
inline constexpr TraceKey queue{"queue"};
inline constexpr TraceKey type{"type"};
inline constexpr TraceKey msg{"msg"};
inline constexpr TraceKey err{"err"};
inline constexpr TraceKey by{"by"};
inline constexpr TraceKey caller{"caller"};
inline constexpr TraceKey ref{"ref"};
inline constexpr TraceKey timeout_ns{"timeout_ns"};
inline constexpr TraceKey outcome{"outcome"};
inline constexpr TraceKey why{"why"};
inline constexpr TraceKey state{"state"};
inline constexpr TraceKey consumer{"consumer"};
inline constexpr TraceKey target{"target"};
inline constexpr TraceKey monitor{"monitor"};
inline constexpr TraceKey what{"what"};
inline constexpr TraceKey level{"level"};
inline constexpr TraceKey text{"text"};
inline constexpr TraceKey cost_ns{"cost_ns"};

/// An Atom as a trace value, with its interned hash.
inline sim::TraceValue atom_value(Atom atom) {
    return sim::TraceValue(atom.text(), atom.hash());
}

} // namespace routesim::runtime::trace
