// Goal: each Router monitor holds on real runs and reports the exact violation, with its
// witnesses, on a hand-built or mutated trace: a forward to a disabled route, a stale worker,
// a moved slot, a second pending operation, a wrong management result, a pending state that
// ends before its worker exits, a worker left alive after a failed Init, a counter mismatch
// and a key mapped to two routes; an event that does not decode as its kind's struct is skipped.
// Method: real routers (runtime/router_testing.hpp, router_rig.hpp) with the monitors
// attached or their recorded trace replayed (as recorded, or with one event changed or
// removed); hand-built traces emitted onto a bare bus (monitor_testing.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "properties/monitor_testing.hpp"
#include "properties/monitors.hpp"
#include "properties/route_tracker.hpp"
#include "properties/router_monitors.hpp"
#include "runtime/router_rig.hpp"

namespace routesim::properties {
namespace {

using runtime::Atom;
using runtime::PID;
using runtime::Semantics;
using runtime::testing::Fixture;
using runtime::testing::LambdaRouter;
using runtime::testing::Rig;
using runtime::testing::To;
using testing::HandTrace;
using U = std::uint64_t;

// How an explanation names a pid when its monitor has no view to name it with (a route
// monitor fed on its own, as here): `<7>`.
std::string unnamed(std::uint64_t pid) {
    return "<" + std::to_string(pid) + ">";
}

constexpr U main_queue = 2;
constexpr U regular = 0;

// A router <1> with route "a" (worker <2>).
void router_with_one_route(HandTrace& trace) {
    trace.spawn(1, 0, "Router");
    trace.spawn(2, 1);
    trace.route_init(1, "a", 2);
}

// The same with a route "b" (worker <3>) too.
void router_with_two_routes(HandTrace& trace) {
    router_with_one_route(trace);
    trace.spawn(3, 1);
    trace.route_init(1, "b", 3);
}

// One monitor on a hand-built trace.
template <typename M>
struct Hand {
    HandTrace trace;
    M monitor;
    Hand() { trace.bus.add_sink(monitor); }
    ~Hand() { trace.bus.remove_sink(monitor); }
    void router_with_two_routes() { routesim::properties::router_with_two_routes(trace); }
};

std::vector<std::string> witness_texts(const Violation& violation) {
    std::vector<std::string> texts;
    for (const Witness& witness : violation.witnesses) {
        texts.push_back(witness.text);
    }
    return texts;
}

// -- no_forward_to_disabled ---------------------------------------------------------------

TEST(NoForwardToDisabledMonitor, CatchesAForwardToARoutePendingDisable) {
    Hand<NoForwardToDisabled> h;
    h.router_with_two_routes();
    h.trace.route_pending(1, "a", "running", "pending_disable", 2);
    h.trace.route_admin(1, "disable", "a", "ok");
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.forward(10, 1, 2, 5);
    h.trace.route(1, 10, "a", "owned", 2);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    const Violation& violation = h.monitor.violations()[0];
    EXPECT_EQ(violation.explanation, "router <1> forwarded message 10 to <2>, the worker of route "
                                     "\"a\", while the route is being disabled (pending_disable)");
    EXPECT_EQ(
        witness_texts(violation),
        (std::vector<std::string>{
            "route_pending router=1 name=a from_state=running to_state=pending_disable worker=2",
            "forward id=10 by=1 to=2 from=5 queue=2"}));
}

TEST(NoForwardToDisabledMonitor, CatchesARoutingToADisabledRoute) {
    Hand<NoForwardToDisabled> h;
    h.router_with_two_routes();
    h.trace.route_pending(1, "b", "running", "pending_remove", 3);
    h.trace.route_admin(1, "remove", "b", "ok");
    h.trace.exit(2);
    h.trace.take(1, 4, 0, 3, 2); // the exit of "a"'s worker: an eager restart fails (Dead)
    h.trace.route_admin(1, "disable", "a", "ok");
    h.trace.take(1, 11, main_queue, regular, 5);
    h.trace.route(1, 11, "a", "owned", 0);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> routed message 11 to route \"a\" while the route is disabled");
    EXPECT_EQ(h.monitor.violations()[0].witnesses.back().text,
              "route router=1 id=11 name=a resolution=owned worker=0");
}

TEST(NoForwardToDisabledMonitor, HoldsWhileAPendingReplaceStillFeedsTheOldWorker) {
    Rig rig(Semantics::Upstream);
    NoForwardToDisabled monitor(Semantics::Upstream);
    testing::replay(rig.f.memory.records(), monitor);
    rig.f.world.trace().add_sink(monitor);
    runtime::testing::enter(rig, runtime::testing::Start::PendingReplace);
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "to the old worker"})); // R16
    rig.f.run();
    ASSERT_TRUE(rig.inside([](LambdaRouter& r) { return r.disable_route(Atom("a")); }));
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "refused"})); // R14: ErrDisabled
    rig.f.run();
    rig.f.world.trace().remove_sink(monitor);
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
    EXPECT_EQ(rig.router->counters().failed, 1U);
    EXPECT_EQ(rig.router->counters().forwarded, 1U);
    EXPECT_EQ(route_state_name(monitor.tracker().state(rig.pid.id, "a")), "disabled");
}

