// Your own behaviours and routing rules in scenario files: register a worker behaviour or a
// routing rule under a name, and a scenario can say {"kind": "actor", "behavior": {"type":
// "my_worker"}} or "route_message": {"type": "my_rule"}. The loader, `validate`, `run`, `fuzz`
// and the testing helpers (tools/testing/scenario_testing.hpp) all see registered names.
//
// A registered worker runs inside the scenario worker: the common knobs (cost, crash_on, init,
// terminate_cost, ignore_calls), the fuzzer's faults and the node statistics apply to it as
// to a built-in one; it gets each message and call after them, as JSON. A fresh object is made
// at every spawn (a restart loses its state). A registered rule is made when its router
// starts and asked for the route of every Normal-priority message (or call).
//
// A factory that throws or makes nothing fails the Init of its process (the worker, or the
// router of the rule) with the reason, as a behaviour's `init` knob would; an exception from
// a handler panics the worker, as in any actor.
//
// Both must be deterministic: their answers may depend only on what they were given and on
// their own state (no clock, no std::random_device, no iteration over unordered containers),
// or runs stop replaying. Register before loading scenarios, from one thread: at the start of
// main() or from a static initializer (the tables are built on first use).
// Part of scenarios/: uses runtime/, sim/ and nlohmann_json.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/gen.hpp"
#include "runtime/mailbox.hpp"
#include "scenarios/format/registry.hpp"
#include "sim/time.hpp"

namespace routesim::runtime {
class Process;
}

namespace routesim {

/// A JSON value (the scenario format's messages and knobs).
using Json = nlohmann::json;

/// What a registered worker can do while it handles a message, a call or its Init.
class WorkerIo {
public:
    virtual ~WorkerIo() = default;
    /// The sender of the message or call (empty in init).
    virtual const runtime::PID& from() const = 0;
    /// The worker's own PID.
    virtual const runtime::PID& self() const = 0;
    /// Virtual time now.
    virtual sim::Instant now() const = 0;
    /// Sends `message` (a JSON object with a string "type") to the sender; false when it could
    /// not be sent (the sender is gone, its mailbox is full).
    virtual bool reply(const Json& message) = 0;
    /// Sends `message` to a scenario target ("name", "router/route", "pool/#2", "sup/child");
    /// false when the target is not running or refuses it.
    virtual bool send(std::string_view target, const Json& message) = 0;
    /// Writes a log line to the trace ("info", "warning", ...).
    virtual void log(std::string_view level, std::string_view text) = 0;
    /// The runtime process, for everything else (runtime/process.hpp).
    virtual runtime::Process& process() = 0;
};

/// What a behaviour factory is given at each spawn. References stay valid for the run.
struct WorkerSpec {
    /// The node's registered name (empty when it has none) and its tree path.
    std::string_view name;
    std::string_view path;
    /// The node's `args` (null when absent).
    const Json& args;
    /// The registered knobs the file gives (an object; absent knobs are absent).
    const Json& knobs;
};

/// A registered worker behaviour. Override what it does with messages and calls.
class WorkerLogic {
public:
    virtual ~WorkerLogic() = default;
    /// Init, after the common knobs and faults let it start: an error text fails Init.
    virtual std::optional<std::string> init(WorkerIo&) { return std::nullopt; }
    /// A message taken (its "type" and fields); false panics the worker (a crash).
    virtual bool handle_message(WorkerIo& io, const Json& message) = 0;
    /// A call: the reply (a JSON object with "type"), or nullopt to answer nothing (the caller
    /// times out). Not asked when the node sets ignore_calls.
    virtual std::optional<Json> handle_call(WorkerIo& io, const Json& request) = 0;
    /// Inspect items added to the built-in ones ("behavior", "processed").
    virtual runtime::Inspection inspect() const { return {}; }
};

/// What a rule factory is given when its router starts.
struct RuleSpec {
    /// The router's tree path and its owned route names, in the file's order.
    std::string_view router_path;
    const std::vector<std::string>& routes;
    /// The registered knobs the file gives (an object).
    const Json& knobs;
};

/// A registered routing rule (the router's RouteMessage / RouteCall).
class RoutingRule {
public:
    virtual ~RoutingRule() = default;
    /// The route for `message` (a JSON object): a route name, "discard" to drop it, or "" for
    /// the rule's `default` (itself "discard" unless the file names a route).
    virtual std::string route(const Json& message) = 0;
    /// The key the route was picked by, when the rule routes by a key: traced like a hash
    /// rule's key, so the key_affinity invariant checks that one key keeps one route while
    /// the route runs. nullopt (the default): no key.
    virtual std::optional<Json> key(const Json&) const { return std::nullopt; }
};

using BehaviorFactory = std::function<std::unique_ptr<WorkerLogic>(const WorkerSpec&)>;
using RuleFactory = std::function<std::unique_ptr<RoutingRule>(const RuleSpec&)>;

/// A knob value the check rejects: the knob and what it expects ("a positive integer").
using KnobError = scenarios::KnobError;
/// Checks the knobs a file gives (an object of registered knobs only) when it is loaded, so
/// that `validate` and every load report a bad value as `<file>: <pointer of the knob>:
/// expected <expected>, got <value>`: return nullopt when they are fine. The factory may then
/// rely on them.
using KnobCheck = scenarios::KnobCheck;

/// Registers a worker behaviour: `{"type": name, ...}` in a `behavior` object. `knobs` are the
/// extra fields the behaviour object may have (the loader rejects others, as for built-ins);
/// `check`, when given, checks their values at load time.
/// Throws std::invalid_argument for an empty or too long name, a built-in name ("echo"), a
/// name registered already, a knob named like a common field, or an empty factory.
void register_behavior(std::string name, BehaviorFactory factory,
                       std::vector<std::string> knobs = {}, KnobCheck check = {});

/// Registers a routing rule: `{"type": name, "default": route, ...knobs}` as a router's
/// route_message or route_call. Throws as register_behavior does (knobs may not be named
/// type, default, by_type, hash, field or route).
void register_rule(std::string name, RuleFactory factory, std::vector<std::string> knobs = {},
                   KnobCheck check = {});

/// The factory registered as behaviour `name`, or nullptr.
const BehaviorFactory* registered_behavior(std::string_view name);

/// The factory registered as rule `name`, or nullptr.
const RuleFactory* registered_rule(std::string_view name);

} // namespace routesim
