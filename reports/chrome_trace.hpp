// The run as Chrome trace event JSON (trace.json), for Perfetto or chrome://tracing: one
// track per process, message handling as complete events, spawns and exits as instants,
// restarts and faults marked, pending windows as async begin/end pairs.
// Part of reports/: uses the collector's facts and nlohmann_json.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_facts.hpp"

namespace routesim::reports {

/// Builds the trace: metadata (a process name, then a name and a sort index per track),
/// one event per take (ph X, duration = the processing cost), spawn and normal-exit instants
/// (ph i), one instant per restart or fault marker and one b/e pair per pending window.
/// Covers the collected records (the first records_max events); markers cover the whole run.
/// `labels` names the tracks (process_labels()). Deterministic.
nlohmann::json to_chrome_trace(const RunFacts& facts,
                               const std::map<std::uint64_t, std::string>& labels,
                               const std::string& title);

} // namespace routesim::reports
