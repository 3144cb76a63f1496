// Goal: the Router's API surface, initialisation, dispatch and discards hold as
// §8 rules R1–R11 (and R19) state; R12–R24 are in router_forward_test.cpp.
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

// A router that implements only init: still abstract (R1).
struct OnlyInit : act::Router {
    sim::Result<act::RouterOptions, Error> init(const Args&) override {
        return act::RouterOptions{};
    }
};
// A router that does not answer calls: still abstract (R1).
struct NoRouteCall : OnlyInit {
    Atom route_message(const PID&, const Message&) override { return act::RouteDiscard; }
};
// The smallest router: every callback besides the three mandatory ones keeps its default.
struct Minimal : NoRouteCall {
    Atom route_call(const PID&, const Ref&, const Message&) override { return act::RouteDiscard; }
};

Factory minimal_factory(Minimal** out = nullptr) {
    return [out]() -> std::unique_ptr<Behavior> {
        auto router = std::make_unique<Minimal>();
        if (out != nullptr) {
            *out = router.get();
        }
        return router;
    };
}

TEST(RouterR1, RoutingCallbacksArePureVirtual) {
    static_assert(std::is_abstract_v<act::Router>);
    static_assert(std::is_abstract_v<OnlyInit>);
    static_assert(std::is_abstract_v<NoRouteCall>);
    static_assert(!std::is_abstract_v<Minimal>);
    static_assert(std::is_base_of_v<Behavior, act::Router>);
    Fixture f;
    ASSERT_TRUE(f.node.spawn(minimal_factory(), {}, {}));
}

TEST(RouterR2, DefaultsLogAndLeaveCallsUnanswered) {
    Fixture f;
    Minimal* router = nullptr;
    const PID pid = f.node.spawn(minimal_factory(&router), {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"admin"}, MessagePriority::High));
    CallLog calls;
    const PID caller = spawn_caller(f, pid, calls, CallOptions{.priority = MessagePriority::High});
    ASSERT_TRUE(f.node.send(caller, Text{"q"}));
    f.run();
    EXPECT_TRUE(
        has_log(f, "Router.HandleMessage: unhandled message from " + to_string(f.node.core_pid())));
    EXPECT_TRUE(has_log(f, "Router.HandleCall: unhandled request from " + to_string(caller)));
    // (nil, nil): no reply, so the admin call times out after the default 5 s.
    ASSERT_EQ(calls.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(calls.at[0], sim::Instant::from_ns(5'000'000'000));
    // HandleEvent logs; HandleInspect returns the built-in statistics; Terminate is a no-op.
    MailboxMessage event{f.node.core_pid(), Ref{}, Text{"e"}, 0, Atom(), MailboxType::Event};
    EXPECT_TRUE(router->process_message(Queue::Main, event));
    EXPECT_TRUE(
        has_log(f, "Router.HandleEvent: unhandled event from " + to_string(f.node.core_pid())));
    EXPECT_EQ(router->handle_inspect(pid, {}), router->stats());
    EXPECT_EQ(f.node.inspect(pid).value(), router->stats());
    EXPECT_NE(f.node.find(pid), nullptr);
}

TEST(RouterR3, TypesAndPendingNames) {
    EXPECT_EQ(act::route_pending_name(RoutePending::None), "none");
    EXPECT_EQ(act::route_pending_name(RoutePending::Disable), "disable");
    EXPECT_EQ(act::route_pending_name(RoutePending::Replace), "replace");
    EXPECT_EQ(act::route_pending_name(RoutePending::Remove), "remove");
    EXPECT_EQ(act::route_pending_name(static_cast<RoutePending>(7)), "pending#7");
    EXPECT_EQ(static_cast<int>(RoutePending::Remove), 3);
    EXPECT_TRUE(act::RouteDiscard.empty());
    EXPECT_EQ(act::RouteDiscard, Atom());
    const act::RouterOptions options;
    EXPECT_TRUE(options.routes.empty());
    EXPECT_EQ(options.mailbox_size, 0);
    const act::RouterRouteInfo info;
    EXPECT_TRUE(info.pid.empty());
    EXPECT_FALSE(info.disabled);
    EXPECT_EQ(info.pending, RoutePending::None);
}

TEST(RouterR4R19, AsyncFailureReachesHandleMessageInline) {
    Fixture f;
    std::vector<act::MessageRouteFailed> failures;
    std::vector<PID> handler_from;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.on_message = [&](LambdaRouter&, const PID& from, const Message& message) -> Status {
                if (const auto* failed = message.get<act::MessageRouteFailed>()) {
                    failures.push_back(*failed);
                    handler_from.push_back(from);
                }
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("nowhere"), "x"}));
    f.run();
    ASSERT_EQ(failures.size(), 1U);
    EXPECT_EQ(handler_from[0], pid); // R19, A15: from is the router's own pid
    EXPECT_EQ(failures[0].name, Atom("nowhere"));
    EXPECT_EQ(failures[0].from, f.node.core_pid()); // the original sender
    EXPECT_EQ(failures[0].message.get<To>()->value, "x");
    EXPECT_TRUE(failures[0].reason.is(Err::ProcessUnknown));
    // Inline: the router took exactly one message (no MessageRouteFailed went through a queue).
    EXPECT_EQ(f.node.find(pid)->messages_taken(), 1U);
    EXPECT_EQ(router->counters().failed, 1U);
}

