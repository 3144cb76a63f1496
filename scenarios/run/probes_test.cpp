// Goal: reachability probes (`expect.sometimes`, scenarios/FORMAT.md) load and are rejected as
// the manual says (no or two conditions, a missing or duplicate name, an unknown route state,
// event kind or target, probes in a `check`), each of the four conditions is reached in a real
// run at the first event after which it holds, and an unreached probe fails `run` with its own
// line while a campaign's judge (RunSettings::judge_probes off) leaves the run passing.
// Method: inline scenarios around a supervisor "sup" over a router "r" and a sink "w", and the
// file scenarios/testdata/probes.json; each probe's recorded event is checked in the trace.
#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/testing.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios {
namespace {

using testing::load;

std::string error_of(const std::string& text) {
    auto loaded = load_scenario_text(text, "inline.json");
    return loaded ? std::string() : loaded.error().to_string();
}

/// A supervisor "sup" over a router "r" (routes "a", "b") and a sink "w", sending one message
/// to w at 1ms; `expect` is the expect object.
std::string with_expect(std::string_view expect) {
    return std::string(R"({"name": "probes", "topology": {"kind": "supervisor", "name": "sup",
        "children": [{"kind": "router", "name": "r", "routes": [
            {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}},
            {"name": "b", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
          "route_message": {"route": "a"}},
        {"kind": "actor", "name": "w", "behavior": {"type": "sink"}}]},
        "workload": [{"from": "c", "to": "w", "send": {"type": "X"}, "at": "1ms"}],
        "expect": )") +
           std::string(expect) + "}";
}

std::string with_probes(std::string_view probes) {
    return with_expect(std::string(R"({"sometimes": )") + std::string(probes) + "}");
}

TEST(ProbeLoader, EveryConditionLoads) {
    const Scenario scenario = load(with_probes(R"([
        {"name": "s", "route_state": {"sup/r/a": "pending_replace"}},
        {"name": "f", "route_failed": {"r": "gen.ErrBusy"}},
        {"name": "n", "restarts": {"sup/w": 2}},
        {"name": "e", "event": {"kind": "take", "at": "w"}},
        {"name": "any", "event": {"kind": "limit"}}])"));
    const std::vector<Probe>& probes = scenario.expect.sometimes;
    ASSERT_EQ(probes.size(), 5U);
    EXPECT_EQ(probes[0].condition, ProbeCondition::RouteStateSeen);
    EXPECT_EQ(probes[0].router, "sup/r");
    EXPECT_EQ(probes[0].route, "a");
    EXPECT_EQ(probes[0].state, RouteState::PendingReplace);
    EXPECT_EQ(probes[1].reason, "gen.ErrBusy");
    EXPECT_EQ(probes[2].count, 2U);
    EXPECT_EQ(probes[2].target, "sup/w");
    EXPECT_EQ(probes[3].kind, "take");
    EXPECT_EQ(probes[3].target, "w");
    EXPECT_EQ(probes[4].target, "");
    EXPECT_EQ(probes[4].pointer, "/expect/sometimes/4");
}

TEST(ProbeLoader, MalformedProbesGiveTheirPointerAndWhatWasExpected) {
    const auto error = [](std::string_view probes) { return error_of(with_probes(probes)); };
    EXPECT_EQ(error(R"([{"name": "x"}])"),
              "inline.json: /expect/sometimes/0: probe \"x\" has no condition (expected one of "
              "\"route_state\", \"route_failed\", \"restarts\" or \"event\")");
    EXPECT_EQ(error(R"([{"name": "x", "restarts": {"w": 1}, "event": {"kind": "take"}}])"),
              "inline.json: /expect/sometimes/0: probe \"x\" has 2 conditions (expected exactly "
              "one of \"route_state\", \"route_failed\", \"restarts\" or \"event\")");
    EXPECT_NE(error(R"([{"restarts": {"w": 1}}])")
                  .find("/expect/sometimes/0: missing required "
                        "field \"name\""),
              std::string::npos);
    EXPECT_EQ(
        error(R"([{"name": "x", "restarts": {"w": 1}}, {"name": "x", "restarts": {"w": 2}}])"),
        "inline.json: /expect/sometimes/1/name: duplicate probe name \"x\" (already used by "
        "the probe at /expect/sometimes/0; expected every probe name once)");
    EXPECT_NE(error(R"([{"name": "x", "route_state": {"r/a": "pending"}}])")
                  .find("/expect/sometimes/0/route_state/r~1a: unknown route state \"pending\""),
              std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "event": {"kind": "takes"}}])")
                  .find("/expect/sometimes/0/event/kind: unknown trace event kind \"takes\""),
              std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "route_failed": {"r": "gen.ErrBsy"}}])")
                  .find("/expect/sometimes/0/route_failed/r: unknown error name"),
              std::string::npos);
    EXPECT_NE(
        error(R"([{"name": "x", "restarts": {"w": 0}}])").find("/expect/sometimes/0/restarts/w"),
        std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "route_state": {"r": "running"}}])")
                  .find("route path \"r\" is not \"<router>/<route>\""),
              std::string::npos);
}

