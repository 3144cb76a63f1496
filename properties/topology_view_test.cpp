// Goal: pin each fact the TopologyView holds, on small hand-made traces in the runtime's
// event formats: processes and their liveness, route tables with history (a dead router keeps
// its last table), supervisors' restart windows, pools' workers, pending calls and the ledger
// split into user and runtime messages.
// Method: feed a HandTrace (properties/monitor_testing.hpp) to a view and read its queries;
// one case also feeds a MonitorSet to check that the set's view is fed before its monitors.
#include "properties/topology_view.hpp"

#include <gtest/gtest.h>

#include "properties/monitor_testing.hpp"
#include "properties/monitors.hpp"
#include "runtime/events.hpp"
#include "runtime/pool.hpp"

namespace routesim::properties {
namespace {

namespace trace = runtime::trace;
using U = std::uint64_t;

struct Fixture {
    testing::HandTrace hand;
    TopologyView view;
    Fixture() { hand.bus.add_sink(view); }
    ~Fixture() { hand.bus.remove_sink(view); }

    void send(U id, U from, U to, U type, std::string_view msg) {
        hand.emit(trace::send, {{trace::id, id},
                                {trace::from, from},
                                {trace::to, to},
                                {trace::queue, U{2}},
                                {trace::type, type},
                                {trace::msg, msg}});
    }
    void drop(U pid, U id) {
        hand.emit(trace::drop, {{trace::pid, pid},
                                {trace::id, id},
                                {trace::queue, U{2}},
                                {trace::reason, "terminated"}});
    }
    void call(U caller, U ref) {
        hand.emit(trace::call, {{trace::caller, caller},
                                {trace::ref, ref},
                                {trace::timeout_ns, std::int64_t{5'000'000'000}}});
    }
    void call_result(U caller, U ref) {
        hand.emit(trace::call_result,
                  {{trace::caller, caller}, {trace::ref, ref}, {trace::outcome, "ok"}});
    }
    void pool_forward(U pool, U id, U worker, std::string_view outcome) {
        hand.emit(trace::pool_forward, {{trace::pool_key_pool, pool},
                                        {trace::id, id},
                                        {trace::pool_key_worker, worker},
                                        {trace::outcome, outcome}});
    }
};

TEST(TopologyView, KnowsProcessesAndTheirLiveness) {
    Fixture f;
    f.hand.spawn(1001, 1);
    f.hand.spawn(1002, 1001);
    f.hand.now = sim::Instant::zero() + sim::Duration::milliseconds(3);
    f.hand.exit(1002);
    f.hand.emit(trace::kill, {{trace::pid, U{1001}}, {runtime::ev::key::state, "running"}});
    const ProcessView* gone = f.view.process(1002);
    ASSERT_NE(gone, nullptr);
    EXPECT_EQ(gone->parent, 1001U);
    EXPECT_TRUE(gone->exited);
    EXPECT_EQ(gone->end_reason, "kill");
    EXPECT_EQ(gone->ended, sim::Instant::zero() + sim::Duration::milliseconds(3));
    EXPECT_FALSE(f.view.is_alive(1002)); // a stale pid is dead
    EXPECT_FALSE(f.view.is_alive(1001)); // killed: a Zombee is not alive, exit still to come
    EXPECT_FALSE(f.view.process(1001)->exited);
    EXPECT_FALSE(f.view.is_alive(4242)); // never spawned
    EXPECT_EQ(f.view.processes().size(), 2U);
}

TEST(TopologyView, TracksRegisteredNames) {
    Fixture f;
    f.hand.spawn(1001, 1);
    f.hand.emit(runtime::ev::Register::kind, {{trace::pid, U{1001}}, {trace::name, "svc"}});
    EXPECT_EQ(f.view.registered("svc"), 1001U);
    f.hand.exit(1001);
    EXPECT_EQ(f.view.registered("svc"), 0U); // a name dies with its process
}

TEST(TopologyView, ADeadRouterKeepsItsLastTable) {
    Fixture f;
    f.hand.spawn(1001, 1, "Router");
    f.hand.spawn(1002, 1001);
    f.hand.route_init(1001, "a", 1002);
    f.hand.spawn(1003, 1001);
    f.hand.route_init(1001, "b", 1003);
    f.hand.route(1001, 7, "a", "owned", 1002);
    f.hand.route(1001, 8, "", "discard", 0);
    f.hand.exit(1001);
    const RouterView* router = f.view.router(1001);
    ASSERT_NE(router, nullptr);
    EXPECT_FALSE(router->alive);
    EXPECT_EQ(router->died_reason, "kill");
    ASSERT_EQ(router->routes.size(), 2U);
    EXPECT_EQ(router->routes[0].name, "a");
    EXPECT_EQ(router->routes[1].worker, 1003U);
    EXPECT_EQ(router->forwarded_owned, 1U);
    EXPECT_EQ(router->discarded, 1U);
}

TEST(TopologyView, FollowsRestartsRemovalsAndAWorkersExit) {
    Fixture f;
    f.hand.spawn(1001, 1, "Router");
    f.hand.spawn(1002, 1001);
    f.hand.route_init(1001, "a", 1002);
    f.hand.spawn(1003, 1001);
    f.hand.route_init(1001, "b", 1003);
    f.hand.exit(1002);
    f.hand.take(1001, 50, 0, 3, 1002); // the router takes the worker's exit signal (R23)
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::Dead);
    EXPECT_EQ(f.view.router(1001)->route("a")->worker, 0U);
    f.hand.spawn(1004, 1001);
    f.hand.route_restart(1001, "a", "lazy", 1004, 0);
    const RouteView* a = f.view.router(1001)->route("a");
    EXPECT_EQ(a->state, RouteState::Running);
    EXPECT_EQ(a->worker, 1004U);
    EXPECT_EQ(a->restarts, 1U);
    EXPECT_EQ(f.view.route_of_worker(1004).second, a);
    f.hand.route_admin(1001, "remove", "b", "ok");
    ASSERT_EQ(f.view.router(1001)->routes.size(), 1U);
    ASSERT_EQ(f.view.router(1001)->removals.size(), 1U);
    EXPECT_EQ(f.view.router(1001)->removals[0].name, "b");
    f.hand.route_pending(1001, "a", "running", "pending_disable", 1004);
    f.hand.route_admin(1001, "disable", "a", "ok");
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::PendingDisable);
}

TEST(TopologyView, AnAcceptedCallThatSpawnsNothingChangesNothing) {
    // R32: enable_route answers ok on a running or a dead route and leaves it as it is; R29:
    // replace_route on a disabled route swaps its spec only; enabling it then spawns a fresh
    // worker.
    Fixture f;
    f.hand.spawn(1001, 1, "Router");
    f.hand.spawn(1002, 1001);
    f.hand.route_init(1001, "a", 1002);
    f.hand.route_admin(1001, "enable", "a", "ok");
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::Running);
    EXPECT_EQ(f.view.router(1001)->route("a")->worker, 1002U);
    f.hand.exit(1002);
    f.hand.take(1001, 50, 0, 3, 1002); // the worker's exit signal: no restart, Dead (R23)
    ASSERT_EQ(f.view.router(1001)->route("a")->state, RouteState::Dead);
    f.hand.route_admin(1001, "enable", "a", "ok");
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::Dead);
    f.hand.route_admin(1001, "disable", "a", "ok");
    ASSERT_EQ(f.view.router(1001)->route("a")->state, RouteState::Disabled);
    f.hand.route_admin(1001, "replace", "a", "ok");
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::Disabled);
    f.hand.spawn(1003, 1001);
    f.hand.route_admin(1001, "enable", "a", "ok");
    EXPECT_EQ(f.view.router(1001)->route("a")->state, RouteState::Running);
    EXPECT_EQ(f.view.router(1001)->route("a")->worker, 1003U);
}

TEST(TopologyView, CountsASupervisorsRestartWindow) {
    Fixture f;
    f.hand.spawn(1001, 1, "Supervisor");
    const std::int64_t period_ns = 1'000'000'000;
    for (int i = 0; i < 3; i++) {
        f.hand.now = sim::Instant::zero() + sim::Duration::milliseconds(400 * i);
        f.hand.sup_restart(1001, "w", 1002, 2, period_ns);
    }
    const SupervisorView* sup = f.view.supervisor(1001);
    ASSERT_NE(sup, nullptr);
    EXPECT_EQ(sup->intensity, 2U);
    EXPECT_EQ(sup->restarts, 3U);
    EXPECT_EQ(sup->window.size(), 3U); // 0, 400 and 800 ms lie within one period
    f.hand.now = sim::Instant::zero() + sim::Duration::milliseconds(1500);
    f.hand.sup_restart(1001, "w", 1002, 2, period_ns);
    EXPECT_EQ(sup->window.size(), 2U); // 0 and 400 ms dropped out, the overrun was trimmed
    f.hand.sup_intensity_exceeded(1001, "w", 1003);
    ASSERT_TRUE(sup->exceeded.has_value());
    EXPECT_EQ(sup->exceeded_child, "w");
    EXPECT_EQ(sup->exceeded_pid, 1003U);
    f.hand.exit(1001);
    EXPECT_TRUE(sup->terminated);
}

TEST(TopologyView, KnowsASupervisorsChildren) {
    Fixture f;
    f.hand.spawn(1001, 1, "Supervisor");
    f.hand.emit(trace::spawn, {{trace::pid, U{1002}},
                               {trace::parent, U{1001}},
                               {trace::name, "w"},
                               {trace::behavior, "echo"},
                               {trace::kind, "Actor"}});
    f.hand.exit(1002);
    ASSERT_EQ(f.view.supervisor(1001)->children.size(), 1U);
    EXPECT_FALSE(f.view.supervisor(1001)->children[0].running);
    f.hand.emit(trace::spawn, {{trace::pid, U{1003}},
                               {trace::parent, U{1001}},
                               {trace::name, "w"},
                               {trace::behavior, "echo"},
                               {trace::kind, "Actor"}});
    const SupervisorChild& child = f.view.supervisor(1001)->children.at(0);
    EXPECT_EQ(child.pid, 1003U); // the next incarnation under the same name
    EXPECT_TRUE(child.running);
    EXPECT_EQ(child.last_exit, "kill");
}

TEST(TopologyView, CountsAPoolsLiveWorkers) {
    Fixture f;
    f.hand.spawn(1001, 1, "Pool");
    f.hand.spawn(1002, 1001);
    f.hand.spawn(1003, 1001);
    f.send(1, 1, 1001, 0, "Job");
    f.hand.take(1001, 1, 2, 0, 1);
    f.hand.forward(1, 1001, 1002, 1);
    f.pool_forward(1001, 1, 1002, "ok");
    f.hand.exit(1003);
    f.send(2, 1, 1001, 0, "Job");
    f.hand.take(1001, 2, 2, 0, 1);
    f.pool_forward(1001, 2, 0, "unhandled");
    const PoolView* pool = f.view.pool(1001);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->workers.size(), 2U);
    EXPECT_EQ(f.view.live_workers(*pool), 1U);
    EXPECT_EQ(pool->forwarded, 1U);
    EXPECT_EQ(pool->unhandled, 1U);
    EXPECT_EQ(f.view.ledger().unhandled, 1U);
}

