// The runtime's trace events, one struct per kind: the contract between the emitters (runtime/,
// and the scenario routers and fault runner above it) and every reader (monitors, summary,
// report). Each struct names its kind and lists its fields once; sim/event_codec.hpp makes
// from that one table the hashed field array, the JSONL line and the decoded view.
// runtime/EVENTS.md is the manual's table of these kinds (checked against them by a test).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>

#include "runtime/gen.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/route_state.hpp"
#include "sim/event_codec.hpp"
#include "sim/events.hpp"
#include "sim/trace.hpp"

namespace routesim::runtime::ev {

using sim::field;
using sim::TraceKey;
/// A text field with its hash (sim::TraceText).
using Text = sim::TraceText;

/// An Atom as a trace text, with its interned hash.
inline Text text(Atom atom) {
    return Text(atom.text(), atom.hash());
}

/// Field keys: one constant per field name, shared by every kind that has the field.
namespace key {
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
inline constexpr const TraceKey& what = sim::ev::key::what; // shared with the kernel's limit
inline constexpr TraceKey level{"level"};
inline constexpr TraceKey text{"text"};
inline constexpr TraceKey cost_ns{"cost_ns"};
inline constexpr TraceKey router{"router"};
inline constexpr TraceKey resolution{"resolution"};
inline constexpr TraceKey worker{"worker"};
inline constexpr TraceKey op{"op"};
inline constexpr TraceKey result{"result"};
inline constexpr TraceKey from_state{"from_state"};
inline constexpr TraceKey to_state{"to_state"};
inline constexpr TraceKey restart{"restart"};
inline constexpr TraceKey slot{"slot"};
inline constexpr TraceKey key{"key"};
inline constexpr TraceKey pool{"pool"};
inline constexpr TraceKey size{"size"};
inline constexpr TraceKey sup{"sup"};
inline constexpr TraceKey child{"child"};
inline constexpr TraceKey decision{"decision"};
inline constexpr TraceKey intensity{"intensity"};
inline constexpr TraceKey period_ns{"period_ns"};
inline constexpr TraceKey waiting{"waiting"};
inline constexpr TraceKey origin{"origin"};
} // namespace key

/// How the router resolved a routed message (R10–R18): an owned route, the registry, a
/// discard (R11) or a failure (R18). Traced by name.
enum class Resolution : std::uint8_t { Owned, Registry, Discard, Failed };

/// The names of Resolution, in enumerator order.
inline constexpr std::array<std::string_view, 4> resolution_names = {"owned", "registry", "discard",
                                                                     "failed"};

} // namespace routesim::runtime::ev

/// Resolution is traced by name (route's resolution).
template <>
struct routesim::sim::TraceEnumNames<routesim::runtime::ev::Resolution> {
    static constexpr const auto& names = routesim::runtime::ev::resolution_names;
};

namespace routesim::runtime::ev {

// -- the kinds ------------------------------------------------------------------------------
// Ids are pid ids (0 for none) or message ids; texts are names, reasons and printed values.
/// A process was spawned (before its Init runs): its pid, its parent's pid, its registered name (""
/// when none), its behaviour's name and kind.
struct Spawn {
    static constexpr TraceKey kind{"spawn"};
    std::uint64_t pid = 0;
    std::uint64_t parent = 0;
    Text name;
    Text behavior;
    Text behavior_kind;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Spawn::pid), field(key::parent, &Spawn::parent),
                          field(key::name, &Spawn::name), field(key::behavior, &Spawn::behavior),
                          field(key::kind, &Spawn::behavior_kind)};
    }
};

/// A spawn whose Init failed (§2.8, R6): the process's pid, parent, name and the error's message.
struct SpawnFailed {
    static constexpr TraceKey kind{"spawn_failed"};
    std::uint64_t pid = 0;
    std::uint64_t parent = 0;
    Text name;
    Text reason;
    static constexpr auto fields() {
        return std::tuple{
            field(key::pid, &SpawnFailed::pid), field(key::parent, &SpawnFailed::parent),
            field(key::name, &SpawnFailed::name), field(key::reason, &SpawnFailed::reason)};
    }
};

