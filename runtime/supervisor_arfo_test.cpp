// Goal: all-for-one and rest-for-one follow §6.3, §6.4 and §6.6: the
// stopping phase (reverse order, the dead child's reason, keep_order one at a time), the
// starting phase (spec order, including children that stopped normally earlier, t011),
// intensity counted once per triggering exit, management blocked while cycling.
// Method: TestSupervisor trees on a Fixture; children are crashed by sending them an Error;
// a "work" message makes a child busy for a second so a cycle can be observed midway. The
// order of exits and starts is read from the trace and the handle-child notices.
#include <gtest/gtest.h>

#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

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

// A child that stops with any Error it is sent and is busy for a second on "work".
Factory slow_child() {
    return lambda_factory([](LambdaActor& actor) {
        actor.on_message = [](LambdaActor& self, const PID&, const Message& message) -> Status {
            if (const auto* reason = message.get<Error>()) {
                return stop(*reason);
            }
            self.process().busy_for(sim::Duration::seconds(1));
            return ok();
        };
    });
}

SupervisorSpec cycle_spec(SupervisorType type, bool keep_order = false) {
    SupervisorSpec spec;
    spec.type = type;
    spec.children = {child_spec("a"), child_spec("b"), child_spec("c")};
    spec.children[2].factory = slow_child();
    spec.restart.keep_order = keep_order;
    spec.enable_handle_child = true;
    return spec;
}

PID spawn_supervisor(Fixture& f, const SupervisorSpec& spec, SupervisorLog* log = nullptr) {
    auto result = f.node.spawn(supervisor_factory(spec, log), {}, {});
    EXPECT_TRUE(result);
    f.run();
    return result ? result.value() : PID{};
}

void crash(Fixture& f, const PID& sup, std::string_view name, Error reason) {
    const PID pid = child_pid(f.node, sup, name);
    ASSERT_FALSE(pid.empty());
    ASSERT_TRUE(f.node.send(pid, reason));
    f.run();
}

Error boom() {
    return Error::text("boom");
}

// The children the supervisor sent exit signals to, in order.
std::vector<PID> exits_sent(const Fixture& f, const PID& sup) {
    std::vector<PID> targets;
    for (const auto& record : f.events("send")) {
        if (record.number("from") == static_cast<std::int64_t>(sup.id) &&
            record.number("type") == static_cast<std::int64_t>(MailboxType::Exit)) {
            targets.push_back(
                PID{sup.node, static_cast<std::uint64_t>(record.number("to")), sup.creation});
        }
    }
    return targets;
}

// The names of children the supervisor spawned after the first `skip`, in order.
std::vector<std::string> spawned_names(const Fixture& f, const PID& sup, std::size_t skip) {
    std::vector<std::string> names;
    for (const auto& record : f.events("spawn")) {
        if (record.number("parent") == static_cast<std::int64_t>(sup.id)) {
            names.push_back(record.text("name"));
        }
    }
    names.erase(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(skip));
    return names;
}

// §6.6: AFO stops the siblings in reverse spec order, then starts all in spec order.
TEST(AllForOne, StopsSiblingsInReverseThenStartsAllInOrder) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne));
    const PID b = child_pid(f.node, sup, "b");
    const PID c = child_pid(f.node, sup, "c");
    crash(f, sup, "a", boom());
    EXPECT_EQ(exits_sent(f, sup), (std::vector<PID>{c, b}));
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_NE(child_pid(f.node, sup, "b"), b);
    EXPECT_EQ(f.events("sup_restart").size(), 1U);
}

// §6.6 (t011): the siblings are stopped with the dead child's reason, not Shutdown; the
// termination notices precede the start notices.
TEST(AllForOne, SiblingsAreStoppedWithTheDeadChildsReason) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne), &log);
    log.notices.clear();
    crash(f, sup, "a", boom());
    EXPECT_EQ(log.notices, (std::vector<std::string>{"stop:a:boom", "stop:c:boom", "stop:b:boom",
                                                     "start:a", "start:b", "start:c"}));
}

