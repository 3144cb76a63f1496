// Goal: the verdicts of a run say what happened, in the cases where they used to be wrong: a
// stale route PID (R54) is a dead worker, a worker spec of a replace_route counts its own
// Inits, an admin-path outcome is checked when it arrives, a dead router's summary shows its
// last table, and a removed route can be expected "absent" with its restart history.
// Method: small inline scenarios run with run_scenario; the checks and the summary data of the
// result are compared with what scenarios/FORMAT.md says.
#include <gtest/gtest.h>

#include "scenarios/testing.hpp"

namespace routesim::scenarios {
namespace {

using testing::check_at;
using testing::load;

const RouteRow* row_of(const RouterSummary& router, std::string_view route) {
    for (const RouteRow& row : router.routes) {
        if (row.name == route) {
            return &row;
        }
    }
    return nullptr;
}

/// A router "r" over two sinks "a" and "b" that routes everything to "a"; `rest` follows the
/// topology (it must start with a comma).
std::string two_sinks(std::string_view router_fields, std::string_view rest) {
    return std::string(R"({"name": "verdicts", "topology": {"kind": "router", "name": "r", )") +
           std::string(router_fields) +
           R"("routes": [{"name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}},
                        {"name": "b", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
             "route_message": {"route": "a"}})" +
           std::string(rest) + "}";
}

// R54: a Max message fills the router's Urgent queue (size 1), so the exit signal of the
// worker killed at the same instant is lost and the table keeps the dead worker's PID.
constexpr std::string_view lost_exit_signal = R"(, "timeline": [
    {"at": "1ms", "from": "c", "to": "r", "send": {"type": "Fill"}, "priority": "max"},
    {"at": "1ms", "kill": "r/a"},
    {"at": "2ms", "check": {"dead": ["r/a"], "alive": ["r/b"]}}])";