TEST(ProbeLoader, UnknownTargetsAreRejectedWithTheProbesPointer) {
    const auto error = [](std::string_view probes) { return error_of(with_probes(probes)); };
    EXPECT_NE(error(R"([{"name": "x", "route_state": {"r/zz": "running"}}])")
                  .find("/expect/sometimes/0/route_state/r~1zz: router \"r\" has no route \"zz\""),
              std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "route_failed": {"w": "gen.ErrBusy"}}])")
                  .find("/expect/sometimes/0/route_failed/w: target \"w\" is actor"),
              std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "restarts": {"nobody": 1}}])")
                  .find("/expect/sometimes/0/restarts/nobody: "),
              std::string::npos);
    EXPECT_NE(error(R"([{"name": "x", "event": {"kind": "take", "at": "nobody"}}])")
                  .find("/expect/sometimes/0/event/at: "),
              std::string::npos);
}

TEST(ProbeLoader, ProbesBelongToTheEndOfRunExpectOnly) {
    const std::string text = R"({"name": "p", "topology": {"kind": "actor", "name": "w",
        "behavior": {"type": "sink"}}, "timeline": [{"at": "1ms", "check": {"sometimes": [
        {"name": "x", "event": {"kind": "take"}}]}}]})";
    EXPECT_NE(error_of(text).find("/timeline/0/check/sometimes: unknown field \"sometimes\""),
              std::string::npos)
        << error_of(text);
}

/// The trace record with sequence number `seq`.
const sim::TraceRecord* record_at(const sim::MemorySink& sink, std::uint64_t seq) {
    for (const sim::TraceRecord& record : sink.records()) {
        if (record.seq == seq) {
            return &record;
        }
    }
    return nullptr;
}

TEST(ProbeRun, EveryConditionIsReachedAtTheEventAfterWhichItHolds) {
    const Scenario scenario =
        load(testing::read_text(testing::source_dir / "scenarios/testdata/probes.json"));
    sim::MemorySink sink;
    RunSettings settings;
    settings.extra_sinks.push_back(&sink);
    const RunResult result = run_scenario(scenario, settings);
    const std::string summary = format_summary(scenario, result);
    ASSERT_TRUE(result.passed()) << summary;
    ASSERT_EQ(result.probes.size(), 5U);
    for (const ProbeResult& probe : result.probes) {
        EXPECT_TRUE(probe.reached) << probe.name << "\n" << summary;
    }
    // Each first holds right after the event that makes it true.
    const sim::TraceRecord* pending = record_at(sink, result.probes[0].seq);
    ASSERT_NE(pending, nullptr);
    EXPECT_EQ(pending->kind, "route_pending");
    EXPECT_EQ(pending->text("to_state"), "pending_disable");
    const sim::TraceRecord* failed = record_at(sink, result.probes[1].seq);
    ASSERT_NE(failed, nullptr);
    EXPECT_EQ(failed->kind, "route");
    EXPECT_EQ(failed->text("reason"), "gen.ErrDisabled");
    const sim::TraceRecord* child = record_at(sink, result.probes[2].seq);
    ASSERT_NE(child, nullptr);
    EXPECT_EQ(child->kind, "sup_restart");
    EXPECT_EQ(child->text("child"), "w");
    const sim::TraceRecord* route = record_at(sink, result.probes[3].seq);
    ASSERT_NE(route, nullptr);
    EXPECT_EQ(route->kind, "route_restart");
    EXPECT_EQ(route->text("name"), "b");
    const sim::TraceRecord* take = record_at(sink, result.probes[4].seq);
    ASSERT_NE(take, nullptr);
    EXPECT_EQ(take->kind, "take");
    EXPECT_EQ(result.probes[4].at, sim::Instant::zero() + sim::Duration::milliseconds(5));
    EXPECT_NE(summary.find("probes: 5 of 5 reached\n"), std::string::npos) << summary;
}

