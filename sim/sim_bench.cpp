// Kernel benchmark: scheduler steps per second with hash-only tracing (target: at least
// 30 million per second on one core for empty tasks), plus the cost of timers.
#include <benchmark/benchmark.h>

#include "sim/world.hpp"

namespace routesim::sim {
namespace {

constexpr TraceKey kind_step{"step"};
constexpr TraceKey key_task{"task"};

// Each step emits one traced event and re-arms the task until the budget is spent.
class EmptyTasks final : public StepRunner {
public:
    EmptyTasks(World& world, std::uint64_t budget) : world_(world), budget_(budget) {}
    void run_step(TaskId task) override {
        world_.emit(kind_step, {{key_task, task}});
        if (budget_ > 0) {
            budget_--;
            world_.scheduler().make_runnable(task);
        }
    }

private:
    World& world_;
    std::uint64_t budget_;
};

void run_steps(benchmark::State& state, Policy policy) {
    const auto steps = static_cast<std::uint64_t>(state.range(0));
    const auto tasks = static_cast<TaskId>(state.range(1));
    for (auto _ : state) {
        SchedulerOptions options;
        options.policy = policy;
        World world(WorldOptions{
            .seed = 1, .scheduler = options, .limits = Limits{.events_max = UINT64_MAX}});
        EmptyTasks runner(world, steps);
        world.set_runner(runner);
        for (TaskId task = 0; task < tasks; task++) {
            world.scheduler().make_runnable(task);
        }
        const RunOutcome outcome = world.run();
        benchmark::DoNotOptimize(world.trace().hash());
        benchmark::DoNotOptimize(outcome.events);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(steps));
}

void BM_StepsFifoHashOnly(benchmark::State& state) {
    run_steps(state, Policy::Fifo);
}
void BM_StepsRandomHashOnly(benchmark::State& state) {
    run_steps(state, Policy::Random);
}
void BM_StepsPctHashOnly(benchmark::State& state) {
    run_steps(state, Policy::Pct);
}
BENCHMARK(BM_StepsFifoHashOnly)->Args({1'000'000, 16})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StepsRandomHashOnly)->Args({1'000'000, 16})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StepsPctHashOnly)->Args({1'000'000, 16})->Unit(benchmark::kMillisecond);

void BM_TimerScheduleAndFire(benchmark::State& state) {
    const auto count = state.range(0);
    struct NoTasks final : StepRunner {
        void run_step(TaskId) override {}
    } runner;
    for (auto _ : state) {
        World world(WorldOptions{});
        world.set_runner(runner);
        std::uint64_t fired = 0;
        for (std::int64_t i = 0; i < count; i++) {
            world.schedule_at(Instant::from_ns(i % 1000), [&fired] { fired++; });
        }
        world.run();
        benchmark::DoNotOptimize(fired);
    }
    state.SetItemsProcessed(state.iterations() * count);
}
BENCHMARK(BM_TimerScheduleAndFire)->Arg(100'000)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace routesim::sim

BENCHMARK_MAIN();
