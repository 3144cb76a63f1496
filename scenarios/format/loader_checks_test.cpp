// Goal: the loader's checks of issue 20 ("verdicts you can trust") reject what can only make a
// run lie or fail for an unrelated reason: a name on a route's worker (never registered, R5);
// every error stays one line, whatever names and keys the input holds; and check_scenario_*
// (`routesim validate`) lists every independent error, the first being load_scenario_*'s; an
// Inspect key that the target's kind never reports is rejected, with the valid keys.
// Method: inline scenarios around one router; each malformed variant must give exactly its
// error line, and the well-formed neighbours of each variant must still load.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/testing.hpp"

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
        {"kind": "actor", "name": "s", "behavior": {"type": "sink"}}]})" +
           std::string(rest) + "}";
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
        return R"({"name": "checks", "topology": {"kind": "router", )" + std::string(router_name) +
               R"("routes": [
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
        const std::string text =
            with_route_worker(sink, R"(, "timeline": [{"at": "1ms", ")" + std::string(verb) +
                                        R"(": {"router": "r", "name": "b", "worker": )" +
                                        std::string(named_sink) + "}}]");
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
        return R"({"name": "one-line", "topology": )" + std::string(topology) + std::string(rest) +
               "}";
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

/// expect.inspect of `target` with one `key` (value "1") on the router/supervisor topology.
std::string inspect_error(std::string_view target, std::string_view key) {
    return error_of(with_route_worker(sink, R"(, "workload": [{"from": "c", "to": "s",
        "send": {"type": "X"}}], "expect": {"inspect": {")" +
                                                std::string(target) + R"(": {")" +
                                                std::string(key) + R"(": "1"}}})"));
}

TEST(InspectKeys, UnknownKeyListsTheKindsKeysAndSuggestsTheNearest) {
    EXPECT_EQ(inspect_error("r", "ergo:forwaded"),
              "inline.json: /expect/inspect/r/ergo:forwaded: router \"r\" has no Inspect key "
              "\"ergo:forwaded\" (expected one of: ergo:discarded, ergo:failed, ergo:forwarded, "
              "ergo:mailbox_size, ergo:restarts, ergo:routes_active, ergo:routes_disabled, "
              "ergo:routes_pending, ergo:routes_total, ergo:type, "
              "ergo:route:<route>:(disabled|pending|pid)); did you mean \"ergo:forwarded\"?");
    // A per-route key names a route of that router ("b" is none).
    const std::string route_key = inspect_error("r", "ergo:route:b:pid");
    EXPECT_TRUE(route_key.ends_with("; did you mean \"ergo:route:a:pid\"?")) << route_key;
    EXPECT_EQ(inspect_error("sup", "ergo:pool_size"),
              "inline.json: /expect/inspect/sup/ergo:pool_size: supervisor \"sup\" has no Inspect "
              "key \"ergo:pool_size\" (expected one of: intensity, period, restarts_count, "
              "strategy, type, auto_shutdown, children_disabled, children_running, "
              "children_total)");
    EXPECT_EQ(inspect_error("c", "processed"),
              "inline.json: /expect/inspect/c/processed: client \"c\" has no Inspect key "
              "\"processed\" (its Inspect map is empty)");
    for (const auto& [target, key] :
         std::vector<std::pair<std::string_view, std::string_view>>{{"r", "ergo:forwarded"},
                                                                    {"r", "ergo:route:a:pending"},
                                                                    {"sup", "children_total"},
                                                                    {"s", "processed"},
                                                                    {"r/a", "behavior"}}) {
        EXPECT_EQ(inspect_error(target, key), "") << target << " " << key;
    }
}

TEST(InspectKeys, CheckActionsAreCheckedToo) {
    const std::string text = with_route_worker(
        sink, R"(, "timeline": [{"at": "1ms", "check": {"inspect": {"s": {"proccessed": "0"}}}}])");
    EXPECT_EQ(error_of(text), "inline.json: /timeline/0/check/inspect/s/proccessed: actor \"s\" "
                              "has no Inspect key \"proccessed\" (expected one of: behavior, "
                              "processed); did you mean \"processed\"?");
}

TEST(InspectKeys, WorkerKeysAreTheOnesAScenarioWorkerReports) {
    // The loader's table for actors (validate.cpp) against scenarios/run/behaviours.cpp at run
    // time.
    auto loaded = load_scenario_text(
        with_route_worker(sink, R"(, "workload": [{"from": "c", "to": "s", "send": {"type": "X"}}],
            "expect": {"inspect": {"s": {"behavior": "sink", "processed": "1"}}})"),
        "inline.json");
    ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
    const RunResult result = run_scenario(loaded.value());
    EXPECT_TRUE(result.passed()) << format_summary(loaded.value(), result);
}

/// One sink "s", run fields `run`, and the `workload` entries.
std::string budget(std::string_view run, std::string_view workload,
                   std::string_view timeline = "[]") {
    return R"({"name": "budget", "run": {)" + std::string(run) +
           R"(}, "topology": {"kind": "actor", "name": "s", "behavior": {"type": "sink"}},
        "workload": [)" +
           std::string(workload) + R"(], "timeline": )" + std::string(timeline) + "}";
}

