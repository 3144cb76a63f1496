// Goal: each policy picks as specified, the decision log records real choices only, and
// replay reproduces them with a canonical fallback.
// Method: drive the Scheduler directly with small runnable sets.
#include "sim/scheduler.hpp"

#include <gtest/gtest.h>

#include <set>

namespace routesim::sim {
namespace {

Scheduler make(Policy policy, std::uint64_t seed = 1, std::vector<std::uint32_t> replay = {}) {
    SchedulerOptions options;
    options.policy = policy;
    options.replay = std::move(replay);
    return Scheduler(options, Prng(seed));
}

std::vector<TaskId> drain(Scheduler& scheduler) {
    std::vector<TaskId> order;
    while (auto task = scheduler.pick()) {
        order.push_back(*task);
    }
    return order;
}

TEST(Scheduler, FifoServesInOrderOfBecomingRunnable) {
    Scheduler scheduler = make(Policy::Fifo);
    for (TaskId task : {5U, 1U, 9U, 3U}) {
        scheduler.make_runnable(task);
    }
    EXPECT_EQ(drain(scheduler), (std::vector<TaskId>{5, 1, 9, 3}));
    EXPECT_TRUE(scheduler.decisions().empty());
}

TEST(Scheduler, FifoRecordsCanonicalIndexWhenAsked) {
    SchedulerOptions options;
    options.record_fifo = true;
    Scheduler scheduler(options, Prng(1));
    for (TaskId task : {5U, 1U, 9U}) {
        scheduler.make_runnable(task);
    }
    EXPECT_EQ(drain(scheduler), (std::vector<TaskId>{5, 1, 9}));
    // 5 is index 1 of {1,5,9}; then 1 is index 0 of {1,9}; the last pick is no choice.
    EXPECT_EQ(scheduler.decisions(), (std::vector<std::uint32_t>{1, 0}));
}

TEST(Scheduler, RandomPicksEveryTaskExactlyOnce) {
    Scheduler scheduler = make(Policy::Random, 17);
    for (TaskId task = 0; task < 50; task++) {
        scheduler.make_runnable(task);
    }
    const std::vector<TaskId> order = drain(scheduler);
    EXPECT_EQ(std::set<TaskId>(order.begin(), order.end()).size(), 50U);
    EXPECT_EQ(scheduler.decisions().size(), 49U);
    EXPECT_NE(order, [] {
        std::vector<TaskId> sorted(50);
        for (TaskId i = 0; i < 50; i++) {
            sorted[i] = i;
        }
        return sorted;
    }());
}

TEST(Scheduler, DecisionsAreRecordedOnlyForRealChoices) {
    Scheduler scheduler = make(Policy::Random, 3);
    scheduler.make_runnable(1);
    EXPECT_EQ(scheduler.pick(), TaskId{1});
    EXPECT_TRUE(scheduler.decisions().empty());
}

TEST(Scheduler, ReplayTakesRecordedChoicesThenFallsBackToFifo) {
    Scheduler scheduler = make(Policy::Replay, 1, {2, 0});
    for (TaskId task : {4U, 2U, 8U, 6U}) {
        scheduler.make_runnable(task);
    }
    // {2,4,6,8}: index 2 is 6. {2,4,8}: index 0 is 2. Then canonical: 4, then 8.
    EXPECT_EQ(drain(scheduler), (std::vector<TaskId>{6, 2, 4, 8}));
    EXPECT_EQ(scheduler.decisions(), (std::vector<std::uint32_t>{2, 0, 0}));
    EXPECT_EQ(scheduler.replay_consumed(), 2U);
}

TEST(Scheduler, ReplayOutOfRangeChoiceFallsBackToCanonical) {
    Scheduler scheduler = make(Policy::Replay, 1, {7});
    scheduler.make_runnable(3);
    scheduler.make_runnable(1);
    EXPECT_EQ(scheduler.pick(), TaskId{3});
    EXPECT_EQ(scheduler.decisions(), (std::vector<std::uint32_t>{1}));
}

TEST(Scheduler, RemoveTakesATaskOutOfEveryPolicy) {
    for (Policy policy : {Policy::Fifo, Policy::Random, Policy::Pct, Policy::Replay}) {
        Scheduler scheduler = make(policy, 5);
        scheduler.make_runnable(1);
        scheduler.make_runnable(2);
        scheduler.make_runnable(3);
        EXPECT_TRUE(scheduler.remove(2));
        EXPECT_FALSE(scheduler.remove(2));
        const std::vector<TaskId> order = drain(scheduler);
        EXPECT_EQ(std::set<TaskId>(order.begin(), order.end()), (std::set<TaskId>{1, 3}))
            << policy_name(policy);
    }
}

TEST(Scheduler, PctRunsHighestPriorityTaskUntilAChangePoint) {
    // With depth 1 there are no change points: the same task keeps winning while runnable.
    SchedulerOptions options;
    options.policy = Policy::Pct;
    options.pct_depth = 1;
    Scheduler scheduler(options, Prng(23));
    scheduler.make_runnable(1);
    scheduler.make_runnable(2);
    scheduler.make_runnable(3);
    const TaskId first = *scheduler.pick();
    for (int i = 0; i < 20; i++) {
        scheduler.make_runnable(first);
        EXPECT_EQ(scheduler.pick(), first);
    }
}

TEST(Scheduler, PctChangePointDemotesTheRunningTask) {
    // Depth 2 with a window of one step: the change point is at step 0, so the task chosen
    // first is demoted below every other and never wins again while others are runnable.
    SchedulerOptions options;
    options.policy = Policy::Pct;
    options.pct_depth = 2;
    options.pct_steps_expected = 1;
    Scheduler scheduler(options, Prng(29));
    scheduler.make_runnable(1);
    scheduler.make_runnable(2);
    const TaskId first = *scheduler.pick();
    scheduler.make_runnable(first);
    EXPECT_NE(scheduler.pick(), first);
}

TEST(Scheduler, ParsesPolicyNames) {
    EXPECT_EQ(parse_policy("pct").value(), Policy::Pct);
    EXPECT_EQ(policy_name(Policy::Random), "random");
    EXPECT_FALSE(parse_policy("lifo").has_value());
}

} // namespace
} // namespace routesim::sim
