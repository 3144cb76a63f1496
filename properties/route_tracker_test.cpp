// Goal: the route tracker rebuilds a real router's table (names in order, states, recorded
// workers) from the trace alone after every management call, routing step, kill and exit,
// under both profiles, so the route monitors built on it hold on correct runs.
// Method: real Rig routers (runtime/router_rig.hpp) with the route monitors attached, the
// tracker compared with Router::routes() after each step: every call from every route state
// with and without a spawn failure, from inside and from outside, then seeded random mixes.
#include <gtest/gtest.h>

#include <array>
#include <memory>

#include "properties/monitor_testing.hpp"
#include "properties/route_tracker.hpp"
#include "properties/router_monitors.hpp"
#include "runtime/router_rig.hpp"
#include "sim/prng.hpp"

namespace routesim::properties {
namespace {

using runtime::Atom;
using runtime::Factory;
using runtime::PID;
using runtime::Semantics;
using runtime::testing::LambdaRouter;
using runtime::testing::Op;
using runtime::testing::Rig;
using runtime::testing::Start;
using runtime::testing::To;

// The route monitors on a Rig: fed the trace so far, then online.
struct Watch {
    MonitorSet set;
    RouteStability* stability = nullptr;
    sim::World& world;

    Watch(runtime::testing::Fixture& f, Semantics semantics) : world(f.world) {
        auto monitor = std::make_unique<RouteStability>(semantics);
        stability = monitor.get();
        set.add(std::move(monitor));
        set.add(std::make_unique<PendingExclusivity>(semantics));
        set.add(std::make_unique<NoForwardToDisabled>(semantics));
        set.add(std::make_unique<CounterConsistency>());
        set.add(std::make_unique<AtomicInit>());
        testing::replay(f.memory.records(), set);
        world.trace().add_sink(set);
    }
    ~Watch() { world.trace().remove_sink(set); }
    const RouteTracker& tracker() const { return stability->tracker(); }

    void expect_hold(const std::string& context) const {
        for (const auto& monitor : set.monitors()) {
            EXPECT_TRUE(monitor->holds())
                << context << ": " << monitor->violations().front().to_string();
        }
    }
};

void expect_table(const Watch& watch, Rig& rig, const std::string& context) {
    const RouteTracker& tracker = watch.tracker();
    ASSERT_FALSE(tracker.lost(rig.pid.id)) << context;
    std::vector<std::string> names;
    for (const runtime::act::RouterRouteInfo& info : rig.router->routes()) {
        const std::string name(info.name.text());
        names.push_back(name);
        EXPECT_EQ(route_state_name(tracker.state(rig.pid.id, name)),
                  runtime::testing::state_of(*rig.router, info.name))
            << context << " route " << name;
        EXPECT_EQ(tracker.worker(rig.pid.id, name), info.pid.id) << context << " route " << name;
    }
    EXPECT_EQ(tracker.route_names(rig.pid.id), names) << context;
}

std::string context_of(Semantics semantics, int start, int op, bool refuse, bool outside) {
    return std::string(runtime::semantics_name(semantics)) + " start " + std::to_string(start) +
           " op " + std::to_string(op) + (refuse ? " refused" : "") + (outside ? " outside" : "");
}

// One management call from one state, then the pending operation's end and some routing.
void run_one_call(Semantics semantics, Start start, Op op, bool refuse, bool outside) {
    const std::string context =
        context_of(semantics, static_cast<int>(start), static_cast<int>(op), refuse, outside);
    Rig rig(semantics);
    Watch watch(rig.f, semantics);
    runtime::testing::enter(rig, start);
    const Atom name(start == Start::Unknown ? "zz" : "a");
    const Factory spec = rig.v2();
    rig.refuse = refuse;
    if (outside) {
        (void)runtime::testing::apply(*rig.router, op, name, spec); // between the router's steps
        rig.settle();
    } else {
        (void)rig.inside(
            [&](LambdaRouter& r) { return runtime::testing::apply(r, op, name, spec); });
    }
    rig.refuse = false;
    expect_table(watch, rig, context + " after the call");
    rig.f.run();
    expect_table(watch, rig, context + " after pending ends");
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("zz"), "y"}));
    const sim::RunOutcome outcome = rig.f.run();
    expect_table(watch, rig, context + " after routing");
    watch.set.finish(outcome.end, outcome.reason == sim::StopReason::Idle);
    watch.expect_hold(context);
}