// -- route_stability ----------------------------------------------------------------------

TEST(RouteStabilityMonitor, CatchesALateDeliveryToARestartedWorker) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.exit(2);
    h.trace.take(1, 4, 0, 3, 2);
    h.trace.spawn(7, 1);
    h.trace.route_restart(1, "a", "eager", 7, 0);
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.forward(10, 1, 2, 5); // to the old incarnation
    h.trace.route(1, 10, "a", "owned", 2);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    const Violation& violation = h.monitor.violations()[0];
    EXPECT_EQ(violation.explanation, "router <1> routed message 10 to route \"a\" and delivered it "
                                     "to <2>, which is not the route's current worker <7>");
    EXPECT_EQ(
        witness_texts(violation),
        (std::vector<std::string>{"route_restart router=1 name=a restart=eager worker=7 slot=0",
                                  "forward id=10 by=1 to=2 from=5 queue=2",
                                  "route router=1 id=10 name=a resolution=owned worker=2"}));
}

TEST(RouteStabilityMonitor, CatchesAForwardThatMissesTheRoutedWorker) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.forward(10, 1, 3, 5);
    h.trace.route(1, 10, "a", "owned", 2);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> routed message 10 to route \"a\" (worker <2>) but forwarded it to <3>");
}

// The tracker turns away ids outside the range its routers ever had; a router spawned after
// another with a lower id, and one spawned with a higher id, are both still followed.
TEST(RouteStabilityMonitor, FollowsRoutersWhateverOrderTheirIdsComeIn) {
    Hand<RouteStability> h;
    h.trace.spawn(9, 0, "Router");
    h.trace.spawn(10, 9);
    h.trace.route_init(9, "a", 10);
    h.trace.spawn(4, 0, "Router");
    h.trace.spawn(5, 4);
    h.trace.route_init(4, "a", 5);
    h.trace.spawn(20, 0, "Router");
    h.trace.spawn(21, 20);
    h.trace.route_init(20, "a", 21);
    for (const U router : {U{4}, U{9}, U{20}}) {
        h.trace.take(router, 30 + router, main_queue, regular, 7);
        h.trace.forward(30 + router, router, 6, 7);
        h.trace.route(router, 30 + router, "a", "owned", router + 1);
    }
    ASSERT_EQ(h.monitor.violations().size(), 3U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <4> routed message 34 to route \"a\" (worker <5>) but forwarded it to <6>");
    EXPECT_EQ(h.monitor.violations()[1].explanation,
              "router <9> routed message 39 to route \"a\" (worker <10>) but forwarded it to <6>");
    EXPECT_EQ(h.monitor.violations()[2].explanation,
              "router <20> routed message 50 to route \"a\" (worker <21>) but forwarded it to <6>");
}

TEST(RouteStabilityMonitor, CatchesARestartThatMovesTheRouteOrSharesAWorker) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.exit(3);
    h.trace.take(1, 4, 0, 3, 3);
    h.trace.spawn(8, 1);
    h.trace.route_restart(1, "b", "eager", 8, 0);
    h.trace.route_restart(1, "b", "lazy", 2, 1);
    const auto& violations = h.monitor.violations();
    ASSERT_EQ(violations.size(), 2U);
    EXPECT_EQ(violations[0].explanation, "router <1> restarted route \"b\" in slot 0, but the "
                                         "route holds slot 1 (a restart keeps the route's place)");
    EXPECT_EQ(violations[1].explanation,
              "router <1> recorded worker <2> for route \"b\", but it is already the worker of "
              "route \"a\" (a restart must stay under its own name)");
}

// A worker recorded under a second name belongs to that name from then on: its exit makes the
// later route Dead and leaves the earlier one as it was (the tracker keeps one route per
// worker).
TEST(RouteStabilityMonitor, AWorkerRecordedUnderTwoNamesBelongsToTheLaterOne) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.route_restart(1, "b", "lazy", 2, 1); // "b" records "a"'s worker <2>
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    h.trace.exit(2);
    h.trace.take(1, 4, 0, 3, 2); // the router takes <2>'s exit
    EXPECT_EQ(route_state_name(h.monitor.tracker().state(1, "b")), "dead");
    EXPECT_EQ(h.monitor.tracker().worker(1, "b"), 0U);
    EXPECT_EQ(route_state_name(h.monitor.tracker().state(1, "a")), "running");
    EXPECT_EQ(h.monitor.tracker().worker(1, "a"), 2U);
}