TEST(EventBudget, MaxEventsMustExceedTheMessagesFired) {
    const std::string sends = R"({"from": "c", "to": "s", "send": {"type": "X"}, "count": 600},
        {"from": "c", "to": "s", "send": {"type": "X"}, "count": 400, "at": "1ms"})";
    EXPECT_EQ(error_of(budget(R"("max_events": 1000)", sends)),
              "inline.json: /run/max_events: 1000 events cannot hold the 1000 workload messages "
              "(each costs at least 1 event, the timer that sends it, and reaching max_events "
              "fails the run: expected more than 1000)");
    EXPECT_EQ(error_of(budget(R"("max_events": 1001)", sends)), "");
}

TEST(EventBudget, OnlyMessagesDueByUntilCount) {
    // 600 + (every 1ms from 1ms to 100ms: 100 of the 400) + one timeline send; the pinned one
    // (`step`) fires between steps, without a timer, and the one after until never fires.
    const std::string sends = R"({"from": "c", "to": "s", "send": {"type": "X"}, "count": 600},
        {"from": "c", "to": "s", "send": {"type": "X"}, "count": 400, "at": "1ms", "every": "1ms"})";
    const std::string timeline = R"([{"at": "2ms", "from": "c", "to": "s", "send": {"type": "X"}},
        {"at": "3ms", "step": 1, "from": "c", "to": "s", "send": {"type": "X"}},
        {"at": "200ms", "from": "c", "to": "s", "send": {"type": "X"}}])";
    EXPECT_EQ(error_of(budget(R"("until": "100ms", "max_events": 701)", sends, timeline)),
              "inline.json: /run/max_events: 701 events cannot hold the 701 workload and timeline "
              "messages (each costs at least 1 event, the timer that sends it, and reaching "
              "max_events fails the run: expected more than 701)");
    EXPECT_EQ(error_of(budget(R"("until": "100ms", "max_events": 702)", sends, timeline)), "");
}

/// The warning lines of a scenario that must load.
std::vector<std::string> warnings_of(const std::string& text) {
    const LoadReport report = check_scenario_text(text, "inline.json");
    EXPECT_TRUE(report.scenario.has_value())
        << (report.errors.empty() ? "" : report.errors.front().to_string());
    std::vector<std::string> lines;
    for (const LoadError& warning : report.warnings) {
        lines.push_back(warning.to_string());
    }
    if (report.scenario.has_value()) {
        EXPECT_EQ(report.warnings.size(),
                  scenario_warnings(*report.scenario, "inline.json").size());
    }
    return lines;
}

/// A router "r" with routes a and b under supervisor "sup" beside sink "s", and `rule`.
std::string with_rule(std::string_view rule, std::string_view rest = "") {
    return R"({"name": "rules", "topology": {"kind": "supervisor", "name": "sup", "children": [
        {"kind": "router", "name": "r", "routes": [
            {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}},
            {"name": "b", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
         "route_message": )" +
           std::string(rule) + R"(},
        {"kind": "actor", "name": "s", "behavior": {"type": "sink"}}]},
        "workload": [{"from": "c", "to": "r", "send": {"type": "X"}}])" +
           std::string(rest) + "}";
}

TEST(RuleWarnings, ANameNothingProvidesWarnsWithDidYouMean) {
    EXPECT_EQ(warnings_of(with_rule(R"({"by_type": {"X": "bb"}})")),
              (std::vector<std::string>{
                  "inline.json: /topology/children/0/route_message/by_type/X: warning: route "
                  "\"bb\" is no route of router \"sup/r\", no registered name and no client, so "
                  "what the rule sends there fails with gen.ErrProcessUnknown; did you mean "
                  "\"b\"?"}));
    EXPECT_EQ(warnings_of(with_rule(R"({"route": "a", "default": "zzzzzz"})")).size(), 1U);
    EXPECT_EQ(warnings_of(with_rule(R"({"hash": "key", "routes": ["a", "q"]})")).size(), 1U);
    EXPECT_EQ(warnings_of(with_rule(R"({"hash": "key", "prefix": "shard:", "count": 4})")),
              (std::vector<std::string>{
                  "inline.json: /topology/children/0/route_message/prefix: warning: 4 of the 4 "
                  "routes \"shard:0\" to \"shard:3\" are no route of router \"sup/r\", no "
                  "registered name and no client (the first is \"shard:0\"), so what the rule "
                  "sends there fails with gen.ErrProcessUnknown"}));
}

TEST(RuleWarnings, RoutesNamesClientsAndLaterRoutesAreProvided) {
    // Own routes, a registered name (registry fallback), a client, "discard", and a route that
    // a timeline add_route or a router.admin message adds later: none warns.
    EXPECT_EQ(warnings_of(with_rule(
                  R"({"by_type": {"A": "a", "S": "s", "C": "c", "D": "discard", "L": "late",
                      "M": "msg"}, "default": "b"})",
                  R"(, "timeline": [{"at": "1ms", "add_route": {"router": "r", "name": "late",
                      "worker": {"kind": "actor", "behavior": {"type": "sink"}}}},
                      {"at": "1ms", "from": "c", "to": "r", "priority": "high",
                       "send": {"type": "router.admin", "op": "add_route", "name": "msg",
                       "worker": {"kind": "actor", "behavior": {"type": "sink"}}}}])")),
              std::vector<std::string>{});
}

