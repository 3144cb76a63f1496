// Goal: a `worker` inside a `router.admin` message (scenarios/FORMAT.md, a router's admin path)
// works like the worker of a timeline add_route / replace_route: the loader parses and
// validates it with JSON pointers, and the router that performs the message adds or replaces
// the route with that worker.
// Method: inline scenarios loaded field by field and error by error; then run_scenario on a
// router that receives the message from the workload (send and call) and from the timeline,
// with the route table, the new worker's traffic and the call's answer checked.
#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::scenarios {
namespace {

/// A router "r" with one route "a" (echo); `rest` is appended after the topology (it must
/// start with a comma).
std::string with_router(std::string_view rest) {
    return std::string(R"({"name": "admin-worker", "topology": {"kind": "router", "name": "r",
        "routes": [{"name": "a", "worker": {"kind": "actor", "behavior": {"type": "echo", "reply": true}}}],
        "route_message": {"by_type": {"A": "a", "B": "b"}}})") +
           std::string(rest) + "}";
}

std::string error_of(const std::string& text) {
    auto loaded = load_scenario_text(text, "inline.json");
    return loaded ? std::string() : loaded.error().to_string();
}

Scenario load(const std::string& text) {
    auto loaded = load_scenario_text(text, "inline.json");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

constexpr std::string_view add_b_send =
    R"(, "workload": [{"from": "c", "to": "r", "priority": "high", "send": {"type": "router.admin",
       "op": "add_route", "name": "b", "worker": {"kind": "actor",
       "behavior": {"type": "echo", "reply": true}}}},
       {"from": "c", "to": "r", "at": "1ms", "send": {"type": "B"}}])";

TEST(LoaderAdminMessage, WorkloadAddRouteWorkerIsParsed) {
    const Scenario scenario = load(with_router(add_b_send));
    ASSERT_EQ(scenario.message_workers.size(), 1U);
    const MessageWorker& entry = scenario.message_workers[0];
    EXPECT_EQ(entry.router, "r");
    EXPECT_EQ(entry.route, "b");
    EXPECT_EQ(entry.pointer, "/workload/0/send");
    EXPECT_EQ(entry.worker.kind, NodeKind::Actor);
    EXPECT_TRUE(entry.worker.name.empty()); // route workers are spawned unnamed (R5)
    EXPECT_EQ(entry.worker.path, "r/b");
    EXPECT_EQ(entry.worker.pointer, "/workload/0/send/worker");
    EXPECT_EQ(entry.worker.behaviour.type, BehaviourType::Echo);
    EXPECT_TRUE(entry.worker.behaviour.reply);
    EXPECT_EQ(entry.spec, scenario.workload[0].message["worker"]);
}

TEST(LoaderAdminMessage, TimelineCallReplaceRouteWorkerIsParsed) {
    const Scenario scenario = load(with_router(R"(, "timeline": [{"at": "1ms", "from": "c",
        "to": "r", "priority": "max", "call": {"type": "router.admin", "op": "replace_route",
        "name": "a", "worker": {"kind": "pool", "size": 2, "worker": {"kind": "actor",
        "behavior": {"type": "sink"}}}}}])"));
    ASSERT_EQ(scenario.message_workers.size(), 1U);
    const MessageWorker& entry = scenario.message_workers[0];
    EXPECT_EQ(entry.route, "a");
    EXPECT_EQ(entry.pointer, "/timeline/0/call");
    EXPECT_EQ(entry.worker.kind, NodeKind::Pool);
    EXPECT_EQ(entry.worker.pool.size, 2U);
    ASSERT_EQ(entry.worker.children.size(), 1U);
    EXPECT_EQ(entry.worker.children[0].path, "r/a/#*");
}

