// Fuzz campaigns: derived seeds, the run loop, failure keys, coverage tallies, worker
// processes (fork + pipes carrying JSON lines), and the progress line.
// Part of tools/: may use every layer's public headers. Wall-clock time is allowed here only.
#include <algorithm>
#include <chrono>
#include <limits>

#include "sim/prng.hpp"
#include "tools/campaign_detail.hpp"
#include "tools/fuzz/race_observer.hpp"
#include "tools/shrink.hpp"

namespace routesim::tools {

using nlohmann::json;
using scenarios::RunResult;

std::uint64_t run_seed(std::uint64_t root, std::uint64_t index) {
    std::uint64_t state = root + index * 0x9e3779b97f4a7c15ULL;
    return sim::splitmix64(state);
}

bool run_failed(const RunResult& result) {
    return !result.passed() || !result.violations.empty();
}

std::optional<FailureKey> failure_of(const RunResult& result) {
    const properties::Violation* earliest = nullptr;
    for (const auto& violation : result.violations) {
        if (earliest == nullptr || violation.at < earliest->at) {
            earliest = &violation;
        }
    }
    if (earliest != nullptr) {
        return FailureKey{"invariant", earliest->invariant};
    }
    for (const auto& check : result.checks) {
        if (!check.ok) {
            return FailureKey{"check", check.what};
        }
    }
    const sim::StopReason reason = result.outcome.reason;
    if (reason == sim::StopReason::EventLimit || reason == sim::StopReason::TimeLimit) {
        return FailureKey{"limit", std::string(sim::stop_reason_name(reason))};
    }
    for (const auto& invariant : result.invariants) {
        if (invariant.verdict == "violated") {
            return FailureKey{"invariant", invariant.name};
        }
    }
    return std::nullopt;
}

bool shows(const RunResult& result, const FailureKey& key) {
    if (key.kind == "invariant") {
        for (const auto& violation : result.violations) {
            if (violation.invariant == key.name) {
                return true;
            }
        }
        for (const auto& invariant : result.invariants) {
            if (invariant.name == key.name && invariant.verdict == "violated") {
                return true;
            }
        }
        return false;
    }
    if (key.kind == "check") {
        for (const auto& check : result.checks) {
            if (!check.ok && check.what == key.name) {
                return true;
            }
        }
        return false;
    }
    return std::string(sim::stop_reason_name(result.outcome.reason)) == key.name;
}

scenarios::RunSettings fuzz_settings(std::uint64_t seed, sim::Policy scheduler,
                                     std::optional<scenarios::Semantics> semantics) {
    scenarios::RunSettings settings;
    settings.seed = seed;
    settings.scheduler = scheduler;
    settings.semantics = semantics;
    settings.schedule = std::vector<std::uint32_t>{}; // explore, do not replay run.schedule
    settings.stop_on_violation = true;
    settings.check_determinism = false;
    settings.aim_faults = true;
    settings.coverage = true;
    settings.instrument = &fuzz::shared_observer();
    settings.judge_probes = false; // probes are counted over the campaign, never a failure
    return settings;
}

namespace detail {

double Stopwatch::seconds() const {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return std::chrono::duration<double>(now).count() - start_;
}

Stopwatch::Stopwatch() {
    start_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

FailureRecord record_failure(std::uint64_t index, std::uint64_t seed, const RunResult& result) {
    FailureRecord record;
    record.index = index;
    record.seed = seed;
    record.key = failure_of(result).value_or(FailureKey{"check", "unknown"});
    record.at_ns = result.outcome.end.ns();
    for (const auto& violation : result.violations) {
        if (record.key.kind == "invariant" && violation.invariant == record.key.name) {
            record.at_ns = violation.at.ns();
            break;
        }
    }
    record.explanation = explain_failure(result, record.key);
    record.trace_hash = result.trace_hash;
    return record;
}

void CoverageTally::add(const scenarios::Coverage& run) {
    if (run.empty()) {
        return;
    }
    const std::vector<std::uint64_t>& counts = run.counts();
    RS_ASSERT(counts.size() == fuzz::coverage_entries_count());
    by_entry_.resize(counts.size());
    for (std::size_t entry = 0; entry < counts.size(); entry++) {
        if (counts[entry] > 0) { // most entries are not reached in one run
            by_entry_[entry].runs++;
            by_entry_[entry].events += counts[entry];
        }
    }
}

std::map<std::string, CoverageCount> CoverageTally::as_map() const {
    std::map<std::string, CoverageCount> out;
    for (std::size_t entry = 0; entry < by_entry_.size(); entry++) {
        if (by_entry_[entry].runs > 0) {
            out.emplace(fuzz::coverage_name(entry), by_entry_[entry]);
        }
    }
    return out;
}

void count_probes(std::vector<ProbeCount>& into, const std::vector<scenarios::ProbeResult>& run) {
    RS_ASSERT(run.size() == into.size());
    for (std::size_t i = 0; i < run.size(); i++) {
        RS_ASSERT(into[i].name == run[i].name);
        into[i].runs += run[i].reached ? 1U : 0U;
    }
}

std::vector<ProbeCount> probe_counts(const scenarios::Scenario& scenario) {
    std::vector<ProbeCount> out;
    for (const scenarios::Probe& probe : scenario.expect.sometimes) {
        out.push_back(ProbeCount{probe.name, 0});
    }
    return out;
}

void run_slice(const scenarios::Scenario& scenario, const CampaignOptions& options, Slice slice,
               SliceSink& sink) {
    const Stopwatch clock;
    const std::uint64_t end = options.seconds.has_value() && options.runs == 0
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : options.runs;
    std::uint64_t position = 0;
    std::uint64_t failures = 0;
    // Workload messages and receipts shared by this slice's runs (the same values a run would
    // build; see scenarios::MessageCache).
    scenarios::MessageCache cache(scenario);
    scenarios::MonitorKit monitors; // the invariant monitors, reset between runs
    for (std::uint64_t index = options.shard_index; index < end;
         index += options.shard_count, position++) {
        if (position % slice.count != slice.index) {
            continue;
        }
        if (options.seconds.has_value() && clock.seconds() >= *options.seconds) {
            break;
        }
        const std::uint64_t seed = run_seed(options.seed, index);
        scenarios::RunSettings settings = fuzz_settings(seed, options.scheduler, options.semantics);
        settings.cache = &cache;
        settings.monitors = &monitors;
        settings.summarise_passing = false; // only coverage is read from a passing run
        const RunResult result = scenarios::run_scenario(scenario, settings);
        sink.on_run(result);
        if (run_failed(result)) {
            sink.on_failure(record_failure(index, seed, result));
            failures++;
            if (options.max_failures > 0 && failures >= options.max_failures) {
                break;
            }
        }
    }
    sink.on_done();
}

} // namespace detail

namespace {

/// Collects a slice in this process.
class LocalSink final : public detail::SliceSink {
public:
    LocalSink(CampaignResult& result, detail::Progress& progress)
        : result_(result), progress_(progress) {}
    void on_run(const RunResult& run) override {
        result_.runs++;
        tally_.add(run.coverage);
        detail::count_probes(result_.probes, run.probes);
        if (progress_.due()) {
            result_.coverage = tally_.as_map();
            progress_.update(result_.runs, result_.failures.size(), result_.coverage);
        }
    }
    void on_failure(FailureRecord record) override {
        result_.failures.push_back(std::move(record));
    }
    void on_done() override { result_.coverage = tally_.as_map(); }

private:
    CampaignResult& result_;
    detail::CoverageTally tally_;
    detail::Progress& progress_;
};

} // namespace

CampaignResult run_campaign(const scenarios::Scenario& scenario, const CampaignOptions& options) {
    RS_ASSERT(options.shard_count >= 1 && options.shard_index < options.shard_count);
    RS_ASSERT(options.jobs >= 1);
    const detail::Stopwatch clock;
    CampaignResult result;
    result.scenario = scenario.name;
    result.semantics = options.semantics.value_or(scenario.run.semantics);
    result.probes = detail::probe_counts(scenario);
    detail::Progress progress(options.progress);
    if (options.jobs == 1) {
        LocalSink sink(result, progress);
        detail::run_slice(scenario, options, detail::Slice{0, 1}, sink);
        // One slice: a prefix of the shard's indices.
        result.slices.push_back(IndexSlice{options.shard_index, options.shard_count, result.runs});
    } else {
        detail::run_forked(scenario, options, result, progress);
    }
    progress.finish(result.runs, result.failures.size(), result.coverage);
    std::sort(result.failures.begin(), result.failures.end(),
              [](const FailureRecord& a, const FailureRecord& b) { return a.index < b.index; });
    // Every failing run that ran stays listed (with --jobs J, each worker stops at its own
    // max_failures): a results file that counted a run must not call it passing.
    std::uint64_t sliced = 0;
    for (const IndexSlice& slice : result.slices) {
        sliced += slice.count;
    }
    RS_ASSERT(sliced == result.runs);
    result.elapsed_s = clock.seconds();
    return result;
}

} // namespace routesim::tools
