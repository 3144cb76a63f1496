// Goal: pending operations, the management methods and the pending-exit set hold as
// §8 rules R25–R35 and R50 state (R36–R38, R55 and the R-table are in
// router_manage_test.cpp).
// Method: a Rig (one LambdaRouter whose workers take 10 ms to stop, so pending windows stay
// open) puts a route into each state; management calls run on the router's admin path
// (inside, as upstream requires) unless a test is about outside calls. The four profile
// differences have their own tests in router_profiles_test.cpp.
#include <gtest/gtest.h>

#include "runtime/router_rig.hpp"

namespace routesim::runtime {
namespace {

using act::RoutePending;
using act::RouteResult;
using testing::Admin;
using testing::apply;
using testing::enter;
using testing::Fixture;
using testing::LambdaRouter;
using testing::Op;
using testing::outcome;
using testing::Rig;
using testing::Seen;
using testing::Start;
using testing::state_of;
using testing::To;

// -- R25–R29: pending operations ----------------------------------------------------------

TEST(RouterR25, StopSendsShutdownAndShowsPending) {
    for (Op op : {Op::Disable, Op::Replace, Op::Remove}) {
        Rig rig;
        std::vector<std::string> worker_reasons;
        rig.f.node.on_teardown([&](const Process& process, const Error& reason) {
            if (process.pid() != rig.pid) {
                worker_reasons.push_back(reason.unwrap().name());
            }
        });
        const PID old_worker = rig.worker();
        const Factory spec = rig.v2();
        ASSERT_TRUE(
            rig.inside([op, spec](LambdaRouter& r) { return apply(r, op, Atom("a"), spec); }));
        const act::RouterRouteInfo info = *rig.router->route(Atom("a"));
        EXPECT_NE(info.pending, RoutePending::None);
        EXPECT_FALSE(info.disabled);
        EXPECT_EQ(info.pid, old_worker);
        rig.f.run();
        EXPECT_EQ(worker_reasons.front(), "shutdown"); // A7
    }
}

TEST(RouterR26, PendingRouteAnswersBusyAndAddRouteDuplicate) {
    for (Start start : {Start::PendingDisable, Start::PendingReplace, Start::PendingRemove}) {
        Rig rig;
        enter(rig, start);
        const std::string before = state_of(*rig.router, Atom("a"));
        for (Op op : {Op::Remove, Op::Disable, Op::Enable, Op::Replace, Op::Respawn}) {
            const Factory spec = rig.v2();
            const RouteResult result =
                rig.inside([op, spec](LambdaRouter& r) { return apply(r, op, Atom("a"), spec); });
            EXPECT_EQ(outcome(result), "gen.ErrBusy");
        }
        const Factory spec = rig.v2();
        EXPECT_EQ(outcome(rig.inside(
                      [spec](LambdaRouter& r) { return apply(r, Op::Add, Atom("a"), spec); })),
                  "act.ErrRouteDuplicate"); // upstream never looks at pending
        // R55: the nil-factory check comes before the pending one.
        EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) {
                      return r.replace_route(Atom("a"), act::Route{Atom(), Factory(), {}});
                  })),
                  "route \"a\" has nil Factory");
        EXPECT_EQ(state_of(*rig.router, Atom("a")), before);
    }
}

TEST(RouterR27, ExitCompletesEachPendingOperation) {
    Rig disable;
    enter(disable, Start::PendingDisable);
    disable.f.run();
    EXPECT_EQ(state_of(*disable.router, Atom("a")), "disabled");

    Rig replace;
    enter(replace, Start::PendingReplace);
    replace.f.run();
    EXPECT_EQ(state_of(*replace.router, Atom("a")), "running");
    ASSERT_TRUE(replace.f.node.send(replace.pid, To{Atom("a"), "x"}));
    replace.f.run();
    EXPECT_EQ(replace.seen.all, (std::vector<std::string>{"v2:x"}));
    EXPECT_EQ(replace.router->counters().restarts, 0U); // not a restart

    Rig remove(Semantics::Upstream, {"a", "b", "c"});
    enter(remove, Start::PendingRemove);
    remove.f.run();
    const auto routes = remove.router->routes();
    ASSERT_EQ(routes.size(), 2U);
    EXPECT_EQ(routes[0].name, Atom("b")); // later entries moved up
    EXPECT_EQ(routes[1].name, Atom("c"));
    const auto pending = remove.f.events("route_pending");
    ASSERT_EQ(pending.size(), 2U);
    EXPECT_EQ(pending[1].text("from_state"), "pending_remove");
    EXPECT_EQ(pending[1].text("to_state"), "absent");
}