TEST(LoaderAdminMessage, OtherOperationsAndOtherTypesKeepNoWorker) {
    const Scenario scenario = load(with_router(R"(, "workload": [
        {"from": "c", "to": "r", "priority": "high", "send": {"type": "router.admin",
         "op": "disable_route", "name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}},
        {"from": "c", "to": "r", "send": {"type": "Order", "op": 3, "worker": "anything"}}])"));
    EXPECT_TRUE(scenario.message_workers.empty());
}

TEST(LoaderAdminMessage, MalformedAdminMessagesNameThePointer) {
    const auto workload = [](std::string_view message) {
        return with_router(
            R"(, "workload": [{"from": "c", "to": "r", "priority": "high", "send": )" +
            std::string(message) + "}]");
    };
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b",
                 "worker": {"kind": "actor", "behavior": {"type": "echoo"}}})")),
              "inline.json: /workload/0/send/worker/behavior/type: unknown behavior type \"echoo\" "
              "(expected one of: echo, sink, keyed_state, forward)");
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b"})")),
              "inline.json: /workload/0/send: missing required field \"worker\", expected a node "
              "object with \"kind\"");
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_rout", "name": "b"})")),
              "inline.json: /workload/0/send/op: expected a management operation (one of: "
              "add_route, remove_route, disable_route, enable_route, respawn_route, "
              "replace_route), got \"add_rout\"");
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "kill", "name": "b"})")),
              "inline.json: /workload/0/send/op: expected a management operation (one of: "
              "add_route, remove_route, disable_route, enable_route, respawn_route, "
              "replace_route), got \"kill\"");
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "disable_route"})")),
              "inline.json: /workload/0/send: missing required field \"name\", expected a route "
              "name (an Atom)");
    EXPECT_EQ(
        error_of(workload(R"({"type": "router.admin", "op": "disable_route", "name": "$i"})")),
        "inline.json: /workload/0/send/name: route name \"$i\" is not allowed in a "
        "router.admin message (expected a literal route name; the router reads \"$i\" "
        "replaced by a number)");
    EXPECT_NE(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b",
                 "wroker": {"kind": "actor", "behavior": {"type": "sink"}}})"))
                  .find("inline.json: /workload/0/send/wroker: unknown field \"wroker\""),
              std::string::npos);
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b",
                 "worker": {"kind": "actor", "behavior": {"type": "forward", "to": "nowhere"}}})"))
                  .rfind("inline.json: /workload/0/send/worker/behavior/to: ", 0),
              0U);
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b",
                 "worker": {"kind": "actor", "name": "bee", "behavior": {"type": "sink"}}})")),
              "inline.json: /workload/0/send/worker/name: a route's worker cannot have a name: "
              "route workers are spawned unnamed (R5), so \"bee\" would never be registered "
              "(expected no \"name\"; address it as \"r/b\")");
    EXPECT_EQ(error_of(workload(R"({"type": "router.admin", "op": "add_route", "name": "b",
                 "worker": {"kind": "supervisor", "children": [{"kind": "actor", "name": "c",
                 "behavior": {"type": "sink"}}]}})")),
              "inline.json: /workload/0/send/worker/children/0/name: name \"c\" is also a "
              "client's name (expected a name that no client uses)");
    // Timeline sends and calls are checked the same way.
    EXPECT_EQ(error_of(with_router(R"(, "timeline": [{"at": "0ms", "from": "c", "to": "r",
                 "call": {"type": "router.admin", "op": "replace_route", "name": "a",
                 "worker": {"kind": "pool", "worker": 7}}}])")),
              "inline.json: /timeline/0/call/worker/worker: expected a node object with \"kind\", "
              "got 7");
}

TEST(LoaderAdminMessage, MessageWorkersCountAgainstTheNodeLimit) {
    LoadLimits limits;
    limits.nodes_max = 2; // the router and its route's worker
    auto loaded = load_scenario_text(with_router(add_b_send), "inline.json", limits);
    ASSERT_FALSE(loaded.has_value());
    EXPECT_EQ(loaded.error().pointer, "/workload/0/send/worker");
}

const RouterSummary* router_named(const RunResult& result, std::string_view path) {
    for (const RouterSummary& router : result.routers) {
        if (router.path == path) {
            return &router;
        }
    }
    return nullptr;
}