// reset() keeps the tables' allocation for the next run but none of their routes: a router of
// the earlier run is unknown, and a router of the next run starts with an empty table.
TEST(RouteTableMonitors, AResetTrackerKeepsNoRouteOfTheRunBefore) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.spawn(4, 0, "Router");
    h.trace.route_init(4, "c", 9);
    h.monitor.start_over();
    EXPECT_FALSE(h.monitor.tracker().has_router(1));
    EXPECT_EQ(h.monitor.tracker().route_names(4), std::vector<std::string>{});
    h.trace.spawn(6, 0, "Router");
    h.trace.route_init(6, "d", 7);
    EXPECT_EQ(h.monitor.tracker().route_names(6), std::vector<std::string>{"d"});
    EXPECT_EQ(route_state_name(h.monitor.tracker().state(6, "a")), "absent");
    EXPECT_EQ(h.monitor.tracker().worker(6, "d"), 7U);
    h.trace.exit(6); // a router's exit forgets its table
    EXPECT_FALSE(h.monitor.tracker().has_router(6));
    EXPECT_TRUE(h.monitor.holds());
}

// The three route-table monitors of one profile in a set share a single tracker (one table
// rebuild per event) and each reports exactly its own checks' findings.
TEST(RouteTableMonitors, ShareOneTrackerInASetAndEachReportsOnlyItsOwnChecks) {
    HandTrace trace;
    MonitorSet set;
    auto stability = std::make_unique<RouteStability>();
    auto pending = std::make_unique<PendingExclusivity>();
    auto disabled = std::make_unique<NoForwardToDisabled>();
    auto other_profile = std::make_unique<NoForwardToDisabled>(Semantics::Upstream);
    RouteStability& s = *stability;
    PendingExclusivity& p = *pending;
    NoForwardToDisabled& d = *disabled;
    set.add(std::move(stability));
    set.add(std::move(pending));
    set.add(std::move(disabled));
    EXPECT_EQ(&s.tracker(), &p.tracker());
    EXPECT_EQ(&s.tracker(), &d.tracker());
    // A monitor of another profile keeps its own tracker (results are checked per profile).
    MonitorSet upstream_set;
    upstream_set.add(std::make_unique<RouteStability>());
    NoForwardToDisabled& u = *other_profile;
    upstream_set.add(std::move(other_profile));
    EXPECT_NE(&u.tracker(), &dynamic_cast<RouteStability&>(*upstream_set.monitors()[0]).tracker());

    trace.bus.add_sink(set);
    router_with_two_routes(trace);
    trace.take(1, 10, main_queue, regular, 5);
    trace.forward(10, 1, 3, 5);
    trace.route(1, 10, "a", "owned", 2); // forward mismatch: route_stability's
    trace.route_pending(1, "b", "running", "pending_disable", 3);
    trace.route_admin(1, "disable", "b", "ok");
    trace.take(1, 11, main_queue, regular, 5);
    trace.forward(11, 1, 3, 5); // to a route pending disable: no_forward_to_disabled's
    trace.route_pending(1, "a", "running", "pending_disable", 2);
    trace.route_admin(1, "disable", "a", "ok");
    trace.route_pending(1, "a", "running", "pending_remove", 2); // pending_exclusivity's
    trace.route_admin(1, "remove", "a", "ok");
    trace.bus.remove_sink(set);

    ASSERT_EQ(s.violations().size(), 1U);
    EXPECT_EQ(s.violations()[0].explanation,
              "router <1> routed message 10 to route \"a\" (worker <2>) but forwarded it to <3>");
    ASSERT_EQ(p.violations().size(), 1U);
    EXPECT_NE(p.violations()[0].explanation.find("second pending operation (pending_remove)"),
              std::string::npos);
    ASSERT_EQ(d.violations().size(), 1U);
    EXPECT_NE(d.violations()[0].explanation.find("forwarded message 11 to <3>"), std::string::npos)
        << d.violations()[0].explanation;
}

// The monitors of a set read one decode of each event between them (the set's EventDecodes):
// six events that the route monitors all read, some of them four times over, cost six decodes.
TEST(RouteTableMonitors, ShareOneDecodeOfEachEventInASet) {
    MonitorSet set;
    set.add(std::make_unique<KeyAffinity>());
    set.add(std::make_unique<RouteStability>());
    set.add(std::make_unique<NoForwardToDisabled>(Semantics::Upstream)); // a tracker of its own
    set.add(std::make_unique<CounterConsistency>());
    HandTrace trace;
    trace.bus.add_sink(set);
    router_with_one_route(trace);
    trace.take(1, 10, main_queue, regular, 5);
    trace.forward(10, 1, 2, 5);
    trace.route(1, 10, "a", "owned", 2);
    trace.bus.remove_sink(set);
    EXPECT_EQ(set.decodes().made(), 6U);
    for (const auto& monitor : set.monitors()) {
        EXPECT_TRUE(monitor->holds()) << monitor->violations().front().to_string();
    }
}

// In a set that feeds its view (every run's does), the route monitors' witnesses name
// processes by path and PID: the shared tracker renders them with the set's view.
TEST(RouteTableMonitors, WitnessesNameProcessesInASetThatFeedsItsView) {
    MonitorSet set;
    set.add(std::make_unique<RouteStability>());
    set.add(std::make_unique<NoForwardToDisabled>());
    set.keep_view();
    HandTrace trace;
    trace.bus.add_sink(set);
    router_with_two_routes(trace);
    trace.take(1, 10, main_queue, regular, 5);
    trace.forward(10, 1, 3, 5);
    trace.route(1, 10, "a", "owned", 2); // forward mismatch
    trace.bus.remove_sink(set);
    const Violation* found = set.first_violation();
    ASSERT_NE(found, nullptr);
    ASSERT_FALSE(found->witnesses.empty());
    const std::string& last = found->witnesses.back().text;
    EXPECT_EQ(last, "route router=#0 <\u20261> id=10 name=a resolution=owned worker=#0/a <\u20262>")
        << found->to_string();
}