TEST(TopologyView, KeepsAPendingCallUntilItEnds) {
    Fixture f;
    f.hand.now = sim::Instant::zero() + sim::Duration::milliseconds(2);
    f.send(1, 1005, 1001, 1, "Query"); // the request names the target
    f.call(1005, 9);
    ASSERT_EQ(f.view.pending_calls().size(), 1U);
    const PendingCall* open = f.view.pending_call(1005, 9);
    ASSERT_NE(open, nullptr);
    EXPECT_EQ(open->target, 1001U);
    EXPECT_EQ(open->since, sim::Instant::zero() + sim::Duration::milliseconds(2));
    EXPECT_EQ(f.view.last_call_change(), CallChange::Started);
    f.call_result(1005, 9);
    EXPECT_EQ(f.view.last_call_change(), CallChange::Ended);
    EXPECT_TRUE(f.view.pending_calls().empty());
    f.call_result(1005, 9);
    EXPECT_EQ(f.view.last_call_change(), CallChange::EndedUnopened);
}

TEST(TopologyView, SplitsTheLedgerIntoUserAndRuntimeMessages) {
    Fixture f;
    f.send(1, 1001, 1002, 0, "Order");
    f.send(2, 1001, 1002, 3, "MessageExitPID");
    f.send(3, 1001, 1002, 0, "router.admin");
    f.send(4, 1001, 1002, 0, "routesim.client.call");
    f.hand.take(1002, 1, 2, 0, 1001);
    f.drop(1002, 2);
    EXPECT_EQ(f.view.sent(MessageClass::User), 1U);
    EXPECT_EQ(f.view.sent(MessageClass::ExitSignal), 1U);
    EXPECT_EQ(f.view.sent(MessageClass::Admin), 1U);
    EXPECT_EQ(f.view.sent(MessageClass::Internal), 1U);
    const Ledger all = f.view.ledger();
    EXPECT_EQ(all.sent, 4U);
    EXPECT_EQ(all.handled, 1U);
    EXPECT_EQ(all.dropped, 1U);
    EXPECT_EQ(all.queued, 2U);
    EXPECT_TRUE(all.balanced());
    const Ledger user = f.view.user_ledger();
    EXPECT_EQ(user.sent, 1U);
    EXPECT_EQ(user.handled, 1U);
    EXPECT_EQ(user.dropped, 0U);
    EXPECT_TRUE(user.balanced());
    EXPECT_EQ(f.view.message(1).where, MessageWhere::Taken);
    EXPECT_EQ(f.view.message(2).what, MessageClass::ExitSignal);
}

