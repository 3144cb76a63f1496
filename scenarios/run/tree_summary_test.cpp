// Goal: the summary of the whole tree says what each supervisor, pool and waiting call came to:
// a supervisor that gave up names the restart-intensity cause and the exit that tripped it, a
// pool counts its live workers and restarts, a call still waiting at the end is listed with
// its caller, target and start, and the ledger splits user messages from the runtime's.
// Method: small inline scenarios run with run_scenario; RunResult's tree sections and the
// printed summary are compared with scenarios/FORMAT.md ("Exit codes and output").
#include <gtest/gtest.h>

#include "scenarios/testing.hpp"

namespace routesim::scenarios {
namespace {

using testing::load;

// A one_for_one supervisor allowing 1 restart per second over two sinks; `timeline` kills.
std::string supervisor_of_two(std::string_view timeline) {
    return std::string(R"({"name": "tree", "topology": {"kind": "supervisor", "name": "sup",
        "type": "one_for_one", "restart": {"strategy": "permanent", "intensity": 1, "period": "1s"},
        "children": [{"kind": "actor", "name": "a", "behavior": {"type": "sink"}},
                     {"kind": "actor", "name": "b", "behavior": {"type": "sink"}}]},
        "timeline": )") +
           std::string(timeline) + R"(, "expect": {"invariants": []}})";
}

TEST(TreeSummary, ASupervisorThatGaveUpNamesTheIntensityCause) {
    const Scenario scenario =
        load(supervisor_of_two(R"([{"at": "1ms", "kill": "a"}, {"at": "2ms", "kill": "a"}])"));
    const RunResult result = run_scenario(scenario);
    ASSERT_EQ(result.supervisors.size(), 1U);
    const SupervisorSummary& sup = result.supervisors[0];
    EXPECT_EQ(sup.path, "sup");
    EXPECT_EQ(sup.type, SupervisorType::OneForOne);
    EXPECT_FALSE(sup.alive);
    ASSERT_TRUE(sup.terminated_at.has_value());
    EXPECT_EQ(sim::format_instant(*sup.terminated_at), "2ms");
    EXPECT_EQ(sup.cause, "restart intensity exceeded: 2 restarts in 1s > 1, last: a kill at 2ms");
    EXPECT_EQ(sup.restarts, 1U);
    EXPECT_EQ(sup.intensity, 1U);
    ASSERT_EQ(sup.children.size(), 2U);
    EXPECT_EQ(sup.children[0].name, "a");
    EXPECT_EQ(sup.children[0].state, "exited");
    EXPECT_EQ(sup.children[0].restarts, 1U);
    EXPECT_EQ(sup.children[0].last_exit, "kill");
    EXPECT_EQ(sup.children[1].state, "exited"); // stopped with its supervisor
    const std::string summary = format_summary(scenario, result);
    EXPECT_NE(summary.find("supervisors:\n  sup <"), std::string::npos) << summary;
    EXPECT_NE(summary.find(" one_for_one (terminated at 2ms: restart intensity exceeded: 2 "
                           "restarts in 1s > 1, last: a kill at 2ms): restarts 1"),
              std::string::npos)
        << summary;
}

TEST(TreeSummary, ASupervisorWithinItsLimitCountsTheWindow) {
    const Scenario scenario = load(supervisor_of_two(R"([{"at": "1ms", "kill": "b"}])"));
    const RunResult result = run_scenario(scenario);
    ASSERT_EQ(result.supervisors.size(), 1U);
    const SupervisorSummary& sup = result.supervisors[0];
    EXPECT_TRUE(sup.alive);
    EXPECT_FALSE(sup.terminated_at.has_value());
    EXPECT_TRUE(sup.cause.empty());
    EXPECT_EQ(sup.window_restarts, 1U);
    EXPECT_EQ(sup.children[1].state, "running");
    EXPECT_EQ(sup.children[1].restarts, 1U);
    EXPECT_EQ(sup.children[0].restarts, 0U);
}

TEST(TreeSummary, APoolCountsLiveWorkersForwardsAndRestarts) {
    const Scenario scenario = load(R"({"name": "tree", "topology": {"kind": "pool", "name": "p",
        "size": 2, "worker": {"kind": "actor", "behavior": {"type": "sink"}}},
        "workload": [{"from": "c", "to": "p", "send": {"type": "Job"}, "count": 4, "every": "1ms"}],
        "timeline": [{"at": "1500us", "kill": "p/#0"}],
        "expect": {"invariants": []}})");
    const RunResult result = run_scenario(scenario);
    ASSERT_EQ(result.pools.size(), 1U);
    const PoolSummary& pool = result.pools[0];
    EXPECT_EQ(pool.path, "p");
    EXPECT_TRUE(pool.alive);
    EXPECT_EQ(pool.size, 2U);
    // §5: the forward after the kill finds the dead worker and respawns it in its slot.
    EXPECT_EQ(pool.forwarded, 4U);
    EXPECT_EQ(pool.unhandled, 0U);
    EXPECT_EQ(pool.worker_restarts, 1U);
    EXPECT_EQ(pool.live_workers, 2U);
    const std::string summary = format_summary(scenario, result);
    EXPECT_NE(summary.find("pools:\n  p <"), std::string::npos) << summary;
}

TEST(TreeSummary, ACallStillWaitingAtTheEndIsListed) {
    const Scenario scenario = load(R"({"name": "tree", "topology": {"kind": "actor",
        "name": "w", "behavior": {"type": "sink", "ignore_calls": true}},
        "workload": [{"from": "c", "to": "w", "call": {"type": "Get"}, "at": "1ms",
                      "timeout": "5s"}],
        "run": {"until": "10ms"}, "expect": {"invariants": []}})");
    const RunResult result = run_scenario(scenario);
    ASSERT_EQ(result.waiting_calls.size(), 1U);
    const WaitingCall& call = result.waiting_calls[0];
    EXPECT_EQ(call.caller.rfind("c <", 0), 0U) << call.caller;
    EXPECT_EQ(call.target.rfind("w <", 0), 0U) << call.target;
    EXPECT_EQ(sim::format_instant(call.since), "1ms");
    const std::string summary = format_summary(scenario, result);
    EXPECT_NE(summary.find("calls waiting at the end:\n  c <"), std::string::npos) << summary;
}

TEST(TreeSummary, TheLedgerSplitsUserFromRuntimeMessages) {
    // One user message; the kill makes an exit signal to the supervisor.
    const Scenario scenario = load(supervisor_of_two(R"([{"at": "1ms", "kill": "b"}])"));
    const RunResult result = run_scenario(scenario);
    EXPECT_EQ(result.user_ledger.sent + result.exit_signals_sent + result.admin_sent +
                  result.internal_sent,
              result.ledger.sent);
    EXPECT_GE(result.exit_signals_sent, 1U);
    EXPECT_EQ(result.admin_sent, 0U);
    EXPECT_TRUE(result.user_ledger.balanced());
    const std::string summary = format_summary(scenario, result);
    EXPECT_NE(summary.find("\n  user messages: sent " + std::to_string(result.user_ledger.sent)),
              std::string::npos)
        << summary;
    EXPECT_NE(summary.find("\n  runtime messages: sent "), std::string::npos) << summary;
}

} // namespace
} // namespace routesim::scenarios