TEST(RouterR19, NonNilFromRouteFailedTerminatesTheRouter) {
    Fixture f;
    std::string reason;
    auto factory = router_factory([&](LambdaRouter& r) {
        r.on_message = [](LambdaRouter&, const PID&, const Message&) -> Status {
            return stop(Error::text("give up"));
        };
        r.on_terminate = [&reason](LambdaRouter&, const Error& error) { reason = error.message(); };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("nowhere"), "x"}));
    f.run();
    EXPECT_EQ(reason, "give up");
    EXPECT_EQ(f.node.find(pid), nullptr);
}

TEST(RouterR5, InitSpawnsRoutesInOrderAnonymousAndLinked) {
    Fixture f;
    std::vector<std::string> args_seen;
    auto worker = lambda_factory([&args_seen](LambdaActor& actor) {
        actor.on_init = [&args_seen](LambdaActor&, const Args& args) {
            args_seen.push_back(args.empty() ? "-" : args[0].get<Text>()->value);
            return ok();
        };
    });
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            for (const char* name : {"a", "b", "c"}) {
                r.options.routes.push_back(act::Route{Atom(name), worker, {Text{name}}});
            }
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    const std::vector<act::RouterRouteInfo> routes = router->routes();
    ASSERT_EQ(routes.size(), 3U);
    EXPECT_EQ(args_seen, (std::vector<std::string>{"a", "b", "c"}));
    for (std::size_t i = 0; i < routes.size(); i++) {
        EXPECT_EQ(routes[i].pid.id, pid.id + 1 + i); // spawned in declaration order
        const Process* process = f.node.find(routes[i].pid);
        ASSERT_NE(process, nullptr);
        EXPECT_EQ(process->parent(), pid);
        EXPECT_EQ(process->leader(), f.node.find(pid)->leader());
        EXPECT_EQ(process->mailbox_size(), 0); // unbounded, whatever mailbox_size says (A1)
        EXPECT_TRUE(process->name().empty());  // never registered
    }
    EXPECT_TRUE(f.node.registered().empty());
    EXPECT_EQ(f.events("link").size(), 0U); // the links come from the spawn options
}

TEST(RouterR6, FailedInitLeavesNoWorkerBehind) {
    Fixture f;
    Seen seen;
    const bool refuse = true;
    auto factory = router_factory([&](LambdaRouter& r) {
        r.options = routes_of({{"a", recording_worker(seen)},
                               {"b", recording_worker(seen)},
                               {"c", gated_worker(seen, &refuse)}});
    });
    const sim::Result<PID, Error> spawned = f.node.spawn(factory, {}, {});
    ASSERT_FALSE(spawned);
    EXPECT_EQ(spawned.error().message(), "spawn route \"c\": spawn refused");
    EXPECT_EQ(spawned.error().unwrap(), Error::text("spawn refused")); // R48: it wraps
    f.run();
    EXPECT_EQ(f.node.process_count(), 0U); // a and b died through the LinkChild cleanup
    EXPECT_EQ(f.events("exit").size(), 2U);
}

TEST(RouterR6, InvalidRouteListsFailWithTheirTexts) {
    Seen seen;
    const std::vector<std::pair<act::RouterOptions, std::string>> cases = {
        {act::RouterOptions{
             {{Atom("a"), recording_worker(seen), {}}, {Atom(), recording_worker(seen), {}}}},
         "route name can not be empty"},
        {act::RouterOptions{{{Atom("a"), recording_worker(seen), {}}, {Atom("b"), Factory(), {}}}},
         "route \"b\" has nil Factory"},
        {act::RouterOptions{
             {{Atom("a"), recording_worker(seen), {}}, {Atom("a"), recording_worker(seen), {}}}},
         "duplicate route name \"a\""},
    };
    for (const auto& [options, text] : cases) {
        Fixture f;
        const act::RouterOptions copy = options;
        const sim::Result<PID, Error> spawned =
            f.node.spawn(router_factory([copy](LambdaRouter& r) { r.options = copy; }), {}, {});
        ASSERT_FALSE(spawned);
        EXPECT_EQ(spawned.error().message(), text);
        EXPECT_FALSE(spawned.error().is(Err::RouteDuplicate)); // A2: ad-hoc texts
        f.run();
        EXPECT_EQ(f.node.process_count(), 0U); // "a" was spawned first and died (A2)
    }
}

TEST(RouterR6, PanicInInitFailsWithPanic) {
    Fixture f;
    auto factory = router_factory([](LambdaRouter& r) {
        r.on_init = [](LambdaRouter&, const Args&) -> sim::Result<act::RouterOptions, Error> {
            throw std::runtime_error("boom");
        };
    });
    const sim::Result<PID, Error> spawned = f.node.spawn(factory, {}, {});
    ASSERT_FALSE(spawned);
    EXPECT_TRUE(spawned.error().is(TerminateReason::Panic));
}

