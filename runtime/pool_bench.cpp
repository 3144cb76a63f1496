// Pool benchmark: messages per second through an act::Pool of 8 workers with hash-only
// tracing (every trace event is hashed, no sink). Target: at least 5 million per second.
// A message counts once it has been forwarded by the pool and handled by a worker.
#include <benchmark/benchmark.h>

#include "runtime/actor.hpp"
#include "runtime/node_impl.hpp"
#include "runtime/pool.hpp"

namespace routesim::runtime {
namespace {

struct Tick {
    static constexpr std::string_view type_name = "Tick";
    std::uint64_t seq = 0;
};

class Worker final : public act::Actor {
public:
    explicit Worker(std::uint64_t& handled) : handled_(handled) {}
    Status handle_message(const PID&, const Message&) override {
        handled_++;
        return ok();
    }

private:
    std::uint64_t& handled_;
};

class BenchPool final : public act::Pool {
public:
    explicit BenchPool(std::uint64_t& handled) : handled_(handled) {}
    sim::Result<act::PoolOptions, Error> init(const Args&) override {
        std::uint64_t* handled = &handled_;
        return act::PoolOptions{.pool_size = 8,
                                .worker_factory = [handled]() -> std::unique_ptr<Behavior> {
                                    return std::make_unique<Worker>(*handled);
                                }};
    }

private:
    std::uint64_t& handled_;
};

void BM_PoolForwardHashOnly(benchmark::State& state) {
    const auto messages = static_cast<std::uint64_t>(state.range(0));
    const auto batch = static_cast<std::uint64_t>(state.range(1));
    for (auto _ : state) {
        sim::World world(
            sim::WorldOptions{.seed = 1, .limits = sim::Limits{.events_max = UINT64_MAX}});
        Node node(world, NodeOptions{});
        std::uint64_t handled = 0;
        const Factory factory = [&handled]() -> std::unique_ptr<Behavior> {
            return std::make_unique<BenchPool>(handled);
        };
        const PID pool = node.spawn(factory, {}, {}).value();
        for (std::uint64_t sent = 0; sent < messages; sent += batch) {
            for (std::uint64_t i = 0; i < batch; i++) {
                (void)node.send(pool, Tick{sent + i});
            }
            world.run();
        }
        if (handled != messages) {
            state.SkipWithError("not every message was handled");
        }
        benchmark::DoNotOptimize(world.trace().hash());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(messages));
}
BENCHMARK(BM_PoolForwardHashOnly)->Args({1'000'000, 1'000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PoolForwardHashOnly)->Args({1'000'000, 1})->Unit(benchmark::kMillisecond);

} // namespace
} // namespace routesim::runtime

BENCHMARK_MAIN();
