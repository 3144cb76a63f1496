// Goal: under random worker kills a pool keeps forwarding round-robin over its queue,
// replaces each dead worker lazily on the forward that finds it, and returns to its size
// (§5).
// Method: rapidcheck draws a pool size and a list of operations (send a burst, kill the worker
// at a queue position); a model queue predicts every forward's worker (a dead head is
// replaced by a fresh PID at the tail) and is compared with the pool_forward trace, the
// pool's queue and its counters.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <deque>
#include <set>
#include <tuple>

#include "runtime/pool.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

class SizedPool : public act::Pool {
public:
    SizedPool(std::int64_t size, Factory worker) : size_(size), worker_(std::move(worker)) {}
    sim::Result<act::PoolOptions, Error> init(const Args&) override {
        return act::PoolOptions{.pool_size = size_, .worker_factory = worker_};
    }

private:
    std::int64_t size_;
    Factory worker_;
};

// operation kind (0 send a burst, 1 kill), value (burst size or queue position)
using Operation = std::tuple<int, int>;

/// The pool's queue as the model predicts it: the head takes each message and goes to the
/// tail; a dead head is replaced by a fresh PID at the tail (§5).
struct RoundRobinModel {
    std::deque<PID> queue;
    std::set<PID> known;
    std::set<PID> dead;
    std::uint64_t fresh = 0;
    std::size_t seen_events = 0;

    /// Checks the next `count` forwards of the pool_forward trace against the model.
    template <class Events>
    void expect_forwards(const Events& events, int count, const PID& pool_pid) {
        for (int i = 0; i < count; i++) {
            const PID head = queue.front();
            queue.pop_front();
            RC_ASSERT(seen_events < events.size());
            const auto worker_id = static_cast<std::uint64_t>(events[seen_events].number("worker"));
            RC_ASSERT(worker_id == head.id);
            if (dead.count(head) > 0) {
                RC_ASSERT(events[seen_events].text("outcome") == "dead");
                seen_events++;
                RC_ASSERT(events[seen_events].text("outcome") == "respawned");
                const PID replacement{
                    pool_pid.node, static_cast<std::uint64_t>(events[seen_events].number("worker")),
                    pool_pid.creation};
                RC_ASSERT(known.insert(replacement).second);
                queue.push_back(replacement);
                fresh++;
            } else {
                RC_ASSERT(events[seen_events].text("outcome") == "ok");
                queue.push_back(head);
            }
            seen_events++;
        }
    }
};

RC_GTEST_PROP(PoolProps, ForwardsRoundRobinOverLiveWorkersAndRefills, ()) {
    const auto size = static_cast<std::size_t>(*rc::gen::inRange(1, 7));
    const auto operations = *rc::gen::container<std::vector<Operation>>(
        rc::gen::tuple(rc::gen::inRange(0, 2), rc::gen::inRange(0, 8)));
    Fixture f;
    std::uint64_t handled = 0;
    auto worker = lambda_factory([&handled](LambdaActor& actor) {
        actor.on_message = [&handled](LambdaActor&, const PID&, const Message&) {
            handled++;
            return ok();
        };
    });
    Factory factory = [size, worker]() -> std::unique_ptr<Behavior> {
        return std::make_unique<SizedPool>(static_cast<std::int64_t>(size), worker);
    };
    const PID pool_pid = f.node.spawn(factory, {}, {}).value();
    const auto& pool = dynamic_cast<SizedPool&>(f.node.find(pool_pid)->behavior());
    RoundRobinModel model;
    model.queue.assign(pool.workers().begin(), pool.workers().end());
    model.known.insert(model.queue.begin(), model.queue.end());
    std::uint64_t sent = 0;
    auto send_burst = [&](int count) {
        for (int i = 0; i < count; i++) {
            RC_ASSERT(f.node.send(pool_pid, Text{"m"}).has_value());
        }
        sent += static_cast<std::uint64_t>(count);
        f.run();
        model.expect_forwards(f.events("pool_forward"), count, pool_pid);
    };
    for (const auto& [kind, value] : operations) {
        if (kind == 1) {
            const PID victim = model.queue[static_cast<std::size_t>(value) % model.queue.size()];
            if (model.dead.insert(victim).second) {
                RC_ASSERT(f.node.kill(victim).has_value());
                f.run();
            }
        } else {
            send_burst(value);
        }
        RC_ASSERT(std::equal(model.queue.begin(), model.queue.end(), pool.workers().begin(),
                             pool.workers().end()));
        RC_ASSERT(pool.workers().size() == size);
    }
    // One full round replaces every dead worker: the pool is back to its size, all alive.
    send_burst(static_cast<int>(size));
    for (const PID& worker_pid : pool.workers()) {
        RC_ASSERT(f.node.find(worker_pid) != nullptr);
    }
    RC_ASSERT(pool.workers().size() == size);
    RC_ASSERT(pool.messages_forwarded() == sent);
    RC_ASSERT(pool.messages_unhandled() == 0U);
    RC_ASSERT(pool.worker_restarts() == model.fresh);
    RC_ASSERT(handled == sent);
}

} // namespace
} // namespace routesim::runtime
