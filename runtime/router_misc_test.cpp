// Goal: termination, inspection, counters, links and exits, forwarding retries, the admin path,
// node shutdown, texts, tracing order and mailbox limits hold as §8 rules
// R39–R54 state.
// Method: LambdaRouters with recording workers on a Fixture; the trace, the counters, the
// inspect map and the process table are checked after each scenario runs.
#include <gtest/gtest.h>

#include <set>

#include "runtime/inspect_keys.hpp"
#include "runtime/router_testing.hpp"

namespace routesim::runtime {
namespace {

using act::RoutePending;
using act::RouteResult;
using testing::Admin;
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

struct Terminated {
    std::string reason;
    bool called = false;
};

Factory two_route_router(Seen& seen, Terminated& terminated, LambdaRouter** out,
                         std::function<void(LambdaRouter&)> extra = {}) {
    return router_factory(
        [&seen, &terminated, extra](LambdaRouter& r) {
            r.options = routes_of({{"a", recording_worker(seen)}, {"b", recording_worker(seen)}});
            r.on_terminate = [&terminated](LambdaRouter&, const Error& reason) {
                terminated.called = true;
                terminated.reason = reason.message();
            };
            testing::accept_admin_closures(r);
            if (extra) {
                extra(r);
            }
        },
        out);
}

TEST(RouterR39, TerminationCausesAndWorkersFollow) {
    // A HandleMessage error on the admin path.
    {
        Fixture f;
        Seen seen;
        Terminated t;
        LambdaRouter* router = nullptr;
        const PID pid =
            f.node
                .spawn(two_route_router(seen, t, &router,
                                        [](LambdaRouter& r) {
                                            r.on_message = [](LambdaRouter&, const PID&,
                                                              const Message&) -> Status {
                                                return stop(Error::text("admin says stop"));
                                            };
                                        }),
                       {}, {})
                .value();
        ASSERT_TRUE(f.node.send(pid, Text{"x"}, MessagePriority::High));
        f.run();
        EXPECT_EQ(t.reason, "admin says stop");
        EXPECT_EQ(f.node.process_count(), 0U); // the workers died through LinkParent
    }
    // A panic in a routing callback.
    {
        Fixture f;
        Seen seen;
        Terminated t;
        LambdaRouter* router = nullptr;
        const PID pid =
            f.node
                .spawn(two_route_router(seen, t, &router,
                                        [](LambdaRouter& r) {
                                            r.on_route_message = [](LambdaRouter&, const PID&,
                                                                    const Message&) -> Atom {
                                                throw std::runtime_error("bad hash");
                                            };
                                        }),
                       {}, {})
                .value();
        ASSERT_TRUE(f.node.send(pid, Text{"x"}));
        f.run();
        EXPECT_EQ(t.reason, "panic");
        EXPECT_EQ(f.node.process_count(), 0U);
    }
    // A Kill; and a HandleEvent error is a termination reason.
    {
        Fixture f;
        Seen seen;
        Terminated t;
        LambdaRouter* router = nullptr;
        const PID pid = f.node.spawn(two_route_router(seen, t, &router), {}, {}).value();
        ASSERT_TRUE(f.node.kill(pid));
        f.run();
        EXPECT_EQ(t.reason, "kill");
        EXPECT_EQ(f.node.process_count(), 0U);
    }
}

TEST(RouterR39, HandleEventErrorIsReturnedAsTheReason) {
    struct EventRouter : LambdaRouter {
        Status handle_event(const PID&, const Message&) override {
            return stop(Error::text("event"));
        }
    };
    EventRouter router;
    MailboxMessage event{PID{}, Ref{}, Text{"e"}, 0, Atom(), MailboxType::Event};
    const Status status = router.process_message(Queue::System, event);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().message(), "event");
}

TEST(RouterR40, BuiltInInspectKeys) {
    Fixture f;
    Seen seen;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", recording_worker(seen)},
                           {"b", recording_worker(seen)},
                           {"c", recording_worker(seen, "", sim::Duration::milliseconds(5))}});
            r.options.mailbox_size = 77;
        },
        &router);
    const PID pid = f.node.spawn(factory, ProcessOptions{.mailbox_size = 3}, {}).value();
    ASSERT_TRUE(router->disable_route(Atom("b")));
    f.run();
    ASSERT_TRUE(router->remove_route(Atom("c")));
    ASSERT_TRUE(f.node.send(pid, Text{"discard me"}));
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    ASSERT_TRUE(f.node.send(pid, To{Atom("nobody"), "y"}));
    f.run(f.world.now());
    const Inspection map = f.node.inspect(pid).value();
    const PID a = router->route(Atom("a"))->pid;
    const PID c = router->route(Atom("c"))->pid;
    const Inspection expected = {
        {"ergo:type", "Router"},
        {"ergo:routes_total", "3"},
        {"ergo:routes_active", "2"},
        {"ergo:routes_disabled", "1"},
        {"ergo:routes_pending", "1"},
        {"ergo:mailbox_size", "77"}, // A1: as init returned it, not the process's 3
        {"ergo:forwarded", "1"},
        {"ergo:discarded", "1"},
        {"ergo:failed", "1"},
        {"ergo:restarts", "0"},
        {"ergo:route:a:pid", to_string(a)},
        {"ergo:route:a:disabled", "false"},
        {"ergo:route:b:pid", ""},
        {"ergo:route:b:disabled", "true"},
        {"ergo:route:c:pid", to_string(c)},
        {"ergo:route:c:disabled", "false"},
        {"ergo:route:c:pending", "remove"},
    };
    EXPECT_EQ(map, expected); // no pending key for a and b (A14)
}

