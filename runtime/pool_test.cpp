// Goal: act::Pool behaves as §5 (with its "newer upstream" paragraph):
// round-robin forwarding that keeps From/Ref, lazy respawn of dead workers, mailbox-full
// skipping, unhandled drops, the admin path, add/remove workers, exits and inspect.
// Method: pools of LambdaActor workers driven by node sends and by a calling actor; results
// are read from the replies, the pool's counters and the pool_forward trace.
#include <gtest/gtest.h>

#include <set>

#include "runtime/inspect_keys.hpp"
#include "runtime/pool.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

// A Pool whose callbacks are std::functions (unset ones keep the defaults).
class TestPool : public act::Pool {
public:
    act::PoolOptions options_to_return;
    std::optional<Error> init_error;
    std::function<Status(TestPool&, const PID&, const Message&)> on_message;
    std::function<act::CallReply(TestPool&, const PID&, const Ref&, const Message&)> on_call;
    std::function<Inspection(TestPool&)> on_inspect;
    std::function<void(const Error&)> on_terminate;

    sim::Result<act::PoolOptions, Error> init(const Args&) override {
        if (init_error.has_value()) {
            return sim::fail(*init_error);
        }
        return options_to_return;
    }
    Status handle_message(const PID& from, const Message& message) override {
        return on_message ? on_message(*this, from, message) : Pool::handle_message(from, message);
    }
    act::CallReply handle_call(const PID& from, const Ref& ref, const Message& request) override {
        return on_call ? on_call(*this, from, ref, request) : Pool::handle_call(from, ref, request);
    }
    Inspection handle_inspect(const PID& from, const std::vector<std::string>& items) override {
        return on_inspect ? on_inspect(*this) : Pool::handle_inspect(from, items);
    }
    void terminate(const Error& reason) override {
        if (on_terminate) {
            on_terminate(reason);
        }
    }
};

Factory pool_factory(std::function<void(TestPool&)> configure) {
    return [configure]() -> std::unique_ptr<Behavior> {
        auto pool = std::make_unique<TestPool>();
        configure(*pool);
        return pool;
    };
}

TestPool& pool_of(Fixture& f, const PID& pid) {
    Process* process = f.node.find(pid);
    EXPECT_NE(process, nullptr);
    return dynamic_cast<TestPool&>(process->behavior());
}

// A worker that answers every call with its own PID and records what it handles.
Factory echo_worker(std::vector<std::pair<PID, PID>>* handled = nullptr) {
    return lambda_factory([handled](LambdaActor& actor) {
        actor.name = "EchoWorker";
        actor.on_call = [](LambdaActor& self, const PID&, const Ref&, const Message&) {
            return act::CallReply::value(self.self());
        };
        actor.on_message = [handled](LambdaActor& self, const PID& from, const Message&) {
            if (handled != nullptr) {
                handled->emplace_back(self.self(), from);
            }
            return ok();
        };
    });
}

PID spawn_pool(Fixture& f, std::int64_t size, Factory worker,
               std::function<void(TestPool&)> extra = nullptr) {
    auto factory = pool_factory([size, worker, extra](TestPool& pool) {
        pool.options_to_return = act::PoolOptions{.pool_size = size, .worker_factory = worker};
        if (extra) {
            extra(pool);
        }
    });
    return f.node.spawn(factory, {}, {}).value();
}

// An actor that makes `count` calls to `target`, one after another, and records the results.
class Caller : public act::Actor {
public:
    Caller(PID target, int count, std::vector<CallResult>& results)
        : target_(target), left_(count), results_(results) {}
    Status init(const Args&) override {
        (void)process().send(self(), Text{"go"});
        return ok();
    }
    Status handle_message(const PID&, const Message&) override { return next(); }

private:
    Status next() {
        if (left_ == 0) {
            return ok();
        }
        left_--;
        const SendResult sent =
            process().call(target_, Text{"who"}, CallOptions{}, [this](CallResult result) {
                results_.push_back(std::move(result));
                return next();
            });
        EXPECT_TRUE(sent);
        return ok();
    }
    PID target_;
    int left_;
    std::vector<CallResult>& results_;
};