TEST(RouterR27, FailedSpawnAfterReplaceLeavesDeadWithTheNewSpec) {
    Rig rig;
    enter(rig, Start::PendingReplace);
    rig.refuse = true;
    rig.f.run();
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "dead");
    bool logged = false;
    for (const auto& record : rig.f.events("log")) {
        logged |= record.text("text") == "respawn after replace route \"a\" failed: spawn refused";
    }
    EXPECT_TRUE(logged); // A8
    rig.refuse = false;
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    rig.f.run();
    EXPECT_EQ(rig.seen.all, (std::vector<std::string>{"v2:x"})); // the lazy spawn uses v2
}

TEST(RouterR27, AnyTerminationCompletesThePendingOperation) {
    // A18: a Kill instead of the Shutdown exit completes the pending disable all the same.
    Rig rig;
    enter(rig, Start::PendingDisable);
    ASSERT_TRUE(rig.f.node.kill(rig.worker()));
    rig.f.run();
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "disabled");
    EXPECT_EQ(rig.router->counters().restarts, 0U);
}

TEST(RouterR28, DeadRouteCompletesSynchronously) {
    for (Op op : {Op::Disable, Op::Remove, Op::Replace}) {
        Rig rig;
        enter(rig, Start::Dead);
        const std::size_t pending_before = rig.f.events("route_pending").size();
        const Factory spec = rig.v2();
        ASSERT_TRUE(
            rig.inside([op, spec](LambdaRouter& r) { return apply(r, op, Atom("a"), spec); }));
        EXPECT_EQ(rig.f.events("route_pending").size(), pending_before); // never pending
        const std::string expected =
            op == Op::Disable ? "disabled" : (op == Op::Remove ? "absent" : "running");
        EXPECT_EQ(state_of(*rig.router, Atom("a")), expected);
    }
    // Replace swaps first, then spawns; a failed spawn leaves it Dead with the new spec.
    Rig rig;
    enter(rig, Start::Dead);
    rig.refuse = true;
    const Factory spec = rig.v2();
    EXPECT_EQ(outcome(rig.inside(
                  [spec](LambdaRouter& r) { return apply(r, Op::Replace, Atom("a"), spec); })),
              "spawn refused");
    rig.refuse = false;
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    rig.f.run();
    EXPECT_EQ(rig.seen.all, (std::vector<std::string>{"v2:x"}));
}

TEST(RouterR29, DisabledRouteSwapsSpecWithoutSpawning) {
    Rig rig;
    enter(rig, Start::Disabled);
    const std::size_t spawns = rig.f.events("spawn").size();
    const Factory spec = rig.v2();
    ASSERT_TRUE(
        rig.inside([spec](LambdaRouter& r) { return apply(r, Op::Replace, Atom("a"), spec); }));
    EXPECT_EQ(rig.f.events("spawn").size(), spawns);
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "disabled");
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.disable_route(Atom("a")); })); // no-op
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.enable_route(Atom("a")); }));
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    rig.f.run();
    EXPECT_EQ(rig.seen.all, (std::vector<std::string>{"v2:x"})); // the new spec at enable
    Rig removed;
    enter(removed, Start::Disabled);
    ASSERT_TRUE(removed.inside([](LambdaRouter& r) { return r.remove_route(Atom("a")); }));
    EXPECT_EQ(state_of(*removed.router, Atom("a")), "absent");
}