TEST(RouterR41, UserInspectIsMergedOnTop) {
    Fixture f;
    auto factory = router_factory([](LambdaRouter& r) {
        r.on_inspect = [](LambdaRouter&, const std::vector<std::string>& items) {
            return Inspection{{"type", "mine"},
                              {"ergo:restarts", "overridden"},
                              {"items", std::to_string(items.size())}};
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    const Inspection map = f.node.inspect(pid, {"x", "y"}).value();
    EXPECT_EQ(map.at("ergo:type"), "Router");
    EXPECT_EQ(map.at("type"), "mine");
    EXPECT_EQ(map.at("ergo:restarts"), "overridden");
    EXPECT_EQ(map.at("items"), "2");
    EXPECT_EQ(map.at("ergo:forwarded"), "0");
}

TEST(RouterR42, OnlyLazyRetryAndEagerSpawnsAreRestarts) {
    Fixture f({}, NodeOptions{.semantics = Semantics::Documented});
    Seen seen;
    bool refuse = false;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", gated_worker(seen, &refuse)}, {"b", gated_worker(seen, &refuse)}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(router->add_route({Atom("c"), gated_worker(seen, &refuse), {}}));
    ASSERT_TRUE(router->disable_route(Atom("c")));
    f.run();
    ASSERT_TRUE(router->enable_route(Atom("c")));
    ASSERT_TRUE(router->replace_route(Atom("c"), {Atom(), gated_worker(seen, &refuse), {}}));
    f.run();
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("b"))->pid));
    f.run(); // eager respawn fails: not counted
    refuse = false;
    ASSERT_TRUE(router->respawn_route(Atom("b")));
    EXPECT_EQ(router->counters().restarts, 0U);
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run(); // eager: 1
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run();
    refuse = false;
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "lazy"}));
    f.run(); // lazy: 2
    EXPECT_EQ(router->counters().restarts, 2U);
    EXPECT_EQ(router->counters().forwarded, 1U);
    EXPECT_EQ(router->counters().failed, 0U);
}