TEST(RouteTracker, FollowsEveryManagementCallFromEveryStateUnderBothProfiles) {
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        for (int start = 0; start <= static_cast<int>(Start::Unknown); start++) {
            for (int op = 0; op <= static_cast<int>(Op::Respawn); op++) {
                for (bool refuse : {false, true}) {
                    for (bool outside : {false, true}) {
                        run_one_call(semantics, static_cast<Start>(start), static_cast<Op>(op),
                                     refuse, outside);
                    }
                }
            }
        }
    }
}

// One random step on a three-route rig: routing, calls, kills, management, time.
void random_step(Rig& rig, sim::Prng& prng, const PID& caller) {
    static const std::array<const char*, 4> names = {"a", "b", "c", "d"};
    const Atom name(names[prng.below(names.size())]);
    switch (prng.below(7)) {
    case 0:
        (void)rig.f.node.send(rig.pid, To{name, "m"});
        break;
    case 1:
        (void)rig.f.node.send(caller, To{name, "q"}); // routed as a call
        break;
    case 2:
        (void)rig.f.node.send(rig.pid, runtime::testing::Text{"discarded"});
        break;
    case 3:
        if (const auto info = rig.router->route(name); info && !info->pid.empty()) {
            rig.refuse = prng.chance(1, 3); // sometimes the eager respawn fails (R23)
            (void)rig.f.node.kill(info->pid);
            rig.settle();
            rig.refuse = false;
        }
        break;
    case 4:
    case 5: {
        const auto op = static_cast<Op>(prng.below(6));
        const Factory spec = rig.v2();
        rig.refuse = prng.chance(1, 4);
        if (prng.chance(1, 3)) {
            (void)runtime::testing::apply(*rig.router, op, name, spec);
        } else {
            (void)rig.inside(
                [&](LambdaRouter& r) { return runtime::testing::apply(r, op, name, spec); });
        }
        rig.refuse = false;
        break;
    }
    default:
        rig.f.run(rig.f.world.now() + sim::Duration::milliseconds(prng.between(0, 15)));
        break;
    }
    rig.settle();
}

TEST(RouteTracker, FollowsRandomRoutingKillsAndManagement) {
    for (std::uint64_t seed = 1; seed <= 12; seed++) {
        for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
            const std::string context =
                std::string(runtime::semantics_name(semantics)) + " seed " + std::to_string(seed);
            Rig rig(semantics, {"a", "b", "c"});
            runtime::testing::CallLog log;
            const PID caller = runtime::testing::spawn_caller(rig.f, rig.pid, log);
            Watch watch(rig.f, semantics);
            sim::Prng prng(seed);
            for (int step = 0; step < 80; step++) {
                random_step(rig, prng, caller);
                expect_table(watch, rig, context + " step " + std::to_string(step));
                if (::testing::Test::HasFailure()) {
                    return;
                }
            }
            const sim::RunOutcome outcome = rig.f.run();
            expect_table(watch, rig, context + " at the end");
            watch.set.finish(outcome.end, outcome.reason == sim::StopReason::Idle);
            watch.expect_hold(context);
        }
    }
}

// R25, R50: a worker killed while it stops (a Zombee until its terminate delay ends, §3.3)
// is not alive, so Remove and Disable complete inline before its exit event appears; the
// tracker learns that from the `kill` event (found by the generated-topology suites).
TEST(RouteTracker, KilledStoppingWorkerMakesRemoveAndDisableCompleteInline) {
    for (const Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        for (const Op op : {Op::Remove, Op::Disable}) {
            const std::string context = std::string(runtime::semantics_name(semantics)) +
                                        (op == Op::Remove ? " remove" : " disable");
            Rig rig(semantics);
            Watch watch(rig.f, semantics);
            const PID worker = rig.worker();
            ASSERT_TRUE(rig.f.node.send(worker, runtime::testing::Text{"die"}));
            rig.settle(); // the worker takes "die" and begins its 10 ms stop
            ASSERT_TRUE(rig.f.node.kill(worker));
            const runtime::act::RouteResult result = rig.inside([op](LambdaRouter& r) {
                return runtime::testing::apply(r, op, Atom("a"), Factory());
            });
            EXPECT_TRUE(result) << context;
            EXPECT_EQ(runtime::testing::state_of(*rig.router, Atom("a")),
                      op == Op::Remove ? "absent" : "disabled")
                << context;
            expect_table(watch, rig, context + " (inline)");
            rig.f.run();
            expect_table(watch, rig, context + " (after the exit)");
            watch.expect_hold(context);
        }
    }
}

} // namespace
} // namespace routesim::properties