TEST(RuleWarnings, MaxEventsThatFitsOnlyFailedSendsWarns) {
    const std::string sends = R"({"from": "c", "to": "s", "send": {"type": "X"}, "count": 600})";
    EXPECT_EQ(warnings_of(budget(R"("max_events": 1200)", sends)),
              (std::vector<std::string>{
                  "inline.json: /run/max_events: warning: 1200 events cannot hold the 600 "
                  "messages when each is delivered (2 events each: the timer that sends it and "
                  "the receiver's step, 1200 in all), so the run fails at its event limit unless "
                  "sends fail"}));
    EXPECT_EQ(warnings_of(budget(R"("max_events": 1201)", sends)), std::vector<std::string>{});
}

using testing::read_text;
using testing::source_dir;

TEST(AllErrors, EveryBadFixtureListsItsValidateLinesAndStartsWithItsExpectedLine) {
    std::size_t several = 0;
    for (const auto& entry : std::filesystem::directory_iterator(source_dir / "scenarios/bad")) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        std::filesystem::path expected = entry.path();
        std::filesystem::path validate = entry.path();
        expected.replace_extension(".expected");
        validate.replace_extension(".validate");
        const std::string label = entry.path().filename().string();
        const LoadReport report = check_scenario_text(read_text(entry.path()), label);
        ASSERT_FALSE(report.scenario.has_value()) << label;
        std::string lines;
        for (const std::string& line : report.error_lines()) {
            lines += line + "\n";
        }
        EXPECT_EQ(report.error_lines().front() + "\n", read_text(expected)) << label;
        if (std::filesystem::exists(validate)) {
            several++;
            EXPECT_GT(report.errors.size(), 1U) << label;
            EXPECT_EQ(lines, read_text(validate)) << label;
        } else {
            EXPECT_EQ(lines, read_text(expected)) << label << ": more errors than its .expected";
        }
    }
    EXPECT_GE(several, 2U);
}

TEST(AllErrors, ListsAtMostFiftyAndCountsTheRest) {
    std::string workload;
    for (int i = 0; i < 60; i++) {
        workload += std::string(i == 0 ? "" : ", ") +
                    R"({"from": "c", "to": "s", "send": {"type": "X"}, "priority": "urgent"})";
    }
    const LoadReport report = check_scenario_text(
        R"({"name": "many", "topology": {"kind": "actor", "name": "s", "behavior": {"type": "sink"}},
            "workload": [)" +
            workload + "]}",
        "inline.json");
    ASSERT_EQ(report.errors.size(), 50U);
    EXPECT_EQ(report.errors_unlisted, 10U);
    EXPECT_EQ(report.errors[49].pointer, "/workload/49/priority");
    const std::vector<std::string> lines = report.error_lines();
    ASSERT_EQ(lines.size(), 51U);
    EXPECT_EQ(lines.back(), "inline.json: 10 more errors not listed (only the first 50 are)");
    // run reports the first.
    EXPECT_EQ(error_of(R"({"name": "many", "topology": {"kind": "actor", "name": "s",
                  "behavior": {"type": "sink"}}, "workload": [)" +
                       workload + "]}"),
              lines.front());
}

TEST(AllErrors, ALostNameSkipsTheCrossReferenceChecks) {
    // The topology's second child has an error, so its name "audit" is unknown: the dangling
    // "nowhere" is not reported then (it would be, with "audit", after the child is fixed), and
    // neither is the valid-looking "audit".
    const auto text = [](std::string_view audit) {
        return R"({"name": "lost", "topology": {"kind": "supervisor", "name": "sup", "children": [
            {"kind": "actor", "name": "s", "behavior": {"type": "sink"}},
            {"kind": "actor", "name": "audit", )" +
               std::string(audit) + R"(}]},
            "workload": [{"from": "c", "to": "audit", "send": {"type": "X"}},
                         {"from": "c", "to": "nowhere", "send": {"type": "X"}}],
            "run": {"scheduler": "lifo"}})";
    };
    const LoadReport broken = check_scenario_text(text(R"("behavior": {"type": "sinc"})"), "x");
    ASSERT_EQ(broken.errors.size(), 2U);
    EXPECT_EQ(broken.errors[0].pointer, "/run/scheduler");
    EXPECT_EQ(broken.errors[1].pointer, "/topology/children/1/behavior/type");
    const LoadReport fixed = check_scenario_text(text(R"("behavior": {"type": "sink"})"), "x");
    ASSERT_EQ(fixed.errors.size(), 2U);
    EXPECT_EQ(fixed.errors[0].pointer, "/run/scheduler");
    EXPECT_EQ(fixed.errors[1].pointer, "/workload/1/to");
}

} // namespace
} // namespace routesim::scenarios
