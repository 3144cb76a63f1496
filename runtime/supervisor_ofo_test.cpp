// Goal: the supervisor's common machinery (validation, exits, graceful shutdown, callbacks,
// handle-child notices, the management API) and the one-for-one type behave as
// §6.1–6.5 and §6.8 say, including the t009–t011 shutdown pattern.
// Method: TestSupervisor trees on a Fixture; children are crashed by sending them an Error
// (they stop with it) or by node-level exits and kills; outcomes are read from children(),
// the recorded notices and terminate reason, and the trace.
#include <gtest/gtest.h>

#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

using act::applied_restart;
using act::SupervisorChildSpec;
using act::SupervisorRestart;
using act::SupervisorSpec;
using act::SupervisorStrategy;
using act::SupervisorType;
using testing::child_pid;
using testing::child_spec;
using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::run_inside;
using testing::supervisor_factory;
using testing::supervisor_of;
using testing::SupervisorLog;
using testing::TestSupervisor;
using testing::Text;

SupervisorSpec three_children(SupervisorStrategy strategy = SupervisorStrategy::Transient) {
    SupervisorSpec spec;
    spec.children = {child_spec("a"), child_spec("b"), child_spec("c")};
    spec.restart.strategy = strategy;
    return spec;
}

PID spawn_supervisor(Fixture& f, const SupervisorSpec& spec, SupervisorLog* log = nullptr) {
    auto result = f.node.spawn(supervisor_factory(spec, log), {}, {});
    EXPECT_TRUE(result);
    return result ? result.value() : PID{};
}

// Makes the child `name` stop with `reason` (the child returns it from its callback).
void crash(Fixture& f, const PID& sup, std::string_view name, Error reason) {
    const PID pid = child_pid(f.node, sup, name);
    ASSERT_FALSE(pid.empty());
    ASSERT_TRUE(f.node.send(pid, reason));
    f.run();
}

Error boom() {
    return Error::text("boom");
}

std::string init_error(SupervisorSpec spec) {
    Fixture f;
    auto result = f.node.spawn(supervisor_factory(std::move(spec), nullptr), {}, {});
    return result ? std::string("ok") : result.error().name();
}

// -- §6.1 validation ----------------------------------------------------------------------

TEST(SupervisorInit, RejectsUnknownStrategy) {
    SupervisorSpec spec = three_children();
    spec.restart.strategy = static_cast<SupervisorStrategy>(7);
    EXPECT_EQ(init_error(spec), "unknown supervisor restart strategy");
}

TEST(SupervisorInit, RejectsUnknownType) {
    SupervisorSpec spec = three_children();
    spec.type = static_cast<SupervisorType>(9);
    EXPECT_EQ(init_error(spec), "unknown supervisor type");
}

TEST(SupervisorInit, RejectsEmptyChildrenEvenForSimpleOneForOne) {
    SupervisorSpec spec;
    spec.type = SupervisorType::SimpleOneForOne;
    EXPECT_EQ(init_error(spec), "children list can not be empty");
}

TEST(SupervisorInit, RejectsEmptyChildName) {
    SupervisorSpec spec = three_children();
    spec.children[1].name = Atom();
    EXPECT_EQ(init_error(spec), "invalid child spec Name");
}

TEST(SupervisorInit, RejectsNilFactory) {
    SupervisorSpec spec = three_children();
    spec.children[2].factory = nullptr;
    EXPECT_EQ(init_error(spec), "child spec Factory is nil");
}

TEST(SupervisorInit, RejectsDuplicateChildName) {
    SupervisorSpec spec = three_children();
    spec.children[2].name = Atom("a");
    EXPECT_EQ(init_error(spec), "act.ErrSupervisorChildDuplicate");
}

// §6.1: intensity 0 becomes 5 and period 0 becomes 5 s.
TEST(SupervisorInit, ZeroIntensityAndPeriodBecomeFive) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    const Inspection inspection = f.node.inspect(sup).value();
    EXPECT_EQ(inspection.at("intensity"), "5");
    EXPECT_EQ(inspection.at("period"), "5");
    EXPECT_EQ(inspection.at("type"), "One For One");
    EXPECT_EQ(inspection.at("children_running"), "3");
}