std::vector<PID> call_pool(Fixture& f, const PID& pool, int count) {
    std::vector<CallResult> results;
    Factory factory = [&]() -> std::unique_ptr<Behavior> {
        return std::make_unique<Caller>(pool, count, results);
    };
    EXPECT_TRUE(f.node.spawn(factory, {}, {}));
    f.run();
    std::vector<PID> repliers;
    for (const CallResult& result : results) {
        EXPECT_TRUE(result.has_value());
        if (result) {
            repliers.push_back(*result.value().get<PID>());
        }
    }
    return repliers;
}

struct AddWorkers {
    std::int64_t count;
};
struct RemoveWorkers {
    std::int64_t count;
};

// Admin messages (High priority) run add/remove inside the pool's own callback.
std::function<void(TestPool&)> admin(std::vector<sim::Result<std::int64_t, Error>>& results) {
    return [&results](TestPool& pool) {
        pool.on_message = [&results](TestPool& self, const PID&, const Message& message) {
            if (const auto* add = message.get<AddWorkers>()) {
                results.push_back(self.add_workers(add->count));
            } else if (const auto* remove = message.get<RemoveWorkers>()) {
                results.push_back(self.remove_workers(remove->count));
            }
            return ok();
        };
    };
}

std::vector<std::string> forward_outcomes(const Fixture& f) {
    std::vector<std::string> outcomes;
    for (const auto& record : f.events("pool_forward")) {
        outcomes.push_back(record.text("outcome"));
    }
    return outcomes;
}

// §5 (t014): 5 workers and 10 calls: replies come from workers 1..5, twice.
TEST(PoolForward, RoundRobinRepliesFromEachWorkerTwice) {
    Fixture f;
    const PID pool = spawn_pool(f, 5, echo_worker());
    const std::vector<PID> workers(pool_of(f, pool).workers().begin(),
                                   pool_of(f, pool).workers().end());
    ASSERT_EQ(workers.size(), 5U);
    const std::vector<PID> repliers = call_pool(f, pool, 10);
    ASSERT_EQ(repliers.size(), 10U);
    for (std::size_t i = 0; i < repliers.size(); i++) {
        EXPECT_EQ(repliers[i], workers[i % 5]) << i;
    }
    EXPECT_EQ(pool_of(f, pool).messages_forwarded(), 10U);
}

// §5 (t014): AddWorkers(3) appends to the tail: the queue is [1..8]; it returns 8.
TEST(PoolAdmin, AddWorkersAppendsToTheTail) {
    Fixture f;
    std::vector<sim::Result<std::int64_t, Error>> results;
    const PID pool = spawn_pool(f, 5, echo_worker(), admin(results));
    const std::vector<PID> initial(pool_of(f, pool).workers().begin(),
                                   pool_of(f, pool).workers().end());
    (void)call_pool(f, pool, 10);
    ASSERT_TRUE(f.node.send(pool, AddWorkers{3}, MessagePriority::High));
    f.run();
    ASSERT_EQ(results.size(), 1U);
    ASSERT_TRUE(results[0]);
    EXPECT_EQ(results[0].value(), 8);
    const auto& queue = pool_of(f, pool).workers();
    ASSERT_EQ(queue.size(), 8U);
    for (std::size_t i = 0; i < 5; i++) {
        EXPECT_EQ(queue[i], initial[i]);
    }
    EXPECT_EQ(pool_of(f, pool).options().pool_size, 5); // the stored size does not change
}