TEST(RouterR43, WorkerDeathArrivesAsAnUrgentExitNotAMessage) {
    Fixture f;
    Seen seen;
    Terminated t;
    std::size_t admin = 0;
    LambdaRouter* router = nullptr;
    f.node
        .spawn(two_route_router(seen, t, &router,
                                [&admin](LambdaRouter& r) {
                                    r.on_message = [&admin](LambdaRouter&, const PID&,
                                                            const Message&) {
                                        admin++;
                                        return ok();
                                    };
                                }),
               {}, {})
        .value();
    const PID worker = router->route(Atom("a"))->pid;
    ASSERT_TRUE(f.node.kill(worker));
    f.run();
    EXPECT_EQ(admin, 0U);                   // consumed internally
    EXPECT_EQ(f.events("link").size(), 0U); // no monitors, links only from spawn options
    bool urgent_exit = false;
    for (const auto& take : f.events("take")) {
        urgent_exit |= take.number("from") == static_cast<std::int64_t>(worker.id) &&
                       take.number("queue") == static_cast<std::int64_t>(Queue::Urgent) &&
                       take.number("type") == static_cast<std::int64_t>(MailboxType::Exit);
    }
    EXPECT_TRUE(urgent_exit);
}

TEST(RouterR44, NameExitsTerminateWithTheWrappedReason) {
    Fixture f;
    Seen seen;
    Terminated t;
    LambdaRouter* router = nullptr;
    const PID pid = f.node.spawn(two_route_router(seen, t, &router), {}, {}).value();
    const PID ext = f.node.spawn_register(Atom("ext"), recording_worker(seen), {}, {}).value();
    ASSERT_TRUE(
        f.node.send(pid, Admin{[](LambdaRouter& r) { ASSERT_TRUE(r.process().link(Atom("ext"))); }},
                    MessagePriority::High));
    f.run();
    ASSERT_TRUE(f.node.kill(ext));
    f.run();
    EXPECT_EQ(t.reason, to_string(ProcessID{Atom("ext"), f.node.name()}) + ": kill");
    EXPECT_EQ(f.node.find(pid), nullptr);
}

TEST(RouterR45, StaleWorkerIsRespawnedAndTheLateExitIgnored) {
    Fixture f;
    Seen seen;
    Terminated t;
    LambdaRouter* router = nullptr;
    const PID pid =
        f.node
            .spawn(
                two_route_router(seen, t, &router,
                                 [&f](LambdaRouter& r) {
                                     r.on_route_message = [&f](LambdaRouter& self, const PID&,
                                                               const Message&) {
                                         (void)f.node.kill(
                                             self.route(Atom("a"))->pid); // dies before the forward
                                         return Atom("a");
                                     };
                                 }),
                {}, {})
            .value();
    const std::uint64_t retries = sim::mark_count("router.forward_retry");
    const std::uint64_t ignored = sim::mark_count("router.pending_exit_ignored");
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"x"}));
    EXPECT_EQ(router->counters().restarts, 1U);
    EXPECT_EQ(router->counters().forwarded, 1U);
    EXPECT_EQ(testing::count_events(f, "route_restart", "restart", "retry"), 1U);
    EXPECT_EQ(sim::mark_count("router.forward_retry"), retries + 1);
    EXPECT_EQ(sim::mark_count("router.pending_exit_ignored"), ignored + 1);
    EXPECT_NE(f.node.find(pid), nullptr); // the old worker's exit was ignored (R50)
    EXPECT_EQ(testing::count_events(f, "route_restart", "restart", "eager"), 0U);
}

TEST(RouterR45, RetrySpawnFailureIsLoggedAndTheReason) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    std::vector<Error> reasons;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", gated_worker(seen, &refuse)}});
            r.on_route_message = [&f, &refuse](LambdaRouter& self, const PID&, const Message&) {
                (void)f.node.kill(self.route(Atom("a"))->pid);
                refuse = true;
                return Atom("a");
            };
            r.on_message = [&reasons](LambdaRouter&, const PID&, const Message& m) {
                reasons.push_back(m.get<act::MessageRouteFailed>()->reason);
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    ASSERT_EQ(reasons.size(), 1U);
    EXPECT_EQ(reasons[0], Error::text("spawn refused"));
    EXPECT_TRUE(has_log(f, "respawn route \"a\" failed: spawn refused"));
    EXPECT_TRUE(router->route(Atom("a"))->pid.empty());
    EXPECT_EQ(router->counters().failed, 1U);
    EXPECT_EQ(router->counters().restarts, 0U);
}

