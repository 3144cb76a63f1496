// Goal: `routesim fuzz` finds the planted races of scenarios/races/ within a stated bound,
// shrinks each to a reproducer that replays with the same failure and the same trace hash,
// shrinks deterministically, and splits and merges campaigns by seed.
// Method: drive the fuzz library (run_campaign, shrink_failure, results/merge) on the race
// files; replay reproducers through the loader and runner exactly as `routesim run` does.
#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/testing_mutation.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/prng.hpp"
#include "tools/campaign_detail.hpp"
#include "tools/fuzz.hpp"
#include "tools/fuzz/race_observer.hpp"
#include "tools/shrink.hpp"
#include "tools/shrink_detail.hpp"

namespace routesim::tools {
namespace {

using nlohmann::json;

const std::string source_dir = ROUTESIM_SOURCE_DIR;

/// The bound of the default tests: every planted race must fail within this many runs.
constexpr std::uint64_t runs_bound = 200;

const std::vector<std::string> race_files = {"call-during-pending-replace", "disable-races-kill",
                                             "restart-races-pool-forward", "kill-during-restart"};

struct Loaded {
    json document;
    scenarios::Scenario scenario;
};

Loaded load(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto scenario = scenarios::load_scenario_text(text.str(), path);
    EXPECT_TRUE(scenario.has_value()) << (scenario ? "" : scenario.error().to_string());
    return Loaded{json::parse(text.str()),
                  scenario ? std::move(scenario).value() : scenarios::Scenario{}};
}

Loaded load_race(const std::string& name) {
    return load(source_dir + "/scenarios/races/" + name + ".json");
}

CampaignOptions bounded(std::uint64_t runs = runs_bound) {
    CampaignOptions options;
    options.seed = 1;
    options.runs = runs;
    return options;
}

/// Shrinks the first failure of a bounded campaign.
Reproducer shrink_first(const Loaded& race, const CampaignOptions& options) {
    const CampaignResult campaign = run_campaign(race.scenario, options);
    EXPECT_FALSE(campaign.failures.empty());
    if (campaign.failures.empty()) {
        return {};
    }
    const FailureRecord& first = campaign.failures.front();
    const scenarios::RunResult failing = scenarios::run_scenario(
        race.scenario, fuzz_settings(first.seed, options.scheduler, options.semantics));
    ShrinkInput input{&race.document,    first.seed, options.scheduler,
                      options.semantics, &failing,   first.key};
    auto reproducer = shrink_failure(input);
    EXPECT_TRUE(reproducer.has_value()) << (reproducer ? "" : reproducer.error());
    return reproducer ? std::move(reproducer).value() : Reproducer{};
}

/// Runs a reproducer's text as `routesim run FILE` does (default settings, the CLI's
/// instrument for `faults.aim`).
scenarios::RunResult replay(const std::string& text) {
    auto scenario = scenarios::load_scenario_text(text, "reproducer");
    EXPECT_TRUE(scenario.has_value()) << (scenario ? "" : scenario.error().to_string());
    if (!scenario) {
        return {};
    }
    scenarios::RunSettings settings;
    settings.instrument = &fuzz::shared_observer();
    return scenarios::run_scenario(scenario.value(), settings);
}

TEST(FuzzRaces, EachPassesUnderFifo) {
    for (const std::string& name : race_files) {
        const Loaded race = load_race(name);
        const scenarios::RunResult result = scenarios::run_scenario(race.scenario);
        EXPECT_TRUE(result.passed() && result.violations.empty()) << name;
    }
}

TEST(FuzzRaces, EachIsFoundWithinTheBound) {
    for (const std::string& name : race_files) {
        for (sim::Policy scheduler : {sim::Policy::Random, sim::Policy::Pct}) {
            CampaignOptions options = bounded();
            options.scheduler = scheduler;
            const CampaignResult result = run_campaign(load_race(name).scenario, options);
            EXPECT_EQ(result.runs, runs_bound);
            ASSERT_FALSE(result.failures.empty())
                << name << " under " << sim::policy_name(scheduler);
            EXPECT_EQ(result.failures.front().key.kind, "check") << name;
        }
    }
}

TEST(FuzzRaces, ReproducerReplaysWithTheSameFailureAndTraceHash) {
    for (const std::string& name : race_files) {
        const Loaded race = load_race(name);
        const Reproducer reproducer = shrink_first(race, bounded());
        EXPECT_TRUE(reproducer.pinned) << name;
        const scenarios::RunResult replayed = replay(reproducer_text(reproducer.document));
        const auto failure = failure_of(reproducer.result);
        ASSERT_TRUE(failure.has_value()) << name;
        EXPECT_TRUE(shows(replayed, *failure)) << name;
        EXPECT_EQ(replayed.trace_hash, reproducer.result.trace_hash) << name;
        EXPECT_FALSE(replayed.passed()) << name;
    }
}

TEST(FuzzRaces, ShrinkingTwiceGivesTheSameReproducer) {
    for (const std::string& name : race_files) {
        const Loaded race = load_race(name);
        const std::string first = reproducer_text(shrink_first(race, bounded()).document);
        const std::string second = reproducer_text(shrink_first(race, bounded()).document);
        EXPECT_EQ(first, second) << name;
    }
}

TEST(FuzzRaces, ShrinkKeepsTheRaceNotJustTheSymptom) {
    // The disable/kill race shrinks to its two actions and the one choice that matters; the
    // traffic, which only shifts the choices, goes.
    const Reproducer reproducer = shrink_first(load_race("disable-races-kill"), bounded());
    EXPECT_EQ(reproducer.after.timeline, 2U);
    EXPECT_EQ(reproducer.after.workload_entries, 0U);
    EXPECT_EQ(reproducer.after.schedule, 1U);
    EXPECT_EQ(reproducer.document["run"]["schedule"], json::array({1}));
}

TEST(FuzzRaces, ReproducerDescriptionSaysWhatFailsAndShowsItsWitnesses) {
    // The description is the failure in words, how the run was made, the faults on its
    // timeline and the witness lines; the scenario's own description is not repeated.
    const Loaded race = load_race("disable-races-kill");
    const Reproducer reproducer = shrink_first(race, bounded());
    const std::string description = reproducer.document.value("description", "");
    const auto failure = failure_of(reproducer.result);
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(description.rfind("Reproducer: " + explain_failure(reproducer.result, *failure) +
                                    ". Found by routesim fuzz; seed ",
                                0),
              0U)
        << description;
    EXPECT_NE(description.find(", scheduler " +
                               reproducer.document["run"].value("scheduler", std::string()) +
                               ", semantics documented; faults and management on its timeline: "),
              std::string::npos)
        << description;
    EXPECT_NE(description.find("disable_route "), std::string::npos) << description;
    ASSERT_FALSE(reproducer.witnesses.empty());
    EXPECT_NE(description.find(" Witnesses: " + reproducer.witnesses.front() + ";"),
              std::string::npos)
        << description;
    EXPECT_EQ(description.find(race.scenario.description), std::string::npos) << description;
    // The witness lines tell the events as the trace view does, processes by path and PID.
    EXPECT_NE(description.find("audit_router/audit <\u2026"), std::string::npos) << description;
    EXPECT_EQ(description.find(" pid="), std::string::npos) << description;
}

TEST(FuzzRaces, AimedKillIsPinnedBetweenSteps) {
    // kill-during-restart needs a kill right after the supervisor's restart decision: the
    // fuzzer aims one there, and the reproducer pins it with `step`.
    const Reproducer reproducer = shrink_first(load_race("kill-during-restart"), bounded());
    bool pinned_step = false;
    for (const json& action : reproducer.document["timeline"]) {
        pinned_step = pinned_step || (action.contains("kill") && action.value("step", 0) > 0);
    }
    EXPECT_TRUE(pinned_step) << reproducer.document.dump(2);
    EXPECT_FALSE(reproducer.document.contains("faults"));
}

TEST(FuzzCoverage, RacesReachTheirWindows) {
    const CampaignResult pending =
        run_campaign(load_race("call-during-pending-replace").scenario, bounded());
    EXPECT_GT(pending.coverage.count("window:call_routed_while_pending_replace"), 0U);
    EXPECT_GT(pending.coverage.count("pending_replace x call:owned"), 0U);
    const CampaignResult restart =
        run_campaign(load_race("kill-during-restart").scenario, bounded());
    EXPECT_GT(restart.coverage.count("window:kill_during_supervisor_restart"), 0U);
}

TEST(FuzzCoverage, ReportListsReachedAndMissedWindowsAndPairsByState) {
    const std::map<std::string, CoverageCount> coverage = {
        {"window:call_routed_while_pending_replace", {3, 4}},
        {"window:eager_restart", {10, 25}},
        {"pending_replace x call:owned", {3, 4}},
        {"running x message:owned", {10, 900}},
        {"absent x admin:add:ok", {1, 1}},
    };
    const std::string text = coverage_text(coverage);
    const std::size_t windows = fuzz::coverage_windows().size();
    EXPECT_NE(text.find("coverage: 2 of " + std::to_string(windows) +
                        " pending/restart windows and 3 (route state, event) pairs reached"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("    call_routed_while_pending_replace"), std::string::npos) << text;
    EXPECT_NE(text.find("3 runs          4 times\n"), std::string::npos) << text;
    // Windows never reached are named, so a user sees that the race was not exercised.
    EXPECT_NE(text.find("not reached: message_routed_while_pending_disable"), std::string::npos)
        << text;
    EXPECT_NE(text.find("pool_forward_to_dead_worker"), std::string::npos) << text;
    // Pairs under their state, states in the fixed order (running before pending_replace
    // before absent).
    const std::size_t running = text.find("    running:\n      message:owned");
    const std::size_t pending = text.find("    pending_replace:\n      call:owned");
    const std::size_t absent = text.find("    absent:\n      admin:add:ok");
    ASSERT_NE(running, std::string::npos) << text;
    ASSERT_NE(pending, std::string::npos) << text;
    ASSERT_NE(absent, std::string::npos) << text;
    EXPECT_LT(running, pending);
    EXPECT_LT(pending, absent);
}

TEST(FuzzCoverage, EntriesAreNamedOnceAndFoundByName) {
    const std::size_t entries = fuzz::coverage_entries_count();
    std::set<std::string> names;
    for (std::size_t entry = 0; entry < entries; entry++) {
        names.insert(fuzz::coverage_name(entry));
    }
    EXPECT_EQ(names.size(), entries);
    EXPECT_EQ(fuzz::coverage_name(0), "running x message:owned");
    EXPECT_EQ(fuzz::coverage_name(entries - 1), "window:" + fuzz::coverage_windows().back());
    std::vector<std::uint64_t> counts(entries, 0);
    counts[3] = 5;
    counts[entries - 1] = 2;
    const scenarios::Coverage run(counts);
    EXPECT_EQ(fuzz::coverage_times(run, fuzz::coverage_name(3)), 5U);
    EXPECT_EQ(fuzz::coverage_times(run, fuzz::coverage_name(entries - 1)), 2U);
    EXPECT_EQ(fuzz::coverage_times(run, "no such key"), 0U);
    const std::map<std::string, std::uint64_t> reached = fuzz::coverage_reached(run);
    EXPECT_EQ(reached, (std::map<std::string, std::uint64_t>{
                           {fuzz::coverage_name(3), 5}, {fuzz::coverage_name(entries - 1), 2}}));
}

TEST(FuzzCoverage, TallyCountsRunsAndEventsPerKeyAndSkipsRunsWithoutCoverage) {
    const std::size_t entries = fuzz::coverage_entries_count();
    std::vector<std::uint64_t> first(entries, 0);
    std::vector<std::uint64_t> second(entries, 0);
    first[0] = 3;
    first[7] = 1;
    second[0] = 2;
    detail::CoverageTally tally;
    tally.add(scenarios::Coverage(first));
    tally.add(scenarios::Coverage());
    tally.add(scenarios::Coverage(second));
    const std::map<std::string, CoverageCount> sums = tally.as_map();
    ASSERT_EQ(sums.size(), 2U);
    const CoverageCount owned = sums.at(fuzz::coverage_name(0));
    EXPECT_EQ(owned.runs, 2U);
    EXPECT_EQ(owned.events, 5U);
    const CoverageCount seventh = sums.at(fuzz::coverage_name(7));
    EXPECT_EQ(seventh.runs, 1U);
    EXPECT_EQ(seventh.events, 1U);
    EXPECT_TRUE(detail::CoverageTally().as_map().empty());
}

TEST(FuzzCoverage, EveryWindowARaceCampaignReachesIsAKnownWindow) {
    const CampaignResult campaign =
        run_campaign(load_race("call-during-pending-replace").scenario, bounded(50));
    const std::vector<std::string> windows = fuzz::coverage_windows();
    const std::vector<std::string> states = fuzz::coverage_states();
    for (const auto& [key, count] : campaign.coverage) {
        EXPECT_GT(count.runs, 0U) << key;
        EXPECT_GE(count.events, count.runs) << key;
        if (key.starts_with("window:")) {
            EXPECT_NE(std::find(windows.begin(), windows.end(), key.substr(7)), windows.end())
                << key;
        } else {
            const std::size_t at = key.find(" x ");
            ASSERT_NE(at, std::string::npos) << key;
            EXPECT_NE(std::find(states.begin(), states.end(), key.substr(0, at)), states.end())
                << key;
        }
    }
}

TEST(FuzzSeeds, RunSeedsAreSplitmixOfRootAndIndex) {
    std::uint64_t state = 7;
    EXPECT_EQ(run_seed(7, 0), sim::splitmix64(state));
    EXPECT_EQ(run_seed(7, 1), sim::splitmix64(state));
    EXPECT_NE(run_seed(7, 5), run_seed(8, 5));
}

TEST(FuzzShards, ShardsMergeToTheWholeCampaign) {
    const Loaded race = load_race("call-during-pending-replace");
    const CampaignOptions whole = bounded();
    const json expected = results_json(run_campaign(race.scenario, whole), whole);
    std::vector<json> parts;
    for (std::uint64_t shard = 0; shard < 3; shard++) {
        CampaignOptions options = bounded();
        options.shard_index = shard;
        options.shard_count = 3;
        parts.push_back(results_json(run_campaign(race.scenario, options), options));
    }
    parts.push_back(parts.front()); // the same shard twice counts once
    auto merged = merge_results(parts);
    ASSERT_TRUE(merged.has_value()) << merged.error();
    EXPECT_EQ(merged.value()["runs"], expected["runs"]);
    EXPECT_EQ(merged.value()["coverage"], expected["coverage"]);
    std::vector<std::uint64_t> merged_seeds;
    std::vector<std::uint64_t> whole_seeds;
    for (const json& item : merged.value()["failures"]) {
        merged_seeds.push_back(item["seed"]);
    }
    for (const json& item : expected["failures"]) {
        whole_seeds.push_back(item["seed"]);
    }
    EXPECT_EQ(merged_seeds, whole_seeds);
}

TEST(FuzzShards, MergeRejectsOtherDocumentsAndOtherScenarios) {
    EXPECT_FALSE(merge_results({json{{"format", "something-else"}}}).has_value());
    const json a{{"format", "routesim-fuzz-results/2"},
                 {"scenario", "a"},
                 {"runs", 0},
                 {"campaigns", json::array()},
                 {"failures", json::array()},
                 {"coverage", json::object()}};
    json b = a;
    b["scenario"] = "b";
    ASSERT_TRUE(merge_results({a, a}).has_value());
    auto merged = merge_results({a, b});
    ASSERT_FALSE(merged.has_value());
    EXPECT_EQ(merged.error(), "document 2 is for scenario \"b\", document 1 for \"a\"");
}

TEST(FuzzJobs, WorkerProcessesFindWhatOneProcessFinds) {
    const Loaded race = load_race("restart-races-pool-forward");
    CampaignOptions one = bounded();
    CampaignOptions two = bounded();
    two.jobs = 2;
    const CampaignResult single = run_campaign(race.scenario, one);
    const CampaignResult forked = run_campaign(race.scenario, two);
    EXPECT_EQ(forked.runs, single.runs);
    ASSERT_EQ(forked.failures.size(), single.failures.size());
    for (std::size_t i = 0; i < single.failures.size(); i++) {
        EXPECT_EQ(forked.failures[i].seed, single.failures[i].seed);
        EXPECT_EQ(forked.failures[i].key, single.failures[i].key);
    }
    EXPECT_EQ(results_json(forked, one)["coverage"], results_json(single, one)["coverage"]);
}

/// What a run did, in a form two runs of one scenario can be compared by (the trace hash of
/// a pinned replay differs by the fault events the fuzzer alone emits).
json behaviour(const scenarios::RunResult& result) {
    // Not the end time: the original keeps its random-fault timers until the run goes quiet.
    json out{
        {"decisions", result.decisions},    {"stop", sim::stop_reason_name(result.outcome.reason)},
        {"sent", result.ledger.sent},       {"handled", result.ledger.handled},
        {"dropped", result.ledger.dropped}, {"route_failed", result.ledger.route_failed}};
    for (const auto& router : result.routers) {
        json routes = json::array();
        for (const auto& row : router.routes) {
            routes.push_back(json{row.name, row.state, row.pid, row.restarts});
        }
        out["routers"].push_back(json{router.path, router.alive, router.counters.forwarded,
                                      router.counters.failed, router.counters.restarts, routes});
    }
    for (const auto& [name, record] : result.clients) {
        out["clients"][name] = json{record.received, record.types, record.errors};
    }
    return out;
}

TEST(FuzzPins, PinnedFaultsReplayTheRunTheyCameFrom) {
    // Every kind of random fault (timed kills and admin calls, drawn crashes and spawn
    // failures, aimed faults) pinned as timeline actions, with the decision log, replays the
    // same run: same choices, same counters, same outcome for every client.
    const Loaded small = load(source_dir + "/tools/testdata/fuzz-small.json");
    std::uint64_t pinned = 0;
    std::set<std::string> origins;
    for (std::uint64_t index = 0; index < 40; index++) {
        scenarios::RunSettings settings =
            fuzz_settings(run_seed(1, index), sim::Policy::Random, std::nullopt);
        settings.stop_on_violation = false;
        const scenarios::RunResult original = scenarios::run_scenario(small.scenario, settings);
        ShrinkInput input{&small.document, run_seed(1, index), sim::Policy::Random,
                          std::nullopt,    &original,          FailureKey{"check", "none"}};
        const auto document = detail::pinned_document(input);
        if (!document.has_value()) {
            continue; // a spawn failure during the build: only the seed replays it
        }
        pinned++;
        for (const auto& fault : original.faults) {
            const std::size_t colon = fault.origin.find(':');
            origins.insert(colon == std::string::npos ? fault.origin
                                                      : fault.origin.substr(0, colon + 1));
        }
        scenarios::RunSettings plain;
        plain.check_determinism = false;
        const auto replayed = detail::Evaluator::run(*document, plain);
        ASSERT_TRUE(replayed.has_value()) << document->dump(2);
        EXPECT_EQ(behaviour(*replayed), behaviour(original)) << "run " << index;
    }
    EXPECT_GE(pinned, 30U);
    EXPECT_EQ(origins, (std::set<std::string>{"aim:", "faults.admin", "faults.crash", "faults.kill",
                                              "faults.spawn_fail"}));
}

TEST(FuzzPins, UnpinnableFailureFallsBackToTheSeed) {
    // A spawn failure during the build cannot be a timeline action: the reproducer keeps the
    // random faults (with `aim`) and replays them from the failing seed.
    const Loaded boot = load(source_dir + "/tools/testdata/fuzz-boot-failure.json");
    const Reproducer reproducer = shrink_first(boot, bounded());
    EXPECT_FALSE(reproducer.pinned);
    EXPECT_TRUE(reproducer.document["faults"].value("aim", false));
    const scenarios::RunResult replayed = replay(reproducer_text(reproducer.document));
    EXPECT_EQ(replayed.trace_hash, reproducer.result.trace_hash);
    EXPECT_FALSE(replayed.passed());
}

// The scenarios campaign optimisations are checked on: the throughput scenario, two
// examples and every planted race.
std::vector<std::string> campaign_equivalence_files() {
    std::vector<std::string> files = {source_dir + "/tools/testdata/fuzz-small.json",
                                      source_dir + "/scenarios/examples/cqrs.json",
                                      source_dir + "/scenarios/examples/content-dispatch.json"};
    for (const std::string& race : race_files) {
        files.push_back(source_dir + "/scenarios/races/" + race + ".json");
    }
    return files;
}

TEST(FuzzCache, SharedMessagesChangeNothing) {
    // The campaign's message cache (workload messages, echo receipts and fault workers shared
    // across runs) is an optimisation only: every run gives the same trace, decisions,
    // faults, coverage and verdicts with it as without it.
    const std::vector<std::string> files = campaign_equivalence_files();
    for (const std::string& file : files) {
        const Loaded loaded = load(file);
        scenarios::MessageCache cache(loaded.scenario);
        for (std::uint64_t index = 0; index < 60; index++) {
            scenarios::RunSettings plain =
                fuzz_settings(run_seed(7, index), sim::Policy::Random, std::nullopt);
            scenarios::RunSettings shared = plain;
            shared.cache = &cache;
            const scenarios::RunResult a = scenarios::run_scenario(loaded.scenario, plain);
            const scenarios::RunResult b = scenarios::run_scenario(loaded.scenario, shared);
            ASSERT_EQ(a.trace_hash, b.trace_hash) << file << " run " << index;
            EXPECT_EQ(a.trace_events, b.trace_events);
            EXPECT_EQ(a.decisions, b.decisions);
            ASSERT_EQ(a.faults.size(), b.faults.size());
            for (std::size_t i = 0; i < a.faults.size(); i++) {
                // Fault workers come from the cache too (MessageCache::fault_worker).
                EXPECT_EQ(a.faults[i].target, b.faults[i].target) << file << " run " << index;
                EXPECT_EQ(a.faults[i].route, b.faults[i].route) << file << " run " << index;
                EXPECT_EQ(a.faults[i].worker_pointer, b.faults[i].worker_pointer);
            }
            EXPECT_EQ(a.coverage, b.coverage);
            EXPECT_EQ(a.violations.size(), b.violations.size());
            EXPECT_EQ(a.passed(), b.passed());
            ASSERT_EQ(a.clients.size(), b.clients.size());
            for (const auto& [name, record] : a.clients) {
                EXPECT_EQ(record.received, b.clients.at(name).received) << name;
                EXPECT_EQ(record.types, b.clients.at(name).types) << name;
                EXPECT_EQ(record.errors, b.clients.at(name).errors) << name;
            }
        }
    }
}

// Every violation of a run as text (invariant, time, explanation, witnesses).
std::vector<std::string> violation_texts(const scenarios::RunResult& result) {
    std::vector<std::string> texts;
    for (const properties::Violation& violation : result.violations) {
        texts.push_back(violation.to_string());
    }
    return texts;
}

TEST(FuzzMonitorKit, ReusedMonitorsJudgeEveryRunAsFreshOnesDo) {
    // A campaign resets one set of monitors between runs instead of making new ones. A
    // monitor that forgot something in reset() would stop a later run early (a different
    // trace), report a stale violation, or miscount the ledger. One kit serves every file
    // in turn, so it is also rebuilt when the invariants change; the races make violations.
    const std::vector<std::string> files = campaign_equivalence_files();
    // Every third run breaks a routing rule, so violations come and go between runs.
    const std::array<runtime::Mutation, 3> mutations = {
        runtime::Mutation::None, runtime::Mutation::DropSender,
        runtime::Mutation::DiscardCountedAsForwarded};
    scenarios::MonitorKit kit;
    std::size_t failing_runs = 0;
    for (const std::string& file : files) {
        const Loaded loaded = load(file);
        for (std::uint64_t index = 0; index < 40; index++) {
            scenarios::RunSettings fresh =
                fuzz_settings(run_seed(11, index), sim::Policy::Random, std::nullopt);
            scenarios::RunSettings reused = fresh;
            reused.monitors = &kit;
            const runtime::MutationScope broken(mutations[index % mutations.size()]);
            const scenarios::RunResult b = scenarios::run_scenario(loaded.scenario, reused);
            const scenarios::RunResult a = scenarios::run_scenario(loaded.scenario, fresh);
            ASSERT_EQ(a.trace_hash, b.trace_hash) << file << " run " << index;
            EXPECT_EQ(a.outcome.end, b.outcome.end) << file << " run " << index;
            EXPECT_EQ(violation_texts(a), violation_texts(b)) << file << " run " << index;
            ASSERT_EQ(a.invariants.size(), b.invariants.size());
            for (std::size_t i = 0; i < a.invariants.size(); i++) {
                EXPECT_EQ(a.invariants[i].name, b.invariants[i].name);
                EXPECT_EQ(a.invariants[i].verdict, b.invariants[i].verdict)
                    << file << " run " << index << " " << a.invariants[i].name;
            }
            EXPECT_EQ(a.ledger.to_string(), b.ledger.to_string()) << file << " run " << index;
            EXPECT_EQ(a.passed(), b.passed());
            failing_runs += a.violations.empty() ? 0U : 1U;
        }
    }
    EXPECT_GT(kit.reuses(), files.size() * 30);
    EXPECT_GT(failing_runs, files.size() * 5); // violations came and went between runs
}

TEST(FuzzMonitorKit, RestartedRaceObserverCountsAndAimsAsAFreshOne) {
    // A campaign's race observer is restarted for each run instead of made anew. One that
    // kept a route state, an aim budget, a PCT change point or a count from the run before
    // would aim elsewhere (other faults, another trace) or count other coverage. One observer
    // (and one monitor kit) serves every file in turn, under both schedulers.
    const std::array<sim::Policy, 2> policies = {sim::Policy::Random, sim::Policy::Pct};
    scenarios::MonitorKit kit;
    fuzz::RaceObserver kept;
    std::uint64_t aimed = 0;
    for (const std::string& file : campaign_equivalence_files()) {
        const Loaded loaded = load(file);
        for (std::uint64_t index = 0; index < 30; index++) {
            scenarios::RunSettings fresh =
                fuzz_settings(run_seed(13, index), policies[index % 2], std::nullopt);
            scenarios::RunSettings reused = fresh;
            reused.monitors = &kit;
            reused.instrument = &kept;
            const scenarios::RunResult b = scenarios::run_scenario(loaded.scenario, reused);
            fuzz::RaceObserver made; // a new observer for this run only
            fresh.instrument = &made;
            const scenarios::RunResult a = scenarios::run_scenario(loaded.scenario, fresh);
            ASSERT_EQ(a.trace_hash, b.trace_hash) << file << " run " << index;
            EXPECT_EQ(a.coverage, b.coverage) << file << " run " << index;
            EXPECT_EQ(a.decisions, b.decisions) << file << " run " << index;
            ASSERT_EQ(a.faults.size(), b.faults.size()) << file << " run " << index;
            for (std::size_t i = 0; i < a.faults.size(); i++) {
                EXPECT_EQ(a.faults[i].origin, b.faults[i].origin) << file << " run " << index;
                EXPECT_EQ(a.faults[i].target, b.faults[i].target) << file << " run " << index;
                EXPECT_EQ(a.faults[i].at, b.faults[i].at) << file << " run " << index;
                aimed += a.faults[i].origin.starts_with("aim:") ? 1U : 0U;
            }
        }
    }
    EXPECT_GT(kept.starts(), 100U);
    EXPECT_GT(aimed, 20U); // the runs aimed
}

TEST(FuzzCoverage, KeptRouteStatesAreTheRouteTables) {
    // The race observer answers most routing events with a route state it read before,
    // until the router announces a change (RaceObserver::fresh_). With check_observer every
    // kept answer is compared with the router's table, and every call-or-message verdict read
    // from the router's current item with the take before it (asserts). Both schedulers, both
    // profiles, and broken routing rules, which take other paths through the router.
    const std::array<runtime::Mutation, 4> mutations = {
        runtime::Mutation::None, runtime::Mutation::ForwardToPendingDisable,
        runtime::Mutation::ForwardToPendingRemove, runtime::Mutation::DropSender};
    const std::array<sim::Policy, 2> policies = {sim::Policy::Random, sim::Policy::Pct};
    const std::array<scenarios::Semantics, 2> profiles = {scenarios::Semantics::Documented,
                                                          scenarios::Semantics::Upstream};
    std::uint64_t windows = 0;
    for (const std::string& file : campaign_equivalence_files()) {
        const Loaded loaded = load(file);
        for (std::uint64_t index = 0; index < 48; index++) {
            scenarios::RunSettings settings =
                fuzz_settings(run_seed(5, index), policies[index % 2], profiles[(index / 2) % 2]);
            settings.check_observer = true;
            const runtime::MutationScope broken(mutations[(index / 4) % mutations.size()]);
            const scenarios::RunResult result = scenarios::run_scenario(loaded.scenario, settings);
            for (const std::string& window : fuzz::coverage_windows()) {
                windows += fuzz::coverage_times(result.coverage, "window:" + window);
            }
        }
    }
    EXPECT_GT(windows, 0U); // the runs met pending states
}

TEST(FuzzSettings, PlainRunsDoNotAim) {
    // Aiming is the fuzzer's (or `faults.aim`'s): a plain run of the race fires no aimed fault.
    const Loaded race = load_race("kill-during-restart");
    for (std::uint64_t seed = 1; seed <= 20; seed++) {
        scenarios::RunSettings settings;
        settings.seed = seed;
        const scenarios::RunResult result = scenarios::run_scenario(race.scenario, settings);
        for (const auto& fault : result.faults) {
            EXPECT_FALSE(fault.origin.starts_with("aim:")) << seed;
        }
    }
}

} // namespace
} // namespace routesim::tools
