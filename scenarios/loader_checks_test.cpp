// Goal: the loader's checks of issue 20 ("verdicts you can trust") reject what can only make a
// run lie or fail for an unrelated reason: a name on a route's worker (never registered, R5);
// and every error stays one line, whatever names and keys the input holds.
// Method: inline scenarios around one router; each malformed variant must give exactly its
// error line, and the well-formed neighbours of each variant must still load.
#include <gtest/gtest.h>

#include "scenarios/loader.hpp"

namespace routesim::scenarios {
namespace {

std::string error_of(const std::string& text) {
    auto loaded = load_scenario_text(text, "inline.json");
    return loaded ? std::string() : loaded.error().to_string();
}

/// A supervisor "sup" with a router "r" (route "a", whose worker is `worker`) and a sink "s";
/// `rest` is appended after the topology (it must start with a comma when not empty).
std::string with_route_worker(std::string_view worker, std::string_view rest = "") {
    return std::string(R"({"name": "checks", "topology": {"kind": "supervisor", "name": "sup",
        "children": [{"kind": "router", "name": "r", "routes": [{"name": "a", "worker": )") +
           std::string(worker) + R"(}], "route_message": {"route": "a"}},
        {"kind": "actor", "name": "s", "behavior": {"type": "sink"}}]})" + std::string(rest) +
           "}";
}

constexpr std::string_view named_sink =
    R"({"kind": "actor", "name": "w", "behavior": {"type": "sink"}})";
constexpr std::string_view sink = R"({"kind": "actor", "behavior": {"type": "sink"}})";

TEST(RouteWorkerName, TopologyRouteWorkerNameIsRejectedWithTheAddress) {
    EXPECT_EQ(error_of(with_route_worker(named_sink)),
              "inline.json: /topology/children/0/routes/0/worker/name: a route's worker cannot "
              "have a name: route workers are spawned unnamed (R5), so \"w\" would never be "
              "registered (expected no \"name\"; address it as \"r/a\")");
    EXPECT_EQ(error_of(with_route_worker(sink)), "");
}

TEST(RouteWorkerName, RepeatedRouteWorkerNameIsRejected) {
    const auto text = [](std::string_view router_name) {
        return R"({"name": "checks", "topology": {"kind": "router", )" +
               std::string(router_name) + R"("routes": [
            {"repeat": 2, "name": "shard:{i}", "worker": {"kind": "actor", "name": "w{i}",
             "behavior": {"type": "sink"}}}]}})";
    };
    EXPECT_EQ(error_of(text(R"("name": "r", )")),
              "inline.json: /topology/routes/0/worker/name: a route's worker cannot have a "
              "name: route workers are spawned unnamed (R5), so \"w0\" would never be "
              "registered (expected no \"name\"; address it as \"r/shard:0\")");
    // An unnamed root router has no address at all: the hint shows where its name goes.
    EXPECT_EQ(error_of(text("")),
              "inline.json: /topology/routes/0/worker/name: a route's worker cannot have a "
              "name: route workers are spawned unnamed (R5), so \"w0\" would never be "
              "registered (expected no \"name\"; address it as \"<router name>/shard:0\")");
}

TEST(RouteWorkerName, TimelineWorkersMayNotBeNamed) {
    for (const std::string_view verb : {"add_route", "replace_route"}) {
        const std::string text = with_route_worker(
            sink, R"(, "timeline": [{"at": "1ms", ")" + std::string(verb) +
                      R"(": {"router": "r", "name": "b", "worker": )" + std::string(named_sink) +
                      "}}]");
        EXPECT_EQ(error_of(text), "inline.json: /timeline/0/" + std::string(verb) +
                                      "/worker/name: a route's worker cannot have a name: route "
                                      "workers are spawned unnamed (R5), so \"w\" would never be "
                                      "registered (expected no \"name\"; address it as \"r/b\")");
    }
}

TEST(RouteWorkerName, NamesInsideARouteWorkerStayAllowed) {
    // A supervisor in a route registers its children; only the route's own worker is unnamed.
    const std::string worker = R"({"kind": "supervisor", "children": [
        {"kind": "actor", "name": "inner", "behavior": {"type": "sink"}}]})";
    EXPECT_EQ(error_of(with_route_worker(worker, R"(, "expect": {"alive": ["inner", "r/a"]})")),
              "");
}

TEST(OneLineErrors, NamesInListsAndPointersAreEscaped) {
    const std::string sink_s = R"({"kind": "actor", "name": "s", "behavior": {"type": "sink"}})";
    const auto scenario = [&](std::string_view topology, std::string_view rest) {
        return R"({"name": "one-line", "topology": )" + std::string(topology) +
               std::string(rest) + "}";
    };
    // The client list of "is not a client" (the libFuzzer finding).
    EXPECT_EQ(error_of(scenario(sink_s, R"(, "workload": [{"from": "client\n1", "to": "s",
                  "send": {"type": "Ping"}}], "expect": {"clients": {"client:1": {}}})")),
              "inline.json: /expect/clients/client:1: \"client:1\" is not a client of this "
              "scenario (expected one of: \"client\\n1\")");
    // A supervisor's children and a router's routes in a path that reaches nothing.
    EXPECT_EQ(error_of(scenario(R"({"kind": "supervisor", "name": "sup", "children": [
                  {"kind": "actor", "name": "a\nb", "behavior": {"type": "sink"}},
                  {"kind": "actor", "name": "c\u007f", "behavior": {"type": "sink"}}]})",
                                R"(, "expect": {"alive": ["sup/ab"]})")),
              "inline.json: /expect/alive/0: target \"sup/ab\": supervisor \"sup\" has no child "
              "\"ab\" (expected one of: \"a\\nb\", \"c\\u007f\")");
    EXPECT_EQ(error_of(scenario(R"({"kind": "router", "name": "r", "routes": [{"name": "p\tq",
                  "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]})",
                                R"(, "expect": {"routes": {"r": {"pq": {}}}})")),
              "inline.json: /expect/routes/r/pq: router \"r\" has no route \"pq\" (expected one "
              "of: \"p\\tq\")");
    // A key in the pointer, and a duration whose message comes from sim/.
    EXPECT_EQ(error_of(scenario(sink_s, R"(, "run": {"se\ned": 1})")),
              "inline.json: /run/se\\ned: unknown field \"se\\ned\" (expected one of: cost, "
              "max_events, pct_depth, schedule, scheduler, seed, semantics, until)");
    EXPECT_EQ(error_of(scenario(sink_s, R"(, "run": {"cost": "1\rms"})")),
              "inline.json: /run/cost: duration \"1\\rms\" has unknown unit \"\\rms\" "
              "(expected one of: ns, us, ms, s)");
}

} // namespace
} // namespace routesim::scenarios