// §6.1: applied_restart is what Init makes of the settings (readers such as the run summary
// show it): zeros become 5 and 5 s, a negative period too; set values are kept.
TEST(SupervisorInit, AppliedRestartIsWhatInitMakesOfTheSettings) {
    SupervisorRestart zero;
    const SupervisorRestart defaults = applied_restart(zero);
    EXPECT_EQ(defaults.intensity, 5U);
    EXPECT_EQ(defaults.period, sim::Duration::seconds(5));
    SupervisorRestart negative;
    negative.period = sim::Duration::milliseconds(-1);
    EXPECT_EQ(applied_restart(negative).period, sim::Duration::seconds(5));
    SupervisorRestart set;
    set.intensity = 2;
    set.period = sim::Duration::milliseconds(200);
    set.strategy = SupervisorStrategy::Permanent;
    const SupervisorRestart kept = applied_restart(set);
    EXPECT_EQ(kept.intensity, 2U);
    EXPECT_EQ(kept.period, sim::Duration::milliseconds(200));
    EXPECT_EQ(kept.strategy, SupervisorStrategy::Permanent);
}

// §6.2, §6.5: children start synchronously in spec order, registered under their names.
TEST(SupervisorInit, StartsChildrenInSpecOrderRegistered) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    const auto children = supervisor_of(f.node, sup).children();
    ASSERT_EQ(children.size(), 3U);
    for (std::size_t i = 0; i < children.size(); i++) {
        EXPECT_EQ(children[i].pid.id, sup.id + 1 + i);
        EXPECT_EQ(children[i].name, children[i].spec);
        EXPECT_EQ(f.node.process_pid(children[i].name).value(), children[i].pid);
    }
}

// §6.2 / §2.8: a child init failure fails the supervisor's spawn; started children get an
// exit through the LinkChild cleanup.
TEST(SupervisorInit, ChildInitFailureFailsSpawnAndStopsStartedChildren) {
    Fixture f;
    SupervisorSpec spec = three_children();
    spec.children[1].factory = lambda_factory([](LambdaActor& actor) {
        actor.on_init = [](LambdaActor&, const Args&) { return stop(Error::text("nope")); };
    });
    auto result = f.node.spawn(supervisor_factory(spec, nullptr), {}, {});
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message(), "nope");
    f.run();
    EXPECT_EQ(f.node.process_count(), 0U);
    EXPECT_FALSE(f.node.process_pid(Atom("a")));
}

// -- §6.3 decisions, one-for-one ----------------------------------------------------------

// §6.5: only the dead child is restarted.
TEST(OneForOne, RestartsOnlyTheFailedChild) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    const auto before = supervisor_of(f.node, sup).children();
    crash(f, sup, "b", boom());
    const auto after = supervisor_of(f.node, sup).children();
    EXPECT_EQ(after[0].pid, before[0].pid);
    EXPECT_NE(after[1].pid, before[1].pid);
    EXPECT_FALSE(after[1].pid.empty());
    EXPECT_EQ(after[2].pid, before[2].pid);
    ASSERT_EQ(f.events("sup_restart").size(), 1U);
    EXPECT_EQ(f.events("sup_restart")[0].text("child"), "b");
}

// §6.1 Transient: a Normal or Shutdown exit is not restarted.
TEST(OneForOne, TransientKeepsACleanExitStopped) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    crash(f, sup, "a", Error::normal());
    crash(f, sup, "b", Error::shutdown());
    EXPECT_TRUE(child_pid(f.node, sup, "a").empty());
    EXPECT_TRUE(child_pid(f.node, sup, "b").empty());
    EXPECT_FALSE(child_pid(f.node, sup, "c").empty());
    EXPECT_EQ(f.events("sup_child_exit")[0].text("decision"), "keep_stopped");
}