TEST(RouterR46, AdminCallsFollowActorConventions) {
    Fixture f;
    Terminated t;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.on_call = [](LambdaRouter& self, const PID& from, const Ref& ref, const Message& m) {
                const std::string& value = m.get<Text>()->value;
                if (value == "now") {
                    return act::CallReply::value(Text{"answer"});
                }
                if (value == "later") {
                    (void)self.process().send_response(from, ref, Text{"deferred"});
                    return act::CallReply::later();
                }
                if (value == "bye") {
                    return act::CallReply::stop(Error::normal(), Text{"last words"});
                }
                return act::CallReply::stop(Error::text("crash"), Text{"never sent"});
            };
            r.on_terminate = [&t](LambdaRouter&, const Error& reason) {
                t.reason = reason.message();
            };
        },
        &router);
    CallLog calls;
    const CallOptions high{.priority = MessagePriority::High};
    for (const char* value : {"now", "later", "bye"}) {
        const PID pid = f.node.spawn(factory, {}, {}).value();
        ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls, high), Text{value}));
    }
    const PID crashing = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(spawn_caller(f, crashing, calls, high), Text{"crash"}));
    f.run();
    EXPECT_EQ(calls.results,
              (std::vector<std::string>{"answer", "deferred", "last words", "gen.ErrTimeout"}));
    EXPECT_EQ(t.reason, "crash");
    EXPECT_TRUE(f.events("route").empty()); // never routed
}

TEST(RouterR47, NodeStopShutsTheRouterAndItsWorkersDown) {
    Fixture f;
    Seen seen;
    Terminated t;
    LambdaRouter* router = nullptr;
    const PID pid = f.node.spawn(two_route_router(seen, t, &router), {}, {}).value();
    std::string propagated;
    f.node.on_teardown([&propagated, pid](const Process& process, const Error& reason) {
        if (process.pid() == pid) {
            propagated = reason.unwrap().name(); // what linkers and monitors are told (§3.2)
        }
    });
    f.node.stop();
    f.run();
    EXPECT_EQ(t.reason, to_string(f.node.core_pid()) + ": shutdown"); // wrapped
    EXPECT_EQ(propagated, "shutdown");                                // linkers see Shutdown
    EXPECT_EQ(f.node.process_count(), 0U);
}

TEST(RouterR48, GoQuotingAndTexts) {
    EXPECT_EQ(act::go_quote("a"), "\"a\"");
    EXPECT_EQ(act::go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    EXPECT_EQ(act::go_quote(std::string("\x01", 1)), "\"\\x01\"");
    Fixture f;
    LambdaRouter* router = nullptr;
    ASSERT_TRUE(f.node.spawn(router_factory([](LambdaRouter&) {}, &router), {}, {}));
    const RouteResult nil = router->add_route({Atom("sh\"ard"), Factory(), {}});
    EXPECT_EQ(nil.error().message(), "route \"sh\\\"ard\" has nil Factory");
    EXPECT_TRUE(nil.error().is_text());
}

TEST(RouterR49, KindIsRouter) {
    Fixture f;
    const PID pid = f.node.spawn(router_factory([](LambdaRouter&) {}), {}, {}).value();
    EXPECT_EQ(f.node.find(pid)->behavior().kind_name(), "Router");
    EXPECT_EQ(f.events("spawn")[0].text("kind"), "Router");
}

TEST(RouterR51R52, OneStepInOrderWithTheMessageIdKept) {
    Fixture f;
    Seen seen;
    bool refuse = false;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"a", gated_worker(seen, &refuse)}});
            r.on_route_message = [](LambdaRouter& self, const PID&, const Message&) {
                self.process().log("info", "routing callback");
                return Atom("a");
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    refuse = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("a"))->pid));
    f.run();
    refuse = false;
    f.memory.clear();
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run(f.world.now());
    std::vector<std::string> kinds;
    for (const auto& record : f.memory.records()) {
        if (record.kind != "take" || record.number("pid") == static_cast<std::int64_t>(pid.id)) {
            kinds.push_back(record.kind);
        }
    }
    // R52: callback, spawn, forward, counters (the route event), all in the router's step.
    const std::vector<std::string> expected_prefix = {"send",          "take",    "log",  "spawn",
                                                      "route_restart", "forward", "route"};
    ASSERT_GE(kinds.size(), expected_prefix.size());
    EXPECT_EQ(std::vector<std::string>(kinds.begin(), kinds.begin() + 7), expected_prefix);
    // R51: the forwarded message keeps its id (the trace context rides along).
    const std::int64_t sent_id = f.events("send")[0].number("id");
    EXPECT_EQ(f.events("forward")[0].number("id"), sent_id);
    EXPECT_EQ(f.events("route")[0].number("id"), sent_id);
}

