// Router benchmark: routed messages per second through a 16-route hash router with hash-only
// tracing (target: at least 10 million per second on one core). One routed message is the
// whole path: the node's send into the router, the router's step (route_message, resolve,
// forward, trace) and the worker's step taking it.
#include <benchmark/benchmark.h>

#include "runtime/node_impl.hpp"
#include "runtime/router.hpp"

namespace routesim::runtime {
namespace {

constexpr std::uint64_t route_count = 16;

struct Keyed {
    static constexpr std::string_view type_name = "Keyed";
    std::uint64_t key = 0;
};

// A worker that only counts what it takes.
class CountingWorker final : public Behavior {
public:
    explicit CountingWorker(std::uint64_t& taken) : taken_(taken) {}
    Status process_init(const Args&) override { return ok(); }
    Status process_message(Queue, MailboxMessage&) override {
        taken_++;
        return ok();
    }
    void process_terminate(const Error&) override {}
    Inspection process_inspect(PID, const std::vector<std::string>&) override { return {}; }
    std::string_view kind_name() const override { return "Actor"; }

private:
    std::uint64_t& taken_;
};

class HashRouter final : public act::Router {
public:
    explicit HashRouter(std::uint64_t& taken) : taken_(taken) {}
    sim::Result<act::RouterOptions, Error> init(const Args&) override {
        act::RouterOptions options;
        std::uint64_t* taken = &taken_;
        for (std::uint64_t i = 0; i < route_count; i++) {
            shards_.emplace_back("shard:" + std::to_string(i));
            options.routes.push_back({shards_.back(),
                                      [taken]() -> std::unique_ptr<Behavior> {
                                          return std::make_unique<CountingWorker>(*taken);
                                      },
                                      {}});
        }
        return options;
    }
    Atom route_message(const PID&, const Message& message) override {
        const Keyed* keyed = message.get<Keyed>();
        return keyed == nullptr ? act::RouteDiscard : shards_[keyed->key % route_count];
    }
    Atom route_call(const PID&, const Ref&, const Message&) override { return act::RouteDiscard; }

private:
    std::uint64_t& taken_;
    std::vector<Atom> shards_;
};

void BM_RouterHashRoutedHashOnly(benchmark::State& state) {
    const auto messages = static_cast<std::uint64_t>(state.range(0));
    constexpr std::uint64_t batch = 1024;
    std::uint64_t taken = 0;
    for (auto _ : state) {
        state.PauseTiming();
        sim::World world(
            sim::WorldOptions{.seed = 1, .limits = sim::Limits{.events_max = UINT64_MAX}});
        Node node(world, NodeOptions{});
        const PID router = node.spawn(
                                   [&taken]() -> std::unique_ptr<Behavior> {
                                       return std::make_unique<HashRouter>(taken);
                                   },
                                   {}, {})
                               .value();
        taken = 0;
        state.ResumeTiming();
        for (std::uint64_t sent = 0; sent < messages; sent += batch) {
            for (std::uint64_t i = 0; i < batch; i++) {
                (void)node.send(router, Keyed{(sent + i) * 2654435761U});
            }
            world.run();
        }
        benchmark::DoNotOptimize(world.trace().hash());
    }
    if (taken != messages) {
        state.SkipWithError("not every message reached a worker");
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(messages));
}
BENCHMARK(BM_RouterHashRoutedHashOnly)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// The floor the runtime sets: the same messages sent straight to 16 workers (one send, one
// worker step, two trace events each), so the router's own share is the difference.
void BM_DirectToWorkersHashOnly(benchmark::State& state) {
    const auto messages = static_cast<std::uint64_t>(state.range(0));
    constexpr std::uint64_t batch = 1024;
    std::uint64_t taken = 0;
    for (auto _ : state) {
        state.PauseTiming();
        sim::World world(
            sim::WorldOptions{.seed = 1, .limits = sim::Limits{.events_max = UINT64_MAX}});
        Node node(world, NodeOptions{});
        std::vector<PID> workers;
        for (std::uint64_t i = 0; i < route_count; i++) {
            workers.push_back(node.spawn(
                                      [&taken]() -> std::unique_ptr<Behavior> {
                                          return std::make_unique<CountingWorker>(taken);
                                      },
                                      {}, {})
                                  .value());
        }
        taken = 0;
        state.ResumeTiming();
        for (std::uint64_t sent = 0; sent < messages; sent += batch) {
            for (std::uint64_t i = 0; i < batch; i++) {
                const std::uint64_t key = (sent + i) * 2654435761U;
                (void)node.send(workers[key % route_count], Keyed{key});
            }
            world.run();
        }
        benchmark::DoNotOptimize(world.trace().hash());
    }
    if (taken != messages) {
        state.SkipWithError("not every message reached a worker");
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(messages));
}
BENCHMARK(BM_DirectToWorkersHashOnly)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace routesim::runtime

BENCHMARK_MAIN();