// §6.3: the comparison is by identity after the one-level unwrap, so an exit signal's
// wrapped Shutdown counts as clean.
TEST(OneForOne, TransientTreatsAPropagatedShutdownAsClean) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    ASSERT_TRUE(f.node.send_exit(child_pid(f.node, sup, "a"), Error::shutdown()));
    f.run();
    EXPECT_TRUE(child_pid(f.node, sup, "a").empty());
}

// §6.1 Temporary: never restarted, whatever the reason.
TEST(OneForOne, TemporaryNeverRestarts) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children(SupervisorStrategy::Temporary));
    crash(f, sup, "a", boom());
    EXPECT_TRUE(child_pid(f.node, sup, "a").empty());
}

// §6.1 Permanent: a Normal exit is restarted too.
TEST(OneForOne, PermanentRestartsANormalExit) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children(SupervisorStrategy::Permanent));
    const PID before = child_pid(f.node, sup, "a");
    crash(f, sup, "a", Error::normal());
    EXPECT_NE(child_pid(f.node, sup, "a"), before);
    EXPECT_FALSE(child_pid(f.node, sup, "a").empty());
}

// §6.3 step 4: the last running child stopping for good terminates the supervisor.
TEST(OneForOne, AutoShutdownWhenNoChildIsLeft) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec;
    spec.children = {child_spec("a")};
    const PID sup = spawn_supervisor(f, spec, &log);
    crash(f, sup, "a", Error::normal());
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_TRUE(log.terminated->is(TerminateReason::Normal));
    EXPECT_EQ(f.node.find(sup), nullptr);
}

// §6.3: DisableAutoShutdown keeps the supervisor alive with no child running.
TEST(OneForOne, DisableAutoShutdownKeepsSupervisorAlive) {
    Fixture f;
    SupervisorSpec spec;
    spec.children = {child_spec("a")};
    spec.disable_auto_shutdown = true;
    const PID sup = spawn_supervisor(f, spec);
    crash(f, sup, "a", Error::normal());
    EXPECT_NE(f.node.find(sup), nullptr);
}

// §6.3 step 4: a significant child's clean stop shuts everything down with its reason.
TEST(OneForOne, SignificantCleanStopShutsDownWithItsReason) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children();
    spec.children[0].significant = true;
    const PID sup = spawn_supervisor(f, spec, &log);
    crash(f, sup, "a", Error::normal());
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_TRUE(log.terminated->is(TerminateReason::Normal));
    EXPECT_EQ(f.node.process_count(), 0U);
    EXPECT_EQ(f.events("sup_shutdown").size(), 1U);
}

// §6.3: Significant has no effect under Permanent, which always restarts.
TEST(OneForOne, SignificantIsIgnoredUnderPermanent) {
    Fixture f;
    SupervisorSpec spec = three_children(SupervisorStrategy::Permanent);
    spec.children[0].significant = true;
    const PID sup = spawn_supervisor(f, spec);
    crash(f, sup, "a", Error::normal());
    EXPECT_FALSE(child_pid(f.node, sup, "a").empty());
}

// §6.4: the (intensity+1)-th restart in a period trips the limit; the others get
// ErrSupervisorRestartsExceeded and the supervisor ends with the tripping reason (quirk).
TEST(OneForOne, ExceededIntensityEndsWithTheTrippingReason) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children();
    spec.restart.intensity = 2;
    const PID sup = spawn_supervisor(f, spec, &log);
    for (int i = 0; i < 3; i++) {
        crash(f, sup, "a", boom());
    }
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_EQ(*log.terminated, boom());
    EXPECT_EQ(f.events("sup_restart").size(), 2U);
    EXPECT_EQ(f.events("sup_intensity_exceeded").size(), 1U);
    EXPECT_EQ(f.events("sup_shutdown")[0].text("reason"), "restart intensity is exceeded");
}

