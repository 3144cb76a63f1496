// `fuzz --shard auto`: which job runner the process is in and which shard it names
// (tools/shard_environment.hpp has the table of runners and their precedence). Part of tools/.
#include "tools/shard_environment.hpp"

#include <cstdlib>
#include <optional>

#include "sim/assert.hpp"

namespace routesim::tools {
namespace {

constexpr std::uint64_t shard_count_max = std::uint64_t{1} << 32;

const std::string generic_variable = "ROUTESIM_SHARD";
const std::string count_variable = "ROUTESIM_SHARD_COUNT";
const std::string parallel_variable = "PARALLEL_SEQ";
const std::string slurm_id = "SLURM_ARRAY_TASK_ID";
const std::string slurm_min = "SLURM_ARRAY_TASK_MIN";
const std::string slurm_max = "SLURM_ARRAY_TASK_MAX";
const std::string slurm_step = "SLURM_ARRAY_TASK_STEP";
const std::string slurm_count = "SLURM_ARRAY_TASK_COUNT";
const std::string kubernetes_variable = "JOB_COMPLETION_INDEX";

using Found = sim::Result<AutoShard, std::string>;
using Number = sim::Result<std::uint64_t, std::string>;

std::optional<std::string> lookup(const Environment& environment, const std::string& name) {
    const auto found = environment.find(name);
    if (found == environment.end()) {
        return std::nullopt;
    }
    return found->second;
}

/// "NAME=value" of a variable that is set.
std::string assignment(const Environment& environment, const std::string& name) {
    return name + "=" + lookup(environment, name).value_or("");
}

/// `text` as an unsigned integer of digits only, at most `max`; nothing otherwise.
std::optional<std::uint64_t> digits(const std::string& text, std::uint64_t max) {
    if (text.empty() || text.size() > 19) {
        return std::nullopt;
    }
    std::uint64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (value > max) {
        return std::nullopt;
    }
    return value;
}

/// The values a variable may take: `min` to `max`.
struct Range {
    std::uint64_t min = 0;
    std::uint64_t max = 0;
};

/// The variable `name` (which is set) as a number in `range`.
Number number(const Environment& environment, const std::string& name, Range range) {
    const std::string value = lookup(environment, name).value_or("");
    const auto parsed = digits(value, range.max);
    if (!parsed || *parsed < range.min) {
        return sim::fail(name + "=\"" + value + "\": expected an integer from " +
                         std::to_string(range.min) + " to " + std::to_string(range.max) +
                         " (digits only)");
    }
    return *parsed;
}

/// A runner and the variable that holds its shard index.
struct IndexVariable {
    const std::string& runner;
    const std::string& name;
};

/// The count a runner without one of its own takes from ROUTESIM_SHARD_COUNT.
Number given_count(const Environment& environment, IndexVariable index) {
    const std::string& runner = index.runner;
    if (!lookup(environment, count_variable)) {
        return sim::fail(runner + ": " + assignment(environment, index.name) +
                         " gives the index but not the count: set " + count_variable +
                         "=N (the number of shards) in the job's environment");
    }
    const Number count = number(environment, count_variable, {.min = 1, .max = shard_count_max});
    if (!count) {
        return sim::fail(runner + ": " + count.error());
    }
    return count;
}

/// A runner with a count of its own: ROUTESIM_SHARD_COUNT, when set too, must agree with it.
sim::Result<void, std::string> count_agrees(const Environment& environment,
                                            const AutoShard& shard) {
    if (!lookup(environment, count_variable)) {
        return {};
    }
    const Number given = number(environment, count_variable, {.min = 1, .max = shard_count_max});
    if (!given) {
        return sim::fail(shard.runner + " (" + shard.variables + "): " + given.error());
    }
    if (given.value() != shard.count) {
        return sim::fail(shard.runner + " (" + shard.variables + ") says " +
                         std::to_string(shard.count) + " shards but " +
                         assignment(environment, count_variable) + ": they disagree");
    }
    return {};
}

Found generic(const Environment& environment) {
    const std::string value = lookup(environment, generic_variable).value_or("");
    const std::size_t slash = value.find('/');
    const auto count = slash == std::string::npos
                           ? std::nullopt
                           : digits(value.substr(slash + 1), shard_count_max);
    const auto index =
        slash == std::string::npos ? std::nullopt : digits(value.substr(0, slash), shard_count_max);
    if (!count || !index || *count == 0 || *index >= *count) {
        return sim::fail(generic_variable + "=\"" + value +
                         "\": expected K/N with 0 <= K < N <= 2^32 (digits only)");
    }
    AutoShard shard{
        *index, *count, generic_variable, assignment(environment, generic_variable), {}};
    if (auto agrees = count_agrees(environment, shard); !agrees) {
        return sim::fail(agrees.error());
    }
    return shard;
}

Found parallel(const Environment& environment) {
    const std::string runner = "GNU parallel";
    const Number count = given_count(environment, {.runner = runner, .name = parallel_variable});
    if (!count) {
        return sim::fail(count.error());
    }
    const Number sequence =
        number(environment, parallel_variable, {.min = 1, .max = count.value()});
    if (!sequence) {
        return sim::fail(runner + " with " + assignment(environment, count_variable) + ": " +
                         sequence.error() + " (PARALLEL_SEQ counts jobs from 1)");
    }
    return AutoShard{sequence.value() - 1,
                     count.value(),
                     runner,
                     assignment(environment, parallel_variable) + ", " +
                         assignment(environment, count_variable),
                     {}};
}

/// The Slurm variables that are set, "NAME=value, ..." (ID, MIN, MAX, STEP, COUNT).
std::string slurm_variables(const Environment& environment) {
    std::string text;
    for (const std::string* name : {&slurm_id, &slurm_min, &slurm_max, &slurm_step, &slurm_count}) {
        if (lookup(environment, *name)) {
            text += (text.empty() ? "" : ", ") + assignment(environment, *name);
        }
    }
    return text;
}

/// What a Slurm array task's variables say.
struct SlurmArray {
    std::uint64_t id = 0;
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    std::uint64_t step = 1; ///< when SLURM_ARRAY_TASK_STEP is not set
};

/// The Slurm array's variables, read and range-checked (each alone).
sim::Result<SlurmArray, std::string> slurm_array(const Environment& environment) {
    SlurmArray array;
    const std::pair<const std::string*, std::uint64_t SlurmArray::*> fields[] = {
        {&slurm_id, &SlurmArray::id},
        {&slurm_min, &SlurmArray::min},
        {&slurm_max, &SlurmArray::max},
        {&slurm_step, &SlurmArray::step}};
    for (const auto& [name, field] : fields) {
        if (!lookup(environment, *name)) {
            if (name == &slurm_step) {
                continue;
            }
            return sim::fail(*name + " is not set (a job array sets " + slurm_id + ", " +
                             slurm_min + " and " + slurm_max + ")");
        }
        const Number value = number(environment, *name,
                                    {.min = name == &slurm_step ? 1u : 0u, .max = shard_count_max});
        if (!value) {
            return sim::fail(value.error());
        }
        array.*field = value.value();
    }
    return array;
}

Found slurm(const Environment& environment) {
    const std::string runner = "Slurm job array";
    const std::string variables = slurm_variables(environment);
    const auto read = slurm_array(environment);
    if (!read) {
        return sim::fail(runner + " (" + variables + "): " + read.error());
    }
    const auto [id, min, max, step] = read.value();
    if (min > max || (max - min) % step != 0 || id < min || id > max || (id - min) % step != 0) {
        return sim::fail(runner + " (" + variables +
                         "): expected the task ID in MIN, MIN + STEP, ..., MAX (an array of "
                         "one evenly spaced range, such as --array=0-7)");
    }
    const std::uint64_t count = (max - min) / step + 1;
    if (count > shard_count_max) {
        return sim::fail(runner + " (" + variables + "): more than 2^32 tasks");
    }
    if (lookup(environment, slurm_count)) {
        const Number said = number(environment, slurm_count, {.min = 1, .max = shard_count_max});
        if (!said || said.value() != count) {
            return sim::fail(runner + " (" + variables + "): " + slurm_count +
                             " is not (MAX - MIN) / STEP + 1 = " + std::to_string(count) +
                             " (an array of one evenly spaced range, such as --array=0-7)");
        }
    }
    AutoShard shard{(id - min) / step, count, runner, variables, {}};
    if (auto agrees = count_agrees(environment, shard); !agrees) {
        return sim::fail(agrees.error());
    }
    return shard;
}

Found kubernetes(const Environment& environment) {
    const std::string runner = "Kubernetes Indexed Job";
    const Number count = given_count(environment, {.runner = runner, .name = kubernetes_variable});
    if (!count) {
        return sim::fail(count.error());
    }
    const Number index =
        number(environment, kubernetes_variable, {.min = 0, .max = count.value() - 1});
    if (!index) {
        return sim::fail(runner + " with " + assignment(environment, count_variable) + ": " +
                         index.error());
    }
    return AutoShard{index.value(),
                     count.value(),
                     runner,
                     assignment(environment, kubernetes_variable) + ", " +
                         assignment(environment, count_variable),
                     {}};
}

struct Runner {
    const std::string* index_variable;
    Found (*detect)(const Environment&);
};

std::string none_found(const Environment& environment) {
    std::string found;
    for (const std::string& name : shard_variables()) {
        if (lookup(environment, name)) {
            found += (found.empty() ? "" : ", ") + assignment(environment, name);
        }
    }
    return "no job runner found in the environment: looked for " + generic_variable +
           " (K/N), PARALLEL_SEQ with ROUTESIM_SHARD_COUNT (GNU parallel), SLURM_ARRAY_TASK_ID "
           "with SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX (Slurm job array), "
           "JOB_COMPLETION_INDEX with ROUTESIM_SHARD_COUNT (Kubernetes Indexed Job); " +
           (found.empty() ? std::string("none of them is set")
                          : "found only " + found + ", which names no shard index") +
           " (or pass --shard K/N)";
}

} // namespace

const std::vector<std::string>& shard_variables() {
    static const std::vector<std::string> names{
        generic_variable, count_variable, parallel_variable, slurm_id,           slurm_min,
        slurm_max,        slurm_step,     slurm_count,       kubernetes_variable};
    return names;
}

Found shard_from_environment(const Environment& environment) {
    const Runner runners[] = {{&generic_variable, generic},
                              {&parallel_variable, parallel},
                              {&slurm_id, slurm},
                              {&kubernetes_variable, kubernetes}};
    const Runner* chosen = nullptr;
    std::vector<std::string> ignored;
    for (const Runner& runner : runners) {
        if (!lookup(environment, *runner.index_variable)) {
            continue;
        }
        if (chosen == nullptr) {
            chosen = &runner;
        } else {
            ignored.push_back(assignment(environment, *runner.index_variable));
        }
    }
    if (chosen == nullptr) {
        return sim::fail(none_found(environment));
    }
    Found found = chosen->detect(environment);
    if (!found) {
        return found;
    }
    AutoShard shard = std::move(found).value();
    RS_ASSERT(shard.count >= 1);
    RS_ASSERT(shard.count <= shard_count_max);
    RS_ASSERT(shard.index < shard.count);
    shard.ignored = std::move(ignored);
    return shard;
}

Environment process_shard_environment() {
    Environment environment;
    for (const std::string& name : shard_variables()) {
        if (const char* value = std::getenv(name.c_str())) {
            environment.emplace(name, value);
        }
    }
    return environment;
}

std::string describe_shard(const AutoShard& shard) {
    const bool article = shard.runner.starts_with("Slurm") || shard.runner.starts_with("Kube");
    std::string text = std::to_string(shard.index) + "/" + std::to_string(shard.count) + " from " +
                       (article ? "a " : "") + shard.runner + " (" + shard.variables + ")";
    for (std::size_t i = 0; i < shard.ignored.size(); i++) {
        text += (i == 0 ? "; ignored (lower precedence): " : ", ") + shard.ignored[i];
    }
    return text;
}

} // namespace routesim::tools