/// A name was registered for a process (§2.2).
struct Register {
    static constexpr TraceKey kind{"register"};
    std::uint64_t pid = 0;
    Text name;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Register::pid), field(key::name, &Register::name)};
    }
};

/// A name was released (unregister, exit or failed Init).
struct Unregister {
    static constexpr TraceKey kind{"unregister"};
    std::uint64_t pid = 0;
    Text name;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Unregister::pid), field(key::name, &Unregister::name)};
    }
};

/// A message entered a mailbox (§2.1): its id, sender, recipient, queue, mailbox type and message
/// type name. `from` and `to` carry premixed lanes on the delivery hot path.
struct Send {
    static constexpr TraceKey kind{"send"};
    std::uint64_t id = 0;
    sim::PremixedId from;
    sim::PremixedId to;
    Queue queue = Queue::Urgent;
    MailboxType type = MailboxType::Regular;
    Text msg;
    static constexpr auto fields() {
        return std::tuple{field(key::id, &Send::id),     field(key::from, &Send::from),
                          field(key::to, &Send::to),     field(key::queue, &Send::queue),
                          field(key::type, &Send::type), field(key::msg, &Send::msg)};
    }
};

/// A send that reached no mailbox: the sender's pid id, the target (text for a name or an address,
/// the pid id for a full mailbox's owner), the mailbox type's name, the message type name and the
/// Ergo error name.
struct SendFailed {
    static constexpr TraceKey kind{"send_failed"};
    std::uint64_t from = 0;
    sim::TextOrId to;
    Text type;
    Text msg;
    Text err;
    static constexpr auto fields() {
        return std::tuple{field(key::from, &SendFailed::from), field(key::to, &SendFailed::to),
                          field(key::type, &SendFailed::type), field(key::msg, &SendFailed::msg),
                          field(key::err, &SendFailed::err)};
    }
};

/// A process took a message from its mailbox to handle it: its pid (premixed), the message id,
/// queue, mailbox type and sender.
struct Take {
    static constexpr TraceKey kind{"take"};
    sim::PremixedId pid;
    std::uint64_t id = 0;
    Queue queue = Queue::Urgent;
    MailboxType type = MailboxType::Regular;
    std::uint64_t from = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Take::pid), field(key::id, &Take::id),
                          field(key::queue, &Take::queue), field(key::type, &Take::type),
                          field(key::from, &Take::from)};
    }
};

/// A message handed on unchanged (§2.6): its id, the forwarder (premixed), the new recipient
/// (premixed), the original sender and the queue.
struct Forward {
    static constexpr TraceKey kind{"forward"};
    std::uint64_t id = 0;
    sim::PremixedId by;
    sim::PremixedId to;
    std::uint64_t from = 0;
    Queue queue = Queue::Urgent;
    static constexpr auto fields() {
        return std::tuple{field(key::id, &Forward::id), field(key::by, &Forward::by),
                          field(key::to, &Forward::to), field(key::from, &Forward::from),
                          field(key::queue, &Forward::queue)};
    }
};

/// A synchronous call was sent (§2.4): the caller, the call's ref and its timeout.
struct Call {
    static constexpr TraceKey kind{"call"};
    std::uint64_t caller = 0;
    std::uint64_t ref = 0;
    std::int64_t timeout_ns = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::caller, &Call::caller), field(key::ref, &Call::ref),
                          field(key::timeout_ns, &Call::timeout_ns)};
    }
};

/// A call ended for its caller: "ok", the error's name, or "abandoned".
struct CallResult {
    static constexpr TraceKey kind{"call_result"};
    std::uint64_t caller = 0;
    std::uint64_t ref = 0;
    Text outcome;
    static constexpr auto fields() {
        return std::tuple{field(key::caller, &CallResult::caller),
                          field(key::ref, &CallResult::ref),
                          field(key::outcome, &CallResult::outcome)};
    }
};