// §6.6 keep_order: the next sibling gets its exit only after the previous one's exit came.
TEST(AllForOne, KeepOrderStopsOneSiblingAtATime) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne, true));
    const PID b = child_pid(f.node, sup, "b");
    const PID c = child_pid(f.node, sup, "c");
    crash(f, sup, "a", boom());
    EXPECT_EQ(exits_sent(f, sup), (std::vector<PID>{c, b}));
    std::int64_t c_exited = -1;
    std::int64_t b_signalled = -1;
    for (const auto& record : f.memory.records()) {
        if (record.kind == "exit" && record.number("pid") == static_cast<std::int64_t>(c.id)) {
            c_exited = static_cast<std::int64_t>(record.seq);
        }
        if (record.kind == "send" && record.number("to") == static_cast<std::int64_t>(b.id) &&
            record.number("type") == static_cast<std::int64_t>(MailboxType::Exit)) {
            b_signalled = static_cast<std::int64_t>(record.seq);
        }
    }
    ASSERT_GE(c_exited, 0);
    EXPECT_GT(b_signalled, c_exited);
}

// §6.6 (t011): under Transient, a and b stopped normally and stayed stopped; when c is
// killed, AFO starts a, b and c.
TEST(AllForOne, StartsChildrenThatStoppedNormallyEarlier) {
    Fixture f;
    SupervisorSpec spec = cycle_spec(SupervisorType::AllForOne, true);
    spec.disable_auto_shutdown = true;
    const PID sup = spawn_supervisor(f, spec);
    crash(f, sup, "a", Error::normal());
    crash(f, sup, "b", Error::shutdown());
    EXPECT_TRUE(child_pid(f.node, sup, "a").empty());
    ASSERT_TRUE(f.node.kill(child_pid(f.node, sup, "c")));
    f.run();
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"a", "b", "c"}));
    for (const auto& child : supervisor_of(f.node, sup).children()) {
        EXPECT_FALSE(child.pid.empty());
    }
}

// §6.6: RFO restarts the dead child and those after it; earlier ones keep running.
TEST(RestForOne, RestartsTheDeadChildAndThoseAfterIt) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::RestForOne));
    const PID a = child_pid(f.node, sup, "a");
    const PID c = child_pid(f.node, sup, "c");
    crash(f, sup, "b", boom());
    EXPECT_EQ(exits_sent(f, sup), (std::vector<PID>{c}));
    EXPECT_EQ(child_pid(f.node, sup, "a"), a);
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"b", "c"}));
}

// §6.6: RFO with the last child dead stops nobody and restarts just it.
TEST(RestForOne, LastChildCrashRestartsOnlyIt) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::RestForOne));
    crash(f, sup, "c", boom());
    EXPECT_TRUE(exits_sent(f, sup).empty());
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"c"}));
}

// §6.4: one history entry per triggering exit, though AFO restarts every child.
TEST(AllForOne, IntensityCountsOncePerTriggeringExit) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = cycle_spec(SupervisorType::AllForOne);
    spec.restart.intensity = 2;
    const PID sup = spawn_supervisor(f, spec, &log);
    crash(f, sup, "a", boom());
    EXPECT_EQ(f.node.inspect(sup).value().at("restarts_count"), "1");
    crash(f, sup, "b", boom());
    EXPECT_EQ(f.node.inspect(sup).value().at("restarts_count"), "2");
    crash(f, sup, "c", boom());
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_EQ(*log.terminated, boom()); // others were running: the tripping reason (§6.4)
    EXPECT_EQ(f.events("sup_restart").size(), 2U);
}