// §5 (t014): RemoveWorkers(5) pops the head: workers 1..5 go, calls cycle 6,7,8.
TEST(PoolAdmin, RemoveWorkersPopsFromTheHead) {
    Fixture f;
    std::vector<sim::Result<std::int64_t, Error>> results;
    const PID pool = spawn_pool(f, 5, echo_worker(), admin(results));
    const std::vector<PID> initial(pool_of(f, pool).workers().begin(),
                                   pool_of(f, pool).workers().end());
    ASSERT_TRUE(f.node.send(pool, AddWorkers{3}, MessagePriority::High));
    ASSERT_TRUE(f.node.send(pool, RemoveWorkers{5}, MessagePriority::High));
    f.run();
    ASSERT_EQ(results.size(), 2U);
    EXPECT_EQ(results[1].value(), 3);
    const std::vector<PID> added(pool_of(f, pool).workers().begin(),
                                 pool_of(f, pool).workers().end());
    for (const PID& gone : initial) {
        EXPECT_EQ(f.node.find(gone), nullptr); // SendExit(Normal) from the parent
    }
    const std::vector<PID> repliers = call_pool(f, pool, 6);
    ASSERT_EQ(repliers.size(), 6U);
    for (std::size_t i = 0; i < 6; i++) {
        EXPECT_EQ(repliers[i], added[i % 3]);
    }
}

// §5: RemoveWorkers past the end returns ErrPoolEmpty; the removals done stay done.
TEST(PoolAdmin, RemoveWorkersBeyondTheQueueReturnsPoolEmpty) {
    Fixture f;
    std::vector<sim::Result<std::int64_t, Error>> results;
    const PID pool = spawn_pool(f, 2, echo_worker(), admin(results));
    ASSERT_TRUE(f.node.send(pool, RemoveWorkers{3}, MessagePriority::High));
    f.run();
    ASSERT_EQ(results.size(), 1U);
    ASSERT_FALSE(results[0]);
    EXPECT_TRUE(results[0].error().is(Err::PoolEmpty));
    EXPECT_TRUE(pool_of(f, pool).workers().empty());
}

// §1.2, §5: add/remove need the pool to be Running, i.e. inside its own callback.
TEST(PoolAdmin, CommandsOutsideTheOwnCallbackAreNotAllowed) {
    Fixture f;
    const PID pool = spawn_pool(f, 2, echo_worker());
    f.run();
    auto added = pool_of(f, pool).add_workers(1);
    ASSERT_FALSE(added);
    EXPECT_TRUE(added.error().is(Err::NotAllowed));
    auto removed = pool_of(f, pool).remove_workers(1);
    ASSERT_FALSE(removed);
    EXPECT_TRUE(removed.error().is(Err::NotAllowed));
    EXPECT_EQ(pool_of(f, pool).workers().size(), 2U);
}

// §5: Ergo's queue cap is 100 × pool size; pushes beyond it are lost.
TEST(PoolAdmin, PushesBeyondTheCapAreLost) {
    Fixture f;
    std::vector<sim::Result<std::int64_t, Error>> results;
    const PID pool = spawn_pool(f, 1, echo_worker(), admin(results));
    ASSERT_TRUE(f.node.send(pool, AddWorkers{100}, MessagePriority::High));
    f.run();
    ASSERT_TRUE(results[0]);
    EXPECT_EQ(results[0].value(), 100);
    EXPECT_EQ(f.events("pool_workers").back().text("what"), "lost");
}

// §5 newer upstream: a size below 1 spawns 3 workers and inspect reports 3.
TEST(PoolInit, SizeBelowOneSpawnsThreeAndReportsThree) {
    Fixture f;
    const PID pool = spawn_pool(f, 0, echo_worker());
    EXPECT_EQ(pool_of(f, pool).workers().size(), 3U);
    const Inspection inspection = f.node.inspect(pool).value();
    EXPECT_EQ(inspection.at("ergo:pool_size"), "3");
}

// §5: a failing worker spawn fails the pool's init; earlier workers are left running.
TEST(PoolInit, WorkerSpawnFailureFailsInitAndOrphansEarlierWorkers) {
    Fixture f;
    int spawned = 0;
    auto worker = lambda_factory([&spawned](LambdaActor& actor) {
        actor.on_init = [&spawned](LambdaActor&, const Args&) -> Status {
            return ++spawned == 3 ? stop(Error::text("no more")) : ok();
        };
    });
    auto factory = pool_factory([worker](TestPool& pool) {
        pool.options_to_return = act::PoolOptions{.pool_size = 4, .worker_factory = worker};
    });
    auto result = f.node.spawn(factory, {}, {});
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message(), "no more");
    f.run();
    EXPECT_EQ(f.node.process_count(), 2U);
}

