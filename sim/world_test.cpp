// Goal: the step loop fires due timers before any step at an instant, jumps the clock only
// when nothing is runnable, and ends on idle, on the end time, or on a limit, never hanging.
// Method: small runners that record what they see.
#include "sim/world.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace routesim::sim {
namespace {

// Records "step:<task>@<ns>" for every step; a step may re-arm itself a number of times.
class Recorder final : public StepRunner {
public:
    explicit Recorder(World& world) : world_(world) {}
    void run_step(TaskId task) override {
        log.push_back("step:" + std::to_string(task) + "@" + std::to_string(world_.now().ns()));
        if (rearm > 0) {
            rearm--;
            world_.scheduler().make_runnable(task);
        }
    }
    std::vector<std::string> log;
    int rearm = 0;

private:
    World& world_;
};

TEST(World, TimersAtAnInstantFireBeforeSteps) {
    World world(WorldOptions{});
    Recorder recorder(world);
    world.set_runner(recorder);
    world.scheduler().make_runnable(1);
    world.schedule_at(Instant::zero(), [&] { recorder.log.push_back("timer-a"); });
    world.schedule_at(Instant::zero(), [&] { recorder.log.push_back("timer-b"); });
    const RunOutcome outcome = world.run();
    EXPECT_EQ(recorder.log, (std::vector<std::string>{"timer-a", "timer-b", "step:1@0"}));
    EXPECT_EQ(outcome.reason, StopReason::Idle);
    EXPECT_EQ(outcome.events, 3U);
}

TEST(World, ClockJumpsOnlyWhenNothingIsRunnable) {
    World world(WorldOptions{});
    Recorder recorder(world);
    recorder.rearm = 2;
    world.set_runner(recorder);
    world.schedule_at(Instant::from_ns(50), [&] { world.scheduler().make_runnable(7); });
    world.scheduler().make_runnable(3);
    const RunOutcome outcome = world.run();
    EXPECT_EQ(recorder.log,
              (std::vector<std::string>{"step:3@0", "step:3@0", "step:3@0", "step:7@50"}));
    EXPECT_EQ(outcome.end, Instant::from_ns(50));
}

TEST(World, CancelledTimerNeitherFiresNorMovesTheClock) {
    World world(WorldOptions{});
    Recorder recorder(world);
    world.set_runner(recorder);
    const TimerId timer =
        world.schedule_at(Instant::from_ns(1000), [&] { recorder.log.push_back("late"); });
    EXPECT_EQ(world.timers_pending(), 1U);
    EXPECT_TRUE(world.cancel(timer));
    EXPECT_FALSE(world.cancel(timer));
    const RunOutcome outcome = world.run();
    EXPECT_TRUE(recorder.log.empty());
    EXPECT_EQ(outcome.end, Instant::zero());
    EXPECT_EQ(world.timers_pending(), 0U);
}

TEST(World, StopsAtTheRequestedEndTime) {
    World world(WorldOptions{});
    Recorder recorder(world);
    world.set_runner(recorder);
    world.schedule_at(Instant::from_ns(10), [&] { recorder.log.push_back("t10"); });
    world.schedule_at(Instant::from_ns(30), [&] { recorder.log.push_back("t30"); });
    const RunOutcome outcome = world.run(Instant::from_ns(20));
    EXPECT_EQ(recorder.log, (std::vector<std::string>{"t10"}));
    EXPECT_EQ(outcome.reason, StopReason::Until);
    EXPECT_EQ(outcome.end, Instant::from_ns(20));
    EXPECT_FALSE(outcome.failed());
}

// A timer that re-schedules itself forever: only a limit can end this run.
void tick_forever(World& world) {
    world.schedule_after(Duration::nanoseconds(1), [&world] { tick_forever(world); });
}

TEST(World, EventLimitEndsARunThatWouldNeverStop) {
    World world(WorldOptions{.limits = Limits{.events_max = 1000}});
    Recorder recorder(world);
    world.set_runner(recorder);
    MemorySink memory;
    world.trace().add_sink(memory);
    tick_forever(world);
    const RunOutcome outcome = world.run();
    EXPECT_EQ(outcome.reason, StopReason::EventLimit);
    EXPECT_TRUE(outcome.failed());
    EXPECT_EQ(outcome.events, 1000U);
    ASSERT_FALSE(memory.records().empty());
    EXPECT_EQ(memory.records().back().kind, "limit");
    EXPECT_EQ(memory.records().back().text("what"), "event-limit");
    world.trace().remove_sink(memory);
}

TEST(World, TimeLimitEndsARunThatWouldNeverStop) {
    World world(WorldOptions{.limits = Limits{.time_max = Instant::from_ns(500)}});
    Recorder recorder(world);
    world.set_runner(recorder);
    tick_forever(world);
    const RunOutcome outcome = world.run();
    EXPECT_EQ(outcome.reason, StopReason::TimeLimit);
    EXPECT_EQ(outcome.end, Instant::from_ns(500));
}

TEST(World, RequestStopEndsAfterTheCurrentStep) {
    World world(WorldOptions{});
    Recorder recorder(world);
    recorder.rearm = 100;
    world.set_runner(recorder);
    world.scheduler().make_runnable(1);
    world.schedule_at(Instant::zero(), [&] { world.request_stop("violation"); });
    const RunOutcome outcome = world.run();
    EXPECT_EQ(outcome.reason, StopReason::Requested);
    EXPECT_EQ(world.stop_request(), "violation");
    EXPECT_TRUE(recorder.log.empty());
}

TEST(World, StreamsAreNamedChildrenOfTheSeed) {
    World a(WorldOptions{.seed = 5});
    World b(WorldOptions{.seed = 5});
    EXPECT_EQ(a.stream("workload").next_u64(), b.stream("workload").next_u64());
    EXPECT_NE(a.stream("workload").next_u64(), a.stream("faults").next_u64());
}

TEST(WorldDeathTest, AssertionPrintsSeedTimeAndEventIndex) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            World world(WorldOptions{.seed = 4242});
            RS_ASSERT(world.seed() == 0);
        },
        "RS_ASSERT failed: world.seed\\(\\) == 0(.|\n)*seed: 4242(.|\n)*virtual time: "
        "0ns(.|\n)*event index: 0");
}

TEST(Marks, CountHits) {
    marks_reset();
    EXPECT_EQ(mark_count("sim.test_mark"), 0U);
    RS_MARK("sim.test_mark");
    RS_MARK("sim.test_mark");
    EXPECT_EQ(mark_count("sim.test_mark"), 2U);
}

} // namespace
} // namespace routesim::sim

namespace routesim::sim {
namespace {

TEST(World, LanesOrderTimersAtOneInstant) {
    World world(WorldOptions{});
    Recorder recorder(world);
    world.set_runner(recorder);
    world.schedule_at(Instant::zero(), [&] { recorder.log.push_back("runtime"); });
    world.schedule_at(
        Instant::zero(), [&] { recorder.log.push_back("fault"); }, TimerLane::Faults);
    world.schedule_at(
        Instant::zero(), [&] { recorder.log.push_back("workload-1"); }, TimerLane::Workload, 1);
    world.schedule_at(
        Instant::zero(), [&] { recorder.log.push_back("workload-0"); }, TimerLane::Workload, 0);
    world.schedule_at(
        Instant::zero(), [&] { recorder.log.push_back("action"); }, TimerLane::Actions, 7);
    world.run();
    EXPECT_EQ(recorder.log,
              (std::vector<std::string>{"action", "workload-0", "workload-1", "runtime", "fault"}));
}

} // namespace
} // namespace routesim::sim
