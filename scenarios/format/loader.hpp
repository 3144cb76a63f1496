// Scenario loading: JSON text or file -> validated, typed Scenario, or LoadErrors that name
// the file, the JSON pointer of the offending value and what was expected. Never throws.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/format/model.hpp"
#include "sim/result.hpp"

namespace routesim::scenarios {

/// Why a scenario was rejected (the "bad input" lane of STYLE.md §3).
struct LoadError {
    /// The file label given to the loader (the path as given, or a caller's label).
    std::string file;
    /// JSON pointer (RFC 6901) of the offending value; "" for the whole document, for
    /// syntax errors and for file errors.
    std::string pointer;
    /// What is wrong and what was expected, on one line.
    std::string message;
    /// True for a warning (legitimate input that is most likely a mistake): printed as
    /// `<file>: <pointer>: warning: <message>`, and it never changes an exit code.
    bool warning = false;

    /// `"<file>: <pointer>: <message>"`, or `"<file>: <message>"` when the pointer is "".
    /// Always one line: the pointer's control characters are shown escaped (`\n`), and
    /// messages quote every name and string they take from the input.
    std::string to_string() const;
};

/// The largest `run.seed` the loader accepts: every 64-bit unsigned integer is a seed. The
/// CLI's `--seed` follows the same rule (tools/run_flags.cpp).
inline constexpr std::uint64_t run_seed_max = std::numeric_limits<std::uint64_t>::max();

/// The explicit limits of a load. Going over one is a LoadError that names the limit.
struct LoadLimits {
    std::uint64_t file_bytes_max = 16 * 1024 * 1024;
    /// Nesting of JSON arrays and objects anywhere in the file.
    std::uint32_t json_depth_max = 256;
    /// Nesting of topology nodes (the root is level 1).
    std::uint32_t tree_depth_max = 32;
    /// Topology nodes after `repeat` expansion, timeline workers included.
    std::uint64_t nodes_max = 100'000;
    /// Processes the topology spawns when built (pool sizes multiply their worker subtree).
    std::uint64_t processes_max = 1'000'000;
    std::uint64_t repeat_max = 100'000;
    /// JSON values created by `repeat` copies in total.
    std::uint64_t repeat_values_max = 20'000'000;
    /// Messages of one workload entry (`count`).
    std::uint64_t workload_count_max = 10'000'000;
    /// Messages of all workload entries and timeline sends/calls together.
    std::uint64_t workload_total_max = 10'000'000;
    std::uint64_t timeline_actions_max = 100'000;
    std::uint64_t max_events_max = 1'000'000'000;
    std::uint64_t schedule_length_max = 10'000'000;
    std::uint32_t pct_depth_max = 10'000;
};

/// Every error of one load, in the order found, for `routesim validate`; and the scenario when
/// there is none.
struct LoadReport {
    /// The loaded scenario; nullopt when there is an error.
    std::optional<Scenario> scenario;
    /// The first errors found (at most errors_listed_max), in the order the loader finds them:
    /// errors.front() is the error that load_scenario_* returns. After an error the loader goes
    /// on with the parts that do not depend on it (top-level sections, topology siblings,
    /// workload entries, timeline actions, expect sections); the cross-reference checks run
    /// only when no name or client was lost to an error.
    std::vector<LoadError> errors;
    /// Errors found beyond the listed ones.
    std::uint64_t errors_unlisted = 0;
    /// The warnings of the loaded scenario (scenario_warnings); empty when it has errors.
    std::vector<LoadError> warnings;

    static constexpr std::size_t errors_listed_max = 50;

    /// One line per listed error, then `<file>: N more errors not listed (...)` when some were
    /// left out. Empty when the scenario loaded.
    std::vector<std::string> error_lines() const;
};

/// Parses and validates scenario text. `file_label` is only used in errors.
/// Cost: linear in the text plus the size of the expanded topology.
sim::Result<Scenario, LoadError> load_scenario_text(std::string_view text, std::string file_label,
                                                    const LoadLimits& limits = {});

/// Reads `path` (at most limits.file_bytes_max bytes) and loads it with the path as label.
sim::Result<Scenario, LoadError> load_scenario_file(const std::string& path,
                                                    const LoadLimits& limits = {});

/// The warnings of a loaded scenario, in file order (at most 50), labelled `file_label`:
///  - a routing rule (by_type, hash routes or prefix/count, route, default) that names a route
///    that no route of its router (also added by the timeline or a router.admin message), no
///    registered name and no client provides; the router's sends there fail with
///    gen.ErrProcessUnknown, which a scenario may want, so it is no error. With "did you mean"
///    when a close name exists.
///  - a run.max_events at most twice the messages fired by run.until: enough only when sends
///    fail, since each delivered message costs two events.
/// `routesim validate` and `routesim run` print them on stderr (LoadError::to_string).
std::vector<LoadError> scenario_warnings(const Scenario& scenario, const std::string& file_label);

/// As load_scenario_text, but reports every error (up to LoadReport::errors_listed_max).
LoadReport check_scenario_text(std::string_view text, std::string file_label,
                               const LoadLimits& limits = {});

/// As load_scenario_file, but reports every error (up to LoadReport::errors_listed_max).
LoadReport check_scenario_file(const std::string& path, const LoadLimits& limits = {});

} // namespace routesim::scenarios