// The witnesses a tracker writes by hand in describe_event's form (the router's last forward)
// name processes as describe_event does, in a set that feeds its view.
TEST(RouteTableMonitors, AHandWrittenWitnessNamesProcessesToo) {
    MonitorSet set;
    set.add(std::make_unique<NoForwardToDisabled>());
    set.keep_view();
    HandTrace trace;
    trace.bus.add_sink(set);
    router_with_one_route(trace);
    trace.route_pending(1, "a", "running", "pending_disable", 2);
    trace.route_admin(1, "disable", "a", "ok");
    trace.take(1, 10, main_queue, regular, 5);
    trace.forward(10, 1, 2, 5);
    trace.route(1, 10, "a", "owned", 2);
    trace.bus.remove_sink(set);
    const Violation* found = set.first_violation();
    ASSERT_NE(found, nullptr);
    ASSERT_EQ(found->witnesses.size(), 2U) << found->to_string();
    EXPECT_EQ(found->witnesses[1].text,
              "forward id=10 by=#0 <\u20261> to=#0/a <\u20262> from=<\u20265> queue=2");
}

// A set reused for the next run (MonitorSet::reset) reads the next run's events anew: its
// seqs start again, and its route event at the seq of the last run's must be decoded anew.
TEST(RouteTableMonitors, DecodeAnewAfterTheSetIsReset) {
    MonitorSet set;
    set.add(std::make_unique<RouteStability>());
    set.add(std::make_unique<CounterConsistency>());
    for (const U worker : {U{2}, U{3}}) {
        set.reset();
        HandTrace trace; // seqs from 0 in each run
        trace.bus.add_sink(set);
        trace.spawn(1, 0, "Router");
        trace.spawn(worker, 1);
        trace.route_init(1, "a", worker);
        trace.take(1, 10, main_queue, regular, 5);
        trace.forward(10, 1, worker, 5);
        trace.route(1, 10, "a", "owned", worker);
        trace.bus.remove_sink(set);
        for (const auto& monitor : set.monitors()) {
            EXPECT_TRUE(monitor->holds())
                << "worker " << worker << ": " << monitor->violations().front().to_string();
        }
    }
}

TEST(RouteStabilityMonitor, HoldsAcrossEagerAndLazyRestarts) {
    Rig rig(Semantics::Documented, {"a", "b"});
    RouteStability monitor;
    testing::replay(rig.f.memory.records(), monitor);
    rig.f.world.trace().add_sink(monitor);
    const PID first = rig.worker("b");
    ASSERT_TRUE(rig.f.node.kill(first));
    rig.f.run(); // eager restart of "b" (R22)
    rig.refuse = true;
    ASSERT_TRUE(rig.f.node.kill(rig.worker("a")));
    rig.f.run(); // the eager respawn fails: "a" is Dead (R23)
    rig.refuse = false;
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "lazy"})); // R13
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("b"), "b"}));
    rig.f.run();
    rig.f.world.trace().remove_sink(monitor);
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
    EXPECT_EQ(rig.router->counters().restarts, 2U);
    EXPECT_EQ(monitor.tracker().route_names(rig.pid.id), (std::vector<std::string>{"a", "b"}));
    EXPECT_NE(monitor.tracker().worker(rig.pid.id, "b"), first.id);
}

// -- pending_exclusivity ------------------------------------------------------------------

TEST(PendingExclusivityMonitor, CatchesASecondPendingOperation) {
    Hand<PendingExclusivity> h;
    h.router_with_two_routes();
    h.trace.route_pending(1, "a", "running", "pending_disable", 2);
    h.trace.route_admin(1, "disable", "a", "ok");
    h.trace.route_pending(1, "a", "running", "pending_remove", 2);
    h.trace.route_admin(1, "remove", "a", "ok");
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    const Violation& violation = h.monitor.violations()[0];
    EXPECT_EQ(violation.explanation,
              "router <1> started a second pending operation (pending_remove) on route \"a\" "
              "while pending_disable had not ended; a route has at most one");
    EXPECT_EQ(violation.witnesses.size(), 2U);
}

TEST(PendingExclusivityMonitor, CatchesAPendingStateThatEndsBeforeTheWorkerExits) {
    Hand<PendingExclusivity> h;
    h.router_with_two_routes();
    h.trace.route_pending(1, "a", "running", "pending_disable", 2);
    h.trace.route_admin(1, "disable", "a", "ok");
    h.trace.route_pending(1, "a", "pending_disable", "disabled", 0);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> ended the pending_disable of route \"a\" (now disabled) before its "
              "worker <2> exited; pending ends only on the worker's exit");
}