/// A response matched the waiting call: responder, caller, ref and "ok" or the error's name.
struct Response {
    static constexpr TraceKey kind{"response"};
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::uint64_t ref = 0;
    Text outcome;
    static constexpr auto fields() {
        return std::tuple{field(key::from, &Response::from), field(key::to, &Response::to),
                          field(key::ref, &Response::ref), field(key::outcome, &Response::outcome)};
    }
};

/// A response nobody waited for (§2.4).
struct ResponseDropped {
    static constexpr TraceKey kind{"response_dropped"};
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::uint64_t ref = 0;
    Text why;
    static constexpr auto fields() {
        return std::tuple{
            field(key::from, &ResponseDropped::from), field(key::to, &ResponseDropped::to),
            field(key::ref, &ResponseDropped::ref), field(key::why, &ResponseDropped::why)};
    }
};

/// A process terminated (§3.2): its pid, the reason's message and its name ("" when none).
struct Exit {
    static constexpr TraceKey kind{"exit"};
    std::uint64_t pid = 0;
    Text reason;
    Text name;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Exit::pid), field(key::reason, &Exit::reason),
                          field(key::name, &Exit::name)};
    }
};

/// A queued message was discarded: the mailbox owner's pid, the message id, its queue and why
/// ("terminated", "init_failed", "parent_terminated", "preserve_failed", "not_restarted", ...).
struct Drop {
    static constexpr TraceKey kind{"drop"};
    std::uint64_t pid = 0;
    std::uint64_t id = 0;
    Queue queue = Queue::Urgent;
    Text reason;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Drop::pid), field(key::id, &Drop::id),
                          field(key::queue, &Drop::queue), field(key::reason, &Drop::reason)};
    }
};

/// A queued message kept at teardown (preserve_mailbox) for the parent to hand to a successor; it
/// later reappears as a forward (same id, by = the parent) or as a drop.
struct Preserve {
    static constexpr TraceKey kind{"preserve"};
    std::uint64_t pid = 0;
    std::uint64_t id = 0;
    Queue queue = Queue::Urgent;
    std::uint64_t parent = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Preserve::pid), field(key::id, &Preserve::id),
                          field(key::queue, &Preserve::queue),
                          field(key::parent, &Preserve::parent)};
    }
};

/// An exit signal that found the Urgent queue full (§1.4).
struct SignalLost {
    static constexpr TraceKey kind{"signal_lost"};
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    Text reason;
    static constexpr auto fields() {
        return std::tuple{field(key::from, &SignalLost::from), field(key::to, &SignalLost::to),
                          field(key::reason, &SignalLost::reason)};
    }
};

/// A process was killed (§3.3): its pid and its state's name at the kill.
struct Kill {
    static constexpr TraceKey kind{"kill"};
    std::uint64_t pid = 0;
    Text state;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Kill::pid), field(key::state, &Kill::state)};
    }
};

/// A link or monitor was created: the consumer, the target as printed, monitor or link.
struct Link {
    static constexpr TraceKey kind{"link"};
    std::uint64_t consumer = 0;
    Text target;
    bool monitor = false;
    static constexpr auto fields() {
        return std::tuple{field(key::consumer, &Link::consumer), field(key::target, &Link::target),
                          field(key::monitor, &Link::monitor)};
    }
};

/// A timer fired for a process ("send_after").
struct Timer {
    static constexpr TraceKey kind{"timer"};
    std::uint64_t from = 0;
    Text what;
    static constexpr auto fields() {
        return std::tuple{field(key::from, &Timer::from), field(key::what, &Timer::what)};
    }
};

/// A process logged a line: level and text.
struct Log {
    static constexpr TraceKey kind{"log"};
    std::uint64_t pid = 0;
    Text level;
    Text text;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Log::pid), field(key::level, &Log::level),
                          field(key::text, &Log::text)};
    }
};

/// A process became busy for a simulated cost.
struct Busy {
    static constexpr TraceKey kind{"busy"};
    std::uint64_t pid = 0;
    std::int64_t cost_ns = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::pid, &Busy::pid), field(key::cost_ns, &Busy::cost_ns)};
    }
};

