// `fuzz --shard auto`: which job runner the process is in and which shard it names
// (tools/shard_env.hpp has the table of runners and their precedence). Part of tools/.
#include "tools/shard_env.hpp"

#include <cstdlib>
#include <optional>

namespace routesim::tools {
namespace {

constexpr std::uint64_t max_count = std::uint64_t{1} << 32;

const std::string generic_var = "ROUTESIM_SHARD";
const std::string count_var = "ROUTESIM_SHARD_COUNT";
const std::string parallel_var = "PARALLEL_SEQ";
const std::string slurm_id = "SLURM_ARRAY_TASK_ID";
const std::string slurm_min = "SLURM_ARRAY_TASK_MIN";
const std::string slurm_max = "SLURM_ARRAY_TASK_MAX";
const std::string slurm_step = "SLURM_ARRAY_TASK_STEP";
const std::string slurm_count = "SLURM_ARRAY_TASK_COUNT";
const std::string k8s_var = "JOB_COMPLETION_INDEX";

using Found = sim::Result<AutoShard, std::string>;
using Number = sim::Result<std::uint64_t, std::string>;

std::optional<std::string> lookup(const Environment& env, const std::string& name) {
    const auto found = env.find(name);
    if (found == env.end()) {
        return std::nullopt;
    }
    return found->second;
}

std::string assignment(const std::string& name, const std::string& value) {
    return name + "=" + value;
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

/// The variable `name` (which is set) as a number from `min` to `max`.
Number number(const Environment& env, const std::string& name, std::uint64_t min,
              std::uint64_t max) {
    const std::string value = lookup(env, name).value_or("");
    const auto parsed = digits(value, max);
    if (!parsed || *parsed < min) {
        return sim::fail(name + "=\"" + value + "\": expected an integer from " +
                         std::to_string(min) + " to " + std::to_string(max) + " (digits only)");
    }
    return *parsed;
}

/// The count a runner without one of its own takes from ROUTESIM_SHARD_COUNT.
Number given_count(const Environment& env, const std::string& runner, const std::string& var) {
    if (!lookup(env, count_var)) {
        return sim::fail(runner + ": " + assignment(var, lookup(env, var).value_or("")) +
                         " gives the index but not the count: set " + count_var +
                         "=N (the number of shards) in the job's environment");
    }
    const Number count = number(env, count_var, 1, max_count);
    if (!count) {
        return sim::fail(runner + ": " + count.error());
    }
    return count;
}

/// A runner with a count of its own: ROUTESIM_SHARD_COUNT, when set too, must agree with it.
sim::Result<void, std::string> count_agrees(const Environment& env, const AutoShard& shard) {
    if (!lookup(env, count_var)) {
        return {};
    }
    const Number given = number(env, count_var, 1, max_count);
    if (!given) {
        return sim::fail(shard.runner + " (" + shard.variables + "): " + given.error());
    }
    if (given.value() != shard.count) {
        return sim::fail(shard.runner + " (" + shard.variables + ") says " +
                         std::to_string(shard.count) + " shards but " +
                         assignment(count_var, lookup(env, count_var).value_or("")) +
                         ": they disagree");
    }
    return {};
}

Found generic(const Environment& env) {
    const std::string value = lookup(env, generic_var).value_or("");
    const std::size_t slash = value.find('/');
    const auto count =
        slash == std::string::npos ? std::nullopt : digits(value.substr(slash + 1), max_count);
    const auto index =
        slash == std::string::npos ? std::nullopt : digits(value.substr(0, slash), max_count);
    if (!count || !index || *count == 0 || *index >= *count) {
        return sim::fail(generic_var + "=\"" + value +
                         "\": expected K/N with 0 <= K < N <= 2^32 (digits only)");
    }
    AutoShard shard{*index, *count, generic_var, assignment(generic_var, value), {}};
    if (auto agrees = count_agrees(env, shard); !agrees) {
        return sim::fail(agrees.error());
    }
    return shard;
}

Found parallel(const Environment& env) {
    const std::string runner = "GNU parallel";
    const Number count = given_count(env, runner, parallel_var);
    if (!count) {
        return sim::fail(count.error());
    }
    const Number seq = number(env, parallel_var, 1, count.value());
    if (!seq) {
        return sim::fail(runner + " with " +
                         assignment(count_var, lookup(env, count_var).value_or("")) + ": " +
                         seq.error() + " (PARALLEL_SEQ counts jobs from 1)");
    }
    return AutoShard{seq.value() - 1,
                     count.value(),
                     runner,
                     assignment(parallel_var, lookup(env, parallel_var).value_or("")) + ", " +
                         assignment(count_var, lookup(env, count_var).value_or("")),
                     {}};
}

/// The Slurm variables that are set, "NAME=value, ..." (ID, MIN, MAX, STEP, COUNT).
std::string slurm_variables(const Environment& env) {
    std::string text;
    for (const std::string* name : {&slurm_id, &slurm_min, &slurm_max, &slurm_step, &slurm_count}) {
        if (auto value = lookup(env, *name)) {
            text += (text.empty() ? "" : ", ") + assignment(*name, *value);
        }
    }
    return text;
}

/// The numbers of a Slurm array, read and range-checked: id, min, max, step.
sim::Result<std::vector<std::uint64_t>, std::string> slurm_numbers(const Environment& env) {
    std::vector<std::uint64_t> numbers;
    for (const std::string* name : {&slurm_id, &slurm_min, &slurm_max, &slurm_step}) {
        if (!lookup(env, *name)) {
            if (name == &slurm_step) {
                numbers.push_back(1);
                continue;
            }
            return sim::fail(*name + " is not set (a job array sets " + slurm_id + ", " +
                             slurm_min + " and " + slurm_max + ")");
        }
        const Number value = number(env, *name, name == &slurm_step ? 1 : 0, max_count);
        if (!value) {
            return sim::fail(value.error());
        }
        numbers.push_back(value.value());
    }
    return numbers;
}

Found slurm(const Environment& env) {
    const std::string runner = "Slurm job array";
    const std::string variables = slurm_variables(env);
    const auto numbers = slurm_numbers(env);
    if (!numbers) {
        return sim::fail(runner + " (" + variables + "): " + numbers.error());
    }
    const std::uint64_t id = numbers.value()[0];
    const std::uint64_t min = numbers.value()[1];
    const std::uint64_t max = numbers.value()[2];
    const std::uint64_t step = numbers.value()[3];
    if (min > max || (max - min) % step != 0 || id < min || id > max || (id - min) % step != 0) {
        return sim::fail(runner + " (" + variables +
                         "): expected the task ID in MIN, MIN + STEP, ..., MAX (an array of "
                         "one evenly spaced range, such as --array=0-7)");
    }
    const std::uint64_t count = (max - min) / step + 1;
    if (count > max_count) {
        return sim::fail(runner + " (" + variables + "): more than 2^32 tasks");
    }
    if (lookup(env, slurm_count)) {
        const Number said = number(env, slurm_count, 1, max_count);
        if (!said || said.value() != count) {
            return sim::fail(runner + " (" + variables + "): " + slurm_count +
                             " is not (MAX - MIN) / STEP + 1 = " + std::to_string(count) +
                             " (an array of one evenly spaced range, such as --array=0-7)");
        }
    }
    AutoShard shard{(id - min) / step, count, runner, variables, {}};
    if (auto agrees = count_agrees(env, shard); !agrees) {
        return sim::fail(agrees.error());
    }
    return shard;
}

Found kubernetes(const Environment& env) {
    const std::string runner = "Kubernetes Indexed Job";
    const Number count = given_count(env, runner, k8s_var);
    if (!count) {
        return sim::fail(count.error());
    }
    const Number index = number(env, k8s_var, 0, count.value() - 1);
    if (!index) {
        return sim::fail(runner + " with " +
                         assignment(count_var, lookup(env, count_var).value_or("")) + ": " +
                         index.error());
    }
    return AutoShard{index.value(),
                     count.value(),
                     runner,
                     assignment(k8s_var, lookup(env, k8s_var).value_or("")) + ", " +
                         assignment(count_var, lookup(env, count_var).value_or("")),
                     {}};
}

struct Runner {
    const std::string* index_var;
    Found (*detect)(const Environment&);
};

std::string none_found(const Environment& env) {
    std::string found;
    for (const std::string& name : shard_variables()) {
        if (auto value = lookup(env, name)) {
            found += (found.empty() ? "" : ", ") + assignment(name, *value);
        }
    }
    return "no job runner found in the environment: looked for " + generic_var +
           " (K/N), PARALLEL_SEQ with ROUTESIM_SHARD_COUNT (GNU parallel), SLURM_ARRAY_TASK_ID "
           "with SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX (Slurm job array), "
           "JOB_COMPLETION_INDEX with ROUTESIM_SHARD_COUNT (Kubernetes Indexed Job); " +
           (found.empty() ? std::string("none of them is set")
                          : "found only " + found + ", which names no shard index") +
           " (or pass --shard K/N)";
}

} // namespace

const std::vector<std::string>& shard_variables() {
    static const std::vector<std::string> names{generic_var, count_var,   parallel_var,
                                                slurm_id,    slurm_min,   slurm_max,
                                                slurm_step,  slurm_count, k8s_var};
    return names;
}

Found shard_from_environment(const Environment& env) {
    const Runner runners[] = {{&generic_var, generic},
                              {&parallel_var, parallel},
                              {&slurm_id, slurm},
                              {&k8s_var, kubernetes}};
    const Runner* chosen = nullptr;
    std::vector<std::string> ignored;
    for (const Runner& runner : runners) {
        const auto value = lookup(env, *runner.index_var);
        if (!value) {
            continue;
        }
        if (chosen == nullptr) {
            chosen = &runner;
        } else {
            ignored.push_back(assignment(*runner.index_var, *value));
        }
    }
    if (chosen == nullptr) {
        return sim::fail(none_found(env));
    }
    Found found = chosen->detect(env);
    if (!found) {
        return found;
    }
    AutoShard shard = std::move(found).value();
    shard.ignored = std::move(ignored);
    return shard;
}

Environment process_shard_environment() {
    Environment env;
    for (const std::string& name : shard_variables()) {
        if (const char* value = std::getenv(name.c_str())) {
            env.emplace(name, value);
        }
    }
    return env;
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