// A real documented-profile trace: "a" pending disable, then remove_route("a") → Busy and
// add_route("a") → Busy (profile point 1).
std::deque<sim::TraceRecord> pending_then_calls(PID& router) {
    Rig rig(Semantics::Documented);
    runtime::testing::enter(rig, runtime::testing::Start::PendingDisable);
    const runtime::Factory spec = rig.v2();
    EXPECT_EQ(runtime::testing::outcome(
                  rig.inside([](LambdaRouter& r) { return r.remove_route(Atom("a")); })),
              "gen.ErrBusy");
    EXPECT_EQ(runtime::testing::outcome(rig.inside([spec](LambdaRouter& r) {
                  return r.add_route(runtime::act::Route{Atom("a"), spec, {}});
              })),
              "gen.ErrBusy");
    rig.f.run();
    router = rig.pid;
    return rig.f.memory.records();
}

TEST(PendingExclusivityMonitor, HoldsOnARealTraceOfCallsOnAPendingRoute) {
    PID router;
    const std::deque<sim::TraceRecord> records = pending_then_calls(router);
    PendingExclusivity monitor(Semantics::Documented);
    testing::replay(records, monitor);
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
    EXPECT_EQ(route_state_name(monitor.tracker().state(router.id, "a")), "disabled");
}

TEST(PendingExclusivityMonitor, CatchesAWrongManagementResult) {
    PID router;
    std::deque<sim::TraceRecord> records = pending_then_calls(router);
    const std::size_t remove = testing::find_record(
        records, "route_admin", [](const auto& record) { return record.text("op") == "remove"; });
    testing::set_field(records[remove], "result", std::string("ok"));
    PendingExclusivity monitor(Semantics::Documented);
    testing::replay(records, monitor);
    ASSERT_EQ(monitor.violations().size(), 1U);
    const Violation& violation = monitor.violations()[0];
    EXPECT_EQ(
        violation.explanation,
        "router " + unnamed(router.id) +
            ": remove_route(\"a\") returned ok, but route "
            "\"a\" was being disabled (pending_disable), where the documented profile answers "
            "gen.ErrBusy (a management call on a pending route changes nothing)");
    ASSERT_EQ(violation.witnesses.size(), 2U);
    EXPECT_EQ(violation.witnesses[0].text.substr(0, 13), "route_pending");
    EXPECT_EQ(violation.witnesses[1].text,
              "route_admin router=" + std::to_string(router.id) + " op=remove name=a result=ok");
}

TEST(PendingExclusivityMonitor, ChecksResultsAgainstTheRunsProfile) {
    PID router;
    const std::deque<sim::TraceRecord> records = pending_then_calls(router);
    PendingExclusivity monitor(Semantics::Upstream); // R26: upstream answers RouteDuplicate
    testing::replay(records, monitor);
    ASSERT_EQ(monitor.violations().size(), 1U);
    EXPECT_EQ(monitor.violations()[0].explanation,
              "router " + unnamed(router.id) +
                  ": add_route(\"a\") returned gen.ErrBusy, but "
                  "route \"a\" was being disabled (pending_disable), where the upstream profile "
                  "answers act.ErrRouteDuplicate (a management call on a pending route changes "
                  "nothing)");
}

// -- atomic_init --------------------------------------------------------------------------

// A real run: a router whose third route's worker fails its Init (R6).
std::deque<sim::TraceRecord> failed_init(PID& router, std::vector<PID>& workers) {
    Fixture f;
    runtime::testing::Seen seen;
    const bool refuse = true;
    const auto factory = runtime::testing::router_factory([&seen, &refuse](LambdaRouter& r) {
        r.options =
            runtime::testing::routes_of({{"a", runtime::testing::recording_worker(seen)},
                                         {"b", runtime::testing::recording_worker(seen)},
                                         {"c", runtime::testing::gated_worker(seen, &refuse)}});
    });
    EXPECT_FALSE(f.node.spawn(factory, {}, {}).has_value());
    f.run();
    router = PID{};
    for (const sim::TraceRecord& record : f.events("spawn")) {
        if (record.text("kind") == "Router") {
            router.id = static_cast<U>(record.number("pid"));
        } else {
            workers.push_back(PID{Atom(), static_cast<U>(record.number("pid")), 0});
        }
    }
    EXPECT_EQ(f.node.process_count(), 0U);
    return f.memory.records();
}

TEST(AtomicInitMonitor, HoldsWhenAFailedInitStopsItsWorkers) {
    PID router;
    std::vector<PID> workers;
    const std::deque<sim::TraceRecord> records = failed_init(router, workers);
    ASSERT_EQ(workers.size(), 3U);
    AtomicInit monitor;
    testing::replay(records, monitor);
    monitor.finish(records.back().at, true);
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
}

