// The kernel demo: token-passing tasks with timers, the main job until scenario replay lands.
// Part of tools/: uses sim/.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/scheduler.hpp"
#include "sim/world.hpp"

namespace routesim::tools {

/// Parameters of one demo run.
struct DemoOptions {
    std::uint64_t seed = 1;
    sim::SchedulerOptions scheduler;
    std::uint32_t task_count = 8;
    std::uint32_t token_count = 64;
    std::uint32_t hops_per_token = 32;
    /// When non-null, every trace event is written here as JSON Lines.
    std::ostream* trace_out = nullptr;
};

/// What a demo run produced.
struct DemoResult {
    sim::RunOutcome outcome;
    std::uint64_t trace_hash = 0;
    std::uint64_t trace_events = 0;
    std::uint64_t hops = 0;
    std::vector<std::uint32_t> decisions;
};

/// Runs the demo: tokens hop between tasks; each hop goes to a task drawn from the workload
/// stream, directly or after a random virtual delay. Deterministic in (options).
DemoResult run_demo(const DemoOptions& options);

} // namespace routesim::tools
