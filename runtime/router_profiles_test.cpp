// Goal: the two semantics profiles differ exactly at the four points of §8's
// opening (R26, R32/R38, R36/R37, R16), and each test shows both behaviours side by side.
// Method: the same scenario runs on a node under `documented` and under `upstream`; workers
// take 10 ms to stop so that pending windows stay open.
#include <gtest/gtest.h>

#include "runtime/router_testing.hpp"

namespace routesim::runtime {
namespace {

using act::RoutePending;
using act::RouteResult;
using testing::Admin;
using testing::Fixture;
using testing::LambdaRouter;
using testing::Seen;
using testing::To;

struct Profiled {
    explicit Profiled(Semantics semantics) : f({}, NodeOptions{.semantics = semantics}) {
        auto factory = testing::router_factory(
            [this](LambdaRouter& r) {
                r.options.routes.push_back(act::Route{Atom("a"), v1(), {}});
                r.on_message = [this](LambdaRouter& self, const PID&, const Message& m) -> Status {
                    if (const auto* failed = m.get<act::MessageRouteFailed>()) {
                        failures.push_back(failed->reason);
                        return ok();
                    }
                    if (const Admin* action = m.get<Admin>()) {
                        action->run(self);
                    }
                    return ok();
                };
            },
            &router);
        pid = f.node.spawn(factory, {}, {}).value();
    }
    Factory v1() {
        return testing::gated_worker(seen, &refuse, "v1:", sim::Duration::milliseconds(10));
    }
    Factory v2() {
        return testing::gated_worker(seen, &refuse, "v2:", sim::Duration::milliseconds(10));
    }
    RouteResult inside(const std::function<RouteResult(LambdaRouter&)>& call) {
        std::optional<RouteResult> result;
        EXPECT_TRUE(f.node.send(pid, Admin{[&result, &call](LambdaRouter& r) { result = call(r); }},
                                MessagePriority::High));
        f.run(f.world.now());
        RS_ASSERT(result.has_value());
        return *result;
    }

    Fixture f;
    Seen seen;
    bool refuse = false;
    std::vector<Error> failures;
    LambdaRouter* router = nullptr;
    PID pid;
};

std::string outcome(const RouteResult& result) {
    return result ? std::string("ok") : result.error().name();
}

TEST(RouterProfiles, Point1AddRouteOnAPendingRoute) {
    // R26: upstream AddRoute never looks at pending; documented: "every call returns Busy".
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        ASSERT_TRUE(p.inside([](LambdaRouter& r) { return r.remove_route(Atom("a")); }));
        const Factory spec = p.v2();
        const std::string result = outcome(p.inside([spec](LambdaRouter& r) {
            return r.add_route({Atom("a"), spec, {}});
        }));
        EXPECT_EQ(result,
                  semantics == Semantics::Documented ? "gen.ErrBusy" : "act.ErrRouteDuplicate");
        EXPECT_EQ(p.router->route(Atom("a"))->pending, RoutePending::Remove);
    }
}

TEST(RouterProfiles, Point2FailedSpawnInEnableRoute) {
    // R32: upstream leaves the route enabled and Dead; documented leaves it disabled.
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        ASSERT_TRUE(p.inside([](LambdaRouter& r) { return r.disable_route(Atom("a")); }));
        p.f.run();
        p.refuse = true;
        EXPECT_EQ(outcome(p.inside([](LambdaRouter& r) { return r.enable_route(Atom("a")); })),
                  "spawn refused");
        EXPECT_EQ(p.router->route(Atom("a"))->disabled, semantics == Semantics::Documented);
        EXPECT_TRUE(p.router->route(Atom("a"))->pid.empty());
    }
}

TEST(RouterProfiles, Point2FailedSpawnInReplaceRoute) {
    // R28/R38: upstream keeps the new spec on a Dead route; documented restores the old one.
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        p.refuse = true;
        ASSERT_TRUE(p.f.node.kill(p.router->route(Atom("a"))->pid));
        p.f.run(); // eager respawn refused: Dead
        const Factory spec = p.v2();
        EXPECT_EQ(outcome(p.inside([spec](LambdaRouter& r) {
                      return r.replace_route(Atom("a"), {Atom(), spec, {}});
                  })),
                  "spawn refused");
        p.refuse = false;
        ASSERT_TRUE(p.f.node.send(p.pid, To{Atom("a"), "x"}));
        p.f.run();
        const std::string expected = semantics == Semantics::Documented ? "v1:x" : "v2:x";
        EXPECT_EQ(p.seen.all, (std::vector<std::string>{expected}));
    }
}

