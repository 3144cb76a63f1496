// Goal: a failed expectation comes with the few events that decide it (Check::witnesses,
// scenarios/FORMAT.md "Exit codes and output"): per kind of check, the events its table
// names, named by path and PID, oldest first, at most CheckWitnesses::kept_max; none for a
// check that holds or when not asked; finding them changes nothing in the run.
// Method: the tutorial's broken scenario and the route-failures example, with expectations
// changed so that each kind of check fails; each check's witness texts are compared with the
// events the trace holds for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/run/runner.hpp"
#include "scenarios/testing.hpp"

namespace routesim::scenarios {
namespace {

using testing::check_at;
using testing::load;

nlohmann::json file_json(const std::string& relative) {
    std::ifstream in(std::string(ROUTESIM_SOURCE_DIR) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

/// The tutorial's broken scenario (a crash of orders/worker:1 at 5ms, a call of the shop that
/// times out) with `expect` replaced.
Scenario broken_with(const nlohmann::json& expect) {
    nlohmann::json doc = file_json("scenarios/tutorial/first-scenario-broken.json");
    doc.erase("$schema");
    doc["expect"] = expect;
    return load(doc.dump());
}

RunResult explained(const Scenario& scenario) {
    RunSettings settings;
    settings.explain_checks = true;
    return run_scenario(scenario, settings);
}

/// The witness texts of the check at `pointer`, which must have failed.
std::vector<std::string> witness_texts(const RunResult& result, std::string_view pointer) {
    const Check* check = check_at(result, pointer);
    EXPECT_NE(check, nullptr) << pointer;
    if (check == nullptr) {
        return {};
    }
    EXPECT_FALSE(check->ok) << pointer;
    std::vector<std::string> out;
    for (const properties::Witness& witness : check->witnesses) {
        out.push_back(witness.text);
    }
    return out;
}

bool starts(const std::string& text, std::string_view head) {
    return text.rfind(head, 0) == 0;
}

TEST(CheckWitnesses, AClientsCheckShowsItsCallWhereItWentAndHowItEnded) {
    const RunResult result = explained(broken_with({{"clients", {{"shop", {{"received", 1}}}}}}));
    const auto texts = witness_texts(result, "/expect/clients/shop/received");
    ASSERT_EQ(texts.size(), 5U);
    EXPECT_EQ(texts[0], "call caller=shop <…1006> ref=1 timeout_ns=5000000000");
    EXPECT_TRUE(starts(texts[2], "forward id=11 by=orders <…1001> to=orders/worker:1 <…1007>"))
        << texts[2];
    EXPECT_TRUE(starts(texts[3], "take pid=orders/worker:1 <…1007> id=11")) << texts[3];
    EXPECT_EQ(texts[4], "call_result caller=shop <…1006> ref=1 outcome=gen.ErrTimeout");
}

TEST(CheckWitnesses, AnErrorCountShowsTheCallsThatEndedWithThatError) {
    const RunResult result =
        explained(broken_with({{"clients", {{"shop", {{"errors", {{"gen.ErrTimeout", 0}}}}}}}}));
    EXPECT_EQ(
        witness_texts(result, "/expect/clients/shop/errors/gen.ErrTimeout"),
        std::vector<std::string>{"call_result caller=shop <…1006> ref=1 outcome=gen.ErrTimeout"});
}

TEST(CheckWitnesses, ARouteStateShowsTheRouteChangesAndTheWorkersExit) {
    const RunResult result =
        explained(broken_with({{"routes", {{"orders", {{"worker:1", {{"state", "dead"}}}}}}}}));
    const auto texts = witness_texts(result, "/expect/routes/orders/worker:1/state");
    EXPECT_EQ(texts,
              (std::vector<std::string>{
                  "route_init router=orders <…1001> name=worker:1 worker=orders/worker:1 <…1003>",
                  "exit pid=orders/worker:1 <…1003> reason=panic name=",
                  "route_restart router=orders <…1001> name=worker:1 restart=eager "
                  "worker=orders/worker:1 <…1007> slot=1"}));
}

TEST(CheckWitnesses, ARestartCountShowsTheRestartsAndTheExitsBehindThem) {
    const RunResult result =
        explained(broken_with({{"routes", {{"orders", {{"worker:1", {{"restarts", 0}}}}}}}}));
    const auto texts = witness_texts(result, "/expect/routes/orders/worker:1/restarts");
    EXPECT_EQ(texts, (std::vector<std::string>{
                         "exit pid=orders/worker:1 <…1003> reason=panic name=",
                         "route_restart router=orders <…1001> name=worker:1 restart=eager "
                         "worker=orders/worker:1 <…1007> slot=1"}));
}

TEST(CheckWitnesses, ALivenessCheckShowsTheTargetsSpawnsAndExits) {
    const RunResult result = explained(broken_with({{"dead", {"orders/worker:1"}}}));
    const auto texts = witness_texts(result, "/expect/dead/0");
    ASSERT_EQ(texts.size(), 3U);
    EXPECT_TRUE(starts(texts[0], "spawn pid=orders/worker:1 <…1003>")) << texts[0];
    EXPECT_TRUE(starts(texts[1], "exit pid=orders/worker:1 <…1003>")) << texts[1];
    EXPECT_TRUE(starts(texts[2], "spawn pid=orders/worker:1 <…1007>")) << texts[2];
}

TEST(CheckWitnesses, AProcessedCountShowsTheLastMessagesTaken) {
    const RunResult result = explained(broken_with({{"processed", {{"orders/worker:2", 99}}}}));
    const auto texts = witness_texts(result, "/expect/processed/orders~1worker:2");
    ASSERT_FALSE(texts.empty());
    ASSERT_LE(texts.size(), 5U);
    for (const std::string& text : texts) {
        EXPECT_TRUE(starts(text, "take pid=orders/worker:2 <…1004>") ||
                    starts(text, "spawn pid=orders/worker:2 <…1004>"))
            << text;
    }
    EXPECT_TRUE(starts(texts.back(), "take pid=orders/worker:2")) << texts.back();
}

TEST(CheckWitnesses, AnInspectionShowsTheLivesOfTheTargetAndItsChildren) {
    const RunResult result =
        explained(broken_with({{"inspect", {{"orders", {{"ergo:restarts", "9"}}}}}}));
    const auto texts = witness_texts(result, "/expect/inspect/orders/ergo:restarts");
    ASSERT_EQ(texts.size(), 5U);
    // The last of orders' and its workers' spawns and exits: the crash of worker:1 at 5ms
    // and the spawn of its successor come last.
    EXPECT_TRUE(starts(texts[0], "spawn pid=orders/worker:")) << texts[0];
    EXPECT_EQ(texts[3], "exit pid=orders/worker:1 <…1003> reason=panic name=");
    EXPECT_TRUE(starts(texts[4], "spawn pid=orders/worker:1 <…1007> parent=orders <…1001>"))
        << texts[4];
}

TEST(CheckWitnesses, AnInspectionOfAChildlessProcessShowsWhatItTook) {
    const RunResult result =
        explained(broken_with({{"inspect", {{"orders/worker:2", {{"processed", "99"}}}}}}));
    const auto texts = witness_texts(result, "/expect/inspect/orders~1worker:2/processed");
    ASSERT_FALSE(texts.empty());
    for (const std::string& text : texts) {
        EXPECT_TRUE(starts(text, "take pid=orders/worker:2 <…1004>")) << text;
    }
}

TEST(CheckWitnesses, ARouteFailureCountShowsTheFailedRoutings) {
    nlohmann::json doc = file_json("scenarios/examples/route-failures.json");
    doc.erase("$schema");
    doc["expect"] = {{"route_failed", {{"gw_dlq", {{"gen.ErrProcessUnknown", 9}}}}}};
    const RunResult result = explained(load(doc.dump()));
    const auto texts = witness_texts(result, "/expect/route_failed/gw_dlq/gen.ErrProcessUnknown");
    ASSERT_EQ(texts.size(), 3U); // the three failures counted
    for (const std::string& text : texts) {
        EXPECT_TRUE(starts(text, "route router=sup/gw_dlq <…1005>")) << text;
        EXPECT_NE(text.find("resolution=failed"), std::string::npos) << text;
        EXPECT_NE(text.find("reason=gen.ErrProcessUnknown"), std::string::npos) << text;
    }
}

TEST(CheckWitnesses, AreFoundOnlyForFailedChecksWhenAskedAndChangeNothing) {
    const Scenario scenario =
        broken_with({{"clients", {{"shop", {{"received", 1}}}}}, {"alive", {"orders/worker:1"}}});
    const RunResult plain = run_scenario(scenario);
    const RunResult asked = explained(scenario);
    EXPECT_EQ(plain.trace_hash, asked.trace_hash);
    ASSERT_EQ(plain.checks.size(), asked.checks.size());
    for (std::size_t i = 0; i < asked.checks.size(); i++) {
        EXPECT_TRUE(plain.checks[i].witnesses.empty()) << plain.checks[i].what;
        EXPECT_EQ(asked.checks[i].witnesses.empty(), asked.checks[i].ok) << asked.checks[i].what;
    }
}

TEST(CheckWitnesses, TheSummaryPrintsThemUnderTheFailLine) {
    const Scenario scenario =
        broken_with({{"clients", {{"shop", {{"errors", {{"gen.ErrTimeout", 0}}}}}}}});
    const std::string summary = format_summary(scenario, explained(scenario));
    EXPECT_NE(summary.find("  FAIL clients.shop.errors.gen.ErrTimeout at 5020ms: expected 0, got 1 "
                           "(/expect/clients/shop/errors/gen.ErrTimeout)\n"
                           "    #74 @5020ms call_result caller=shop <…1006> ref=1 "
                           "outcome=gen.ErrTimeout\n"),
              std::string::npos)
        << summary;
}

} // namespace
} // namespace routesim::scenarios
