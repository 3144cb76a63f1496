// The example's suite: its scenario file passes; a scenario built in C++ shows what a
// restart does to the counts; and every routesim invariant holds on generated trees of
// routers, pools and supervisors that run sticky_user and session_counter.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "scenarios/format/loader.hpp"
#include "sessions.hpp"
#include "tools/testing/scenario_testing.hpp"
#include "tools/testing/swarm.hpp"

namespace {

using nlohmann::json;

// Registered before main() (or call sessions::register_all() at the start of your own main).
const bool registered = (sessions::register_all(), true);

class SessionsTest : public routesim::testing::ScenarioTest {};

TEST_F(SessionsTest, TheScenarioFilePasses) {
    ASSERT_TRUE(registered);
    const auto result = run_file(SESSIONS_SCENARIO);
    ASSERT_TRUE(result.has_value());
    EXPECT_TRUE(routesim::testing::RunPassed(*result)) << summary(*result);
}

/// One route, so alice's worker is known. Over quota 2, alice's third message gets an
/// OverQuota; the worker is made to crash at 10ms (on the next message it takes, which is
/// lost) and restarts with no counts, so the two messages after that are within quota.
json crash_scenario() {
    json worker = {{"kind", "actor"}, {"behavior", {{"type", "session_counter"}, {"quota", 2}}}};
    json hit = {{"type", "Hit"}, {"user", "alice"}};
    return {{"name", "sessions-crash"},
            {"topology",
             {{"kind", "router"},
              {"name", "sessions"},
              {"routes", {{{"name", "s0"}, {"worker", worker}}}},
              {"route_message", {{"type", "sticky_user"}}},
              {"route_call", {{"type", "sticky_user"}}}}},
            {"workload",
             {{{"from", "web"}, {"to", "sessions"}, {"send", hit}, {"count", 3}, {"every", "1ms"}},
              {{"from", "web"},
               {"to", "sessions"},
               {"send", hit},
               {"count", 3},
               {"every", "1ms"},
               {"at", "15ms"}}}},
            {"timeline", {{{"at", "10ms"}, {"crash", "sessions/s0"}}}},
            {"expect",
             {{"routes", {{"sessions", {{"s0", {{"restarts", 1}}}}}}},
              {"clients", {{"web", {{"types", {{"OverQuota", 1}}}}}}}}}};
}

TEST_F(SessionsTest, ARestartLosesTheCounts) {
    const auto result = run_json(crash_scenario());
    ASSERT_TRUE(result.has_value());
    EXPECT_TRUE(routesim::testing::RunPassed(*result));
    // Without the restart alice would have had three OverQuota answers.
    EXPECT_EQ(result->clients.at("web").types.at("OverQuota"), 1U);
}

TEST_F(SessionsTest, AWrongExpectationIsReportedWithItsPointer) {
    json document = crash_scenario();
    document["expect"]["routes"]["sessions"]["s0"]["restarts"] = 0;
    const auto result = run_json(document);
    ASSERT_TRUE(result.has_value());
    EXPECT_TRUE(routesim::testing::CheckFailed(*result, "/expect/routes/sessions/s0/restarts"));
}

TEST(SessionsLoad, ABadQuotaIsRejectedAtItsPointer) {
    json document = crash_scenario();
    document["topology"]["routes"][0]["worker"]["behavior"]["quota"] = -1;
    const auto loaded = routesim::scenarios::load_scenario_text(document.dump(), "bad.json");
    ASSERT_FALSE(loaded.has_value());
    EXPECT_EQ(loaded.error().to_string(),
              "bad.json: /topology/routes/0/worker/behavior/quota: "
              "expected a number of messages (an integer >= 0), got -1");
}

RC_GTEST_PROP(SessionsProps, EveryInvariantHoldsOnGeneratedTrees, ()) {
    routesim::testing::SwarmPalette palette;
    palette.behaviors = {json{{"type", "session_counter"}},
                         json{{"type", "session_counter"}, {"quota", 3}}};
    palette.builtin_behaviors = false; // only our worker
    // Generated messages carry a "key" field: route by it, or spill them all to r0.
    palette.rules = {json{{"type", "sticky_user"}, {"user_field", "key"}},
                     json{{"type", "sticky_user"}, {"spill", "r0"}}};
    routesim::testing::check_invariants(routesim::testing::draw_swarm_scenario(palette));
}

} // namespace