// -- R30–R35: the methods -----------------------------------------------------------------

TEST(RouterR30, AddRouteChecksThenAppends) {
    Rig rig;
    const Factory spec = rig.v2();
    auto add = [&rig](act::Route route) {
        return outcome(rig.inside([route](LambdaRouter& r) { return r.add_route(route); }));
    };
    EXPECT_EQ(add({Atom(), Factory(), {}}), "route name can not be empty");
    EXPECT_EQ(add({Atom("b"), Factory(), {}}), "route \"b\" has nil Factory");
    EXPECT_EQ(add({Atom("a"), spec, {}}), "act.ErrRouteDuplicate");
    rig.refuse = true;
    EXPECT_EQ(add({Atom("b"), spec, {}}), "spawn refused");
    EXPECT_FALSE(rig.router->route(Atom("b")).has_value()); // not added
    rig.refuse = false;
    EXPECT_EQ(add({Atom("b"), spec, {}}), "ok");
    const auto routes = rig.router->routes();
    ASSERT_EQ(routes.size(), 2U);
    EXPECT_EQ(routes[1].name, Atom("b"));
    EXPECT_FALSE(routes[1].pid.empty());
    EXPECT_EQ(rig.router->counters().restarts, 0U);
}

TEST(RouterR31, RemovingAnUnknownNameIsANoOp) {
    Rig rig;
    EXPECT_TRUE(rig.inside([](LambdaRouter& r) { return r.remove_route(Atom("zz")); }));
    EXPECT_EQ(rig.router->routes().size(), 1U);
}

TEST(RouterR32, EnableClearsTheFlagThenSpawns) {
    Rig rig;
    enter(rig, Start::Disabled);
    rig.refuse = true;
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.enable_route(Atom("a")); })),
              "spawn refused");
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "dead"); // upstream: enabled and Dead
    rig.refuse = false;
    const std::size_t spawns = rig.f.events("spawn").size();
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.enable_route(Atom("a")); }));
    EXPECT_EQ(rig.f.events("spawn").size(), spawns); // an enabled Dead route stays Dead
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "dead");
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    rig.f.run(); // the next message spawns it lazily
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "running");
    EXPECT_EQ(rig.router->counters().restarts, 1U);
}

TEST(RouterR33, RespawnWakesOnlyADeadRoute) {
    Rig rig(Semantics::Upstream, {"a", "b"});
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("zz")); })),
              "gen.ErrNoRoute");
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("a")); })),
              "act.ErrRouteRunning");
    enter(rig, Start::Dead);
    rig.refuse = true;
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("a")); })),
              "spawn refused");
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "dead");
    rig.refuse = false;
    EXPECT_TRUE(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("a")); }));
    EXPECT_EQ(state_of(*rig.router, Atom("a")), "running");
    EXPECT_EQ(rig.router->counters().restarts, 0U); // A11: not counted
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.disable_route(Atom("b")); }));
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("b")); })),
              "gen.ErrBusy");
    rig.f.run();
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("b")); })),
              "gen.ErrDisabled");
}

TEST(RouterR33, RespawnChecksTheTableNotLiveness) {
    // The worker died but its exit is still queued: the PID is recorded, so RouteRunning.
    Rig rig;
    std::optional<RouteResult> result;
    const PID worker = rig.worker();
    Fixture& f = rig.f;
    ASSERT_TRUE(f.node.send(rig.pid, Admin{[&result, &f, worker](LambdaRouter& r) {
                                ASSERT_TRUE(f.node.kill(worker));
                                result = r.respawn_route(Atom("a"));
                            }},
                            MessagePriority::High));
    f.run();
    EXPECT_EQ(outcome(*result), "act.ErrRouteRunning");
}