TEST(ProbeRun, AnUnreachedProbeFailsTheRunWithItsLine) {
    const Scenario scenario = load(with_probes(R"([
        {"name": "w took", "event": {"kind": "take", "at": "w"}},
        {"name": "w restarted", "restarts": {"sup/w": 1}}])"));
    const RunResult result = run_scenario(scenario);
    const std::string summary = format_summary(scenario, result);
    EXPECT_FALSE(result.passed()) << summary;
    ASSERT_EQ(result.probes.size(), 2U);
    EXPECT_TRUE(result.probes[0].reached);
    EXPECT_EQ(result.probes[0].at, sim::Instant::zero() + sim::Duration::milliseconds(1));
    EXPECT_FALSE(result.probes[1].reached);
    const std::string reached = "  w took: reached at #" + std::to_string(result.probes[0].seq) +
                                " @1ms (/expect/sometimes/0)\n";
    EXPECT_NE(summary.find("probes: 1 of 2 reached\n" + reached +
                           "  w restarted: never reached (/expect/sometimes/1)\n"),
              std::string::npos)
        << summary;
    EXPECT_NE(summary.find("  FAIL sometimes.w restarted at 1ms: expected reached, got never "
                           "reached (/expect/sometimes/1)\n"),
              std::string::npos)
        << summary;
    EXPECT_NE(summary.find("verdict: FAIL"), std::string::npos);
    const Check* check = testing::check_at(result, "/expect/sometimes/0");
    ASSERT_NE(check, nullptr);
    EXPECT_TRUE(check->ok);

    // A campaign does not judge probes: the same run passes, its probes still recorded.
    RunSettings unjudged;
    unjudged.judge_probes = false;
    const RunResult counted = run_scenario(scenario, unjudged);
    EXPECT_TRUE(counted.passed()) << format_summary(scenario, counted);
    ASSERT_EQ(counted.probes.size(), 2U);
    EXPECT_TRUE(counted.probes[0].reached);
    EXPECT_FALSE(counted.probes[1].reached);
}

TEST(ProbeRun, RouteFailedCountsCallsAndRestartsCountAPoolsRespawns) {
    // DESIGN.md "Liveness": route_failed counts the failures of calls too (the error returned
    // to the caller), which expect.route_failed (MessageRouteFailed only) does not.
    const Scenario call = load(R"({"name": "probe-call",
        "topology": {"kind": "router", "name": "r", "routes": [
            {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "echo"}}}],
          "route_message": {"route": "a"}, "route_call": {"route": "a"}},
        "workload": [{"from": "c", "to": "r", "call": {"type": "Q"}, "at": "2ms"}],
        "timeline": [{"at": "1ms", "disable_route": {"router": "r", "name": "a"}}],
        "expect": {"route_failed": {"r": {"gen.ErrDisabled": 0}},
                   "clients": {"c": {"errors": {"gen.ErrDisabled": 1}}},
                   "sometimes": [{"name": "f", "route_failed": {"r": "gen.ErrDisabled"}},
                                 {"name": "busy", "route_failed": {"r": "gen.ErrBusy"}}]}})");
    const RunResult called = run_scenario(call);
    ASSERT_EQ(called.probes.size(), 2U);
    EXPECT_TRUE(called.probes[0].reached) << format_summary(call, called);
    EXPECT_EQ(called.probes[0].at, sim::Instant::zero() + sim::Duration::milliseconds(2));
    EXPECT_FALSE(called.probes[1].reached);

    // A pool respawns a worker that died (pool_forward "respawned"): once here, never twice.
    const Scenario pool = load(R"({"name": "probe-pool",
        "topology": {"kind": "pool", "name": "p", "size": 2, "worker": {"kind": "actor",
          "behavior": {"type": "sink", "crash_on": {"type": "Poison"}}}},
        "workload": [{"from": "c", "to": "p", "send": {"type": "Poison"}, "at": "1ms"},
                     {"from": "c", "to": "p", "send": {"type": "X"}, "at": "2ms", "count": 4,
                      "every": "1ms"}],
        "expect": {"sometimes": [{"name": "once", "restarts": {"p/#0": 1}},
                                 {"name": "twice", "restarts": {"p/#*": 2}}]}})");
    const RunResult pooled = run_scenario(pool);
    ASSERT_EQ(pooled.probes.size(), 2U);
    EXPECT_TRUE(pooled.probes[0].reached) << format_summary(pool, pooled);
    EXPECT_FALSE(pooled.probes[1].reached);
}

TEST(ProbeRun, AScenarioWithoutProbesHasNoProbeOutput) {
    const Scenario scenario = load(with_expect("{}"));
    const RunResult result = run_scenario(scenario);
    EXPECT_TRUE(result.probes.empty());
    EXPECT_EQ(format_summary(scenario, result).find("probes:"), std::string::npos);
}

} // namespace
} // namespace routesim::scenarios