TEST(RouterR7, FreeRouterSpawnsNothingAndUsesTheRegistry) {
    Fixture f;
    Seen seen;
    ASSERT_TRUE(f.node.spawn_register(Atom("payments"), recording_worker(seen), {}, {}));
    LambdaRouter* router = nullptr;
    const PID pid = f.node.spawn(router_factory([](LambdaRouter&) {}, &router), {}, {}).value();
    EXPECT_TRUE(router->routes().empty());
    EXPECT_EQ(f.node.process_count(), 2U);
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "p1"}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"p1"}));
    EXPECT_EQ(router->counters().forwarded, 1U);
}

TEST(RouterR8, NormalMessagesAndCallsUseTheirRoutingCallbacks) {
    Fixture f;
    Seen seen;
    std::vector<std::string> callbacks;
    auto factory = router_factory([&](LambdaRouter& r) {
        r.options = routes_of({{"w", recording_worker(seen)}});
        r.on_route_message = [&callbacks](LambdaRouter&, const PID&, const Message&) {
            callbacks.push_back("message");
            return Atom("w");
        };
        r.on_route_call = [&callbacks](LambdaRouter&, const PID&, const Ref& ref, const Message&) {
            callbacks.push_back(ref.empty() ? "call without ref" : "call");
            return Atom("w");
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"m"}));
    CallLog calls;
    ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls), Text{"c"}));
    f.run();
    EXPECT_EQ(callbacks, (std::vector<std::string>{"message", "call"}));
    ASSERT_EQ(calls.results.size(), 1U);
    EXPECT_EQ(seen.all, (std::vector<std::string>{"m"}));
}

TEST(RouterR9, HighMaxEventsAndLogsAreNotRouted) {
    Fixture f;
    Seen seen;
    std::vector<std::string> admin;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.options = routes_of({{"w", recording_worker(seen)}});
            r.on_message = [&admin](LambdaRouter&, const PID&, const Message& message) {
                admin.push_back(message.get<To>()->value);
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("w"), "high"}, MessagePriority::High));
    ASSERT_TRUE(f.node.send(pid, To{Atom("w"), "max"}, MessagePriority::Max));
    ASSERT_TRUE(f.node.send(pid, To{Atom("w"), "normal"}));
    f.run();
    EXPECT_EQ(admin, (std::vector<std::string>{"max", "high"}));
    EXPECT_EQ(seen.all, (std::vector<std::string>{"normal"}));
    // An event from the Main queue goes to HandleEvent (A3); a Log item is a panic.
    MailboxMessage event{f.node.core_pid(), Ref{}, To{Atom("w"), "event"}, 0, Atom(),
                         MailboxType::Event};
    EXPECT_TRUE(router->process_message(Queue::Main, event));
    EXPECT_EQ(router->counters().forwarded, 1U);
    MailboxMessage record{f.node.core_pid(), Ref{}, Text{"log"}, 0, Atom(), MailboxType::Regular};
    const Status logged = router->process_message(Queue::Log, record);
    ASSERT_FALSE(logged);
    EXPECT_TRUE(logged.error().is(TerminateReason::Panic));
    EXPECT_TRUE(has_log(f, "router process can not be a logger"));
}

TEST(RouterR10, OwnedRoutesShadowRegisteredNames) {
    Fixture f;
    Seen owned;
    Seen registered;
    ASSERT_TRUE(f.node.spawn_register(Atom("a"), recording_worker(registered), {}, {}));
    auto factory = router_factory([&](LambdaRouter& r) {
        r.options = routes_of({{"a", recording_worker(owned)}});
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, To{Atom("a"), "x"}));
    f.run();
    EXPECT_EQ(owned.all, (std::vector<std::string>{"x"}));
    EXPECT_TRUE(registered.all.empty());
    ASSERT_EQ(f.events("route").size(), 1U);
    EXPECT_EQ(f.events("route")[0].text("resolution"), "owned");
}

TEST(RouterR11, DiscardDropsMessagesAndAnswersCallsAtOnce) {
    Fixture f;
    std::vector<std::string> admin;
    LambdaRouter* router = nullptr;
    auto factory = router_factory(
        [&](LambdaRouter& r) {
            r.on_message = [&admin](LambdaRouter&, const PID&, const Message& m) {
                admin.push_back(std::string(m.type_name()));
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"not routable"})); // LambdaRouter discards non-To
    CallLog calls;
    ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls), Text{"q"}));
    f.run();
    EXPECT_EQ(router->counters().discarded, 2U);
    EXPECT_EQ(router->counters().failed, 0U);
    EXPECT_TRUE(admin.empty()); // no MessageRouteFailed
    EXPECT_EQ(calls.results, (std::vector<std::string>{"gen.ErrDiscarded"}));
    EXPECT_EQ(calls.at[0], sim::Instant::from_ns(0)); // at once, not a timeout
    EXPECT_EQ(testing::count_events(f, "route", "resolution", "discard"), 2U);
}

} // namespace
} // namespace routesim::runtime