TEST(RouterR34, ReplaceValidatesFactoryAndName) {
    Rig rig;
    const Factory spec = rig.v2();
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) {
                  return r.replace_route(Atom("zz"), act::Route{Atom(), Factory(), {}});
              })),
              "route \"zz\" has nil Factory"); // names the key, before the lookup (A10)
    EXPECT_EQ(outcome(rig.inside([spec](LambdaRouter& r) {
                  return r.replace_route(Atom("zz"), act::Route{Atom("other"), spec, {}});
              })),
              "ReplaceRoute name mismatch: spec Name \"other\" vs key \"zz\"");
    ASSERT_TRUE(rig.inside([spec](LambdaRouter& r) {
        return r.replace_route(Atom("a"), act::Route{Atom("a"), spec, {}});
    }));
    rig.f.run();
    EXPECT_EQ(rig.router->routes()[0].name, Atom("a")); // the stored name is the key
}

TEST(RouterR35, SnapshotsFollowTableOrderInAnyState) {
    Rig rig(Semantics::Upstream, {"a", "b", "c"});
    const Factory spec = rig.v2();
    ASSERT_TRUE(rig.inside([spec](LambdaRouter& r) { return r.add_route({Atom("d"), spec, {}}); }));
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.remove_route(Atom("b")); }));
    rig.f.run();
    std::vector<std::string> names;
    for (const auto& info : rig.router->routes()) {
        names.emplace_back(info.name.text());
    }
    EXPECT_EQ(names, (std::vector<std::string>{"a", "c", "d"}));
    EXPECT_FALSE(rig.router->route(Atom("b")).has_value());
    // Read methods work in any state, Terminated included (the behaviour lives until its
    // Terminate callback has run).
    std::size_t at_terminate = 0;
    rig.router->on_terminate = [&at_terminate](LambdaRouter& r, const Error&) {
        at_terminate = r.routes().size();
    };
    ASSERT_TRUE(rig.f.node.kill(rig.pid));
    EXPECT_EQ(at_terminate, 3U);
}

// -- R50: the pending-exit set ------------------------------------------------------------

TEST(RouterR50, InlineCompletionIgnoresTheLateExitOnce) {
    for (Op op : {Op::Disable, Op::Remove, Op::Replace}) {
        Rig rig(Semantics::Documented);
        const PID old_worker = rig.worker();
        ASSERT_TRUE(rig.f.node.kill(old_worker)); // torn down; its exit waits in the router
        const Factory spec = rig.v2();
        const std::uint64_t inline_before = sim::mark_count("router.inline_completion");
        ASSERT_TRUE(apply(*rig.router, op, Atom("a"), spec)); // outside, documented
        const std::string expected =
            op == Op::Disable ? "disabled" : (op == Op::Remove ? "absent" : "running");
        EXPECT_EQ(state_of(*rig.router, Atom("a")), expected); // completed inline
        EXPECT_EQ(sim::mark_count("router.inline_completion"), inline_before + 1);
        rig.f.run();
        EXPECT_NE(rig.f.node.find(rig.pid), nullptr); // the late exit was ignored
        EXPECT_EQ(state_of(*rig.router, Atom("a")), expected);
        EXPECT_EQ(rig.router->counters().restarts, 0U);
    }
}

TEST(RouterR50, StrayExitTerminatesTheRouter) {
    // A5: an exit from a PID neither recorded nor in the pending-exit set is fatal.
    Rig rig;
    Seen seen;
    const PID stranger = rig.f.node.spawn(testing::recording_worker(seen), {}, {}).value();
    ASSERT_TRUE(rig.inside([stranger](LambdaRouter& r) {
        return r.process().link(stranger) ? RouteResult{} : sim::fail(Error(Err::Internal));
    }));
    std::string reason;
    rig.router->on_terminate = [&reason](LambdaRouter&, const Error& error) {
        reason = error.message();
    };
    ASSERT_TRUE(rig.f.node.send(stranger, To{Atom(), "die"}));
    rig.f.run();
    EXPECT_EQ(reason, to_string(stranger) + ": normal");
    EXPECT_EQ(rig.f.node.find(rig.pid), nullptr);
}

} // namespace
} // namespace routesim::runtime