// §5: an error from init fails the spawn with that error.
TEST(PoolInit, InitErrorFailsTheSpawn) {
    Fixture f;
    auto factory = pool_factory([](TestPool& pool) { pool.init_error = Error(Err::Incorrect); });
    auto result = f.node.spawn(factory, {}, {});
    ASSERT_FALSE(result);
    EXPECT_TRUE(result.error().is(Err::Incorrect));
}

// §2.6, §5: a forwarded message keeps its original From.
TEST(PoolForward, WorkerSeesTheOriginalSender) {
    Fixture f;
    std::vector<std::pair<PID, PID>> handled;
    const PID pool = spawn_pool(f, 2, echo_worker(&handled));
    ASSERT_TRUE(f.node.send(pool, Text{"a"}));
    f.run();
    ASSERT_EQ(handled.size(), 1U);
    EXPECT_EQ(handled[0].second, f.node.core_pid());
    EXPECT_EQ(f.events("forward").size(), 1U);
}

// §5: a dead worker is found on the failed forward and replaced; the new PID goes to the tail.
TEST(PoolForward, DeadWorkerIsReplacedLazily) {
    Fixture f;
    std::vector<std::pair<PID, PID>> handled;
    const PID pool = spawn_pool(f, 3, echo_worker(&handled));
    const std::vector<PID> initial(pool_of(f, pool).workers().begin(),
                                   pool_of(f, pool).workers().end());
    ASSERT_TRUE(f.node.kill(initial[0]));
    f.run();
    EXPECT_EQ(pool_of(f, pool).workers().front(), initial[0]); // not noticed yet
    ASSERT_TRUE(f.node.send(pool, Text{"a"}));
    f.run();
    ASSERT_EQ(handled.size(), 1U);
    const PID fresh = handled[0].first;
    EXPECT_NE(fresh, initial[0]);
    EXPECT_EQ(pool_of(f, pool).workers().back(), fresh);
    EXPECT_EQ(pool_of(f, pool).workers().size(), 3U);
    EXPECT_EQ(pool_of(f, pool).worker_restarts(), 1U);
    EXPECT_EQ(pool_of(f, pool).messages_forwarded(), 1U);
    EXPECT_EQ(forward_outcomes(f), (std::vector<std::string>{"dead", "respawned"}));
}

// §5 steps 5–6: a full worker is skipped (back to the tail); when all are full the message
// is dropped and counted unhandled.
TEST(PoolForward, FullWorkersAreSkippedThenTheMessageIsUnhandled) {
    Fixture f;
    auto slow = lambda_factory([](LambdaActor& actor) {
        actor.on_message = [](LambdaActor& self, const PID&, const Message&) {
            self.process().busy_for(sim::Duration::seconds(1));
            return ok();
        };
    });
    auto factory = pool_factory([slow](TestPool& pool) {
        pool.options_to_return =
            act::PoolOptions{.worker_mailbox_size = 1, .pool_size = 2, .worker_factory = slow};
    });
    const PID pool = f.node.spawn(factory, {}, {}).value();
    for (int i = 0; i < 5; i++) {
        ASSERT_TRUE(f.node.send(pool, Text{std::to_string(i)}));
    }
    f.run(sim::Instant::zero() + sim::Duration::milliseconds(1));
    // 0→w1, 1→w2 (both busy after taking), 2→w1, 3→w2 queue, 4: both full.
    EXPECT_EQ(pool_of(f, pool).messages_forwarded(), 4U);
    EXPECT_EQ(pool_of(f, pool).messages_unhandled(), 1U);
    const std::vector<std::string> outcomes = forward_outcomes(f);
    const std::vector<std::string> tail(outcomes.end() - 3, outcomes.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"full", "full", "unhandled"}));
    f.run();
}