// §6.6: while a cycle runs, StartChild, AddChild, EnableChild and DisableChild return
// ErrSupervisorStrategyActive.
TEST(AllForOne, ManagementDuringACycleIsStrategyActive) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne, true));
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "c"), Text{"work"}));
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "a"), boom()));
    f.run(sim::Instant::zero() + sim::Duration::milliseconds(500));
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.start_child(Atom("a")));
        results.push_back(self.add_child(child_spec("d")));
        results.push_back(self.enable_child(Atom("a")));
        results.push_back(self.disable_child(Atom("b")));
    });
    ASSERT_EQ(results.size(), 4U);
    for (const Status& result : results) {
        ASSERT_FALSE(result);
        EXPECT_TRUE(result.error().is(Err::SupervisorStrategyActive));
    }
    for (const auto& child : supervisor_of(f.node, sup).children()) {
        EXPECT_FALSE(child.pid.empty()); // the cycle completed afterwards
    }
}

// §6.6: a shutdown sends the exits in spec order, all at once.
TEST(AllForOne, ShutdownSendsExitsInSpecOrder) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne, true), &log);
    const std::vector<PID> order{child_pid(f.node, sup, "a"), child_pid(f.node, sup, "b"),
                                 child_pid(f.node, sup, "c")};
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("my exit")));
    f.run();
    EXPECT_EQ(exits_sent(f, sup), order);
    EXPECT_EQ(*log.terminated, Error::text("my exit"));
}

// §6.6: a disabled child is left out of the cycle: not stopped, not started.
TEST(AllForOne, DisabledChildIsLeftOutOfTheCycle) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne));
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("b"))); });
    crash(f, sup, "a", boom());
    EXPECT_TRUE(child_pid(f.node, sup, "b").empty());
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"a", "c"}));
}

// §6.6 quirk not copied: with the last spec disabled the cycle still ends in normal mode.
TEST(AllForOne, CycleEndsInNormalModeWhenTheLastSpecIsDisabled) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne));
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("c"))); });
    crash(f, sup, "a", boom());
    Status result;
    run_inside(f, sup, [&result](TestSupervisor& self) { result = self.start_child(Atom("a")); });
    EXPECT_TRUE(result.error().is(Err::SupervisorChildRunning));
}

// §6.6 keep_order: a child below the range dying mid-cycle moves the range down to it (Ergo
// panics on this; we widen the range and go on). It costs no intensity entry.
TEST(RestForOne, KeepOrderDeathBelowTheRangeWidensIt) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::RestForOne, true), &log);
    const PID a = child_pid(f.node, sup, "a");
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "c"), Text{"work"}));
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "b"), boom()));
    ASSERT_TRUE(f.node.send(a, boom()));
    f.run();
    ASSERT_NE(f.node.find(sup), nullptr);
    EXPECT_NE(child_pid(f.node, sup, "a"), a);
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(f.events("sup_restart").size(), 1U);
}

// §6.6 without keep_order (as Ergo): a child below the range that dies mid-cycle stays
// stopped.
TEST(RestForOne, DeathBelowTheRangeWithoutKeepOrderStaysStopped) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::RestForOne, false));
    const PID a = child_pid(f.node, sup, "a");
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "c"), Text{"work"}));
    ASSERT_TRUE(f.node.send(child_pid(f.node, sup, "b"), boom()));
    ASSERT_TRUE(f.node.send(a, boom()));
    f.run();
    ASSERT_NE(f.node.find(sup), nullptr);
    EXPECT_TRUE(child_pid(f.node, sup, "a").empty());
    EXPECT_EQ(spawned_names(f, sup, 3), (std::vector<std::string>{"b", "c"}));
}

// §6.8: the management errors of AFO/RFO outside a cycle are OFO's.
TEST(AllForOne, StartChildOfARunningChildIsChildRunning) {
    Fixture f;
    const PID sup = spawn_supervisor(f, cycle_spec(SupervisorType::AllForOne));
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.start_child(Atom("a")));
        results.push_back(self.start_child(Atom("zzz")));
        results.push_back(self.disable_child(Atom("zzz")));
    });
    EXPECT_TRUE(results[0].error().is(Err::SupervisorChildRunning));
    EXPECT_TRUE(results[1].error().is(Err::SupervisorChildUnknown));
    EXPECT_TRUE(results[2].error().is(Err::SupervisorChildUnknown));
}

} // namespace
} // namespace routesim::runtime