// §6.4: with nobody else running the supervisor ends with ErrSupervisorRestartsExceeded.
TEST(OneForOne, ExceededIntensityAloneEndsWithRestartsExceeded) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec;
    spec.children = {child_spec("a")};
    spec.restart.intensity = 1;
    const PID sup = spawn_supervisor(f, spec, &log);
    crash(f, sup, "a", boom());
    crash(f, sup, "a", boom());
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_TRUE(log.terminated->is(Err::SupervisorRestartsExceeded));
}

// §6.4 in virtual time: restarts more than a period apart never trip the limit.
TEST(OneForOne, RestartsFartherApartThanThePeriodDoNotTrip) {
    Fixture f;
    SupervisorSpec spec;
    spec.children = {child_spec("a")};
    spec.restart.intensity = 1;
    spec.restart.period = sim::Duration::seconds(1);
    const PID sup = spawn_supervisor(f, spec);
    for (int i = 1; i <= 4; i++) {
        f.world.schedule_at(sim::Instant::zero() + sim::Duration::milliseconds(1001) * i,
                            [&f, sup] { (void)f.node.send(child_pid(f.node, sup, "a"), boom()); });
    }
    f.run();
    EXPECT_NE(f.node.find(sup), nullptr);
    EXPECT_EQ(f.events("sup_restart").size(), 4U);
}

// §6.4: exactly `period` apart still counts as inside the window.
TEST(OneForOne, RestartsExactlyAPeriodApartTrip) {
    Fixture f;
    SupervisorSpec spec;
    spec.children = {child_spec("a")};
    spec.restart.intensity = 1;
    spec.restart.period = sim::Duration::seconds(1);
    const PID sup = spawn_supervisor(f, spec);
    for (int i = 1; i <= 2; i++) {
        f.world.schedule_at(sim::Instant::zero() + sim::Duration::seconds(i),
                            [&f, sup] { (void)f.node.send(child_pid(f.node, sup, "a"), boom()); });
    }
    f.run();
    EXPECT_EQ(f.node.find(sup), nullptr);
    EXPECT_EQ(f.events("sup_intensity_exceeded").size(), 1U);
}

// -- §6.2 exits and callbacks -------------------------------------------------------------

// §6.2 (t009–t011): SendExit(sup, myExit) stops the children with myExit and the
// supervisor's Terminate receives exactly myExit, not wrapped.
TEST(SupervisorExit, NonChildExitShutsDownWithTheRawReason) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, three_children(), &log);
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("my exit")));
    f.run();
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_EQ(*log.terminated, Error::text("my exit"));
    EXPECT_EQ(f.node.process_count(), 0U);
    // §6.5: exits go out in spec order, and the supervisor terminates after the last one.
    std::vector<std::uint64_t> exited;
    for (const auto& record : f.events("exit")) {
        exited.push_back(static_cast<std::uint64_t>(record.number("pid")));
    }
    EXPECT_EQ(exited, (std::vector<std::uint64_t>{sup.id + 1, sup.id + 2, sup.id + 3, sup.id}));
}

// §6.2: with no child running, a non-child exit terminates at once.
TEST(SupervisorExit, NonChildExitWithNoChildrenTerminatesAtOnce) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children(SupervisorStrategy::Temporary);
    spec.disable_auto_shutdown = true;
    const PID sup = spawn_supervisor(f, spec, &log);
    for (const char* name : {"a", "b", "c"}) {
        crash(f, sup, name, Error::normal());
    }
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("x")));
    f.run();
    EXPECT_EQ(*log.terminated, Error::text("x"));
}

// §6.2: an error from handle_message starts the graceful shutdown with that reason.
TEST(SupervisorCallback, HandleMessageErrorStopsChildrenFirst) {
    Fixture f;
    SupervisorLog log;
    auto factory = supervisor_factory(three_children(), &log, [](TestSupervisor& self) {
        self.on_message = [](TestSupervisor&, const PID&, const Message&) {
            return stop(Error::text("bad"));
        };
    });
    const PID sup = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(sup, Text{"x"}));
    f.run();
    EXPECT_EQ(*log.terminated, Error::text("bad"));
    EXPECT_EQ(f.events("exit").back().number("pid"), static_cast<std::int64_t>(sup.id));
    EXPECT_EQ(f.events("sup_shutdown")[0].number("waiting"), 3);
}