TEST(RouterR53, DownNoticesReachHandleMessage) {
    Fixture f;
    Seen seen;
    Terminated t;
    std::vector<std::string> downs;
    LambdaRouter* router = nullptr;
    const PID pid =
        f.node
            .spawn(two_route_router(seen, t, &router,
                                    [&downs](LambdaRouter& r) {
                                        r.on_message = [&downs](LambdaRouter& self, const PID&,
                                                                const Message& m) -> Status {
                                            if (const Admin* action = m.get<Admin>()) {
                                                action->run(self);
                                            } else if (const auto* down = m.get<MessageDownPID>()) {
                                                downs.push_back(down->reason.name());
                                            }
                                            return ok();
                                        };
                                    }),
                   {}, {})
            .value();
    const PID watched = f.node.spawn(recording_worker(seen), {}, {}).value();
    ASSERT_TRUE(f.node.send(
        pid, Admin{[watched](LambdaRouter& r) { ASSERT_TRUE(r.process().monitor(watched)); }},
        MessagePriority::High));
    f.run();
    ASSERT_TRUE(f.node.kill(watched));
    f.run();
    EXPECT_EQ(downs, (std::vector<std::string>{"kill"}));
    EXPECT_NE(f.node.find(pid), nullptr);
    EXPECT_EQ(f.events("link").size(), 1U); // only the user's monitor
}

TEST(RouterR54, DroppedExitLeavesAStalePidUntilAForwardFails) {
    Fixture f;
    Seen seen;
    Terminated t;
    LambdaRouter* router = nullptr;
    const PID pid =
        f.node
            .spawn(two_route_router(seen, t, &router,
                                    [](LambdaRouter& r) {
                                        r.on_message = [](LambdaRouter& self, const PID&,
                                                          const Message& m) -> Status {
                                            if (const Admin* action = m.get<Admin>()) {
                                                action->run(self);
                                            } else if (m.get<Text>() != nullptr &&
                                                       m.get<Text>()->value == "busy") {
                                                self.process().busy_for(
                                                    sim::Duration::milliseconds(5));
                                            }
                                            return ok();
                                        };
                                    }),
                   ProcessOptions{.mailbox_size = 1}, {})
            .value();
    const PID stale = router->route(Atom("a"))->pid;
    ASSERT_TRUE(f.node.send(pid, Text{"busy"}, MessagePriority::High));
    f.run(f.world.now()); // the router is busy for 5 ms
    ASSERT_TRUE(f.node.send(pid, Text{"fills urgent"}, MessagePriority::Max));
    ASSERT_TRUE(f.node.kill(stale)); // its exit finds the Urgent queue full and is lost
    EXPECT_EQ(f.events("signal_lost").size(), 1U);
    f.run();
    EXPECT_EQ(router->route(Atom("a"))->pid, stale);
    std::optional<RouteResult> respawn;
    ASSERT_TRUE(f.node.send(
        pid, Admin{[&respawn](LambdaRouter& r) { respawn = r.respawn_route(Atom("a")); }},
        MessagePriority::High));
    f.run();
    EXPECT_TRUE(respawn->error().is(Err::RouteRunning));
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"x"})); // the R45 retry path
    EXPECT_EQ(router->counters().restarts, 1U);
    EXPECT_NE(router->route(Atom("a"))->pid, stale);
}

