// Campaign internals shared by campaign.cpp, campaign_fork.cpp and results.cpp: slices of
// the run sequence, where a slice reports to, the progress line and the wall clock.
// Private to tools/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "scenarios/run/runner.hpp"
#include "tools/fuzz.hpp"

namespace routesim::tools::detail {

/// Wall-clock seconds since construction (tools/ only; never inside a run).
class Stopwatch {
public:
    Stopwatch();
    double seconds() const;

private:
    double start_ = 0;
};

/// Worker `index` of `count` takes every count-th run of the shard's sequence.
struct Slice {
    std::uint64_t index = 0;
    std::uint64_t count = 1;
};

/// Where a slice reports each run.
class SliceSink {
public:
    virtual ~SliceSink() = default;
    virtual void on_run(const scenarios::RunResult& result) = 0;
    virtual void on_failure(FailureRecord record) = 0;
    virtual void on_done() = 0;
};

/// The progress line on stderr: drawn only when asked (a terminal), at most 5 times a second.
class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled) {}
    /// True when update() would draw now (callers skip building its coverage otherwise).
    bool due() const { return enabled_ && clock_.seconds() - last_ >= 0.2; }
    void update(std::uint64_t runs, std::size_t failures,
                const std::map<std::string, CoverageCount>& coverage);
    void finish(std::uint64_t runs, std::size_t failures,
                const std::map<std::string, CoverageCount>& coverage);

private:
    void draw(std::uint64_t runs, std::size_t failures,
              const std::map<std::string, CoverageCount>& coverage);
    bool enabled_;
    bool drawn_ = false;
    Stopwatch clock_;
    double last_ = -1;
};

/// Runs the slice's share of the campaign, reporting to `sink`.
void run_slice(const scenarios::Scenario& scenario, const CampaignOptions& options, Slice slice,
               SliceSink& sink);
/// Runs `options.jobs` forked workers, one slice each, and merges what they report.
void run_forked(const scenarios::Scenario& scenario, const CampaignOptions& options,
                CampaignResult& result, Progress& progress);

FailureRecord record_failure(std::uint64_t index, std::uint64_t seed,
                             const scenarios::RunResult& result);
/// Coverage summed over a slice's runs, by entry: a run adds an array, not map lookups.
class CoverageTally {
public:
    void add(const scenarios::Coverage& run);
    /// The entries reached by at least one run, by key.
    std::map<std::string, CoverageCount> as_map() const;

private:
    std::vector<CoverageCount> by_entry_;
};

/// Adds one run's reached probes to `into` (RunResult::probes, in file order; `into` starts
/// with the scenario's probes, see probe_counts).
void count_probes(std::vector<ProbeCount>& into, const std::vector<scenarios::ProbeResult>& run);
/// The scenario's probes, each reached by 0 runs.
std::vector<ProbeCount> probe_counts(const scenarios::Scenario& scenario);
/// Probes as [{"name": n, "runs": r}] and back (summed by name, new names appended).
nlohmann::json probes_json(const std::vector<ProbeCount>& probes);
void add_probes(std::vector<ProbeCount>& into, const nlohmann::json& probes);

/// JSON of one failure record and back (results files and worker pipes).
nlohmann::json failure_json(const FailureRecord& record);
FailureRecord failure_from_json(const nlohmann::json& item);
/// Coverage as {"key": {"runs": r, "events": e}} and back.
nlohmann::json coverage_json(const std::map<std::string, CoverageCount>& coverage);
void add_coverage(std::map<std::string, CoverageCount>& into, const nlohmann::json& coverage);

/// The runs of one slice of a campaign as a merge compares them: runs of different
/// schedulers or semantics are different runs, whatever their seeds.
struct RunSet {
    std::uint64_t root_seed = 1;
    std::string scheduler;
    std::string semantics;
    IndexSlice slice;
};

/// The lowest index, in `a`'s campaign (root seed), of a run that `a` and `b` both hold;
/// nothing when they share no run. Two campaigns share a run when their run seeds are equal:
/// run_seed is one splitmix64 step, a bijection, so root r run i equals root r' run i' exactly
/// when r + i * gamma == r' + i' * gamma (mod 2^64). Cost: a few gcd steps.
std::optional<std::uint64_t> first_shared_run(const RunSet& a, const RunSet& b);
/// True when every run of `inner` is a run of `outer`.
bool holds_all(const RunSet& outer, const RunSet& inner);
/// True when `set` holds run `index` of root seed `root_seed` (same scheduler, semantics).
bool holds_run(const RunSet& set, std::uint64_t root_seed, std::uint64_t index);

} // namespace routesim::tools::detail