// §6.2: a panic inside the supervisor's loop is a graceful shutdown with Panic.
TEST(SupervisorCallback, PanicStartsGracefulShutdown) {
    Fixture f;
    SupervisorLog log;
    auto factory = supervisor_factory(three_children(), &log, [](TestSupervisor& self) {
        self.on_message = [](TestSupervisor&, const PID&, const Message&) -> Status {
            throw std::runtime_error("oops");
        };
    });
    const PID sup = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(sup, Text{"x"}));
    f.run();
    EXPECT_TRUE(log.terminated->is(TerminateReason::Panic));
    EXPECT_EQ(f.events("sup_shutdown").size(), 1U);
}

// §6.2: the supervisor `sup` (three children) recovered a panic into a graceful shutdown: it
// stopped its three children first, then terminated with Panic.
void expect_panic_shutdown(const Fixture& f, const SupervisorLog& log, const PID& sup) {
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_TRUE(log.terminated->is(TerminateReason::Panic));
    ASSERT_EQ(f.events("sup_shutdown").size(), 1U);
    EXPECT_EQ(f.events("sup_shutdown")[0].number("waiting"), 3);
    const auto exits = f.events("exit");
    ASSERT_EQ(exits.size(), 4U); // three children, then the supervisor
    EXPECT_EQ(exits.back().number("pid"), static_cast<std::int64_t>(sup.id));
    EXPECT_EQ(f.events("log").back().text("text"), "panic in supervisor callback");
}

// §6.2: a panic injected at a take (Node::watch_takes) is recovered like a callback panic:
// the children are stopped first, then the supervisor terminates with Panic.
TEST(SupervisorCallback, InjectedTakePanicStartsGracefulShutdown) {
    Fixture f;
    SupervisorLog log;
    const PID sup = f.node.spawn(supervisor_factory(three_children(), &log), {}, {}).value();
    f.node.set_take_panic_hook([](const PID&) { return true; }); // never asked at exits
    ASSERT_TRUE(f.node.watch_takes(sup, true));
    ASSERT_TRUE(f.node.send(sup, Text{"x"}));
    f.run();
    expect_panic_shutdown(f, log, sup);
}

// §6.2: a planned take.panic fault (the world's FaultPlan, as random fault mixes use it) is
// recovered like the hook's: a graceful shutdown, not an abrupt end that strands the children.
TEST(SupervisorCallback, PlannedTakePanicStartsGracefulShutdown) {
    Fixture f;
    SupervisorLog log;
    const PID sup = f.node.spawn(supervisor_factory(three_children(), &log), {}, {}).value();
    f.world.faults().add_rule(
        sim::FaultRule{.site = "take.panic", .trigger = sim::FaultTrigger::Nth, .nth = 1});
    ASSERT_TRUE(f.node.send(sup, Text{"x"}));
    f.run();
    ASSERT_EQ(f.events("fault").size(), 1U);
    expect_panic_shutdown(f, log, sup);
}

// §4.2, §6.2: a handle_call value is replied even when an error comes with it.
TEST(SupervisorCallback, CallValueIsRepliedEvenWithAnError) {
    Fixture f;
    SupervisorLog log;
    auto factory = supervisor_factory(three_children(), &log, [](TestSupervisor& self) {
        self.on_call = [](TestSupervisor&, const PID&, const Ref&, const Message&) {
            return act::CallReply::stop(Error::text("later"), Text{"value"});
        };
    });
    const PID sup = f.node.spawn(factory, {}, {}).value();
    const std::optional<CallResult> reply = testing::call_once(f, sup, Text{"q"});
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ(reply->value().get<Text>()->value, "value");
    EXPECT_EQ(*log.terminated, Error::text("later"));
}

