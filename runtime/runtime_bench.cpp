// Runtime core benchmarks: message deliveries per second with hash-only tracing (no sinks;
// target: at least 20 million per second on one core) for ping-pong and a 1→16→1 fan-out,
// and the memory of one idle actor with a million spawned (target: at most 512 bytes).
// Benchmarks measure wall time by nature; they are not part of any simulated run.
#include <malloc.h>

#include <cstdio>
#include <fstream>

#include <benchmark/benchmark.h>

#include "runtime/actor.hpp"
#include "runtime/node_impl.hpp"
#include "sim/world.hpp"

namespace routesim::runtime {
namespace {

/// The ball; small, so it is stored inline in the message.
struct Ball {
    static constexpr std::string_view type_name = "Ball";
    std::uint32_t round = 0;
};

sim::WorldOptions bench_world() {
    return sim::WorldOptions{.seed = 1, .limits = sim::Limits{.events_max = UINT64_MAX}};
}

// -- ping-pong ----------------------------------------------------------------------------

/// Sends the ball back to its peer until the shared budget is spent.
class Player final : public act::Actor {
public:
    Player(PID* peer, std::uint64_t* budget) : peer_(peer), budget_(budget) {}
    Status handle_message(const PID&, const Message& message) override {
        if (*budget_ == 0) {
            return ok();
        }
        --*budget_;
        (void)process().send(*peer_, Ball{message.get<Ball>()->round + 1});
        return ok();
    }

private:
    PID* peer_;
    std::uint64_t* budget_;
};

void ping_pong(benchmark::State& state) {
    const auto deliveries = static_cast<std::uint64_t>(state.range(0));
    std::uint64_t total = 0;
    for (auto _ : state) {
        sim::World world(bench_world());
        Node node(world, NodeOptions{});
        std::uint64_t budget = deliveries - 1;
        PID pids[2];
        for (int i = 0; i < 2; i++) {
            PID* peer = &pids[1 - i];
            const Factory factory = [peer, &budget] {
                return std::make_unique<Player>(peer, &budget);
            };
            pids[i] = node.spawn(factory, {}, {}).value();
        }
        (void)node.send(pids[0], Ball{});
        const sim::RunOutcome outcome = world.run();
        benchmark::DoNotOptimize(world.trace().hash());
        total += node.find(pids[0])->messages_taken() + node.find(pids[1])->messages_taken();
        if (outcome.reason != sim::StopReason::Idle) {
            state.SkipWithError("run did not go idle");
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(total));
    state.counters["deliveries_per_s"] =
        benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsRate);
}
BENCHMARK(ping_pong)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// -- fan-out 1 -> 16 -> 1 -----------------------------------------------------------------

constexpr int fan_width = 16;

/// Sends one ball to every worker per round and starts the next round when all came back.
class Hub final : public act::Actor {
public:
    Hub(const std::vector<PID>* workers, std::uint32_t rounds)
        : workers_(workers), rounds_(rounds) {}
    Status handle_message(const PID&, const Message& message) override {
        const std::uint32_t round = message.get<Ball>()->round;
        if (round != 0 && ++replies_ < workers_->size()) {
            return ok();
        }
        replies_ = 0;
        if (round == rounds_) {
            return ok();
        }
        for (const PID& worker : *workers_) {
            (void)process().send(worker, Ball{round + 1});
        }
        return ok();
    }

private:
    const std::vector<PID>* workers_;
    std::uint32_t rounds_;
    std::size_t replies_ = 0;
};

/// Echoes every ball to the hub.
class Echo final : public act::Actor {
public:
    explicit Echo(const PID* hub) : hub_(hub) {}
    Status handle_message(const PID&, const Message& message) override {
        (void)process().send(*hub_, message);
        return ok();
    }

private:
    const PID* hub_;
};

void fan_out(benchmark::State& state) {
    const auto rounds = static_cast<std::uint32_t>(state.range(0));
    std::uint64_t total = 0;
    for (auto _ : state) {
        sim::World world(bench_world());
        Node node(world, NodeOptions{});
        std::vector<PID> workers;
        PID hub;
        for (int i = 0; i < fan_width; i++) {
            workers.push_back(
                node.spawn([&hub] { return std::make_unique<Echo>(&hub); }, {}, {}).value());
        }
        hub = node.spawn([&workers, rounds] { return std::make_unique<Hub>(&workers, rounds); }, {},
                         {})
                  .value();
        (void)node.send(hub, Ball{0});
        world.run();
        benchmark::DoNotOptimize(world.trace().hash());
        for (const PID& pid : node.processes()) {
            total += node.find(pid)->messages_taken();
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(total));
    state.counters["deliveries_per_s"] =
        benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsRate);
}
BENCHMARK(fan_out)->Arg(1 << 15)->Unit(benchmark::kMillisecond);

// -- memory per idle actor ----------------------------------------------------------------

/// The smallest useful actor: Ergo's defaults for every callback.
class Idle final : public act::Actor {};

/// Bytes in use by malloc (heap) right now.
std::uint64_t heap_in_use() {
    const struct mallinfo2 info = mallinfo2();
    return static_cast<std::uint64_t>(info.uordblks) + static_cast<std::uint64_t>(info.hblkhd);
}

/// Resident set size in bytes from /proc/self/statm.
std::uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages_total = 0;
    std::uint64_t pages_resident = 0;
    statm >> pages_total >> pages_resident;
    return pages_resident * 4096;
}

void idle_actor_memory(benchmark::State& state) {
    const auto actors = static_cast<std::uint64_t>(state.range(0));
    double heap_per_actor = 0;
    double rss_per_actor = 0;
    for (auto _ : state) {
        sim::World world(bench_world());
        Node node(world, NodeOptions{});
        const Factory factory = [] { return std::make_unique<Idle>(); };
        const std::uint64_t heap_before = heap_in_use();
        const std::uint64_t rss_before = resident_bytes();
        for (std::uint64_t i = 0; i < actors; i++) {
            benchmark::DoNotOptimize(node.spawn(factory, {}, {}));
        }
        const std::uint64_t heap_after = heap_in_use();
        const std::uint64_t rss_after = resident_bytes();
        const auto count = static_cast<double>(actors);
        heap_per_actor = static_cast<double>(heap_after - heap_before) / count;
        rss_per_actor = static_cast<double>(rss_after - rss_before) / count;
        if (node.process_count() != actors) {
            state.SkipWithError("not every actor is alive");
        }
    }
    state.counters["heap_bytes_per_actor"] = heap_per_actor;
    state.counters["rss_bytes_per_actor"] = rss_per_actor;
    state.counters["sizeof_process"] = static_cast<double>(sizeof(Process));
    state.counters["sizeof_actor"] = static_cast<double>(sizeof(Idle));
}
BENCHMARK(idle_actor_memory)->Arg(1'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace routesim::runtime

BENCHMARK_MAIN();
