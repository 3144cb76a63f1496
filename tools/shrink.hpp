// Shrinking a fuzz failure to a reproducer: an ordinary scenario document (the original file
// with its random faults pinned as timeline actions and its scheduler choices as
// `run.schedule`) that `routesim run` replays to the same failure and the same trace hash,
// minimised while the failure persists. Deterministic: one failure, one reproducer.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/run/runner.hpp"
#include "sim/result.hpp"
#include "tools/fuzz.hpp"

namespace routesim::tools {

/// The failing run to shrink.
struct ShrinkInput {
    /// The scenario file as JSON, exactly as read.
    const nlohmann::json* document = nullptr;
    /// The failing run's seed, scheduler and (optional) semantics override.
    std::uint64_t seed = 0;
    sim::Policy scheduler = sim::Policy::Random;
    std::optional<scenarios::Semantics> semantics;
    /// The failing run (run with fuzz_settings) and its failure.
    const scenarios::RunResult* failing = nullptr;
    FailureKey failure;
    /// Candidate runs the minimiser may spend (a deterministic budget, not a time limit).
    std::uint64_t candidates_max = 3000;
};

/// Sizes of a reproducer, before and after minimising.
struct ShrinkSizes {
    std::uint64_t timeline = 0;
    std::uint64_t workload_entries = 0;
    std::uint64_t messages = 0;
    std::uint64_t schedule = 0;
    std::uint64_t routes = 0;
};

/// A verified reproducer.
struct Reproducer {
    nlohmann::json document;
    /// True when the random faults are pinned as timeline actions; false when the document
    /// keeps the scenario's `faults` (with `aim`) and replays them from the seed.
    bool pinned = true;
    /// The result of running the document as `routesim run` does.
    scenarios::RunResult result;
    /// Trace events that show the failure ("at kind field=value ...").
    std::vector<std::string> witnesses;
    ShrinkSizes before;
    ShrinkSizes after;
    std::uint64_t candidates = 0;
};

/// Builds, verifies and minimises the reproducer. Error: no candidate reproduces the
/// failure (a bug in replay, reported with the seed).
sim::Result<Reproducer, std::string> shrink_failure(const ShrinkInput& input);

/// Sets the reproducer document's `description` to what fails (explain_failure), under which
/// seed, scheduler, semantics and faults, and its witness lines.
void explain_reproducer(Reproducer& reproducer, const ShrinkInput& input);

/// The document as written to disk: pretty JSON (2 spaces, sorted keys) and a newline.
std::string reproducer_text(const nlohmann::json& document);

/// One line saying what failed, where and when ("invariant pair_fifo violated at 3ms: ...").
std::string explain_failure(const scenarios::RunResult& result, const FailureKey& key);

} // namespace routesim::tools