TEST(AtomicInitMonitor, CatchesAWorkerLeftAliveAfterAFailedInit) {
    PID router;
    std::vector<PID> workers;
    std::deque<sim::TraceRecord> records = failed_init(router, workers);
    const U first = workers[0].id;
    records.erase(
        records.begin() +
        static_cast<std::ptrdiff_t>(testing::find_record(records, "exit", [first](const auto& r) {
            return r.number("pid") == static_cast<std::int64_t>(first);
        })));
    AtomicInit monitor;
    testing::replay(records, monitor);
    monitor.finish(records.back().at, true);
    ASSERT_EQ(monitor.violations().size(), 1U);
    const Violation& violation = monitor.violations()[0];
    EXPECT_EQ(violation.explanation,
              "router " + unnamed(router.id) + " failed its Init, but the worker of route \"a\" " +
                  unnamed(first) +
                  " it spawned during that Init is still alive at the end of the run");
    ASSERT_EQ(violation.witnesses.size(), 2U);
    EXPECT_EQ(violation.witnesses[0].text.substr(0, 5), "spawn");
    EXPECT_EQ(violation.witnesses[1].text.substr(0, 12), "spawn_failed");
}

// In a set, atomic_init reads takes only while an Init is under way (then every take, whoever
// takes): a take by a process no monitor follows still ends the Init, and later takes are
// spared. Were that take skipped, the later spawn_failed would count as the Init's failure
// and leave worker <2> an orphan.
TEST(AtomicInitMonitor, InASetReadsEveryTakeWhileAnInitIsUnderWay) {
    HandTrace trace;
    MonitorSet set;
    set.add(std::make_unique<AtomicInit>());
    trace.bus.add_sink(set);
    router_with_one_route(trace);
    trace.take(7, 10, main_queue, regular, 5); // ends router <1>'s Init: it succeeded
    trace.spawn_failed(1, 0);                  // not its Init's failure
    trace.spawn(3, 0, "Router");
    trace.spawn(4, 3);
    trace.spawn_failed(3, 0); // its Init failed: worker <4> must exit
    trace.bus.remove_sink(set);
    set.finish(trace.now, true);
    const Monitor& monitor = *set.monitors()[0];
    ASSERT_EQ(monitor.violations().size(), 1U);
    EXPECT_EQ(monitor.violations()[0].explanation,
              "router <3> failed its Init, but a route worker <4> it spawned during that Init is "
              "still alive at the end of the run");
}

// -- counter_consistency ------------------------------------------------------------------

TEST(CounterConsistencyMonitor, TallyMatchesInspectOnARealRun) {
    Rig rig(Semantics::Documented, {"a", "b"});
    CounterConsistency monitor;
    testing::replay(rig.f.memory.records(), monitor);
    rig.f.world.trace().add_sink(monitor);
    runtime::testing::CallLog log;
    const PID caller = runtime::testing::spawn_caller(rig.f, rig.pid, log);
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "1"}));
    ASSERT_TRUE(rig.f.node.send(caller, To{Atom("b"), "2"}));
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("zz"), "3"}));                 // R18
    ASSERT_TRUE(rig.f.node.send(rig.pid, runtime::testing::Text{"discarded"})); // R11
    ASSERT_TRUE(rig.f.node.kill(rig.worker("a")));
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "4"})); // R45 retry
    rig.f.run();
    const runtime::Inspection values = rig.f.node.inspect(rig.pid).value();
    EXPECT_TRUE(monitor.check_inspection(rig.pid.id, values, rig.f.world.now()));
    rig.f.world.trace().remove_sink(monitor);
    const RouterTally tally = monitor.counters(rig.pid.id);
    EXPECT_EQ(tally, (RouterTally{.taken = 5,
                                  .forwarded = 3,
                                  .discarded = 1,
                                  .failed = 1,
                                  .restarts = 1,
                                  .lost_in_crash = 0}));
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
}

TEST(CounterConsistencyMonitor, CatchesATakeThatIsNeverRouted) {
    Hand<CounterConsistency> h;
    h.trace.spawn(1, 0, "Router");
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.take(1, 11, main_queue, regular, 5);
    h.trace.route(1, 11, "a", "owned", 2);
    h.trace.take(1, 12, main_queue, regular, 5);
    h.trace.exit(1); // crashed while routing 12: allowed
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> took message 10 for routing but never finished routing it (no route "
              "event) and did not crash before taking message 11");
    EXPECT_EQ(h.monitor.violations()[0].witnesses[0].text,
              "take pid=1 id=10 queue=2 type=0 from=5");
    EXPECT_EQ(h.monitor.counters(1).lost_in_crash, 1U);
}

TEST(CounterConsistencyMonitor, CatchesInspectCountersThatDisagreeWithTheTrace) {
    Hand<CounterConsistency> h;
    h.trace.spawn(1, 0, "Router");
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.route(1, 10, "a", "owned", 2);
    const runtime::Inspection values = {{"ergo:forwarded", "2"},
                                        {"ergo:discarded", "0"},
                                        {"ergo:failed", "0"},
                                        {"ergo:restarts", "0"}};
    EXPECT_FALSE(h.monitor.check_inspection(1, values, sim::Instant::from_ns(7)));
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1>'s Inspect counters disagree with its trace: ergo:forwarded is 2 but "
              "the trace shows 1");
}

// -- key_affinity -------------------------------------------------------------------------