/// One per routed message (R8–R21): the router (premixed on the hot path), the message id, the
/// route name, the resolution, the worker it went to (0 when none) and, only when the resolution is
/// failed, the reason (the Ergo name or text of the failure).
struct Route {
    static constexpr TraceKey kind{"route"};
    sim::PremixedId router;
    std::uint64_t id = 0;
    Text name;
    Resolution resolution = Resolution::Owned;
    std::uint64_t worker = 0;
    std::optional<Text> reason;
    static constexpr auto fields() {
        return std::tuple{
            field(key::router, &Route::router), field(key::id, &Route::id),
            field(key::name, &Route::name),     field(key::resolution, &Route::resolution),
            field(key::worker, &Route::worker), field(key::reason, &Route::reason)};
    }
};

/// One per route spawned by Init (R5), in table order, right after its worker's spawn; emitted even
/// when a later route then fails Init (R6).
struct RouteInit {
    static constexpr TraceKey kind{"route_init"};
    std::uint64_t router = 0;
    Text name;
    std::uint64_t worker = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::router, &RouteInit::router),
                          field(key::name, &RouteInit::name),
                          field(key::worker, &RouteInit::worker)};
    }
};

/// One per management call (R30–R38): op is add | remove | disable | enable | replace | respawn;
/// result is "ok" or the error's name.
struct RouteAdmin {
    static constexpr TraceKey kind{"route_admin"};
    std::uint64_t router = 0;
    Text op;
    Text name;
    Text result;
    static constexpr auto fields() {
        return std::tuple{field(key::router, &RouteAdmin::router), field(key::op, &RouteAdmin::op),
                          field(key::name, &RouteAdmin::name),
                          field(key::result, &RouteAdmin::result)};
    }
};

/// One per change into or out of a pending state (R25, R27, R50); worker is the pid id recorded
/// after the change (0 when none).
struct RoutePending {
    static constexpr TraceKey kind{"route_pending"};
    std::uint64_t router = 0;
    Text name;
    act::RouteState from_state = act::RouteState::Absent;
    act::RouteState to_state = act::RouteState::Absent;
    std::uint64_t worker = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::router, &RoutePending::router),
                          field(key::name, &RoutePending::name),
                          field(key::from_state, &RoutePending::from_state),
                          field(key::to_state, &RoutePending::to_state),
                          field(key::worker, &RoutePending::worker)};
    }
};

/// One per counted restart (R42): restart is eager (R22) | lazy (R13) | retry (R45); worker is the
/// new pid id; slot is the route's index in the table (R22: a restart keeps the route's place).
struct RouteRestart {
    static constexpr TraceKey kind{"route_restart"};
    std::uint64_t router = 0;
    Text name;
    Text restart;
    std::uint64_t worker = 0;
    std::uint64_t slot = 0;
    static constexpr auto fields() {
        return std::tuple{
            field(key::router, &RouteRestart::router), field(key::name, &RouteRestart::name),
            field(key::restart, &RouteRestart::restart), field(key::worker, &RouteRestart::worker),
            field(key::slot, &RouteRestart::slot)};
    }
};

/// Emitted by a routing callback that hashed a field of the message (scenario routers, the topology
/// generator), before the route event of that message: the router, the hashed value as compact
/// JSON, and the route name it chose.
struct RouteKey {
    static constexpr TraceKey kind{"route_key"};
    std::uint64_t router = 0;
    Text key;
    Text name;
    static constexpr auto fields() {
        return std::tuple{field(key::router, &RouteKey::router), field(key::key, &RouteKey::key),
                          field(key::name, &RouteKey::name)};
    }
};