TEST(TopologyView, NamesTheLedgerRuleAnEventBreaks) {
    Fixture f;
    f.send(1, 1001, 1002, 0, "Order");
    f.hand.take(1003, 1, 2, 0, 1001); // not queued at 1003
    EXPECT_EQ(f.view.last_ledger_fault(), LedgerFault::TakeNotQueued);
    EXPECT_EQ(f.view.message(1).where, MessageWhere::Queued); // the bad step is not applied
    f.send(1, 1001, 1002, 0, "Order");
    EXPECT_EQ(f.view.last_ledger_fault(), LedgerFault::SentTwice);
    f.hand.take(1002, 1, 2, 0, 1001);
    EXPECT_EQ(f.view.last_ledger_fault(), LedgerFault::None);
}

TEST(TopologyView, ResetForgetsTheRun) {
    Fixture f;
    f.hand.spawn(1001, 1, "Router");
    f.send(1, 1, 1001, 0, "Order");
    f.call(1, 2);
    f.view.reset();
    EXPECT_EQ(f.view.process(1001), nullptr);
    EXPECT_EQ(f.view.router(1001), nullptr);
    EXPECT_TRUE(f.view.pending_calls().empty());
    EXPECT_EQ(f.view.ledger().sent, 0U);
    f.hand.spawn(1001, 1, "Router"); // the same pid again, as in the next run of a campaign
    EXPECT_NE(f.view.router(1001), nullptr);
}