TEST(VerdictsAliveDead, StalePidOfARouteIsDead) {
    const RunResult result = run_scenario(load(two_sinks(
        R"("mailbox_size": 1, )", std::string(lost_exit_signal) +
                                      R"(, "expect": {"dead": ["r/a"], "alive": ["r/a", "r/b", "r"],
                        "routes": {"r": {"a": {"state": "running"}}}, "invariants": []})")));
    const Check* dead = check_at(result, "/expect/dead/0");
    ASSERT_NE(dead, nullptr);
    EXPECT_TRUE(dead->ok) << dead->actual;
    const Check* alive = check_at(result, "/expect/alive/0");
    ASSERT_NE(alive, nullptr);
    EXPECT_FALSE(alive->ok);
    EXPECT_EQ(alive->actual, "dead");
    EXPECT_TRUE(check_at(result, "/expect/alive/1")->ok);
    EXPECT_TRUE(check_at(result, "/expect/alive/2")->ok);
    // The table still says running: that is the router's view (R54), not the worker's life.
    EXPECT_TRUE(check_at(result, "/expect/routes/r/a/state")->ok);
}

TEST(VerdictsAliveDead, TimelineCheckSeesTheStalePidAsDead) {
    const RunResult result = run_scenario(
        load(two_sinks(R"("mailbox_size": 1, )",
                       std::string(lost_exit_signal) + R"(, "expect": {"invariants": []})")));
    const Check* dead = check_at(result, "/timeline/2/check/dead/0");
    ASSERT_NE(dead, nullptr);
    EXPECT_TRUE(dead->ok) << dead->actual;
    EXPECT_TRUE(check_at(result, "/timeline/2/check/alive/0")->ok);
}

TEST(VerdictsAliveDead, SummaryMarksTheStalePidAsExited) {
    RunSettings settings;
    settings.summarise_passing = true;
    const RunResult result = run_scenario(
        load(two_sinks(R"("mailbox_size": 1, )",
                       std::string(lost_exit_signal) + R"(, "expect": {"invariants": []})")),
        settings);
    ASSERT_EQ(result.routers.size(), 1U);
    const RouteRow* a = row_of(result.routers[0], "a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->state, "running");
    EXPECT_TRUE(a->exited);
    EXPECT_FALSE(row_of(result.routers[0], "b")->exited);
    EXPECT_NE(format_summary(load(two_sinks("", "")), result).find("(exited)"), std::string::npos);
}

TEST(VerdictsInitFailFirst, ReplaceRouteWorkerCountsItsOwnInits) {
    // The topology's "a" spawned once at build; the replacing spec's first Init must still fail.
    const RunResult result = run_scenario(load(two_sinks("", R"(, "timeline": [
        {"at": "1ms", "replace_route": {"router": "r", "name": "a", "worker": {"kind": "actor",
            "behavior": {"type": "sink", "init": {"fail_first": 1}}}}, "expect": "ok"}],
        "expect": {"routes": {"r": {"a": {"state": "dead"}}}})")));
    const Check* state = check_at(result, "/expect/routes/r/a/state");
    ASSERT_NE(state, nullptr);
    EXPECT_TRUE(state->ok) << state->actual;
}

TEST(VerdictsInitFailFirst, AddRouteWorkerCountsItsOwnInitsThroughTheAdminPath) {
    // "b" spawned once at build and was removed; the spec that adds it again counts from zero,
    // so its first Init fails and the add returns that failure.
    const RunResult result = run_scenario(load(two_sinks("", R"(, "timeline": [
        {"at": "1ms", "remove_route": {"router": "r", "name": "b"}, "expect": "ok"},
        {"at": "2ms", "add_route": {"router": "r", "name": "b", "worker": {"kind": "actor",
            "behavior": {"type": "sink", "init": {"fail_first": 1}}}}, "via": "admin",
         "expect": "ok"}],
        "expect": {"routes": {"r": {"b": {"state": "absent"}}}})")));
    const Check* add = check_at(result, "/timeline/1/expect");
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->actual, "init failed (behavior.init)");
    EXPECT_TRUE(check_at(result, "/expect/routes/r/b/state")->ok);
}

TEST(VerdictsAdminOutcome, CheckedAtTheTimeTheResultArrived) {
    const RunResult result = run_scenario(load(two_sinks("", R"(, "timeline": [
        {"at": "1ms", "disable_route": {"router": "r", "name": "a"}, "via": "admin",
         "expect": "gen.ErrBusy"},
        {"at": "5ms", "from": "c", "to": "r", "send": {"type": "X"}}],
        "expect": {"invariants": []})")));
    const Check* outcome = check_at(result, "/timeline/0/expect");
    ASSERT_NE(outcome, nullptr);
    EXPECT_FALSE(outcome->ok);
    EXPECT_EQ(outcome->actual, "ok");
    EXPECT_EQ(outcome->at, sim::Instant::zero() + sim::Duration::milliseconds(1));
    EXPECT_EQ(result.outcome.end, sim::Instant::zero() + sim::Duration::milliseconds(5));
}

TEST(VerdictsAdminOutcome, TimelineCallCheckedAtTheTimeItReturned) {
    // Client "d" never answers a call: the call made at 1ms times out at 3ms.
    const RunResult result = run_scenario(load(two_sinks("", R"(, "timeline": [
        {"at": "0ms", "from": "d", "to": "r", "send": {"type": "X"}},
        {"at": "1ms", "from": "c", "to": "d", "call": {"type": "Q"}, "timeout": "2ms",
         "expect": "ok"},
        {"at": "5ms", "from": "c", "to": "r", "send": {"type": "X"}}],
        "expect": {"invariants": []})")));
    const Check* outcome = check_at(result, "/timeline/1/expect");
    ASSERT_NE(outcome, nullptr);
    EXPECT_EQ(outcome->actual, "gen.ErrTimeout");
    EXPECT_EQ(outcome->at, sim::Instant::zero() + sim::Duration::milliseconds(3));
}

TEST(VerdictsDeadRouter, SummaryShowsItsLastTableWithTimeAndReason) {
    RunSettings settings;
    settings.summarise_passing = true;
    const Scenario scenario = load(two_sinks("", R"(,
        "workload": [{"from": "c", "to": "r", "send": {"type": "X"}, "count": 3}],
        "timeline": [{"at": "1ms", "kill": "r/b"}, {"at": "2ms", "kill": "r"}])"));
    const RunResult result = run_scenario(scenario, settings);
    ASSERT_EQ(result.routers.size(), 1U);
    const RouterSummary& router = result.routers[0];
    EXPECT_FALSE(router.alive);
    ASSERT_TRUE(router.died_at.has_value());
    EXPECT_EQ(*router.died_at, sim::Instant::zero() + sim::Duration::milliseconds(2));
    EXPECT_EQ(router.died_reason, "kill");
    EXPECT_EQ(router.counters.forwarded, 3U);
    EXPECT_EQ(router.counters.restarts, 1U);
    ASSERT_EQ(router.routes.size(), 2U);
    EXPECT_EQ(router.routes[0].name, "a");
    EXPECT_EQ(router.routes[1].restarts, 1U);
    const std::string summary = format_summary(scenario, result);
    EXPECT_NE(summary.find("(died at 2ms: kill; its last table): forwarded 3"), std::string::npos)
        << summary;
}

TEST(VerdictsAbsentRoute, RemovedRouteIsAbsentWithItsRestartHistory) {
    RunSettings settings;
    settings.summarise_passing = true;
    const Scenario scenario = load(two_sinks("", R"(, "timeline": [
        {"at": "1ms", "kill": "r/b"},
        {"at": "2ms", "remove_route": {"router": "r", "name": "b"}, "expect": "ok"}],
        "expect": {"routes": {"r": {"b": {"state": "absent", "restarts": 1}}}})"));
    const RunResult result = run_scenario(scenario, settings);
    EXPECT_TRUE(check_at(result, "/expect/routes/r/b/state")->ok);
    EXPECT_TRUE(check_at(result, "/expect/routes/r/b/restarts")->ok);
    const RouteRow* b = row_of(result.routers[0], "b");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->state, "absent");
    EXPECT_EQ(b->restarts, 1U);
    EXPECT_NE(format_summary(scenario, result).find("absent"), std::string::npos);
}

TEST(VerdictsAbsentRoute, RoutesOfADeadRouterAreAbsentAndKeepTheirRestarts) {
    const RunResult result = run_scenario(load(two_sinks("", R"(, "timeline": [
        {"at": "1ms", "kill": "r/b"}, {"at": "2ms", "kill": "r"}],
        "expect": {"routes": {"r": {"a": {"state": "absent"}, "b": {"state": "running",
                                                                   "restarts": 1}}}})")));
    EXPECT_TRUE(check_at(result, "/expect/routes/r/a/state")->ok);
    const Check* running = check_at(result, "/expect/routes/r/b/state");
    EXPECT_FALSE(running->ok);
    EXPECT_EQ(running->actual, "absent (r is not running)");
    EXPECT_TRUE(check_at(result, "/expect/routes/r/b/restarts")->ok);
}

} // namespace
} // namespace routesim::scenarios