/// One per pool forward attempt and one per message nobody took (§5): outcome is "ok", "full"
/// (tried the next worker), "dead" (worker gone; a respawn follows), "respawned", "respawn_failed",
/// "respawn_forward_failed" or "unhandled" (worker 0: every attempt failed; the message is
/// dropped).
struct PoolForward {
    static constexpr TraceKey kind{"pool_forward"};
    std::uint64_t pool = 0;
    std::uint64_t id = 0;
    std::uint64_t worker = 0;
    Text outcome;
    static constexpr auto fields() {
        return std::tuple{field(key::pool, &PoolForward::pool), field(key::id, &PoolForward::id),
                          field(key::worker, &PoolForward::worker),
                          field(key::outcome, &PoolForward::outcome)};
    }
};

/// The pool's round-robin queue changed outside a forward: what is "add", "remove" or "lost" (a
/// push beyond Ergo's cap of 100 × pool size); size is the queue's length after.
struct PoolWorkers {
    static constexpr TraceKey kind{"pool_workers"};
    std::uint64_t pool = 0;
    Text what;
    std::uint64_t worker = 0;
    std::uint64_t size = 0;
    static constexpr auto fields() {
        return std::tuple{
            field(key::pool, &PoolWorkers::pool), field(key::what, &PoolWorkers::what),
            field(key::worker, &PoolWorkers::worker), field(key::size, &PoolWorkers::size)};
    }
};

/// Every child exit of a supervisor, with the decision taken (§6.3, §6.7): "restart", "exceeded",
/// "significant", "auto_shutdown", "keep_stopped", "disabled", "cycle" or "shutdown_wait".
struct SupChildExit {
    static constexpr TraceKey kind{"sup_child_exit"};
    std::uint64_t sup = 0;
    Text child;
    std::uint64_t pid = 0;
    Text reason;
    Text decision;
    static constexpr auto fields() {
        return std::tuple{
            field(key::sup, &SupChildExit::sup), field(key::child, &SupChildExit::child),
            field(key::pid, &SupChildExit::pid), field(key::reason, &SupChildExit::reason),
            field(key::decision, &SupChildExit::decision)};
    }
};

/// One per restart decision that passed the intensity check (§6.4), counted once per triggering
/// exit, with the limits.
struct SupRestart {
    static constexpr TraceKey kind{"sup_restart"};
    std::uint64_t sup = 0;
    Text child;
    std::uint64_t pid = 0;
    Text reason;
    std::uint64_t intensity = 0;
    std::int64_t period_ns = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::sup, &SupRestart::sup),
                          field(key::child, &SupRestart::child),
                          field(key::pid, &SupRestart::pid),
                          field(key::reason, &SupRestart::reason),
                          field(key::intensity, &SupRestart::intensity),
                          field(key::period_ns, &SupRestart::period_ns)};
    }
};

/// A restart refused by the intensity limit (§6.4).
struct SupIntensityExceeded {
    static constexpr TraceKey kind{"sup_intensity_exceeded"};
    std::uint64_t sup = 0;
    Text child;
    std::uint64_t pid = 0;
    Text reason;
    static constexpr auto fields() {
        return std::tuple{field(key::sup, &SupIntensityExceeded::sup),
                          field(key::child, &SupIntensityExceeded::child),
                          field(key::pid, &SupIntensityExceeded::pid),
                          field(key::reason, &SupIntensityExceeded::reason)};
    }
};

/// A graceful shutdown began: reason is what the running children are sent; waiting how many exits
/// the supervisor waits for before it terminates (§6.2).
struct SupShutdown {
    static constexpr TraceKey kind{"sup_shutdown"};
    std::uint64_t sup = 0;
    Text reason;
    std::uint64_t waiting = 0;
    static constexpr auto fields() {
        return std::tuple{field(key::sup, &SupShutdown::sup),
                          field(key::reason, &SupShutdown::reason),
                          field(key::waiting, &SupShutdown::waiting)};
    }
};

/// Emitted by the scenario runner before a fault it aimed at a race (origin "aim:..."): the verb,
/// the victim's (or router's) pid and, for a management verb, the route name.
struct FaultAim {
    static constexpr TraceKey kind{"fault_aim"};
    Text origin;
    Text what;
    std::uint64_t pid = 0;
    std::optional<Text> name;
    static constexpr auto fields() {
        return std::tuple{field(key::origin, &FaultAim::origin), field(key::what, &FaultAim::what),
                          field(key::pid, &FaultAim::pid), field(key::name, &FaultAim::name)};
    }
};