// §5 step 6: a forwarded call nobody took is never answered; the caller times out.
TEST(PoolForward, UnhandledCallTimesOut) {
    Fixture f;
    std::vector<sim::Result<std::int64_t, Error>> results;
    const PID pool = spawn_pool(f, 1, echo_worker(), admin(results));
    ASSERT_TRUE(f.node.send(pool, RemoveWorkers{1}, MessagePriority::High));
    f.run();
    std::vector<CallResult> calls;
    Factory caller = [&]() -> std::unique_ptr<Behavior> {
        return std::make_unique<Caller>(pool, 1, calls);
    };
    ASSERT_TRUE(f.node.spawn(caller, {}, {}));
    f.run();
    ASSERT_EQ(calls.size(), 1U);
    ASSERT_FALSE(calls[0]);
    EXPECT_TRUE(calls[0].error().is(Err::Timeout));
    EXPECT_EQ(pool_of(f, pool).messages_unhandled(), 1U);
}

// §5 newer upstream: a respawned worker that refuses the message does not count as a
// forward; the message falls through to unhandled.
TEST(PoolForward, RespawnWhoseForwardFailsCountsUnhandled) {
    Fixture f;
    auto stuffed = lambda_factory([](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            // Fills its one-slot Main queue before anyone can forward to it.
            EXPECT_TRUE(self.process().send(self.self(), Text{"self"}));
            return ok();
        };
        actor.on_message = [](LambdaActor&, const PID&, const Message&) { return ok(); };
    });
    auto factory = pool_factory([stuffed](TestPool& pool) {
        pool.options_to_return =
            act::PoolOptions{.worker_mailbox_size = 1, .pool_size = 1, .worker_factory = stuffed};
    });
    const PID pool = f.node.spawn(factory, {}, {}).value();
    f.run();
    ASSERT_TRUE(f.node.kill(pool_of(f, pool).workers().front()));
    ASSERT_TRUE(f.node.send(pool, Text{"x"}));
    f.run();
    EXPECT_EQ(pool_of(f, pool).worker_restarts(), 1U);
    EXPECT_EQ(pool_of(f, pool).messages_forwarded(), 0U);
    EXPECT_EQ(pool_of(f, pool).messages_unhandled(), 1U);
    EXPECT_EQ(forward_outcomes(f),
              (std::vector<std::string>{"dead", "respawn_forward_failed", "unhandled"}));
    EXPECT_EQ(pool_of(f, pool).workers().size(), 1U);
}

// §5 step 4: when the respawn fails the dead PID leaves the pool for good.
TEST(PoolForward, FailedRespawnShrinksThePool) {
    Fixture f;
    int spawned = 0;
    auto worker = lambda_factory([&spawned](LambdaActor& actor) {
        actor.on_init = [&spawned](LambdaActor&, const Args&) -> Status {
            return ++spawned > 2 ? stop(Error::text("broken")) : ok();
        };
        actor.on_message = [](LambdaActor&, const PID&, const Message&) { return ok(); };
    });
    const PID pool = spawn_pool(f, 2, worker);
    const PID first = pool_of(f, pool).workers().front();
    const PID second = pool_of(f, pool).workers().back();
    ASSERT_TRUE(f.node.kill(first));
    ASSERT_TRUE(f.node.send(pool, Text{"x"}));
    f.run();
    EXPECT_EQ(pool_of(f, pool).workers(), (std::deque<PID>{second}));
    EXPECT_EQ(forward_outcomes(f), (std::vector<std::string>{"dead", "respawn_failed", "ok"}));
    EXPECT_EQ(pool_of(f, pool).worker_restarts(), 0U);
}

