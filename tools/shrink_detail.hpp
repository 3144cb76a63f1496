// Shrinking internals shared by shrink.cpp and shrink_passes.cpp: the candidate evaluator and
// the minimising passes over the reproducer document. Private to tools/.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/run/runner.hpp"
#include "tools/shrink.hpp"

namespace routesim::tools::detail {

/// Runs candidate documents and counts them against the budget.
class Evaluator {
public:
    explicit Evaluator(const ShrinkInput& input);
    /// True when the document loads and its run shows the failure. False once the budget is
    /// spent (so that passes stop changing the document).
    bool holds(const nlohmann::json& document);
    bool exhausted() const { return candidates_ >= input_.candidates_max; }
    std::uint64_t candidates() const { return candidates_; }
    /// Loads and runs a document; nothing when it does not load.
    static std::optional<scenarios::RunResult> run(const nlohmann::json& document,
                                                   const scenarios::RunSettings& settings);

private:
    const ShrinkInput& input_;
    std::uint64_t candidates_ = 0;
    /// For an expectation failure: every expectation that failed, with what it got. A
    /// candidate must fail exactly these, the same way (no more, no fewer), so that shrinking
    /// cannot slip to another cause of the same symptom.
    std::vector<std::pair<std::string, std::string>> failed_checks_;
};

/// The failed expectations of a run as (what, actual), sorted.
std::vector<std::pair<std::string, std::string>> failed_checks(const scenarios::RunResult& result);

/// The original document with every fired fault as a pinned timeline action, `faults`
/// reduced to terminate_cost, and run.seed / run.schedule / run.scheduler set; nothing when a
/// fault cannot be pinned.
std::optional<nlohmann::json> pinned_document(const ShrinkInput& input);
/// The original document with `faults.aim` and the run's seed and schedule.
nlohmann::json fallback_document(const ShrinkInput& input);
ShrinkSizes sizes_of(const nlohmann::json& document);
/// Pointers of every route entry of every router in the topology, in document order.
std::vector<nlohmann::json::json_pointer> route_pointers(const nlohmann::json& document);

/// Removes as many of `count` items as it can, larger chunks first, while `holds(keep)` stays
/// true; returns the final keep-mask. Deterministic; O(count log count) tests.
std::vector<bool> reduce_items(std::size_t count,
                               const std::function<bool(const std::vector<bool>&)>& holds);

/// Runs the passes (expectations, timeline, workload, counts, routes, schedule) to a fixpoint.
/// Expectations are dropped only for an invariant failure: for an expectation failure they
/// are the oracle that keeps the shrunk run on the same path.
nlohmann::json minimise(nlohmann::json document, Evaluator& evaluator, const FailureKey& failure);

} // namespace routesim::tools::detail
