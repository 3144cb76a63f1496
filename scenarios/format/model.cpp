// Spelling tables of the scenario model: the JSON names of every enum and the Ergo error names.
// Part of scenarios/: plain data, no JSON parsing here.
#include "scenarios/format/model.hpp"

#include <algorithm>
#include <array>

namespace routesim::scenarios {
namespace {

// Each table lists the names in enumerator order; the static_asserts tie the two together.
constexpr std::array<std::string_view, 4> node_kind_names = {"actor", "supervisor", "pool",
                                                             "router"};
constexpr std::array<std::string_view, 4> behaviour_names = {"echo", "sink", "keyed_state",
                                                             "forward"};
constexpr std::array<std::string_view, 4> supervisor_type_names = {
    "one_for_one", "all_for_one", "rest_for_one", "simple_one_for_one"};
constexpr std::array<std::string_view, 3> strategy_names = {"transient", "temporary", "permanent"};
constexpr std::array<std::string_view, 5> rule_names = {"discard", "by_type", "hash", "field",
                                                        "route"};
constexpr std::array<std::string_view, 3> on_route_failed_names = {"log", "terminate",
                                                                   "dead_letter"};
constexpr std::array<std::string_view, 2> semantics_names = {"documented", "upstream"};
constexpr std::array<std::string_view, 3> priority_names = {"normal", "high", "max"};
constexpr std::array<std::string_view, 2> via_names = {"call", "admin"};
constexpr std::array<std::string_view, 13> verb_names = {
    "add_route",     "remove_route", "disable_route", "enable_route", "respawn_route",
    "replace_route", "kill",         "exit",          "crash",        "fail_spawns",
    "send",          "call",         "check"};
constexpr std::array<std::string_view, 6> fault_target_names = {
    "route_workers", "pool_workers", "workers", "routers", "pools", "supervisors"};
constexpr std::array<std::string_view, 12> invariant_names = {
    "route_stability", "key_affinity",        "pending_exclusivity",    "sender_preservation",
    "atomic_init",     "counter_consistency", "no_forward_to_disabled", "message_conservation",
    "call_outcome",    "pair_fifo",           "restart_intensity",      "determinism"};
constexpr std::array<std::string_view, 3> policy_names = {"fifo", "random", "pct"};

static_assert(static_cast<std::size_t>(NodeKind::Router) + 1 == node_kind_names.size());
// Custom types have no spelling of their own: the file names the registered type.
static_assert(static_cast<std::size_t>(BehaviourType::Custom) == behaviour_names.size());
static_assert(static_cast<std::size_t>(SupervisorType::SimpleOneForOne) + 1 ==
              supervisor_type_names.size());
static_assert(static_cast<std::size_t>(RestartStrategy::Permanent) + 1 == strategy_names.size());
static_assert(static_cast<std::size_t>(RuleKind::Custom) == rule_names.size());
static_assert(static_cast<std::size_t>(OnRouteFailed::DeadLetter) + 1 ==
              on_route_failed_names.size());
static_assert(static_cast<std::size_t>(Semantics::Upstream) + 1 == semantics_names.size());
static_assert(static_cast<std::size_t>(Priority::Max) + 1 == priority_names.size());
static_assert(static_cast<std::size_t>(Via::Admin) + 1 == via_names.size());
static_assert(static_cast<std::size_t>(Verb::Check) + 1 == verb_names.size());
static_assert(static_cast<std::size_t>(FaultTarget::Supervisors) + 1 == fault_target_names.size());
static_assert(static_cast<std::size_t>(Invariant::Determinism) + 1 == invariant_names.size());
// Replay is not a scenario scheduler: `run.schedule` is replayed under any policy.
static_assert(static_cast<std::size_t>(sim::Policy::Pct) + 1 == policy_names.size());

// §7.1 (gen), §7.2 (act) and §7.4 (Router errors absent from 3.1.0).
constexpr std::array<std::string_view, 51> error_names = {
    "gen.ErrNameUnknown",
    "gen.ErrParentUnknown",
    "gen.ErrNodeTerminated",
    "gen.ErrProcessMailboxFull",
    "gen.ErrProcessUnknown",
    "gen.ErrProcessIncarnation",
    "gen.ErrProcessTerminated",
    "gen.ErrMetaUnknown",
    "gen.ErrMetaMailboxFull",
    "gen.ErrApplicationUnknown",
    "gen.ErrApplicationDepends",
    "gen.ErrApplicationState",
    "gen.ErrApplicationLoadPanic",
    "gen.ErrApplicationEmpty",
    "gen.ErrApplicationName",
    "gen.ErrApplicationStopping",
    "gen.ErrApplicationRunning",
    "gen.ErrTargetUnknown",
    "gen.ErrTargetExist",
    "gen.ErrRegistrarTerminated",
    "gen.ErrAliasUnknown",
    "gen.ErrAliasOwner",
    "gen.ErrEventUnknown",
    "gen.ErrEventOwner",
    "gen.ErrTaken",
    "gen.ErrAtomTooLong",
    "gen.ErrTimeout",
    "gen.ErrUnsupported",
    "gen.ErrUnknown",
    "gen.ErrNotAllowed",
    "gen.ErrIncorrect",
    "gen.ErrMalformed",
    "gen.ErrResponseIgnored",
    "gen.ErrUnregistered",
    "gen.ErrTooLarge",
    "gen.ErrNetworkStopped",
    "gen.ErrNoConnection",
    "gen.ErrNoRoute",
    "gen.ErrInternal",
    "act.ErrSupervisorStrategyActive",
    "act.ErrSupervisorChildUnknown",
    "act.ErrSupervisorChildRunning",
    "act.ErrSupervisorChildDisabled",
    "act.ErrSupervisorRestartsExceeded",
    "act.ErrSupervisorChildDuplicate",
    "act.ErrPoolEmpty",
    "gen.ErrDisabled",
    "gen.ErrDiscarded",
    "gen.ErrBusy",
    "act.ErrRouteDuplicate",
    "act.ErrRouteRunning",
};

} // namespace

std::string_view behaviour_name(const Behaviour& behaviour) {
    return behaviour.type == BehaviourType::Custom ? std::string_view(behaviour.custom)
                                                   : spelling(behaviour.type);
}

std::string_view rule_name(const Rule& rule) {
    return rule.kind == RuleKind::Custom ? std::string_view(rule.custom) : spelling(rule.kind);
}

Spellings spellings(NodeKind) {
    return {"kind", node_kind_names};
}
Spellings spellings(BehaviourType) {
    return {"behavior type", behaviour_names};
}
Spellings spellings(SupervisorType) {
    return {"supervisor type", supervisor_type_names};
}
Spellings spellings(RestartStrategy) {
    return {"restart strategy", strategy_names};
}
Spellings spellings(RuleKind) {
    return {"rule", rule_names};
}
Spellings spellings(OnRouteFailed) {
    return {"on_route_failed action", on_route_failed_names};
}
Spellings spellings(Semantics) {
    return {"semantics", semantics_names};
}
Spellings spellings(Priority) {
    return {"priority", priority_names};
}
Spellings spellings(Via) {
    return {"via", via_names};
}
Spellings spellings(Verb) {
    return {"verb", verb_names};
}
Spellings spellings(FaultTarget) {
    return {"fault target class", fault_target_names};
}
Spellings spellings(Invariant) {
    return {"invariant", invariant_names};
}
Spellings spellings(RouteState) {
    return {"route state", runtime::act::route_state_names};
}
Spellings spellings(sim::Policy) {
    return {"scheduler", policy_names};
}

std::vector<Invariant> all_invariants() {
    std::vector<Invariant> all;
    all.reserve(invariant_names.size());
    for (std::size_t i = 0; i < invariant_names.size(); i++) {
        all.push_back(static_cast<Invariant>(i));
    }
    RS_ASSERT(all.size() == invariant_names.size());
    return all;
}

std::span<const std::string_view> ergo_error_names() {
    return error_names;
}

bool is_outcome_name(std::string_view text) {
    if (text == "ok") {
        return true;
    }
    return std::find(error_names.begin(), error_names.end(), text) != error_names.end();
}

std::vector<const Node*> preorder(const Node& root) {
    std::vector<const Node*> order;
    std::vector<const Node*> stack{&root}; // iterative: a deep tree does not deepen the stack
    while (!stack.empty()) {
        const Node* spec = stack.back();
        stack.pop_back();
        order.push_back(spec);
        for (auto child = spec->children.rbegin(); child != spec->children.rend(); ++child) {
            stack.push_back(&*child);
        }
    }
    RS_ASSERT(!order.empty() && order.front() == &root);
    return order;
}

} // namespace routesim::scenarios