const RouteRow* route_named(const RouterSummary& router, std::string_view name) {
    for (const RouteRow& row : router.routes) {
        if (row.name == name) {
            return &row;
        }
    }
    return nullptr;
}

TEST(RunnerAdminMessage, WorkloadSendAddsTheRouteWithTheMessageWorker) {
    const Scenario scenario = load(with_router(add_b_send));
    const RunResult result = run_scenario(scenario);
    const RouterSummary* router = router_named(result, "r");
    ASSERT_NE(router, nullptr);
    const RouteRow* added = route_named(*router, "b");
    ASSERT_NE(added, nullptr) << format_summary(scenario, result);
    EXPECT_EQ(added->state, "running");
    // The B message went to the new route's echo worker, which answered the client.
    const ClientRecord& client = result.clients.at("c");
    EXPECT_EQ(client.received, 1U);
    EXPECT_EQ(client.types.at("Receipt"), 1U);
    EXPECT_TRUE(client.errors.empty());
    EXPECT_EQ(router->counters.forwarded, 1U);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
}

TEST(RunnerAdminMessage, ExpectationsCanNameARouteAddedByAMessage) {
    // The static resolver knows routes added by admin messages as it knows timeline ones:
    // `expect.routes` may name route "b", and its worker's path "r/b" is a valid target.
    const Scenario scenario = load(with_router(std::string(add_b_send) + R"(,
        "timeline": [{"at": "2ms", "check": {"routes": {"r": {"b": {"state": "running"}}}}}],
        "expect": {"routes": {"r": {"b": {"state": "running"}}},
                   "clients": {"c": {"received": 1}}})"));
    const RunResult result = run_scenario(scenario);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    EXPECT_EQ(
        error_of(with_router(std::string(add_b_send) +
                             R"(, "expect": {"routes": {"r": {"zz": {"state": "running"}}}})"))
            .empty(),
        false);
}

TEST(RunnerAdminMessage, AdminCallReplacesTheRouteAndAnswersOk) {
    // At 1ms a max-priority call replaces route "a" (echo with reply) by a sink; A messages
    // sent before get a Receipt, the one sent after does not.
    const Scenario scenario = load(with_router(R"(,
        "workload": [{"from": "c", "to": "r", "send": {"type": "A"}},
                     {"from": "c", "to": "r", "at": "2ms", "send": {"type": "A"}}],
        "timeline": [{"at": "1ms", "from": "caller", "to": "r", "priority": "max",
                      "call": {"type": "router.admin", "op": "replace_route", "name": "a",
                               "worker": {"kind": "actor", "behavior": {"type": "sink"}}}}],
        "expect": {"clients": {"caller": {"received": 1, "types": {"router.admin.result": 1}},
                               "c": {"received": 1, "types": {"Receipt": 1}}},
                   "routes": {"r": {"a": {"state": "running"}}}})"));
    const RunResult result = run_scenario(scenario);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    const RouterSummary* router = router_named(result, "r");
    ASSERT_NE(router, nullptr);
    EXPECT_EQ(router->counters.forwarded, 2U);
    EXPECT_EQ(result.clients.at("c").received, 1U);
}

TEST(RunnerAdminMessage, NormalPriorityAdminMessageIsRoutedNotPerformed) {
    // The admin path is high and max priority only: at normal priority the message is routed
    // (here: discarded by the rule's default) and no route is added.
    const Scenario scenario = load(with_router(R"(, "workload": [{"from": "c", "to": "r",
        "send": {"type": "router.admin", "op": "add_route", "name": "b",
                 "worker": {"kind": "actor", "behavior": {"type": "sink"}}}}])"));
    const RunResult result = run_scenario(scenario);
    const RouterSummary* router = router_named(result, "r");
    ASSERT_NE(router, nullptr);
    EXPECT_EQ(route_named(*router, "b"), nullptr);
    EXPECT_EQ(router->routes.size(), 1U);
}

} // namespace
} // namespace routesim::scenarios