/// Emitted by the scenario runner when a random kill fault picked its victim.
struct FaultKill {
    static constexpr TraceKey kind{"fault_kill"};
    std::uint64_t pid = 0;
    static constexpr auto fields() { return std::tuple{field(key::pid, &FaultKill::pid)}; }
};

// The kernel's kinds (sim/events.hpp), so that ev:: names every kind of the trace.
using sim::ev::Fault;
using sim::ev::Limit;

// -- decoding -------------------------------------------------------------------------------

/// A one-byte code per event kind (Other for a kind not listed here: test and demo kinds).
/// The order is AllEvents' order, code = position + 1.
enum class Kind : std::uint8_t {
    Other,
    Spawn,
    SpawnFailed,
    Register,
    Unregister,
    Send,
    SendFailed,
    Take,
    Forward,
    Call,
    CallResult,
    Response,
    ResponseDropped,
    Exit,
    Drop,
    Preserve,
    SignalLost,
    Kill,
    Link,
    Timer,
    Log,
    Busy,
    Route,
    RouteInit,
    RouteAdmin,
    RoutePending,
    RouteRestart,
    RouteKey,
    PoolForward,
    PoolWorkers,
    SupChildExit,
    SupRestart,
    SupIntensityExceeded,
    SupShutdown,
    Fault,
    Limit,
    FaultAim,
    FaultKill,
};

/// A list of event structs.
template <class... Events>
struct EventList {};

/// Every kind, in Kind order.
using AllEvents =
    EventList<Spawn, SpawnFailed, Register, Unregister, Send, SendFailed, Take, Forward, Call,
              CallResult, Response, ResponseDropped, Exit, Drop, Preserve, SignalLost, Kill, Link,
              Timer, Log, Busy, Route, RouteInit, RouteAdmin, RoutePending, RouteRestart, RouteKey,
              PoolForward, PoolWorkers, SupChildExit, SupRestart, SupIntensityExceeded, SupShutdown,
              Fault, Limit, FaultAim, FaultKill>;

/// Any decoded event; the variant's index is the event's Kind code (monostate for Other).
using Event =
    std::variant<std::monostate, Spawn, SpawnFailed, Register, Unregister, Send, SendFailed, Take,
                 Forward, Call, CallResult, Response, ResponseDropped, Exit, Drop, Preserve,
                 SignalLost, Kill, Link, Timer, Log, Busy, Route, RouteInit, RouteAdmin,
                 RoutePending, RouteRestart, RouteKey, PoolForward, PoolWorkers, SupChildExit,
                 SupRestart, SupIntensityExceeded, SupShutdown, Fault, Limit, FaultAim, FaultKill>;

