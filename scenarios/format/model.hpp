// The typed scenario model (scenarios/FORMAT.md): run options, workload, timeline, faults and
// expectations around the topology of topology.hpp, plus the JSON spelling of every enum.
// Plain data; must not depend on runtime/ or on the CLI.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/route_state.hpp"
#include "scenarios/format/topology.hpp"
#include "sim/assert.hpp"
#include "sim/scheduler.hpp"
#include "sim/time.hpp"

namespace routesim::scenarios {

/// Which side to follow where the Router page and Ergo's code disagree (`run.semantics`).
enum class Semantics : std::uint8_t { Documented, Upstream };

/// Message priority (`priority`); High and Max take a router's admin path.
enum class Priority : std::uint8_t { Normal, High, Max };

/// How a management verb reaches the router (`via`).
enum class Via : std::uint8_t { Call, Admin };

/// The verb of a timeline action.
enum class Verb : std::uint8_t {
    AddRoute,
    RemoveRoute,
    DisableRoute,
    EnableRoute,
    RespawnRoute,
    ReplaceRoute,
    Kill,
    Exit,
    Crash,
    FailSpawns,
    Send,
    Call,
    Check,
};

/// True for the six Router management verbs (they take `router`, `name` and `via`).
constexpr bool is_management_verb(Verb verb) {
    return verb <= Verb::ReplaceRoute;
}

/// A class of processes that random faults may hit (`faults.*.targets`).
enum class FaultTarget : std::uint8_t {
    RouteWorkers,
    PoolWorkers,
    Workers,
    Routers,
    Pools,
    Supervisors
};

/// An invariant monitor of DESIGN.md (`expect.invariants`).
enum class Invariant : std::uint8_t {
    RouteStability,
    KeyAffinity,
    PendingExclusivity,
    SenderPreservation,
    AtomicInit,
    CounterConsistency,
    NoForwardToDisabled,
    MessageConservation,
    CallOutcome,
    PairFifo,
    RestartIntensity,
    Determinism,
};

/// Every invariant, in enum order (the meaning of "all").
std::vector<Invariant> all_invariants();

/// The state of a router's route (`expect.routes.*.*.state`): the Router's one RouteState
/// (runtime/route_state.hpp), spelled by its one name table; Absent: not in the table
/// (removed, never added, or its router is gone).
using RouteState = runtime::act::RouteState;

/// `run`: how the run is driven. Defaults are the spec's.
struct RunOptions {
    std::uint64_t seed = 1;
    /// Stop time; nullopt means "idle" (stop when nothing is runnable and no timer is due).
    std::optional<sim::Instant> until;
    /// fifo, random or pct (never Replay: `schedule` is replayed under any policy).
    sim::Policy scheduler = sim::Policy::Fifo;
    std::uint32_t pct_depth = 3;
    std::uint64_t max_events = 10'000'000;
    /// Recorded scheduler choices to replay; empty when absent.
    std::vector<std::uint32_t> schedule;
    /// Default virtual time per message.
    sim::Duration cost = sim::Duration::zero();
    Semantics semantics = Semantics::Documented;
};

/// True when `value` is a workload generator {"uniform": [lo, hi]} (scenarios/FORMAT.md
/// Values; the loader checks that a payload object holding "uniform" is exactly that).
inline bool is_uniform_generator(const Json& value) {
    return value.is_object() && value.size() == 1 && value.contains("uniform");
}

/// True when `message` is a router.admin message (a management operation, not a payload).
inline bool is_router_admin_message(const Json& message) {
    const auto type = message.find("type");
    return type != message.end() && type->is_string() &&
           type->get_ref<const std::string&>() == "router.admin";
}

/// Walks the payload values of a workload message where the generators "$i" and
/// {"uniform": [lo, hi]} apply (scenarios/FORMAT.md Values): every value below the fields
/// other than "type", at any depth, depth first in document order (members by key, elements
/// by index), the order of the workload PRNG draws. `visit(value)` returns true to go into
/// the value's members or elements. A router.admin message carries no payload. Iterative
/// (STYLE.md); the loader bounds the nesting.
template <class J, class Visit>
void walk_payload(J& message, Visit&& visit) {
    if (!message.is_object() || is_router_admin_message(message)) {
        return;
    }
    std::vector<J*> stack;
    for (auto member = message.rbegin(); member != message.rend(); ++member) {
        if (member.key() != "type") {
            stack.push_back(&*member);
        }
    }
    while (!stack.empty()) {
        J* value = stack.back();
        stack.pop_back();
        if (visit(*value) && (value->is_object() || value->is_array())) {
            for (auto inner = value->rbegin(); inner != value->rend(); ++inner) {
                stack.push_back(&*inner);
            }
        }
    }
}

/// One `workload` entry: `count` sends or calls from a client, `every` apart.
struct WorkloadSource {
    /// The client (a recorder process registered under this name).
    std::string from;
    /// The target (registered name, client name or tree path).
    std::string to;
    /// True for `call`, false for `send`.
    bool is_call = false;
    /// The message object; still holds the generators "$i" and {"uniform": [lo, hi]}.
    Json message;
    sim::Duration at = sim::Duration::zero();
    std::uint64_t count = 1;
    sim::Duration every = sim::Duration::zero();
    Priority priority = Priority::Normal;
    /// Call timeout (meaningful for calls only).
    sim::Duration timeout = sim::Duration::seconds(5);
    std::string pointer;
};

/// `expect.routes.<router>.<route>`.
struct RouteExpect {
    std::optional<RouteState> state;
    std::optional<std::uint64_t> restarts;
};

/// `expect.clients.<client>`.
struct ClientExpect {
    std::optional<std::uint64_t> received;
    /// Message type -> count.
    std::map<std::string, std::uint64_t> types;
    /// Ergo error name -> count.
    std::map<std::string, std::uint64_t> errors;
};

/// What a reachability probe waits for (`expect.sometimes`).
enum class ProbeCondition : std::uint8_t {
    RouteStateSeen,
    RouteFailedSeen,
    RestartsSeen,
    EventSeen
};

/// The field that spells a probe condition in the file ("route_state", ...).
constexpr std::string_view probe_condition_field(ProbeCondition condition) {
    constexpr std::string_view names[] = {"route_state", "route_failed", "restarts", "event"};
    return names[static_cast<std::size_t>(condition)];
}

/// One reachability probe (`expect.sometimes`): a name and one condition, tested after every
/// trace event until it first holds.
struct Probe {
    std::string name;
    ProbeCondition condition = ProbeCondition::EventSeen;
    /// route_state: the route path as written ("r/a"); route_failed: the router target;
    /// restarts: the target; event: the `at` target ("" when any process will do).
    std::string target;
    /// route_state: the router target and the route name (the path split at its last "/").
    std::string router;
    std::string route;
    RouteState state = RouteState::Running;
    /// route_failed: the reason ("gen.ErrBusy").
    std::string reason;
    /// restarts: at least this many (>= 1).
    std::uint64_t count = 1;
    /// event: the trace kind.
    std::string kind;
    /// JSON pointer of the probe object.
    std::string pointer;
};

/// An `expect` object (at the end of the run or in a `check` action).
struct Expect {
    /// The monitors that must hold, in enum order without duplicates; "all" by default.
    std::vector<Invariant> invariants = all_invariants();
    /// target -> Inspect key -> value (strings, as Inspect returns them).
    std::map<std::string, std::map<std::string, std::string>> inspect;
    /// router target -> route name -> expectation.
    std::map<std::string, std::map<std::string, RouteExpect>> routes;
    /// client name -> expectation.
    std::map<std::string, ClientExpect> clients;
    std::vector<std::string> alive;
    std::vector<std::string> dead;
    /// router target -> Ergo error name -> MessageRouteFailed count.
    std::map<std::string, std::map<std::string, std::uint64_t>> route_failed;
    /// target -> messages taken (summed over incarnations).
    std::map<std::string, std::uint64_t> processed;
    /// Reachability probes, in file order (the end-of-run `expect` only).
    std::vector<Probe> sometimes;
    std::string pointer;
};

/// One `timeline` action. Which fields are meaningful depends on `verb`.
struct Action {
    sim::Duration at = sim::Duration::zero();
    Verb verb = Verb::Check;
    /// Management verbs: the router target and the route name.
    std::string router;
    std::string route;
    /// add_route / replace_route: the new worker (its path is "<router>/<route>").
    std::optional<Node> worker;
    Via via = Via::Call;
    /// kill, crash, exit: the target.
    std::string target;
    /// exit: "normal", "shutdown", "kill" or any other reason text.
    std::string reason = "normal";
    /// fail_spawns: the tree path of the node whose spawns fail, and how many.
    std::string node;
    std::uint64_t count = 1;
    /// send / call: as in a workload entry.
    Json message;
    std::string from;
    std::string to;
    Priority priority = Priority::Normal;
    sim::Duration timeout = sim::Duration::seconds(5);
    /// check: the expectations evaluated at this instant.
    std::optional<Expect> check;
    /// The outcome the action must return ("ok" or an Ergo error name), when given.
    std::optional<std::string> expect;
    /// `step`: fire between process steps, after this many steps taken at instant `at`, in
    /// the faults lane (how `routesim fuzz` pins a fault it placed between two steps); unset
    /// fires with the timeline at the start of the instant.
    std::optional<std::uint64_t> step;
    std::string pointer;
};

/// `faults.kill`: random kills of processes of the given classes.
struct KillFaults {
    std::vector<FaultTarget> targets;
    /// Mean interval; each gap is uniform in [0, 2 * every]. Always > 0.
    sim::Duration every;
};

/// `faults.crash` and `faults.spawn_fail`.
struct ChanceFaults {
    /// Probability in parts per billion (0 .. 1'000'000'000).
    std::uint64_t probability_ppb = 0;
    /// Classes hit; empty means workers only.
    std::vector<FaultTarget> targets;
};

/// `faults.admin`: random management calls on the named routers.
struct AdminFaults {
    std::vector<std::string> routers;
    /// Mean interval; always > 0.
    sim::Duration every;
};

/// `faults`: the random fault budget. Every part is optional.
struct Faults {
    std::optional<KillFaults> kill;
    std::optional<ChanceFaults> crash;
    std::optional<ChanceFaults> spawn_fail;
    /// terminate_cost.max: every worker exit is delayed by a draw in [0, max].
    std::optional<sim::Duration> terminate_cost_max;
    std::optional<AdminFaults> admin;
    /// `aim`: also fire kills, crashes and admin calls of this budget at racy moments (right
    /// after a routing decision, while a route is pending, during a restart), between two
    /// process steps. `routesim fuzz` always aims; `routesim run` only when this is true.
    bool aim = false;
};

/// The `worker` of a `router.admin` message in a workload or timeline send or call
/// (scenarios/FORMAT.md, a router's admin path): `{"type": "router.admin", "op": "add_route",
/// "name": A, "worker": node}`. The loader parses and validates it like a timeline worker; the
/// router that performs the message finds it by route name and worker JSON.
struct MessageWorker {
    /// The message's target (`to`), as written.
    std::string router;
    /// The message's `name` (the route).
    std::string route;
    /// The `worker` value as written, which the message still carries at run time.
    Json spec;
    /// The parsed worker; its path is "<to>/<name>", `to` being the message's target.
    Node worker;
    /// JSON pointer of the message object.
    std::string pointer;
};

/// A whole scenario file, validated: every target names something in the scenario.
struct Scenario {
    std::string name;
    std::string description;
    RunOptions run;
    Node topology;
    std::vector<WorkloadSource> workload;
    std::vector<Action> timeline;
    Faults faults;
    Expect expect;
    /// Every client name (workload and timeline `from`), in order of first appearance.
    std::vector<std::string> clients;
    /// Workers of add_route / replace_route `router.admin` messages, in file order (workload
    /// first, then timeline).
    std::vector<MessageWorker> message_workers;
};

// -- spellings ---------------------------------------------------------------------------

/// The JSON spellings of one enum: a noun for messages and one name per enumerator,
/// indexed by the enumerator's value.
struct Spellings {
    std::string_view noun;
    std::span<const std::string_view> names;
};

/// The spelling tables; the argument only selects the enum.
Spellings spellings(NodeKind);
Spellings spellings(BehaviourType);
Spellings spellings(SupervisorType);
Spellings spellings(RestartStrategy);
Spellings spellings(RuleKind);
Spellings spellings(OnRouteFailed);
Spellings spellings(Semantics);
Spellings spellings(Priority);
Spellings spellings(Via);
Spellings spellings(Verb);
Spellings spellings(FaultTarget);
Spellings spellings(Invariant);
Spellings spellings(RouteState);
Spellings spellings(sim::Policy);

/// The JSON spelling of an enumerator: `spelling(Verb::AddRoute) == "add_route"`.
template <class E>
std::string_view spelling(E value) {
    const Spellings table = spellings(E{});
    const auto index = static_cast<std::size_t>(value);
    RS_ASSERT(index < table.names.size());
    return table.names[index];
}

/// The name of a behaviour as a file writes its `type`: the built-in's spelling, or the
/// registered behaviour's name.
std::string_view behaviour_name(const Behaviour& behaviour);

/// The name of a rule's shape: the built-in's spelling, or the registered rule's name.
std::string_view rule_name(const Rule& rule);

/// The enumerator spelled `text`, or nullopt.
template <class E>
std::optional<E> parse_spelling(std::string_view text) {
    const Spellings table = spellings(E{});
    for (std::size_t i = 0; i < table.names.size(); i++) {
        if (table.names[i] == text) {
            return static_cast<E>(i);
        }
    }
    return std::nullopt;
}

/// The Ergo error names an expected outcome may use (§7 and §7.4), in
/// table order, without "ok".
std::span<const std::string_view> ergo_error_names();

/// True for "ok" and for every name of ergo_error_names().
bool is_outcome_name(std::string_view text);

} // namespace routesim::scenarios