// A router with a hash rule over three routes: the route of a Text is "r<fnv(value) % 3>".
runtime::Factory hash_router(runtime::testing::Seen& seen, std::vector<std::string> moved = {}) {
    return runtime::testing::router_factory([&seen, moved](LambdaRouter& r) {
        r.options = runtime::testing::routes_of({{"r0", runtime::testing::recording_worker(seen)},
                                                 {"r1", runtime::testing::recording_worker(seen)},
                                                 {"r2", runtime::testing::recording_worker(seen)}});
        r.on_route_message = [moved](LambdaRouter& self, const PID&, const runtime::Message& m) {
            const std::string key = "\"" + m.get<runtime::testing::Text>()->value + "\"";
            U slot = sim::fnv1a64(key) % 3;
            slot += std::count(moved.begin(), moved.end(), key) > 0 && self.counters().forwarded > 3
                        ? 1U
                        : 0U; // a broken rule: the key moves once the table is warm
            const Atom name("r" + std::to_string(slot % 3));
            self.process().node().world().emit(
                route_key, {{runtime::trace::router, self.self().id},
                            {route_key_field, key},
                            {runtime::trace::name, runtime::trace::atom_value(name)}});
            return name;
        };
    });
}

TEST(KeyAffinityMonitor, HoldsForAHashRouter) {
    Fixture f;
    KeyAffinity monitor;
    f.world.trace().add_sink(monitor);
    runtime::testing::Seen seen;
    const PID router = f.node.spawn(hash_router(seen), {}, {}).value();
    for (int round = 0; round < 3; round++) {
        for (const char* key : {"alpha", "beta", "gamma", "delta"}) {
            ASSERT_TRUE(f.node.send(router, runtime::testing::Text{key}));
        }
    }
    f.run();
    f.world.trace().remove_sink(monitor);
    EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
    EXPECT_EQ(f.events("route_key").size(), 12U);
}

TEST(KeyAffinityMonitor, CatchesAKeyMappedToTwoRoutes) {
    Fixture f;
    KeyAffinity monitor;
    f.world.trace().add_sink(monitor);
    runtime::testing::Seen seen;
    const PID router = f.node.spawn(hash_router(seen, {"\"beta\""}), {}, {}).value();
    for (int round = 0; round < 2; round++) {
        for (const char* key : {"alpha", "beta", "gamma"}) {
            ASSERT_TRUE(f.node.send(router, runtime::testing::Text{key}));
        }
    }
    f.run();
    f.world.trace().remove_sink(monitor);
    const std::string first = "r" + std::to_string(sim::fnv1a64("\"beta\"") % 3);
    const std::string second = "r" + std::to_string((sim::fnv1a64("\"beta\"") + 1) % 3);
    ASSERT_EQ(monitor.violations().size(), 1U);
    const Violation& violation = monitor.violations()[0];
    EXPECT_EQ(violation.explanation, "router " + unnamed(router.id) +
                                         " sent key \"beta\" to route \"" + second +
                                         "\", but earlier sent the same key to route \"" + first +
                                         "\" (one key maps to one route for the run)");
    EXPECT_EQ(
        witness_texts(violation),
        (std::vector<std::string>{
            "route_key router=" + std::to_string(router.id) + " key=\"beta\" name=" + first,
            "route_key router=" + std::to_string(router.id) + " key=\"beta\" name=" + second}));
}

TEST(KeyAffinityMonitor, CatchesAMessageRoutedAwayFromItsKeysRoute) {
    Hand<KeyAffinity> h;
    h.trace.emit(
        route_key,
        {{runtime::trace::router, U{1}}, {route_key_field, "7"}, {runtime::trace::name, "r1"}});
    h.trace.route(1, 10, "r2", "owned", 3);
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> picked route \"r1\" for key 7 but routed message 10 to \"r2\"");
}

// Keys are found by the hash the trace already carries; two key texts with the same hash
// (forced here) are still told apart, and each keeps its own route.
TEST(KeyAffinityMonitor, TellsApartTwoKeysWhoseHashesCollide) {
    Hand<KeyAffinity> h;
    const auto key_event = [&](std::string_view key, std::string_view name) {
        h.trace.emit(route_key, {{runtime::trace::router, U{1}},
                                 {route_key_field, sim::TraceValue(key, 42)},
                                 {runtime::trace::name, name}});
    };
    key_event("\"a\"", "r1");
    key_event("\"b\"", "r2"); // same hash, other key: no violation
    key_event("\"a\"", "r1");
    key_event("\"b\"", "r2");
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
    key_event("\"b\"", "r3");
    key_event("\"a\"", "r4");
    ASSERT_EQ(h.monitor.violations().size(), 2U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> sent key \"b\" to route \"r3\", but earlier sent the same key to route "
              "\"r2\" (one key maps to one route for the run)");
    EXPECT_EQ(h.monitor.violations()[1].explanation,
              "router <1> sent key \"a\" to route \"r4\", but earlier sent the same key to route "
              "\"r1\" (one key maps to one route for the run)");
}

