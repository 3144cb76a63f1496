// Goal: resolution, forwarding and the worker lifecycle hold as §8 rules
// R12–R24 state (R1–R11 are in router_test.cpp).
// Method: a LambdaRouter with recording workers on a test Fixture; each test drives sends
// and calls through the node, runs the world and checks what workers saw, the router's
// counters and table, and the trace. Test names carry the rule numbers.
#include <gtest/gtest.h>

#include <type_traits>

#include "runtime/router_testing.hpp"

namespace routesim::runtime {
namespace {

using act::RoutePending;
using testing::CallLog;
using testing::Fixture;
using testing::gated_worker;
using testing::has_log;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::LambdaRouter;
using testing::recording_worker;
using testing::router_factory;
using testing::routes_of;
using testing::Seen;
using testing::spawn_caller;
using testing::Text;
using testing::To;

TEST(RouterR12, RunningRouteForwardsToItsWorker) {
    Fixture f;
    Seen seen;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", recording_worker(seen)}, {"b", recording_worker(seen)}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    for (const char* name : {"a", "b", "a"}) {
        ASSERT_TRUE(f.node.send(pid, To{Atom(name), name}));
    }
    f.run();
    const PID a = router->route(Atom("a"))->pid;
    const PID b = router->route(Atom("b"))->pid;
    EXPECT_EQ(seen.by_worker[a.id], (std::vector<std::string>{"a", "a"}));
    EXPECT_EQ(seen.by_worker[b.id], (std::vector<std::string>{"b"}));
    EXPECT_EQ(router->counters().forwarded, 3U);
    EXPECT_EQ(router->counters().restarts, 0U);
}

TEST(RouterR13, DeadRouteIsSpawnedLazilyAndCountedBeforeTheForward) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", gated_worker(seen, &refuse)}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run(); // the eager respawn fails: Dead (R23)
    ASSERT_TRUE(router->route(Atom("a"))->pid.empty());
    refuse = false;
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    EXPECT_FALSE(router->route(Atom("a"))->pid.empty());
    EXPECT_EQ(seen.all, (std::vector<std::string>{"x"}));
    EXPECT_EQ(router->counters().restarts, 1U);
    EXPECT_EQ(router->counters().forwarded, 1U);
    const auto restarts = f.events("route_restart");
    ASSERT_EQ(restarts.size(), 1U);
    EXPECT_EQ(restarts[0].text("restart"), "lazy");
    // The restart is recorded before the forward's route event.
    EXPECT_LT(restarts[0].seq, f.events("route").back().seq);
}

TEST(RouterR13, LazySpawnFailureIsTheReasonAndLogsNothing) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    std::vector<Error> reasons;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", gated_worker(seen, &refuse)}});
            r.on_message = [&reasons](LambdaRouter&, const PID&, const Message& m) {
                reasons.push_back(m.get<act::MessageRouteFailed>()->reason);
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run();
    const std::size_t logs_before = f.events("log").size();
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    ASSERT_EQ(reasons.size(), 1U);
    EXPECT_EQ(reasons[0], Error::text("spawn refused"));
    EXPECT_EQ(router->counters().failed, 1U);
    EXPECT_EQ(router->counters().restarts, 0U);
    EXPECT_EQ(f.events("log").size(), logs_before); // the lazy failure is not logged
}

TEST(RouterR14, DisabledAndPendingDisableFailWithErrDisabled) {
    Fixture f;
    Seen seen;
    std::vector<Error> reasons;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", recording_worker(seen, "", sim::Duration::milliseconds(10))}});
            r.on_message = [&reasons](LambdaRouter&, const PID&, const Message& m) {
                reasons.push_back(m.get<act::MessageRouteFailed>()->reason);
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(router->disable_route(Atom("a")));
    f.run(sim::Instant::from_ns(1'000'000)); // the old worker is stopping, still alive
    ASSERT_EQ(router->route(Atom("a"))->pending, RoutePending::Disable);
    ASSERT_NE(f.node.find(router->route(Atom("a"))->pid), nullptr);
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "during"}));
    f.run();
    ASSERT_TRUE(router->route(Atom("a"))->disabled);
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "after"}));
    f.run();
    ASSERT_EQ(reasons.size(), 2U);
    EXPECT_TRUE(reasons[0].is(Err::Disabled));
    EXPECT_TRUE(reasons[1].is(Err::Disabled));
    EXPECT_TRUE(seen.all.empty());
}

