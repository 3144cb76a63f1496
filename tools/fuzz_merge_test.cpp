// Goal: `fuzz --merge` counts each run (scheduler, semantics, run seed) once: the index
// arithmetic finds the runs two campaign slices share, a results file whose runs another holds
// is left out, and files that share only some runs, or disagree about one, are refused.
// Method: RunSets with known overlaps (checked against run_seed itself), and real campaigns
// of a planted race merged in every overlapping combination.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "tools/campaign_detail.hpp"
#include "tools/fuzz.hpp"

namespace routesim::tools {
namespace {

using detail::RunSet;
using nlohmann::json;

constexpr std::uint64_t gamma = 0x9e3779b97f4a7c15ULL;

RunSet set(std::uint64_t root, std::uint64_t first, std::uint64_t stride, std::uint64_t count,
           const std::string& scheduler = "random") {
    return RunSet{root, scheduler, "documented", IndexSlice{first, stride, count}};
}

TEST(FuzzMergeSlices, SharedRunsOfOneRootSeed) {
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 100), set(1, 50, 1, 100)), 50u);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 2, 50), set(1, 1, 2, 50)), std::nullopt);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 4, 50), set(1, 2, 6, 50)), 8u);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 100), set(1, 0, 1, 100, "pct")), std::nullopt);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 0), set(1, 0, 1, 100)), std::nullopt);
}

TEST(FuzzMergeSlices, SharedRunsOfRootSeedsOneGammaStepApart) {
    // Root 1 + 10 * gamma runs, from its index 0, the runs of root 1 from index 10.
    const std::uint64_t other = 1 + 10 * gamma;
    ASSERT_EQ(run_seed(other, 0), run_seed(1, 10));
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 20), set(other, 0, 1, 5)), 10u);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 10), set(other, 0, 1, 5)), std::nullopt);
    EXPECT_EQ(detail::first_shared_run(set(other, 0, 1, 5), set(1, 0, 1, 20)), 0u);
    EXPECT_EQ(detail::first_shared_run(set(1, 0, 1, 1000), set(2, 0, 1, 1000)), std::nullopt);
}

TEST(FuzzMergeSlices, HoldsAllOnlyWhenEveryRunIsInside) {
    EXPECT_TRUE(detail::holds_all(set(1, 0, 1, 100), set(1, 0, 2, 50)));
    EXPECT_FALSE(detail::holds_all(set(1, 0, 2, 50), set(1, 0, 1, 100)));
    EXPECT_TRUE(detail::holds_all(set(1, 0, 2, 50), set(1, 2, 4, 10)));
    EXPECT_FALSE(detail::holds_all(set(1, 0, 2, 50), set(1, 2, 4, 30)));
    EXPECT_TRUE(detail::holds_all(set(1, 0, 1, 20), set(1 + 10 * gamma, 0, 1, 10)));
    EXPECT_TRUE(detail::holds_run(set(1, 3, 3, 4), 1, 12));
    EXPECT_FALSE(detail::holds_run(set(1, 3, 3, 4), 1, 15));
}

scenarios::Scenario race() {
    auto loaded = scenarios::load_scenario_file(std::string(ROUTESIM_SOURCE_DIR) +
                                                "/scenarios/races/kill-during-restart.json");
    EXPECT_TRUE(loaded.has_value());
    return loaded ? std::move(loaded).value() : scenarios::Scenario{};
}

json campaign(const scenarios::Scenario& scenario, std::uint64_t runs, std::uint64_t shard = 0,
              std::uint64_t shards = 1, std::uint32_t jobs = 1) {
    CampaignOptions options;
    options.scheduler = sim::Policy::Pct;
    options.runs = runs;
    options.shard_index = shard;
    options.shard_count = shards;
    options.jobs = jobs;
    return results_json(run_campaign(scenario, options), options);
}

void expect_same_runs(const json& merged, const json& expected) {
    EXPECT_EQ(merged["runs"], expected["runs"]);
    EXPECT_EQ(merged["coverage"], expected["coverage"]);
    EXPECT_EQ(merged["failures"], expected["failures"]);
}

TEST(FuzzMerge, OverlappingFilesCountEachRunOnce) {
    const scenarios::Scenario scenario = race();
    const json whole = campaign(scenario, 300);
    ASSERT_FALSE(whole["failures"].empty());
    const json prefix = campaign(scenario, 100);
    const json even = campaign(scenario, 300, 0, 2, 2);
    const json odd = campaign(scenario, 300, 1, 2);
    const std::vector<std::pair<std::vector<json>, std::size_t>> cases = {
        {{whole, whole}, 1},    {{prefix, whole}, 1}, {{whole, prefix}, 1},
        {{even, odd, even}, 1}, {{even, odd}, 0},     {{even, odd, even, whole}, 3}};
    for (const auto& [inputs, left] : cases) {
        std::vector<std::string> left_out;
        auto merged = merge_results(inputs, {}, &left_out);
        ASSERT_TRUE(merged.has_value()) << merged.error();
        expect_same_runs(merged.value(), whole);
        EXPECT_EQ(left_out.size(), left) << inputs.size() << " inputs";
    }
}

TEST(FuzzMerge, FilesSharingSomeRunsAreRefused) {
    const scenarios::Scenario scenario = race();
    auto merged = merge_results({campaign(scenario, 100), campaign(scenario, 400, 0, 2)},
                                {"a.json", "b.json"});
    ASSERT_FALSE(merged.has_value());
    EXPECT_NE(merged.error().find("a.json and b.json both hold run seed " +
                                  std::to_string(run_seed(1, 0))),
              std::string::npos)
        << merged.error();
}

TEST(FuzzMerge, FilesDisagreeingAboutARunAreRefused) {
    const scenarios::Scenario scenario = race();
    const json whole = campaign(scenario, 200);
    ASSERT_FALSE(whole["failures"].empty());
    json changed = whole;
    changed["failures"][0]["trace_hash"] = "0000000000000001";
    json passing = whole;
    passing["failures"].erase(0);
    const std::string seed = std::to_string(whole["failures"][0]["seed"].get<std::uint64_t>());
    for (const json& other : {changed, passing}) {
        auto merged = merge_results({whole, other}, {"a.json", "b.json"});
        ASSERT_FALSE(merged.has_value());
        EXPECT_NE(merged.error().find("disagree about run seed " + seed), std::string::npos)
            << merged.error();
    }
}

TEST(FuzzMerge, MalformedFilesAreNamedWithTheirPointer) {
    const scenarios::Scenario scenario = race();
    json bad = campaign(scenario, 10);
    bad["campaigns"][0]["slices"][0]["stride"] = 0;
    auto merged = merge_results({bad}, {"x.json"});
    ASSERT_FALSE(merged.has_value());
    EXPECT_EQ(merged.error().rfind("x.json: /campaigns/0/slices/0: expected", 0), 0u)
        << merged.error();
    json old = campaign(scenario, 10);
    old["format"] = "routesim-fuzz-results/1";
    merged = merge_results({old}, {"y.json"});
    ASSERT_FALSE(merged.has_value());
    EXPECT_EQ(merged.error().rfind("y.json: /format: expected", 0), 0u) << merged.error();
}

} // namespace
} // namespace routesim::tools
