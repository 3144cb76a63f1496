// Goal: `fuzz --shard auto` takes the shard each job runner names, follows the documented
// precedence when several runners' variables are set, and refuses (with the variables it
// looked at and what it found) an environment that names no shard or a malformed, out of
// range or inconsistent one.
// Method: call shard_from_environment on hand-made environment maps; the process environment
// is never read (the CLI test fuzz-shard-auto-* runs the binary with real ones).
#include <gtest/gtest.h>

#include "tools/shard_environment.hpp"

namespace routesim::tools {
namespace {

AutoShard chosen(const Environment& environment) {
    auto found = shard_from_environment(environment);
    EXPECT_TRUE(found.has_value()) << (found ? "" : found.error());
    return found ? found.value() : AutoShard{};
}

std::string refused(const Environment& environment) {
    auto found = shard_from_environment(environment);
    EXPECT_FALSE(found.has_value()) << (found ? describe_shard(found.value()) : "");
    return found ? "" : found.error();
}

void expect_shard(const Environment& environment, std::uint64_t index, std::uint64_t count,
                  const std::string& runner) {
    const AutoShard shard = chosen(environment);
    EXPECT_EQ(shard.index, index);
    EXPECT_EQ(shard.count, count);
    EXPECT_EQ(shard.runner, runner);
}

TEST(ShardAuto, GenericVariableGivesIndexAndCount) {
    expect_shard({{"ROUTESIM_SHARD", "2/5"}}, 2, 5, "ROUTESIM_SHARD");
    expect_shard({{"ROUTESIM_SHARD", "0/1"}}, 0, 1, "ROUTESIM_SHARD");
    expect_shard({{"ROUTESIM_SHARD", "4294967295/4294967296"}}, 4294967295, 4294967296,
                 "ROUTESIM_SHARD");
    EXPECT_EQ(describe_shard(chosen({{"ROUTESIM_SHARD", "2/5"}})),
              "2/5 from ROUTESIM_SHARD (ROUTESIM_SHARD=2/5)");
}

TEST(ShardAuto, GnuParallelSequenceIsOneBased) {
    expect_shard({{"PARALLEL_SEQ", "1"}, {"ROUTESIM_SHARD_COUNT", "4"}}, 0, 4, "GNU parallel");
    expect_shard({{"PARALLEL_SEQ", "4"}, {"ROUTESIM_SHARD_COUNT", "4"}}, 3, 4, "GNU parallel");
    EXPECT_EQ(describe_shard(chosen({{"PARALLEL_SEQ", "4"}, {"ROUTESIM_SHARD_COUNT", "4"}})),
              "3/4 from GNU parallel (PARALLEL_SEQ=4, ROUTESIM_SHARD_COUNT=4)");
}

TEST(ShardAuto, SlurmArrayIndexCountsFromItsMinimumByItsStep) {
    const Environment zero_based{{"SLURM_ARRAY_TASK_ID", "2"},
                                 {"SLURM_ARRAY_TASK_MIN", "0"},
                                 {"SLURM_ARRAY_TASK_MAX", "3"},
                                 {"SLURM_ARRAY_TASK_COUNT", "4"}};
    expect_shard(zero_based, 2, 4, "Slurm job array");
    const Environment offset{
        {"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "4"}, {"SLURM_ARRAY_TASK_MAX", "7"}};
    expect_shard(offset, 1, 4, "Slurm job array");
    const Environment stepped{{"SLURM_ARRAY_TASK_ID", "20"},
                              {"SLURM_ARRAY_TASK_MIN", "10"},
                              {"SLURM_ARRAY_TASK_MAX", "40"},
                              {"SLURM_ARRAY_TASK_STEP", "10"},
                              {"SLURM_ARRAY_TASK_COUNT", "4"}};
    expect_shard(stepped, 1, 4, "Slurm job array");
    EXPECT_EQ(describe_shard(chosen(offset)),
              "1/4 from a Slurm job array (SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_MIN=4, "
              "SLURM_ARRAY_TASK_MAX=7)");
}

TEST(ShardAuto, KubernetesIndexTakesTheCountFromRoutesimShardCount) {
    expect_shard({{"JOB_COMPLETION_INDEX", "0"}, {"ROUTESIM_SHARD_COUNT", "3"}}, 0, 3,
                 "Kubernetes Indexed Job");
    expect_shard({{"JOB_COMPLETION_INDEX", "2"}, {"ROUTESIM_SHARD_COUNT", "3"}}, 2, 3,
                 "Kubernetes Indexed Job");
}

TEST(ShardAuto, PrecedenceIsGenericThenParallelThenSlurmThenKubernetes) {
    Environment environment{{"JOB_COMPLETION_INDEX", "1"}, {"ROUTESIM_SHARD_COUNT", "4"},
                            {"SLURM_ARRAY_TASK_ID", "3"},  {"SLURM_ARRAY_TASK_MIN", "0"},
                            {"SLURM_ARRAY_TASK_MAX", "3"}, {"PARALLEL_SEQ", "3"},
                            {"ROUTESIM_SHARD", "0/4"}};
    const AutoShard all = chosen(environment);
    EXPECT_EQ(all.runner, "ROUTESIM_SHARD");
    EXPECT_EQ(all.index, 0u);
    EXPECT_EQ(all.ignored, (std::vector<std::string>{"PARALLEL_SEQ=3", "SLURM_ARRAY_TASK_ID=3",
                                                     "JOB_COMPLETION_INDEX=1"}));
    environment.erase("ROUTESIM_SHARD");
    expect_shard(environment, 2, 4, "GNU parallel");
    environment.erase("PARALLEL_SEQ");
    expect_shard(environment, 3, 4, "Slurm job array");
    EXPECT_EQ(describe_shard(chosen(environment)),
              "3/4 from a Slurm job array (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=0, "
              "SLURM_ARRAY_TASK_MAX=3); ignored (lower precedence): JOB_COMPLETION_INDEX=1");
    environment.erase("SLURM_ARRAY_TASK_ID");
    expect_shard(environment, 1, 4, "Kubernetes Indexed Job");
}

TEST(ShardAuto, NoRunnerNamesEveryVariableLookedFor) {
    const std::string none = refused({});
    for (const std::string& name : shard_variables()) {
        if (name != "SLURM_ARRAY_TASK_STEP" && name != "SLURM_ARRAY_TASK_COUNT") {
            EXPECT_NE(none.find(name), std::string::npos) << name << " in: " << none;
        }
    }
    EXPECT_NE(none.find("none of them is set"), std::string::npos) << none;
    EXPECT_NE(none.find("--shard K/N"), std::string::npos) << none;
    // Variables that name no index are reported as found, not silently dropped.
    const std::string partial =
        refused({{"ROUTESIM_SHARD_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"HOME", "/"}});
    EXPECT_NE(partial.find("found only ROUTESIM_SHARD_COUNT=4, SLURM_ARRAY_TASK_MIN=0"),
              std::string::npos)
        << partial;
    EXPECT_EQ(partial.find("HOME"), std::string::npos) << partial;
}

TEST(ShardAuto, MalformedValuesAreRefusedWithTheVariable) {
    for (const char* value : {"", "1", "1/", "/4", "4/4", "5/4", "0/0", "-1/4", "1/ 4", "+1/4",
                              "1/4294967297", "a/b", "1/4/8"}) {
        const std::string error = refused({{"ROUTESIM_SHARD", value}});
        EXPECT_EQ(error, std::string("ROUTESIM_SHARD=\"") + value +
                             "\": expected K/N with 0 <= K < N <= 2^32 (digits only)");
    }
    EXPECT_EQ(refused({{"PARALLEL_SEQ", "x"}, {"ROUTESIM_SHARD_COUNT", "4"}}),
              "GNU parallel with ROUTESIM_SHARD_COUNT=4: PARALLEL_SEQ=\"x\": expected an integer "
              "from 1 to 4 (digits only) (PARALLEL_SEQ counts jobs from 1)");
    EXPECT_EQ(refused({{"JOB_COMPLETION_INDEX", "1"}, {"ROUTESIM_SHARD_COUNT", "four"}}),
              "Kubernetes Indexed Job: ROUTESIM_SHARD_COUNT=\"four\": expected an integer from 1 "
              "to 4294967296 (digits only)");
    EXPECT_EQ(refused({{"SLURM_ARRAY_TASK_ID", " 1"},
                       {"SLURM_ARRAY_TASK_MIN", "0"},
                       {"SLURM_ARRAY_TASK_MAX", "3"}}),
              "Slurm job array (SLURM_ARRAY_TASK_ID= 1, SLURM_ARRAY_TASK_MIN=0, "
              "SLURM_ARRAY_TASK_MAX=3): SLURM_ARRAY_TASK_ID=\" 1\": expected an integer from 0 "
              "to 4294967296 (digits only)");
}

TEST(ShardAuto, OutOfRangeIndicesAreRefused) {
    EXPECT_EQ(refused({{"PARALLEL_SEQ", "0"}, {"ROUTESIM_SHARD_COUNT", "4"}}),
              "GNU parallel with ROUTESIM_SHARD_COUNT=4: PARALLEL_SEQ=\"0\": expected an integer "
              "from 1 to 4 (digits only) (PARALLEL_SEQ counts jobs from 1)");
    EXPECT_EQ(refused({{"PARALLEL_SEQ", "5"}, {"ROUTESIM_SHARD_COUNT", "4"}}),
              "GNU parallel with ROUTESIM_SHARD_COUNT=4: PARALLEL_SEQ=\"5\": expected an integer "
              "from 1 to 4 (digits only) (PARALLEL_SEQ counts jobs from 1)");
    EXPECT_EQ(refused({{"JOB_COMPLETION_INDEX", "3"}, {"ROUTESIM_SHARD_COUNT", "3"}}),
              "Kubernetes Indexed Job with ROUTESIM_SHARD_COUNT=3: JOB_COMPLETION_INDEX=\"3\": "
              "expected an integer from 0 to 2 (digits only)");
    EXPECT_EQ(refused({{"JOB_COMPLETION_INDEX", "0"}, {"ROUTESIM_SHARD_COUNT", "0"}}),
              "Kubernetes Indexed Job: ROUTESIM_SHARD_COUNT=\"0\": expected an integer from 1 to "
              "4294967296 (digits only)");
    const std::string outside = refused({{"SLURM_ARRAY_TASK_ID", "9"},
                                         {"SLURM_ARRAY_TASK_MIN", "0"},
                                         {"SLURM_ARRAY_TASK_MAX", "3"}});
    EXPECT_NE(outside.find("expected the task ID in MIN, MIN + STEP, ..., MAX"), std::string::npos)
        << outside;
}

TEST(ShardAuto, IndexWithoutItsCountIsRefused) {
    EXPECT_EQ(refused({{"JOB_COMPLETION_INDEX", "2"}}),
              "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=2 gives the index but not the count: "
              "set ROUTESIM_SHARD_COUNT=N (the number of shards) in the job's environment");
    EXPECT_EQ(refused({{"PARALLEL_SEQ", "2"}}),
              "GNU parallel: PARALLEL_SEQ=2 gives the index but not the count: set "
              "ROUTESIM_SHARD_COUNT=N (the number of shards) in the job's environment");
    EXPECT_EQ(refused({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"}}),
              "Slurm job array (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=0): "
              "SLURM_ARRAY_TASK_MAX is not set (a job array sets SLURM_ARRAY_TASK_ID, "
              "SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX)");
}

TEST(ShardAuto, InconsistentVariablesAreRefused) {
    // A list such as --array=1,3,7 is not one evenly spaced range.
    const std::string list = refused({{"SLURM_ARRAY_TASK_ID", "3"},
                                      {"SLURM_ARRAY_TASK_MIN", "1"},
                                      {"SLURM_ARRAY_TASK_MAX", "7"},
                                      {"SLURM_ARRAY_TASK_COUNT", "3"}});
    EXPECT_NE(list.find("SLURM_ARRAY_TASK_COUNT is not (MAX - MIN) / STEP + 1 = 7"),
              std::string::npos)
        << list;
    const std::string off_step = refused({{"SLURM_ARRAY_TASK_ID", "15"},
                                          {"SLURM_ARRAY_TASK_MIN", "10"},
                                          {"SLURM_ARRAY_TASK_MAX", "40"},
                                          {"SLURM_ARRAY_TASK_STEP", "10"}});
    EXPECT_NE(off_step.find("expected the task ID in MIN, MIN + STEP"), std::string::npos)
        << off_step;
    const std::string min_over_max = refused({{"SLURM_ARRAY_TASK_ID", "5"},
                                              {"SLURM_ARRAY_TASK_MIN", "5"},
                                              {"SLURM_ARRAY_TASK_MAX", "4"}});
    EXPECT_NE(min_over_max.find("expected the task ID in"), std::string::npos) << min_over_max;
    EXPECT_EQ(refused({{"ROUTESIM_SHARD", "1/4"}, {"ROUTESIM_SHARD_COUNT", "8"}}),
              "ROUTESIM_SHARD (ROUTESIM_SHARD=1/4) says 4 shards but ROUTESIM_SHARD_COUNT=8: "
              "they disagree");
    EXPECT_EQ(refused({{"SLURM_ARRAY_TASK_ID", "1"},
                       {"SLURM_ARRAY_TASK_MIN", "0"},
                       {"SLURM_ARRAY_TASK_MAX", "3"},
                       {"ROUTESIM_SHARD_COUNT", "2"}}),
              "Slurm job array (SLURM_ARRAY_TASK_ID=1, SLURM_ARRAY_TASK_MIN=0, "
              "SLURM_ARRAY_TASK_MAX=3) says 4 shards but ROUTESIM_SHARD_COUNT=2: they disagree");
}

TEST(ShardAuto, AHigherRunnersBadValueIsNotSkippedForALowerOne) {
    const std::string error = refused(
        {{"ROUTESIM_SHARD", "x"}, {"JOB_COMPLETION_INDEX", "0"}, {"ROUTESIM_SHARD_COUNT", "2"}});
    EXPECT_EQ(error.rfind("ROUTESIM_SHARD=\"x\"", 0), 0u) << error;
}

} // namespace
} // namespace routesim::tools