TEST(RouterR15, PendingRemoveFailsWithErrNoRoute) {
    Fixture f;
    Seen seen;
    CallLog calls;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", recording_worker(seen, "", sim::Duration::milliseconds(10))}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    const PID caller = spawn_caller(f, pid, calls);
    ASSERT_TRUE(router->remove_route(Atom("a")));
    ASSERT_EQ(router->route(Atom("a"))->pending, RoutePending::Remove);
    ASSERT_TRUE(f.node.send(caller, To{Atom("a"), "q"}));
    f.run();
    EXPECT_EQ(calls.results, (std::vector<std::string>{"gen.ErrNoRoute"}));
    EXPECT_FALSE(router->route(Atom("a")).has_value());
}

TEST(RouterR16, PendingReplaceForwardsToTheOldWorker) {
    Fixture f;
    Seen old_seen;
    Seen new_seen;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", recording_worker(old_seen, "", sim::Duration::milliseconds(10))}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    const PID old_worker = router->route(Atom("a"))->pid;
    ASSERT_TRUE(
        router->replace_route(Atom("a"), act::Route{Atom(), recording_worker(new_seen), {}}));
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "in flight"}));
    f.run(sim::Instant::from_ns(1'000'000));
    const auto routed = f.events("route");
    ASSERT_EQ(routed.size(), 1U);
    EXPECT_EQ(routed[0].text("resolution"), "owned");
    EXPECT_EQ(static_cast<std::uint64_t>(routed[0].number("worker")), old_worker.id);
    EXPECT_EQ(router->counters().forwarded, 1U); // counted, and lost with the old worker (A4)
    f.run();
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "after"}));
    f.run();
    EXPECT_TRUE(old_seen.all.empty());
    EXPECT_EQ(new_seen.all, (std::vector<std::string>{"after"}));
    EXPECT_EQ(router->counters().restarts, 0U);
}

TEST(RouterR17, RegistryHitIsForwardedAndCounted) {
    Fixture f;
    Seen seen;
    ASSERT_TRUE(f.node.spawn_register(Atom("ext"), recording_worker(seen), {}, {}));
    LambdaRouter* router = nullptr;
    const PID pid = f.node.spawn(router_factory([](LambdaRouter&) {}, &router), {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("ext"), "x"}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"x"}));
    EXPECT_EQ(router->counters().forwarded, 1U);
    EXPECT_EQ(f.events("route")[0].text("resolution"), "registry");
}

TEST(RouterR17, FailedRegistryForwardIsNotRetried) {
    Fixture f;
    auto slow = lambda_factory([](LambdaActor& actor) {
        actor.on_message = [](LambdaActor& self, const PID&, const Message&) {
            self.process().busy_for(sim::Duration::seconds(10));
            return ok();
        };
    });
    const PID ext =
        f.node.spawn_register(Atom("ext"), slow, ProcessOptions{.mailbox_size = 1}, {}).value();
    std::vector<Error> reasons;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.on_message = [&reasons](LambdaRouter&, const PID&, const Message& m) {
                reasons.push_back(m.get<act::MessageRouteFailed>()->reason);
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(ext, Text{"first"}));
    f.run(sim::Instant::from_ns(1)); // ext takes it and is busy for 10 s
    ASSERT_TRUE(f.node.send(ext, Text{"fills the queue"}));
    ASSERT_TRUE(f.node.send(pid, To{Atom("ext"), "x"}));
    f.run(sim::Instant::from_ns(2));
    ASSERT_EQ(reasons.size(), 1U);
    EXPECT_TRUE(reasons[0].is(Err::ProcessMailboxFull));
    EXPECT_EQ(router->counters().failed, 1U);
    EXPECT_EQ(router->counters().restarts, 0U);
    EXPECT_EQ(f.events("spawn").size(), 2U); // no respawn of anything
}