TEST(TopologyView, AMonitorSetFeedsItsViewBeforeItsMonitors) {
    MonitorSet set;
    set.add(make_monitor("call_outcome", MonitorOptions{}));
    testing::HandTrace hand;
    hand.bus.add_sink(set);
    hand.emit(trace::call,
              {{trace::caller, U{1005}}, {trace::ref, U{3}}, {trace::timeout_ns, std::int64_t{1}}});
    hand.emit(trace::call,
              {{trace::caller, U{1005}}, {trace::ref, U{3}}, {trace::timeout_ns, std::int64_t{1}}});
    hand.bus.remove_sink(set);
    EXPECT_EQ(set.view().pending_calls().size(), 1U);
    ASSERT_EQ(set.find("call_outcome")->violations().size(), 1U); // started twice
    set.reset();
    EXPECT_TRUE(set.view().pending_calls().empty());
}

TEST(TopologyView, KeepViewFeedsASetWithNoReader) {
    MonitorSet set;
    set.add(make_monitor("route_stability", MonitorOptions{}));
    set.keep_view();
    testing::HandTrace hand;
    hand.bus.add_sink(set);
    hand.spawn(1001, 1, "Supervisor");
    hand.bus.remove_sink(set);
    EXPECT_NE(set.view().supervisor(1001), nullptr);
}

} // namespace
} // namespace routesim::properties
