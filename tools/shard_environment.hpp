// `routesim fuzz --shard auto`: the shard index and count from the environment of the job
// runner the process runs in. The detection is a pure function over a map of variables, so
// it is tested without touching the process environment; the CLI passes it the variables it
// reads with process_shard_environment(). Private to tools/.
//
// Runners, in precedence order (the first whose index variable is set is taken, the others
// are ignored and named in the description):
//   1. ROUTESIM_SHARD=K/N             set by hand or by a CI matrix; 0 <= K < N
//   2. GNU parallel                  PARALLEL_SEQ (1-based) with ROUTESIM_SHARD_COUNT=N
//   3. Slurm job array               SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_MIN and _MAX
//                                    (optional _STEP, default 1, and _COUNT, checked)
//   4. Kubernetes Indexed Job        JOB_COMPLETION_INDEX (0-based) with ROUTESIM_SHARD_COUNT=N
// GNU parallel comes before Slurm and Kubernetes because it is the one started inside the
// others (a parallel in a Slurm allocation or a pod), so its variables are the innermost.
// ROUTESIM_SHARD_COUNT, when set, must agree with the count of whichever runner is taken.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/result.hpp"

namespace routesim::tools {

/// Environment variables by name (only those that are set; a set but empty one maps to "").
using Environment = std::map<std::string, std::string>;

/// A shard taken from the environment: index K of N, the runner it came from and the
/// variables that said so.
struct AutoShard {
    std::uint64_t index = 0;
    std::uint64_t count = 1;
    /// "ROUTESIM_SHARD", "GNU parallel", "Slurm job array" or "Kubernetes Indexed Job".
    std::string runner;
    /// The variables read, "NAME=value, ..." in the order they are documented above.
    std::string variables;
    /// The index variables of lower-precedence runners that were set too ("NAME=value").
    std::vector<std::string> ignored;
};

/// Every variable shard_from_environment() reads, in the order of the table above.
const std::vector<std::string>& shard_variables();

/// The shard the environment names (see the table above). Error (one line, without the
/// "routesim fuzz: --shard auto: " prefix): no runner's index variable is set (the line names
/// every variable looked for and any of them that was set), a value that is not digits only
/// (or not K/N) or is out of range, or variables that disagree (a Slurm array that is not an
/// evenly spaced range, a count that differs from ROUTESIM_SHARD_COUNT). Counts are at most
/// 2^32, as for --shard K/N.
sim::Result<AutoShard, std::string> shard_from_environment(const Environment& environment);

/// The variables of shard_variables() that this process's environment sets.
Environment process_shard_environment();

/// One line: "2/4 from a Slurm job array (SLURM_ARRAY_TASK_ID=6, ...)", and when other
/// runners' variables were set too, "; ignored (lower precedence): NAME=value, ...".
std::string describe_shard(const AutoShard& shard);

} // namespace routesim::tools