TEST(RouterR18, EveryFailedRoutingCountsOnce) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    std::size_t handled = 0;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"disabled", recording_worker(seen)},
                           {"removing", recording_worker(seen, "", sim::Duration::milliseconds(5))},
                           {"dead", gated_worker(seen, &refuse)}});
            r.on_message = [&handled](LambdaRouter&, const PID&, const Message&) {
                handled++;
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(router->disable_route(Atom("disabled")));
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("dead"))->pid));
    f.run();
    ASSERT_TRUE(router->remove_route(Atom("removing")));
    for (const char* name : {"disabled", "removing", "dead", "nobody"}) {
        ASSERT_TRUE(f.node.send(pid, To{Atom(name), name}));
    }
    f.run();
    EXPECT_EQ(router->counters().failed, 4U);
    EXPECT_EQ(handled, 4U);
    EXPECT_EQ(testing::count_events(f, "route", "resolution", "failed"), 4U);
    std::vector<std::string> reasons;
    for (const auto& record : f.events("route")) {
        reasons.push_back(record.text("reason"));
    }
    EXPECT_EQ(reasons, (std::vector<std::string>{"gen.ErrDisabled", "gen.ErrNoRoute",
                                                 "spawn refused", "gen.ErrProcessUnknown"}));
}

TEST(RouterR20, SyncFailureAnswersTheCallerAtOnce) {
    Fixture f;
    std::size_t handled = 0;
    auto factory = router_factory([&handled](LambdaRouter& r) {
        r.on_message = [&handled](LambdaRouter&, const PID&, const Message&) {
            handled++;
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    CallLog calls;
    ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls), To{Atom("nobody"), "q"}));
    f.run();
    EXPECT_EQ(calls.results, (std::vector<std::string>{"gen.ErrProcessUnknown"}));
    EXPECT_EQ(calls.at[0], sim::Instant::from_ns(0));
    EXPECT_EQ(handled, 0U); // HandleMessage is not involved
}

TEST(RouterR21, ForwardKeepsSenderRefIdAndTarget) {
    Fixture f;
    std::vector<MailboxMessage> taken;
    auto worker = lambda_factory([&taken](LambdaActor& actor) {
        actor.on_message = [&taken](LambdaActor& self, const PID&, const Message&) {
            taken.push_back(self.current());
            return ok();
        };
        actor.on_call = [&taken](LambdaActor& self, const PID&, const Ref&, const Message&) {
            taken.push_back(self.current());
            return act::CallReply::value(Text{"from worker"});
        };
    });
    auto factory = router_factory([&](LambdaRouter& r) { r.options = routes_of({{"w", worker}}); });
    const PID pid = f.node.spawn_register(Atom("front"), factory, {}, {}).value();
    CallLog calls;
    const PID caller = spawn_caller(f, Atom("front"), calls);
    ASSERT_TRUE(f.node.send(Atom("front"), To{Atom("w"), "m"}));
    ASSERT_TRUE(f.node.send(caller, To{Atom("w"), "q"}));
    f.run();
    ASSERT_EQ(taken.size(), 2U);
    EXPECT_EQ(taken[0].from, f.node.core_pid());
    EXPECT_EQ(taken[0].target_name, Atom("front")); // the address used for the router (quirk)
    EXPECT_EQ(taken[0].type, MailboxType::Regular);
    EXPECT_EQ(taken[1].from, caller);
    EXPECT_FALSE(taken[1].ref.empty());
    EXPECT_EQ(taken[1].type, MailboxType::Request);
    EXPECT_EQ(calls.results, (std::vector<std::string>{"from worker"}));
    // The response goes from the worker straight to the caller; ids survive the forward.
    const auto responses = f.events("response");
    ASSERT_EQ(responses.size(), 1U);
    EXPECT_NE(static_cast<std::uint64_t>(responses[0].number("from")), pid.id);
    for (const auto& forward : f.events("forward")) {
        EXPECT_EQ(forward.number("queue"), static_cast<std::int64_t>(Queue::Main));
        EXPECT_EQ(static_cast<std::uint64_t>(forward.number("by")), pid.id);
    }
    EXPECT_EQ(taken[0].id, static_cast<std::uint64_t>(f.events("route")[0].number("id")));
}