// §5: High and Max traffic reaches the pool's own callbacks (the admin path).
TEST(PoolAdmin, HighPriorityCallIsAnsweredByThePool) {
    Fixture f;
    const PID pool = spawn_pool(f, 2, echo_worker(), [](TestPool& self) {
        self.on_call = [](TestPool&, const PID&, const Ref&, const Message&) {
            return act::CallReply::value(Text{"pool"});
        };
    });
    std::vector<CallResult> results;
    auto caller = lambda_factory([&](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            (void)self.process().send(self.self(), Text{"go"});
            return ok();
        };
        actor.on_message = [&, pool](LambdaActor& self, const PID&, const Message&) {
            CallOptions options;
            options.priority = MessagePriority::High;
            EXPECT_TRUE(self.process().call(pool, Text{"q"}, options, [&](CallResult result) {
                results.push_back(std::move(result));
                return ok();
            }));
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(caller, {}, {}));
    f.run();
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].value().get<Text>()->value, "pool");
    EXPECT_EQ(pool_of(f, pool).messages_forwarded(), 0U);
}

// §5: any exit signal terminates the pool with "<origin>: <reason>"; workers follow it.
TEST(PoolExit, ExitSignalTerminatesWithTheWrappedReason) {
    Fixture f;
    std::optional<Error> reason;
    const PID pool = spawn_pool(f, 2, echo_worker(), [&reason](TestPool& self) {
        self.on_terminate = [&reason](const Error& error) { reason = error; };
    });
    ASSERT_TRUE(f.node.send_exit(pool, Error::text("bye")));
    f.run();
    ASSERT_TRUE(reason.has_value());
    EXPECT_TRUE(reason->is_wrapped());
    EXPECT_EQ(reason->unwrap(), Error::text("bye"));
    EXPECT_EQ(f.node.process_count(), 0U);
}

// §5 / §3.5: workers link to the pool only; a worker's death tells the pool nothing.
TEST(PoolWorkers, WorkerDeathDoesNotReachThePool) {
    Fixture f;
    const PID pool = spawn_pool(f, 2, echo_worker());
    f.run();
    const std::uint64_t taken = f.node.find(pool)->messages_taken();
    ASSERT_TRUE(f.node.kill(pool_of(f, pool).workers().front()));
    f.run();
    ASSERT_NE(f.node.find(pool), nullptr);
    EXPECT_EQ(f.node.find(pool)->messages_taken(), taken);
}

// §5 newer upstream: ergo:-prefixed built-in keys; user keys are merged on top.
TEST(PoolInspect, BuiltInKeysWithUserKeysOnTop) {
    Fixture f;
    const PID pool = spawn_pool(f, 2, echo_worker(), [](TestPool& self) {
        self.on_inspect = [](TestPool&) {
            return Inspection{{"mine", "1"}, {"ergo:messages_unhandled", "override"}};
        };
    });
    ASSERT_TRUE(f.node.send(pool, Text{"a"}));
    f.run();
    const Inspection inspection = f.node.inspect(pool).value();
    EXPECT_EQ(inspection.at("ergo:pool_size"), "2");
    EXPECT_EQ(inspection.at("ergo:worker_behavior"), "EchoWorker");
    EXPECT_EQ(inspection.at("ergo:worker_mailbox_size"), "0");
    EXPECT_EQ(inspection.at("ergo:worker_restarts"), "0");
    EXPECT_EQ(inspection.at("ergo:messages_forwarded"), "1");
    EXPECT_EQ(inspection.at("ergo:messages_unhandled"), "override");
    EXPECT_EQ(inspection.at("mine"), "1");
}

} // namespace
} // namespace routesim::runtime

namespace routesim::runtime {
namespace {

// The loader checks expect.inspect keys against runtime/inspect_keys.hpp: the pool's map has
// exactly those keys.
TEST(PoolInspectKeys, InspectHasExactlyTheTableKeys) {
    Fixture f;
    const PID pool = spawn_pool(f, 2, echo_worker());
    std::set<std::string> keys;
    const Inspection inspection = f.node.inspect(pool).value();
    for (const auto& [key, value] : inspection) {
        keys.insert(key);
    }
    EXPECT_EQ(keys, std::set<std::string>(inspect_keys::pool.begin(), inspect_keys::pool.end()));
}

} // namespace
} // namespace routesim::runtime
