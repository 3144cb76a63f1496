// `routesim fuzz`: run a scenario many times with derived seeds, a random or PCT schedule and
// the scenario's random faults (aimed at racy moments), check every run, shrink each distinct
// failure to a reproducer file, and report the coverage of route states and pending windows.
// Campaigns split by seed (--shard K/N), spread over worker processes (--jobs J), and merge
// by run seed (--merge, each run once). Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/result.hpp"
#include "sim/scheduler.hpp"

namespace routesim::tools {

/// Options of `routesim fuzz` as the CLI parses them.
struct FuzzArgs {
    std::string file;
    std::optional<std::uint64_t> runs;
    std::string time; ///< wall-clock budget ("30s"); empty: none
    std::uint64_t seed = 1;
    std::string scheduler = "random";
    std::string semantics; ///< empty: the scenario's
    std::uint32_t jobs = 1;
    std::string shard; ///< "K/N"; empty: 0/1
    std::string out = "fuzz-out";
    std::vector<std::string> merge;      ///< results files to merge instead of fuzzing
    std::uint64_t max_failures = 0;      ///< stop after this many failing runs (0: never)
    std::uint32_t shrink_max = 4;        ///< distinct failures to shrink (0: none)
    std::optional<std::uint64_t> replay; ///< run only the campaign run with this run seed
};

/// Runs the subcommand; returns 0 (nothing failed), 1 (a failure) or 2 (bad input).
int fuzz_command(const FuzzArgs& args);

/// The seed of run `index` of a campaign rooted at `root`: splitmix64 of
/// root + (index + 1) * 0x9e3779b97f4a7c15 (one splitmix64 step from state root + index * γ).
std::uint64_t run_seed(std::uint64_t root, std::uint64_t index);

/// What a failing run broke: an invariant (by name), an expectation (by its `what`), or a
/// limit (event-limit, time-limit).
struct FailureKey {
    std::string kind; ///< "invariant", "check" or "limit"
    std::string name;
    bool operator==(const FailureKey& other) const = default;
    bool operator<(const FailureKey& other) const {
        return kind != other.kind ? kind < other.kind : name < other.name;
    }
    std::string describe() const { return kind + " " + name; }
};

/// True when the run failed: an invariant violation, a failed expectation or a limit.
bool run_failed(const scenarios::RunResult& result);
/// The failure a failing run is filed under: its earliest invariant violation, else its first
/// failed expectation, else the limit it hit.
std::optional<FailureKey> failure_of(const scenarios::RunResult& result);
/// True when `result` shows the failure `key` (among possibly others).
bool shows(const scenarios::RunResult& result, const FailureKey& key);

/// The run settings of campaign run `seed`: aimed faults, coverage, stop at the first
/// violation, no determinism re-run, the scenario's recorded schedule ignored.
scenarios::RunSettings fuzz_settings(std::uint64_t seed, sim::Policy scheduler,
                                     std::optional<scenarios::Semantics> semantics);

/// One failing run of a campaign.
struct FailureRecord {
    std::uint64_t index = 0;
    std::uint64_t seed = 0;
    FailureKey key;
    std::int64_t at_ns = 0;
    std::string explanation;
    /// The trace hash of the failing run as the campaign ran it (`fuzz --replay` prints it).
    std::uint64_t trace_hash = 0;
};

/// Campaign run indices first, first + stride, ..., `count` of them: what one worker of a
/// shard ran (it stops early at a time budget or --max-failures, so its share is a prefix).
struct IndexSlice {
    std::uint64_t first = 0;
    std::uint64_t stride = 1;
    std::uint64_t count = 0;
    bool operator==(const IndexSlice& other) const = default;
};

/// How often a coverage key was reached: in how many runs, how many times in all.
struct CoverageCount {
    std::uint64_t runs = 0;
    std::uint64_t events = 0;
};

/// A reachability probe of the scenario (`expect.sometimes`) and the runs that reached it.
struct ProbeCount {
    std::string name;
    std::uint64_t runs = 0;
    bool operator==(const ProbeCount& other) const = default;
};

/// What to run.
struct CampaignOptions {
    std::uint64_t seed = 1;
    sim::Policy scheduler = sim::Policy::Random;
    std::optional<scenarios::Semantics> semantics;
    /// Run indices below this (and in the shard); with `seconds`, an upper bound.
    std::uint64_t runs = 1000;
    /// Wall-clock budget; unset: run all `runs`.
    std::optional<double> seconds;
    std::uint64_t shard_index = 0;
    std::uint64_t shard_count = 1;
    std::uint32_t jobs = 1;
    std::uint64_t max_failures = 0;
    /// Draw a progress line on stderr.
    bool progress = false;
};

/// What a campaign (or a merge of campaigns) found.
struct CampaignResult {
    std::string scenario;
    /// The semantics profile the runs followed (the override, else the scenario's).
    scenarios::Semantics semantics = scenarios::Semantics::Documented;
    std::uint64_t runs = 0;
    /// The run indices that ran, one slice per worker; their counts add up to `runs`.
    std::vector<IndexSlice> slices;
    /// Sorted by run index; at most one per seed.
    std::vector<FailureRecord> failures;
    std::map<std::string, CoverageCount> coverage;
    /// Every probe of the scenario in file order with the runs that reached it (none when the
    /// scenario has no probes). An unreached probe never makes a run failing.
    std::vector<ProbeCount> probes;
    double elapsed_s = 0;
    /// A worker process died (an RS_ASSERT in the simulator: a bug, reported with its seed).
    bool worker_crashed = false;
};

/// Runs a campaign in this process (jobs == 1) or in `jobs` forked worker processes.
CampaignResult run_campaign(const scenarios::Scenario& scenario, const CampaignOptions& options);

/// The coverage report `routesim fuzz` prints: every pending/restart window (reached ones
/// with their counts, then the ones never reached), then the (route state, event) pairs
/// grouped by route state. Keys as RunResult::coverage spells them.
std::string coverage_text(const std::map<std::string, CoverageCount>& coverage);
/// The probe report `routesim fuzz` prints ("" when there are no probes): every probe with
/// the runs that reached it, then the probes no run reached.
std::string probes_text(const std::vector<ProbeCount>& probes, std::uint64_t runs);

/// The results document (format "routesim-fuzz-results/2", documented in results.cpp).
nlohmann::json results_json(const CampaignResult& result, const CampaignOptions& options);
/// Merges results documents into one, each run (scheduler, semantics, run seed) once: a
/// document whose runs another document holds too is left out, after checking that the two
/// agree about every such run. `names` name the documents in messages (default "document
/// N"); the names of the documents left out are added to `left_out` when given. Error: a
/// document that is not a results document (its name, the JSON pointer and what was expected),
/// documents of different scenarios, two documents that share some runs but neither all of
/// the other's, or two that disagree about a run they share.
sim::Result<nlohmann::json, std::string>
merge_results(const std::vector<nlohmann::json>& documents,
              const std::vector<std::string>& names = {},
              std::vector<std::string>* left_out = nullptr);
/// The campaign a results document describes (for printing).
CampaignResult campaign_from_json(const nlohmann::json& document);

} // namespace routesim::tools
