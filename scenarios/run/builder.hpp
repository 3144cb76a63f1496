// The builder: behaviours for every node kind of a scenario topology (actor workers, pools,
// supervisors and rule-driven routers with the `router.admin` admin path), their factories,
// and runtime target resolution ("router/route", "pool/#2", "sup/child").
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/behavior.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/targets.hpp"

namespace routesim::scenarios {

/// What the topology's processes use of their run: the workers' parts, plus the router
/// records and the outcomes table that routers report admin-path results to. The run owns
/// each part and keeps this (its address is stable: factories refer to it).
struct BuildContext {
    WorkerContext worker;
    RouterRecords& routers;
    Outcomes& outcomes;
};

/// A management operation carried to a router's admin path (timeline `via: admin`, random
/// admin faults, or a `router.admin` JSON message).
struct AdminOrder {
    static constexpr std::string_view type_name = "router.admin";
    Verb op = Verb::DisableRoute;
    std::string name;
    /// add_route / replace_route: the worker spec (owned by the scenario).
    const Node* worker = nullptr;
    /// Where the result is reported: the index of the timeline action, or -1.
    std::int64_t action = -1;
    std::string describe() const;
};

/// Performs a management operation on `router` and returns "ok" or the error's name.
std::string perform_admin(const BuildContext& context, runtime::act::Router& router,
                          const Node& router_spec, Verb op, const std::string& name,
                          const Node* worker);

/// The factory of any topology node.
runtime::Factory factory_for(const BuildContext& context, const Node& spec);

/// Spawn options of a node (its mailbox size).
runtime::ProcessOptions options_for(const Node& spec);

/// The restart settings a supervisor node's spec gives the runtime, as the file says them
/// (intensity capped at 65535; runtime::act::applied_restart gives what Init makes of them).
runtime::act::SupervisorRestart restart_of(const Node& spec);

/// The router behaviour behind a PID, or nullptr.
runtime::act::Router* router_of(runtime::Node& node, const runtime::PID& pid);

/// `behavior` as a Router, or nullptr (a dynamic_cast, cheaper for the scenario's classes).
runtime::act::Router* as_router(runtime::Behavior& behavior);

/// The text a hash rule traces for its key: exactly `value.dump()`, without the serializer
/// for the common keys (integers, booleans, plain ASCII strings).
std::string key_text(const Json& value);

} // namespace routesim::scenarios