// The index over keys grows (256 slots at first, doubled at half full) and is rebuilt from the
// entries: 5,000 keys of two routers, sent twice each, keep their routes through the growth;
// a key of the first thousand sent to another route after it is still caught, and only that
// one (the same key text at the other router is another key).
TEST(KeyAffinityMonitor, KeysKeepTheirRoutesWhileTheKeyIndexGrows) {
    Hand<KeyAffinity> h;
    const auto key_event = [&](std::uint64_t router, const std::string& key,
                               const std::string& name) {
        h.trace.emit(route_key, {{runtime::trace::router, U{router}},
                                 {route_key_field, sim::TraceValue(key)},
                                 {runtime::trace::name, sim::TraceValue(name)}});
    };
    const auto route_of = [](std::uint64_t router, int key) {
        return "r" + std::to_string((key + static_cast<int>(router)) % 16);
    };
    for (int round = 0; round < 2; round++) {
        for (int key = 0; key < 2500; key++) {
            for (std::uint64_t router : {1U, 2U}) {
                key_event(router, std::to_string(key), route_of(router, key));
            }
        }
    }
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
    key_event(2, "777", route_of(1, 777)); // router 1's route for 777: not router 2's
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <2> sent key 777 to route \"" + route_of(1, 777) +
                  "\", but earlier sent the same key to route \"" + route_of(2, 777) +
                  "\" (one key maps to one route for the run)");
}

// -- events that do not decode ------------------------------------------------------------
// Every monitor here reads an event through its kind's struct (read_event); an event whose
// fields are not those of its kind (a hand-edited trace) is skipped, where a field of the
// wrong type used to read as 0 or "".

TEST(RouteStabilityMonitor, SkipsARouteEventThatDoesNotDecode) {
    Hand<RouteStability> h;
    h.router_with_two_routes();
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.forward(10, 1, 2, 5);
    h.trace.emit(runtime::ev::Route::kind, {{runtime::ev::key::router, U{1}},
                                            {runtime::ev::key::id, U{10}},
                                            {runtime::ev::key::name, "a"},
                                            {runtime::ev::key::resolution, "owned"},
                                            {runtime::ev::key::worker, "2"}}); // text, not uint
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
    h.trace.take(1, 11, main_queue, regular, 5);
    h.trace.forward(11, 1, 3, 5);
    h.trace.route(1, 11, "a", "owned", 2); // a decodable event is still read
    ASSERT_EQ(h.monitor.violations().size(), 1U);
    EXPECT_EQ(h.monitor.violations()[0].explanation,
              "router <1> routed message 11 to route \"a\" (worker <2>) but forwarded it to <3>");
}

TEST(CounterConsistencyMonitor, SkipsATakeAndARouteThatDoNotDecode) {
    Hand<CounterConsistency> h;
    h.trace.spawn(1, 0, "Router");
    h.trace.take(1, 10, main_queue, regular, 5);
    h.trace.emit(runtime::ev::Take::kind, {{runtime::ev::key::pid, U{1}},
                                           {runtime::ev::key::id, "11"}, // text, not uint
                                           {runtime::ev::key::queue, main_queue},
                                           {runtime::ev::key::type, regular},
                                           {runtime::ev::key::from, U{5}}});
    h.trace.route(1, 10, "a", "bogus", 2); // no Resolution has that name
    h.trace.route(1, 10, "a", "discard", 0);
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
    EXPECT_EQ(h.monitor.counters(1),
              (RouterTally{.taken = 1, .forwarded = 0, .discarded = 1, .failed = 0}));
}

TEST(KeyAffinityMonitor, SkipsARouteKeyThatDoesNotDecode) {
    Hand<KeyAffinity> h;
    for (const auto& [key, name] : {std::pair{U{7}, "r1"}, std::pair{U{8}, "r2"}}) {
        h.trace.emit(route_key, {{runtime::trace::router, U{1}},
                                 {route_key_field, key}, // a uint, not the JSON text
                                 {runtime::trace::name, name}});
    }
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
}

TEST(AtomicInitMonitor, SkipsASpawnThatDoesNotDecode) {
    Hand<AtomicInit> h;
    h.trace.emit(runtime::ev::Spawn::kind, {{runtime::ev::key::pid, U{1}},
                                            {runtime::ev::key::parent, U{0}},
                                            {runtime::ev::key::name, U{0}}, // a uint, not a text
                                            {runtime::ev::key::behavior, "test"},
                                            {runtime::ev::key::kind, "Router"}});
    h.trace.spawn(2, 1);
    h.trace.spawn_failed(1, 0);
    h.monitor.finish(h.trace.now, true);
    EXPECT_TRUE(h.monitor.holds()) << h.monitor.violations().front().to_string();
}

// -- the factory --------------------------------------------------------------------------

TEST(MonitorFactory, MakesEveryNamedMonitor) {
    const std::vector<std::string_view> names = monitor_names();
    EXPECT_EQ(names.size(), 11U);
    for (std::string_view name : names) {
        const std::unique_ptr<Monitor> monitor = make_monitor(name, MonitorOptions{});
        ASSERT_NE(monitor, nullptr) << name;
        EXPECT_EQ(monitor->name(), name);
    }
    EXPECT_EQ(make_monitor("determinism", MonitorOptions{}), nullptr);
}

} // namespace
} // namespace routesim::properties
