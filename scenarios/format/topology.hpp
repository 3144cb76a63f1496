// The typed topology of a scenario: nodes (actor, supervisor, pool, router), behaviours and
// routing rules, as the loader produces them. Plain data; must not depend on runtime/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/time.hpp"

namespace routesim::scenarios {

/// Any JSON value kept as written (args, message payloads).
using Json = nlohmann::json;

/// The kind of a topology node (`kind`).
enum class NodeKind : std::uint8_t { Actor, Supervisor, Pool, Router };

/// The worker behaviour of an actor (`behavior.type`). Custom: a behaviour registered by
/// name (scenarios/format/registry.hpp); its name is Behaviour::custom, it has no spelling.
enum class BehaviourType : std::uint8_t { Echo, Sink, KeyedState, Forward, Custom };

/// The supervisor type (`type`); Ergo's SupervisorType.
enum class SupervisorType : std::uint8_t { OneForOne, AllForOne, RestForOne, SimpleOneForOne };

/// The supervisor-wide restart strategy (`restart.strategy`); Ergo's SupervisorStrategy.
enum class RestartStrategy : std::uint8_t { Transient, Temporary, Permanent };

/// The shape of a routing rule (`route_message`, `route_call`). Custom: a rule registered by
/// name (`{"type": name}`, scenarios/format/registry.hpp); its name is Rule::custom.
enum class RuleKind : std::uint8_t { Discard, ByType, Hash, Field, Route, Custom };

/// What a router does with a MessageRouteFailed (`on_route_failed`).
enum class OnRouteFailed : std::uint8_t { Log, Terminate, DeadLetter };

/// The spelling of "discard" wherever a route name or a rule default may be given.
inline constexpr std::string_view discard_route = "discard";

/// `crash_on`: exactly one of the two triggers is set.
struct CrashOn {
    /// Panic on the n-th message taken (1-based), when set.
    std::optional<std::uint64_t> nth;
    /// Panic on every message of this type, when set.
    std::optional<std::string> type;
};

/// `init`: how the behaviour's Init fails. Both zero/false means it never fails.
struct InitFailure {
    /// Every Init fails.
    bool fail = false;
    /// The first `fail_first` Inits of this node fail.
    std::uint64_t fail_first = 0;
};

/// `behavior`: the worker logic of an actor and its knobs.
struct Behaviour {
    BehaviourType type = BehaviourType::Sink;
    /// Virtual time per message; unset means `run.cost`.
    std::optional<sim::Duration> cost;
    std::optional<CrashOn> crash_on;
    InitFailure init;
    /// Delay between being told to stop and the exit being observed; unset means none.
    std::optional<sim::Duration> terminate_cost;
    /// Never respond to calls (the caller times out).
    bool ignore_calls = false;
    /// echo only: send a Receipt back to the sender of each message.
    bool reply = false;
    /// forward only: the target the messages and calls go to (required for forward).
    std::string to;
    /// Custom only: the registered behaviour's name.
    std::string custom;
    /// Custom only: the registered knobs given in the file, as written (an object).
    Json knobs = Json::object();
};

/// A routing rule. Which fields are meaningful depends on `kind`.
struct Rule {
    RuleKind kind = RuleKind::Discard;
    /// by_type: message type -> route name (or "discard").
    std::map<std::string, std::string> by_type;
    /// hash and field: the message field read by the rule.
    std::string field;
    /// hash with a route list: `routes[h % routes.size()]`; empty when prefix/count is used.
    std::vector<std::string> routes;
    /// hash with prefix/count: `prefix + (h % count)`; count is 0 when a route list is used.
    std::string prefix;
    std::uint64_t count = 0;
    /// route: the constant route name.
    std::string route;
    /// The route used when the rule finds nothing: a route name or "discard".
    std::string default_route = std::string(discard_route);
    /// JSON pointer of the rule in the source file (empty for a defaulted rule).
    std::string pointer;
    /// Custom only: the registered rule's name.
    std::string custom;
    /// Custom only: the registered knobs given in the file, as written (an object).
    Json knobs = Json::object();
};

/// One owned route of a router, after `repeat` expansion. Its worker is the node at the
/// same index in the router's `children`.
struct RouteSpec {
    std::string name;
    /// Route-level args (null when absent).
    Json args;
    /// JSON pointer of the route entry (of the repeated entry for an expanded one).
    std::string pointer;
};

/// Supervisor settings of a supervisor node.
struct SupervisorSpec {
    SupervisorType type = SupervisorType::OneForOne;
    RestartStrategy strategy = RestartStrategy::Transient;
    /// As given; Ergo turns 0 into 5 at Init (§6.1).
    std::uint64_t intensity = 5;
    /// As given; Ergo turns 0 into 5 s at Init.
    sim::Duration period = sim::Duration::seconds(5);
    bool keep_order = false;
};

/// Pool settings of a pool node. The worker spec is `children[0]`.
struct PoolSpec {
    /// As given; a size below 1 spawns 3 workers (Ergo defaultPoolSize).
    std::uint64_t size = 0;
    std::uint64_t worker_mailbox_size = 0;
};

/// The number of workers Ergo's Pool spawns for a configured size (§5).
constexpr std::uint64_t effective_pool_size(std::uint64_t size) {
    return size < 1 ? 3 : size;
}

/// Router settings of a router node. Route i's worker is `children[i]`.
struct RouterSpec {
    std::vector<RouteSpec> routes;
    /// Both rules default to "discard" when the file omits them.
    Rule route_message;
    Rule route_call;
    OnRouteFailed on_route_failed = OnRouteFailed::Log;
    /// The dead-letter target when on_route_failed is DeadLetter.
    std::string dead_letter;
};

/// One topology node after `repeat` expansion. Only the settings of its `kind` are meaningful.
struct Node {
    NodeKind kind = NodeKind::Actor;
    /// Registered name; empty when the node has none.
    std::string name;
    /// ProcessOptions.MailboxSize (0 = unbounded).
    std::uint64_t mailbox_size = 0;
    /// Passed to the behaviour's Init as written (null when absent).
    Json args;
    /// JSON pointer of the node object in the source file. Copies made by `repeat` share the
    /// pointer of the repeated object.
    std::string pointer;
    /// Position in the tree: parent path, "/", then the child's name (supervisor child), the
    /// route name (router), or "#*" (a pool's worker spec). The root's path is its name.
    std::string path;
    /// The index `{i}` was replaced with, when the node comes from a `repeat`.
    std::optional<std::uint64_t> repeat_index;

    Behaviour behaviour;       ///< actor
    SupervisorSpec supervisor; ///< supervisor
    PoolSpec pool;             ///< pool
    RouterSpec router;         ///< router

    /// Supervisor: the child specs in order. Pool: exactly one, the worker spec.
    /// Router: one worker per entry of `router.routes`. Actor: empty.
    std::vector<Node> children;
};

/// The nodes of the tree under `root`, `root` first, in preorder: a parent before its
/// children, children in spec order (the order the run summary lists routers, supervisors
/// and pools in).
std::vector<const Node*> preorder(const Node& root);

/// The path segment under a pool that stands for its worker spec ("shard:3/#*").
inline constexpr std::string_view pool_worker_segment = "#*";

} // namespace routesim::scenarios