TEST(RouterR10A16, TheRoutersOwnRegisteredNameRequeuesForever) {
    // A16: no guard; every hop is a forward into the router's own Main queue, so only the
    // run's event limit ends it.
    Fixture f(sim::WorldOptions{.limits = sim::Limits{.events_max = 200}});
    LambdaRouter* router = nullptr;
    const PID pid =
        f.node.spawn_register(Atom("front"), router_factory([](LambdaRouter&) {}, &router), {}, {})
            .value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("front"), "loop"}));
    const sim::RunOutcome outcome = f.run();
    EXPECT_EQ(outcome.reason, sim::StopReason::EventLimit);
    EXPECT_GE(router->counters().forwarded, 199U);
    EXPECT_EQ(router->counters().failed, 0U);
}

TEST(RouterCounters, ForwardedDiscardedFailedAddUpToRoutedMessages) {
    Fixture f;
    Seen seen;
    Terminated t;
    LambdaRouter* router = nullptr;
    const PID pid = f.node.spawn(two_route_router(seen, t, &router), {}, {}).value();
    ASSERT_TRUE(f.node.spawn_register(Atom("ext"), recording_worker(seen), {}, {}));
    ASSERT_TRUE(router->disable_route(Atom("b")));
    const char* names[] = {"a", "b", "ext", "nobody", ""};
    std::uint64_t sent = 0;
    for (int round = 0; round < 20; round++) {
        for (const char* name : names) {
            if (*name == '\0') {
                ASSERT_TRUE(f.node.send(pid, Text{"discard"}));
            } else {
                ASSERT_TRUE(f.node.send(pid, To{Atom(name), "v"}));
            }
            sent++;
        }
    }
    f.run();
    const act::RouterCounters c = router->counters();
    EXPECT_EQ(c.forwarded + c.discarded + c.failed, sent);
    EXPECT_EQ(c.forwarded, 40U);
    EXPECT_EQ(c.discarded, 20U);
    EXPECT_EQ(c.failed, 40U);
    const Inspection map = f.node.inspect(pid).value();
    EXPECT_EQ(map.at("ergo:forwarded"), "40");
    EXPECT_EQ(f.events("route").size(), sent);
}

} // namespace
} // namespace routesim::runtime

namespace routesim::runtime {
namespace {

// The loader checks expect.inspect keys against runtime/inspect_keys.hpp: the router's map has
// the fixed keys and, per route, ergo:route:<name>:<field> ("pending" while pending).
TEST(RouterInspectKeys, InspectHasExactlyTheTableKeys) {
    Fixture f;
    Seen seen;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options =
                routes_of({{"a", recording_worker(seen)},
                           {"b", recording_worker(seen, "", sim::Duration::milliseconds(5))}});
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    f.run();
    ASSERT_TRUE(router->remove_route(Atom("b"))); // pending until its worker has stopped
    std::set<std::string> keys;
    const Inspection inspection = f.node.inspect(pid).value();
    for (const auto& [key, value] : inspection) {
        keys.insert(key);
    }
    std::set<std::string> expected(inspect_keys::router.begin(), inspect_keys::router.end());
    for (const char* route : {"a", "b"}) {
        for (std::string_view field : inspect_keys::router_route_fields) {
            if (field != "pending" || std::string_view(route) == "b") {
                expected.insert(std::string(inspect_keys::router_route_prefix) + route + ":" +
                                std::string(field));
            }
        }
    }
    EXPECT_EQ(keys, expected);
}

} // namespace
} // namespace routesim::runtime
