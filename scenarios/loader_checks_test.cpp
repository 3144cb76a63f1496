// Goal: the loader's checks of issue 20 ("verdicts you can trust") reject what can only make a
// run lie or fail for an unrelated reason: a name on a route's worker (never registered, R5).
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

} // namespace
} // namespace routesim::scenarios