// §6.2: handle_child notices are queued to Main: the termination notice comes before the
// restart's start notice, and reasons are the propagated ones.
TEST(SupervisorHandleChild, NoticesFollowTheActionsInOrder) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children();
    spec.enable_handle_child = true;
    const PID sup = spawn_supervisor(f, spec, &log);
    f.run();
    EXPECT_EQ(log.notices, (std::vector<std::string>{"start:a", "start:b", "start:c"}));
    ASSERT_TRUE(f.node.send_exit(child_pid(f.node, sup, "b"), boom()));
    f.run();
    EXPECT_EQ(log.notices, (std::vector<std::string>{"start:a", "start:b", "start:c", "stop:b:boom",
                                                     "start:b"}));
}

// §6.2: without enable_handle_child no notice is delivered.
TEST(SupervisorHandleChild, DisabledByDefault) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, three_children(), &log);
    crash(f, sup, "a", boom());
    EXPECT_TRUE(log.notices.empty());
}

// §6.2: an error from a handle-child callback starts a supervisor shutdown.
TEST(SupervisorHandleChild, CallbackErrorShutsDown) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children();
    spec.enable_handle_child = true;
    auto factory = supervisor_factory(spec, &log, [](TestSupervisor& self) {
        self.on_child_start = [](TestSupervisor&, Atom name, const PID&) -> Status {
            return name == Atom("b") ? stop(Error::text("no b")) : ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    f.run();
    EXPECT_EQ(*log.terminated, Error::text("no b"));
    EXPECT_EQ(f.node.process_count(), 0U);
}

// §6.2: a spawn failure during a restart terminates the supervisor with the spawn error.
TEST(SupervisorRestart, SpawnFailureTerminatesTheSupervisor) {
    Fixture f;
    SupervisorLog log;
    int starts = 0;
    SupervisorSpec spec;
    spec.children = {child_spec("a"), child_spec("b")};
    spec.children[0].factory = lambda_factory([&starts](LambdaActor& actor) {
        actor.on_init = [&starts](LambdaActor&, const Args&) {
            return ++starts > 1 ? stop(Error::text("cannot")) : ok();
        };
        actor.on_message = [](LambdaActor&, const PID&, const Message& message) -> Status {
            return stop(*message.get<Error>());
        };
    });
    const PID sup = spawn_supervisor(f, spec, &log);
    crash(f, sup, "a", boom());
    EXPECT_EQ(*log.terminated, Error::text("cannot"));
    EXPECT_EQ(f.node.process_count(), 0U); // b followed through LinkParent
}

// -- §6.8 management API, one-for-one ------------------------------------------------------

// §1.2, §6.2: outside the supervisor's own callback every call is NotAllowed.
TEST(OneForOneManage, CallsOutsideTheOwnCallbackAreNotAllowed) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    f.run();
    TestSupervisor& self = supervisor_of(f.node, sup);
    EXPECT_TRUE(self.start_child(Atom("a")).error().is(Err::NotAllowed));
    EXPECT_TRUE(self.add_child(child_spec("d")).error().is(Err::NotAllowed));
    EXPECT_TRUE(self.enable_child(Atom("a")).error().is(Err::NotAllowed));
    EXPECT_TRUE(self.disable_child(Atom("a")).error().is(Err::NotAllowed));
}

// §6.8: StartChild errors: unknown, running.
TEST(OneForOneManage, StartChildRejectsUnknownAndRunning) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.start_child(Atom("zzz")));
        results.push_back(self.start_child(Atom("a")));
    });
    EXPECT_TRUE(results[0].error().is(Err::SupervisorChildUnknown));
    EXPECT_TRUE(results[1].error().is(Err::SupervisorChildRunning));
}

// §6.5: StartChild args are persisted and used by later restarts.
TEST(OneForOneManage, StartChildArgsPersistAcrossRestarts) {
    Fixture f;
    std::vector<std::string> starts;
    SupervisorSpec spec;
    spec.children = {child_spec("a", &starts), child_spec("b")};
    const PID sup = spawn_supervisor(f, spec);
    crash(f, sup, "a", Error::normal());
    run_inside(f, sup, [](TestSupervisor& self) {
        EXPECT_TRUE(self.start_child(Atom("a"), Args{Text{"x"}}));
    });
    crash(f, sup, "a", boom());
    EXPECT_EQ(starts, (std::vector<std::string>{"", "x", "x"}));
}

