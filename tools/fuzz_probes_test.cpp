// Goal: a fuzz campaign counts, per reachability probe (`expect.sometimes`), the runs that
// reached it, never counts an unreached probe as a failing run, lists the probes no run
// reached, and its counts survive the results file: shards merged with `fuzz --merge` and
// `--jobs` workers give one campaign's counts, and a file without probes still merges.
// Method: a router whose route worker a random kill may hit (so its restart probe is reached
// by some runs only), a probe every run reaches and one no run reaches; the campaign's counts
// are compared with each run made again with the campaign's settings.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "tools/campaign_detail.hpp"
#include "tools/fuzz.hpp"

namespace routesim::tools {
namespace {

using nlohmann::json;

scenarios::Scenario probe_scenario() {
    auto loaded = scenarios::load_scenario_text(R"({"name": "probe-campaign",
        "run": {"until": "4ms"},
        "topology": {"kind": "router", "name": "r", "routes": [
            {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "echo"}}}],
          "route_message": {"route": "a"}},
        "workload": [{"from": "c", "to": "r", "send": {"type": "X"}, "count": 4,
                      "every": "1ms"}],
        "faults": {"kill": {"targets": ["route_workers"], "every": "3ms"}},
        "expect": {"invariants": [], "sometimes": [
            {"name": "router took", "event": {"kind": "take", "at": "r"}},
            {"name": "a restarted", "restarts": {"r/a": 1}},
            {"name": "a disabled", "route_state": {"r/a": "disabled"}}]}})",
                                                "inline.json");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : scenarios::Scenario{};
}

CampaignOptions options_for(std::uint64_t runs) {
    CampaignOptions options;
    options.seed = 3;
    options.runs = runs;
    return options;
}

TEST(FuzzProbes, CampaignCountsTheRunsThatReachedEachProbe) {
    const scenarios::Scenario scenario = probe_scenario();
    const CampaignOptions options = options_for(60);
    const CampaignResult result = run_campaign(scenario, options);
    EXPECT_EQ(result.runs, 60U);
    EXPECT_TRUE(result.failures.empty()) << "an unreached probe made a run fail";
    ASSERT_EQ(result.probes.size(), 3U);
    EXPECT_EQ(result.probes[0], (ProbeCount{"router took", 60}));
    EXPECT_GT(result.probes[1].runs, 0U);
    EXPECT_LT(result.probes[1].runs, 60U);
    EXPECT_EQ(result.probes[2], (ProbeCount{"a disabled", 0}));
    // The same count, run by run, with the campaign's settings.
    std::uint64_t restarted = 0;
    for (std::uint64_t index = 0; index < options.runs; index++) {
        const scenarios::RunResult run =
            scenarios::run_scenario(scenario, fuzz_settings(run_seed(options.seed, index),
                                                            options.scheduler, options.semantics));
        EXPECT_FALSE(run_failed(run));
        ASSERT_EQ(run.probes.size(), 3U);
        restarted += run.probes[1].reached ? 1U : 0U;
    }
    EXPECT_EQ(restarted, result.probes[1].runs);
    const std::string text = probes_text(result.probes, result.runs);
    EXPECT_NE(text.find("probes: 2 of 3 reached by some run\n  router took: 60 of 60 runs\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  reached by no run: a disabled\n"), std::string::npos) << text;
    const json document = results_json(result, options);
    EXPECT_EQ(document["probes"][1],
              (json{{"name", "a restarted"}, {"runs", result.probes[1].runs}}));
}

TEST(FuzzProbes, ShardsAndWorkersSumToOneCampaignsCounts) {
    const scenarios::Scenario scenario = probe_scenario();
    const CampaignOptions whole = options_for(40);
    const json expected = results_json(run_campaign(scenario, whole), whole);
    std::vector<json> shards;
    for (std::uint64_t shard = 0; shard < 2; shard++) {
        CampaignOptions options = options_for(40);
        options.shard_index = shard;
        options.shard_count = 2;
        shards.push_back(results_json(run_campaign(scenario, options), options));
    }
    EXPECT_NE(shards[0]["probes"], expected["probes"]);
    auto merged = merge_results(shards);
    ASSERT_TRUE(merged.has_value()) << merged.error();
    EXPECT_EQ(merged.value()["probes"], expected["probes"]);
    EXPECT_EQ(campaign_from_json(merged.value()).probes, campaign_from_json(expected).probes);

    CampaignOptions forked = options_for(40);
    forked.jobs = 2;
    EXPECT_EQ(results_json(run_campaign(scenario, forked), whole)["probes"], expected["probes"]);

    // A file without probes (written before they existed) adds none and still merges.
    json older = shards[1];
    older.erase("probes");
    auto with_older = merge_results({shards[0], older});
    ASSERT_TRUE(with_older.has_value()) << with_older.error();
    EXPECT_EQ(with_older.value()["probes"], shards[0]["probes"]);
    json broken = shards[1];
    broken["probes"] = json{{"name", "x"}};
    auto refused = merge_results({shards[0], broken});
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().find("/probes"), std::string::npos) << refused.error();
}

TEST(FuzzProbes, AScenarioWithoutProbesWritesNoProbes) {
    auto loaded = scenarios::load_scenario_text(R"({"name": "no-probes",
        "topology": {"kind": "actor", "name": "w", "behavior": {"type": "sink"}}})",
                                                "inline.json");
    ASSERT_TRUE(loaded.has_value());
    const CampaignOptions options = options_for(3);
    const CampaignResult result = run_campaign(loaded.value(), options);
    EXPECT_TRUE(result.probes.empty());
    EXPECT_FALSE(results_json(result, options).contains("probes"));
    EXPECT_EQ(probes_text(result.probes, result.runs), "");
}

} // namespace
} // namespace routesim::tools
