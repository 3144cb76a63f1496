// The kernel demo run.
// Part of tools/: uses sim/.
#include "tools/demo.hpp"

#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include "sim/assert.hpp"
#include "sim/event_codec.hpp"

namespace routesim::tools {
namespace {

constexpr sim::TraceKey key_task{"task"};
constexpr sim::TraceKey key_token{"token"};
constexpr sim::TraceKey key_to{"to"};
constexpr sim::TraceKey key_hops{"hops"};
constexpr sim::TraceKey key_delay_ns{"delay_ns"};

/// A token moved from `task` to `to` (its `hops`-th hop).
struct Hop {
    static constexpr sim::TraceKey kind{"hop"};
    std::uint64_t task = 0;
    std::uint64_t token = 0;
    std::uint64_t to = 0;
    std::uint64_t hops = 0;
    static constexpr auto fields() {
        return std::tuple{sim::field(key_task, &Hop::task), sim::field(key_token, &Hop::token),
                          sim::field(key_to, &Hop::to), sim::field(key_hops, &Hop::hops)};
    }
};

/// A token waits `delay_ns` before its next delivery.
struct Delay {
    static constexpr sim::TraceKey kind{"delay"};
    std::uint64_t token = 0;
    std::int64_t delay_ns = 0;
    static constexpr auto fields() {
        return std::tuple{sim::field(key_token, &Delay::token),
                          sim::field(key_delay_ns, &Delay::delay_ns)};
    }
};

struct Token {
    std::uint32_t id;
    std::uint32_t hops;
};

// Each task has an inbox of tokens; a task with tokens is runnable; one step moves one token.
class TokenRing final : public sim::StepRunner {
public:
    TokenRing(sim::World& world, const DemoOptions& options)
        : world_(world), options_(options), prng_(world.stream("workload")),
          inboxes_(options.task_count) {}

    void start() {
        for (std::uint32_t token = 0; token < options_.token_count; token++) {
            deliver(static_cast<std::uint32_t>(prng_.below(options_.task_count)), Token{token, 0});
        }
    }

    void run_step(sim::TaskId task) override {
        auto& inbox = inboxes_[task];
        RS_ASSERT(!inbox.empty());
        Token token = inbox.front();
        inbox.pop_front();
        if (!inbox.empty()) {
            world_.scheduler().make_runnable(task);
        }
        hops_++;
        token.hops++;
        const auto next = static_cast<std::uint32_t>(prng_.below(options_.task_count));
        world_.emit(Hop{task, token.id, next, token.hops});
        if (token.hops >= options_.hops_per_token) {
            return;
        }
        if (prng_.chance(1, 4)) {
            const auto delay = sim::Duration::microseconds(prng_.between(1, 100));
            world_.emit(Delay{token.id, delay.count_ns()});
            world_.schedule_after(delay, [this, next, token] { deliver(next, token); });
            return;
        }
        deliver(next, token);
    }

    std::uint64_t hops() const { return hops_; }

private:
    void deliver(std::uint32_t task, Token token) {
        auto& inbox = inboxes_[task];
        inbox.push_back(token);
        if (inbox.size() == 1) {
            world_.scheduler().make_runnable(task);
        }
    }

    sim::World& world_;
    const DemoOptions& options_;
    sim::Prng prng_;
    std::vector<std::deque<Token>> inboxes_;
    std::uint64_t hops_ = 0;
};

} // namespace

DemoResult run_demo(const DemoOptions& options) {
    RS_ASSERT(options.task_count > 0);
    sim::World world(sim::WorldOptions{.seed = options.seed, .scheduler = options.scheduler});
    std::unique_ptr<sim::JsonlSink> jsonl;
    if (options.trace_out != nullptr) {
        jsonl = std::make_unique<sim::JsonlSink>(*options.trace_out);
        world.trace().add_sink(*jsonl);
    }
    TokenRing ring(world, options);
    world.set_runner(ring);
    ring.start();
    DemoResult result;
    result.outcome = world.run();
    result.trace_hash = world.trace().hash();
    result.trace_events = world.trace().count();
    result.hops = ring.hops();
    result.decisions = world.scheduler().decisions();
    if (jsonl) {
        world.trace().remove_sink(*jsonl);
    }
    return result;
}

} // namespace routesim::tools