namespace detail {

template <class... Events>
consteval std::size_t list_size(EventList<Events...>) {
    return sizeof...(Events);
}

template <class Wanted, class... Events>
consteval Kind code_in(EventList<Events...>) {
    std::size_t position = 0;
    std::size_t found = 0;
    ((position++, found = std::is_same_v<Wanted, Events> ? position : found), ...);
    return static_cast<Kind>(found);
}

/// One slot of the kind table: open addressing on the kind's hash, built at compile time.
struct KindSlot {
    std::uint64_t hash = 0;
    std::string_view name;
    Kind code = Kind::Other;
};

inline constexpr std::size_t kind_slots = 128; // a power of two, over twice the kinds

template <class... Events>
consteval std::array<KindSlot, kind_slots> make_kind_table(EventList<Events...>) {
    std::array<KindSlot, kind_slots> table{};
    std::size_t code = 0;
    (
        [&table, &code] {
            code++;
            std::size_t slot = Events::kind.hash & (kind_slots - 1);
            while (table[slot].code != Kind::Other) {
                slot = (slot + 1) & (kind_slots - 1);
            }
            table[slot] = KindSlot{Events::kind.hash, Events::kind.name, static_cast<Kind>(code)};
        }(),
        ...);
    return table;
}

inline constexpr std::array<KindSlot, kind_slots> kind_table = make_kind_table(AllEvents{});

template <class Visitor, class... Events>
bool visit_in(Kind code, const sim::TraceEvent& event, Visitor& visitor, EventList<Events...>) {
    using Entry = bool (*)(const sim::TraceEvent&, Visitor&);
    static constexpr Entry entries[] = {
        [](const sim::TraceEvent&, Visitor&) { return false; },
        [](const sim::TraceEvent& each, Visitor& each_visitor) {
            if constexpr (std::is_invocable_v<Visitor&, const Events&>) {
                each_visitor(*sim::decode<Events>(each));
                return true;
            } else {
                (void)each;
                (void)each_visitor;
                return false;
            }
        }...};
    const auto index = static_cast<std::size_t>(code);
    RS_ASSERT(index < std::size(entries));
    return entries[index](event, visitor);
}

template <class... Events>
Event decode_in(Kind code, const sim::TraceEvent& event, EventList<Events...>) {
    Event out;
    ((code == code_in<Events>(AllEvents{}) ? (void)out.emplace<Events>(*sim::decode<Events>(event))
                                           : (void)0),
     ...);
    return out;
}

} // namespace detail

/// The number of kinds with a code (Other excluded).
inline constexpr std::size_t kind_count = detail::list_size(AllEvents{});
static_assert(static_cast<std::size_t>(Kind::FaultKill) == kind_count);
static_assert(std::variant_size_v<Event> == kind_count + 1);

/// The code of event struct `E`.
template <class E>
inline constexpr Kind kind_code = detail::code_in<E>(AllEvents{});

/// The code of `kind`: one probe of a table built from AllEvents at compile time (a few
/// instructions), then a name check; Other for any kind not listed. Decode it once per event
/// (or once per kind key), then switch on it.
inline Kind kind_of(const TraceKey& kind) {
    std::size_t slot = kind.hash & (detail::kind_slots - 1);
    for (;;) {
        const detail::KindSlot& entry = detail::kind_table[slot];
        if (entry.code == Kind::Other) {
            return Kind::Other;
        }
        if (entry.hash == kind.hash) {
            const bool named = entry.name.data() == kind.name.data() || entry.name == kind.name;
            return named ? entry.code : Kind::Other;
        }
        slot = (slot + 1) & (detail::kind_slots - 1);
    }
}

namespace detail {
template <class... Events>
consteval std::array<std::string_view, sizeof...(Events) + 1> kind_names_in(EventList<Events...>) {
    return {std::string_view(), Events::kind.name...};
}
inline constexpr auto kind_names = kind_names_in(AllEvents{});
} // namespace detail

/// The kind name of code `code` ("" for Other).
constexpr std::string_view kind_name(Kind code) {
    const auto index = static_cast<std::size_t>(code);
    RS_ASSERT(index < detail::kind_names.size());
    return detail::kind_names[index];
}

/// `event` as `E`, or nothing when it has another kind (sim::decode: a kind of this list is
/// read by its table's positions, the layout asserted).
template <class E>
std::optional<E> decode(const sim::TraceEvent& event) {
    return sim::decode<E>(event);
}

/// Calls `visitor` with the decoded struct of `event`, whose code is `code` (kind_of), when
/// the visitor takes that struct; kinds it does not take are not decoded. Returns whether it
/// was called. One indirect call per event.
template <class Visitor>
bool visit(Kind code, const sim::TraceEvent& event, Visitor&& visitor) {
    return detail::visit_in(code, event, visitor, AllEvents{});
}

/// visit with the code decoded here.
template <class Visitor>
bool visit(const sim::TraceEvent& event, Visitor&& visitor) {
    return visit(kind_of(event.kind), event, visitor);
}

/// `event` decoded into the Event variant (monostate for Other).
inline Event decode_any(const sim::TraceEvent& event) {
    return detail::decode_in(kind_of(event.kind), event, AllEvents{});
}

} // namespace routesim::runtime::ev
