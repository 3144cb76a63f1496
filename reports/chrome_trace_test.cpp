// Goal: trace.json is Chrome trace event JSON that Perfetto opens: one named track per
// process, one complete event per message taken, restarts and faults as instants, pending
// windows as matched async pairs. Method: run small scenarios, build the trace, parse its
// text back and count events by phase and category against the collected facts.
#include <gtest/gtest.h>

#include <map>

#include "reports/chrome_trace.hpp"
#include "reports/testing.hpp"

namespace routesim::reports {
namespace {

using testing::load;

struct Parsed {
    nlohmann::json json;
    std::map<std::string, std::size_t> by_category; // "ph/cat" or "M/name"
};

Parsed parsed_trace(const std::string& name, CollectedRun& run) {
    const scenarios::Scenario scenario = load(name);
    run = run_collected(scenario);
    const std::string text =
        to_chrome_trace(run.facts, process_labels(scenario, run.facts), scenario.name).dump();
    Parsed parsed{nlohmann::json::parse(text), {}};
    for (const auto& event : parsed.json.at("traceEvents")) {
        const std::string phase = event.at("ph");
        parsed.by_category[phase + "/" +
                           std::string(phase == "M" ? event.at("name") : event.at("cat"))]++;
    }
    return parsed;
}

std::size_t records_of(const RunFacts& facts, std::string_view kind) {
    std::size_t count = 0;
    for (const sim::TraceRecord& record : facts.records) {
        count += record.kind == kind ? 1U : 0U;
    }
    return count;
}

TEST(ChromeTrace, HasOneTrackPerProcessAndOneEventPerTake) {
    CollectedRun run;
    const Parsed trace = parsed_trace("content-dispatch", run);
    const std::size_t tracks = run.facts.processes.size() + 1; // + the node's core process
    EXPECT_EQ(trace.by_category.at("M/process_name"), 1U);
    EXPECT_EQ(trace.by_category.at("M/thread_name"), tracks);
    EXPECT_EQ(trace.by_category.at("M/thread_sort_index"), tracks);
    EXPECT_EQ(trace.by_category.at("X/take"), records_of(run.facts, "take"));
    EXPECT_EQ(trace.by_category.at("X/take"), 55U);
    EXPECT_EQ(trace.by_category.at("i/spawn"), 7U);
    // Nothing else: 1 + 2 tracks + takes + spawns (no exits, restarts or faults here).
    EXPECT_EQ(trace.json.at("traceEvents").size(), 1 + 2 * tracks + 55 + 7);
    EXPECT_EQ(trace.json.at("otherData").at("events"), run.facts.events);
    EXPECT_FALSE(trace.json.at("otherData").at("truncated").get<bool>());
}

TEST(ChromeTrace, MarksRestartsFaultsAndPendingWindows) {
    CollectedRun run;
    const Parsed trace = parsed_trace("route-restarts", run);
    EXPECT_EQ(trace.by_category.at("i/restart"), 2U);
    EXPECT_EQ(trace.by_category.at("i/fault"), 2U);
    EXPECT_EQ(trace.by_category.at("b/pending"), 1U);
    EXPECT_EQ(trace.by_category.at("e/pending"), 1U);
    for (const auto& event : trace.json.at("traceEvents")) {
        if (event.at("ph") == "b") {
            EXPECT_EQ(event.at("name"), "pending shipments");
            EXPECT_EQ(event.at("ts"), 2500.0); // microseconds
        }
    }
}

TEST(ChromeTrace, TakeDurationIsTheProcessingCost) {
    CollectedRun run;
    const Parsed trace = parsed_trace("registry-shards", run);
    bool found = false;
    for (const auto& event : trace.json.at("traceEvents")) {
        if (event.at("ph") == "X" && event.at("name") == "Order" &&
            event.at("dur").get<double>() == 20.0) { // keyed_state cost 20us
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace routesim::reports