TEST(RouterR22, EagerRestartKeepsTheSlotForAnyReason) {
    Fixture f;
    Seen seen;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", recording_worker(seen)},
                                   {"b", recording_worker(seen)},
                                   {"c", recording_worker(seen)}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    const PID first = router->route(Atom("b"))->pid;
    ASSERT_TRUE(f.node.send(pid, To{Atom("b"), "die"})); // a Normal exit
    f.run();
    const PID second = router->route(Atom("b"))->pid;
    EXPECT_NE(second, first);
    EXPECT_FALSE(second.empty());
    ASSERT_TRUE(f.node.kill(second)); // a Kill
    f.run();
    ASSERT_TRUE(f.node.send_exit(router->route(Atom("b"))->pid, Error::shutdown())); // Shutdown
    f.run();
    EXPECT_EQ(router->counters().restarts, 3U);
    const auto routes = router->routes();
    ASSERT_EQ(routes.size(), 3U);
    EXPECT_EQ(routes[1].name, Atom("b")); // the same table position
    EXPECT_NE(f.node.find(routes[1].pid), nullptr);
    EXPECT_EQ(testing::count_events(f, "route_restart", "restart", "eager"), 3U);
    ASSERT_TRUE(f.node.send(pid, To{Atom("b"), "next"}));
    f.run();
    EXPECT_EQ(seen.by_worker[routes[1].pid.id], (std::vector<std::string>{"next"}));
}

TEST(RouterR23, FailedEagerRespawnLeavesTheRouteDeadAndLogs) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", gated_worker(seen, &refuse)}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run();
    EXPECT_TRUE(has_log(f, "eager respawn route \"a\" failed: spawn refused"));
    const act::RouterRouteInfo info = *router->route(Atom("a"));
    EXPECT_TRUE(info.pid.empty());
    EXPECT_FALSE(info.disabled);
    EXPECT_EQ(info.pending, RoutePending::None);
    EXPECT_EQ(router->counters(), act::RouterCounters{});
    EXPECT_NE(f.node.find(pid), nullptr);
    refuse = false;
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "retry"}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"retry"}));
    EXPECT_EQ(router->counters().restarts, 1U);
}

TEST(RouterR24, QueuedMessagesAndCallsDieWithTheWorker) {
    Fixture f;
    Seen seen;
    auto crashing = lambda_factory([&seen](LambdaActor& actor) {
        actor.on_message = [&seen](LambdaActor& self, const PID&, const Message& m) -> Status {
            const std::string& value = m.get<To>()->value;
            seen.all.push_back(value);
            if (value == "slow") {
                self.process().busy_for(sim::Duration::milliseconds(1)); // the rest queues up
            }
            return value == "die" ? stop(Error::text("crash")) : ok();
        };
        actor.on_call = [](LambdaActor&, const PID&, const Ref&, const Message&) {
            return act::CallReply::stop(Error::text("crash"));
        };
    });
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", crashing}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    for (const char* value : {"slow", "die", "lost 1", "lost 2"}) {
        ASSERT_TRUE(f.node.send(pid, To{Atom("a"), value}));
    }
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"slow", "die"}));
    EXPECT_EQ(router->counters().forwarded, 4U);
    EXPECT_EQ(router->counters().restarts, 1U);
    EXPECT_GE(testing::count_events(f, "drop", "reason", "terminated"), 1U);
    CallLog calls;
    ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls), To{Atom("a"), "q"}));
    f.run();
    EXPECT_EQ(calls.results, (std::vector<std::string>{"gen.ErrTimeout"}));
}

} // namespace
} // namespace routesim::runtime