TEST(RouterProfiles, Point2FailedSpawnInInlineReplace) {
    // R50 inline completion: documented restores the route exactly (old spec, stale PID whose
    // late exit then restarts it eagerly); upstream leaves it Dead with the new spec.
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        const PID old_worker = p.router->route(Atom("a"))->pid;
        const Factory spec = p.v2();
        Fixture& f = p.f;
        bool& refuse = p.refuse;
        std::optional<RouteResult> result;
        ASSERT_TRUE(f.node.send(p.pid, Admin{[&, old_worker, spec](LambdaRouter& r) {
                                    ASSERT_TRUE(f.node.kill(old_worker));
                                    refuse = true;
                                    result = r.replace_route(Atom("a"), {Atom(), spec, {}});
                                    refuse = false;
                                }},
                                MessagePriority::High));
        f.run();
        EXPECT_EQ(outcome(*result), "spawn refused");
        ASSERT_TRUE(f.node.send(p.pid, To{Atom("a"), "x"}));
        f.run();
        const bool documented = semantics == Semantics::Documented;
        EXPECT_EQ(p.seen.all, (std::vector<std::string>{documented ? "v1:x" : "v2:x"}));
        EXPECT_EQ(p.router->counters().restarts, 1U); // documented: eager; upstream: lazy
    }
}

TEST(RouterProfiles, Point3CallsFromOutside) {
    // R36/R37: upstream refuses any call made outside the router's own callbacks; documented
    // accepts them while the router is alive (sleeping, runnable or waiting on a call).
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        const std::string expected =
            semantics == Semantics::Documented ? "ok" : "gen.ErrNotAllowed";
        EXPECT_EQ(outcome(p.router->disable_route(Atom("a"))), expected); // sleeping
        ASSERT_TRUE(p.f.node.send(p.pid, To{Atom("zz"), "queued"}));
        EXPECT_EQ(outcome(p.router->remove_route(Atom("zz"))), expected); // runnable
        p.f.run();
        // Inside the admin path both profiles accept the call.
        EXPECT_EQ(outcome(p.inside([](LambdaRouter& r) { return r.remove_route(Atom("zz")); })),
                  "ok");
        EXPECT_NE(p.f.node.find(p.pid), nullptr);
    }
}

TEST(RouterProfiles, Point3OutsideCallWhileTheRouterWaitsOnACall) {
    Profiled p(Semantics::Documented);
    auto mute = testing::lambda_factory([](testing::LambdaActor& actor) {
        actor.on_call = [](testing::LambdaActor&, const PID&, const Ref&, const Message&) {
            return act::CallReply::later();
        };
    });
    const PID callee = p.f.node.spawn(mute, {}, {}).value();
    ASSERT_TRUE(p.f.node.send(p.pid, Admin{[callee](LambdaRouter& r) {
                                  (void)r.process().call(callee, testing::Text{"q"}, CallOptions{},
                                                         [](CallResult) { return ok(); });
                              }},
                              MessagePriority::High));
    p.f.run(p.f.world.now());
    ASSERT_EQ(p.f.node.find(p.pid)->state(), ProcessState::WaitResponse);
    EXPECT_TRUE(p.router->disable_route(Atom("a")));
    EXPECT_EQ(p.router->route(Atom("a"))->pending, RoutePending::Disable);
    p.f.run();
    EXPECT_TRUE(p.router->route(Atom("a"))->disabled);
}

TEST(RouterProfiles, Point4PendingReplaceAfterTheOldWorkerDied) {
    // R16: upstream forwards to the old PID while it is recorded, and a failed forward is the
    // forward's error; documented answers Busy once the old worker is gone.
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Profiled p(semantics);
        const Factory spec = p.v2();
        ASSERT_TRUE(p.inside([spec](LambdaRouter& r) {
            return r.replace_route(Atom("a"), {Atom(), spec, {}});
        }));
        // The old worker is stopping (10 ms); the routing callback kills it first, so the
        // forward finds it no longer alive and its exit is not consumed yet.
        Fixture& f = p.f;
        p.router->on_route_message = [&f](LambdaRouter& r, const PID&, const Message&) {
            (void)f.node.kill(r.route(Atom("a"))->pid);
            return Atom("a");
        };
        ASSERT_TRUE(f.node.send(p.pid, To{Atom("a"), "late"}));
        f.run(f.world.now());
        ASSERT_EQ(p.failures.size(), 1U);
        EXPECT_EQ(p.failures[0].name(),
                  semantics == Semantics::Documented ? "gen.ErrBusy" : "gen.ErrProcessTerminated");
        EXPECT_EQ(p.router->counters().failed, 1U);
        EXPECT_EQ(p.router->counters().restarts, 0U); // no respawn either way
    }
}

} // namespace
} // namespace routesim::runtime