// §6.8: AddChild validates, rejects duplicates, appends and starts now.
TEST(OneForOneManage, AddChildValidatesAndStartsNow) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.add_child(child_spec("a")));
        results.push_back(self.add_child(SupervisorChildSpec{.name = Atom("d")}));
        results.push_back(self.add_child(child_spec("d")));
    });
    EXPECT_TRUE(results[0].error().is(Err::SupervisorChildDuplicate));
    EXPECT_EQ(results[1].error().message(), "child spec Factory is nil");
    EXPECT_TRUE(results[2]);
    const auto children = supervisor_of(f.node, sup).children();
    ASSERT_EQ(children.size(), 4U);
    EXPECT_EQ(children[3].spec, Atom("d"));
    EXPECT_FALSE(children[3].pid.empty());
}

// §6.8: an AddChild whose spawn fails returns the error and keeps the spec.
TEST(OneForOneManage, AddChildSpawnFailureKeepsTheSpec) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    Status result;
    run_inside(f, sup, [&result](TestSupervisor& self) {
        SupervisorChildSpec spec{.name = Atom("d"), .factory = lambda_factory([](LambdaActor& a) {
                                                        a.on_init = [](LambdaActor&, const Args&) {
                                                            return stop(Error::text("no"));
                                                        };
                                                    })};
        result = self.add_child(spec);
    });
    EXPECT_EQ(result.error().message(), "no");
    const auto children = supervisor_of(f.node, sup).children();
    ASSERT_EQ(children.size(), 4U);
    EXPECT_TRUE(children[3].pid.empty());
    EXPECT_NE(f.node.find(sup), nullptr);
}

// §6.8: DisableChild on a running child sets the flag and stops it with Shutdown; it is not
// restarted, and StartChild then reports it disabled.
TEST(OneForOneManage, DisableChildStopsARunningChild) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = three_children(SupervisorStrategy::Permanent);
    spec.enable_handle_child = true;
    const PID sup = spawn_supervisor(f, spec, &log);
    Status started;
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("a"))); });
    run_inside(f, sup, [&started](TestSupervisor& self) { started = self.start_child(Atom("a")); });
    EXPECT_TRUE(started.error().is(Err::SupervisorChildDisabled));
    const auto children = supervisor_of(f.node, sup).children();
    EXPECT_TRUE(children[0].disabled);
    EXPECT_TRUE(children[0].pid.empty());
    EXPECT_EQ(log.notices.back(), "stop:a:shutdown");
}

// §6.8 quirk (reproduced): DisableChild of a stopped child returns nil and sets no flag.
TEST(OneForOneManage, DisableStoppedChildLeavesItEnabled) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    crash(f, sup, "a", Error::normal());
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("a"))); });
    EXPECT_FALSE(supervisor_of(f.node, sup).children()[0].disabled);
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.start_child(Atom("a"))); });
    EXPECT_FALSE(child_pid(f.node, sup, "a").empty());
}

// §6.8: EnableChild of a disabled child clears the flag and starts it; of an enabled child
// it does nothing, not even start a stopped one.
TEST(OneForOneManage, EnableChildStartsOnlyADisabledChild) {
    Fixture f;
    const PID sup = spawn_supervisor(f, three_children());
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("a"))); });
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.enable_child(Atom("a"))); });
    EXPECT_FALSE(child_pid(f.node, sup, "a").empty());
    crash(f, sup, "b", Error::normal());
    run_inside(f, sup, [](TestSupervisor& self) {
        EXPECT_TRUE(self.enable_child(Atom("b")));
        EXPECT_TRUE(self.enable_child(Atom("zzz")).error().is(Err::SupervisorChildUnknown));
    });
    EXPECT_TRUE(child_pid(f.node, sup, "b").empty());
}

} // namespace
} // namespace routesim::runtime
