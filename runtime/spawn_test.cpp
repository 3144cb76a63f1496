// Goal: spawn and kill follow Ergo (§2.8, §3.3, §3.5): Init runs
// synchronously, name reservation and release, Init failures and their LinkChild children,
// LinkParent/LinkChild, and Kill by state (Sleep: at once; Running: Zombee, then kill).
// Method: probe actors and lambda actors; the trace checks drops and kill states.
#include <functional>
#include <optional>

#include <gtest/gtest.h>

#include "runtime/probe_testing.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

using testing::probes::Do;
using testing::probes::probe;
using testing::probes::ProbeLog;
using testing::probes::run_in;
using testing::probes::Seen;

// §2.8 step 4: Init runs synchronously inside Spawn; the child has finished Init when Spawn
// returns, and the new process sleeps.
TEST(Spawn, InitRunsSynchronously) {
    Fixture f;
    std::vector<std::string> args_seen;
    auto factory = lambda_factory([&args_seen](LambdaActor& actor) {
        actor.on_init = [&args_seen](LambdaActor& self, const Args& args) {
            EXPECT_EQ(self.process().state(), ProcessState::Init);
            for (const Message& arg : args) {
                args_seen.push_back(arg.get<Text>()->value);
            }
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {Text{"a"}, Text{"b"}}).value();
    EXPECT_EQ(args_seen, (std::vector<std::string>{"a", "b"}));
    ASSERT_NE(f.node.find(pid), nullptr);
    EXPECT_EQ(f.node.find(pid)->state(), ProcessState::Sleep);
    EXPECT_EQ(f.node.find(pid)->parent(), f.node.core_pid());
    EXPECT_EQ(f.node.find(pid)->leader(), f.node.core_pid());
    EXPECT_EQ(f.world.now(), sim::Instant::zero());
}

// §2.8: a process's child has the process as parent and inherits its leader.
TEST(Spawn, ChildInheritsLeaderAndHasCallerAsParent) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    ProbeLog leader_log;
    const PID leader = f.node.spawn(probe(leader_log), {}, {}).value();
    const PID parent =
        f.node.spawn(probe(parent_log), ProcessOptions{.leader = leader}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log), {}, {}).value();
        return ok();
    });
    ASSERT_NE(f.node.find(child), nullptr);
    EXPECT_EQ(f.node.find(child)->parent(), parent);
    EXPECT_EQ(f.node.find(child)->leader(), leader);
}

// §2.1, §2.8: during Init the PID is not routable for others; the own PID is.
TEST(Spawn, PidIsNotRoutableDuringInit) {
    Fixture f;
    std::optional<SendResult> from_node;
    std::optional<SendResult> from_self;
    auto factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_init = [&](LambdaActor& self, const Args&) {
            from_node = self.process().node().send(self.self(), Text{"x"});
            from_self = self.process().send(self.self(), Text{"y"});
            EXPECT_EQ(self.process().node().kill(self.self()).error(), Err::ProcessUnknown);
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    EXPECT_EQ(from_node->error(), Err::ProcessUnknown);
    EXPECT_TRUE(from_self->has_value());
}

// §2.2, §2.8 step 1: SpawnRegister with a name that is taken fails with ErrTaken.
TEST(Spawn, RegisterTakenNameFailsWithTaken) {
    Fixture f;
    ProbeLog log;
    ASSERT_TRUE(f.node.spawn_register(Atom("svc"), probe(log), {}, {}));
    int inits = 0;
    auto counting = lambda_factory([&inits](LambdaActor& actor) {
        actor.on_init = [&inits](LambdaActor&, const Args&) {
            inits++;
            return ok();
        };
    });
    const auto second = f.node.spawn_register(Atom("svc"), counting, {}, {});
    ASSERT_FALSE(second.has_value());
    EXPECT_EQ(second.error(), Error(Err::Taken));
    EXPECT_EQ(inits, 0);
    EXPECT_EQ(f.node.process_count(), 1U);
}

// §2.8 step 1: a nil factory gives ErrIncorrect; a factory returning nothing gives the
// ad-hoc error, and the next spawn still works.
TEST(Spawn, NilFactoryOrBehaviourFails) {
    Fixture f;
    EXPECT_EQ(f.node.spawn(Factory(), {}, {}).error(), Error(Err::Incorrect));
    const Factory empty = []() -> std::unique_ptr<Behavior> { return nullptr; };
    EXPECT_EQ(f.node.spawn(empty, {}, {}).error(),
              Error::text("factory function must return non nil value"));
    ProbeLog log;
    EXPECT_TRUE(f.node.spawn(probe(log), {}, {}));
    EXPECT_EQ(f.node.process_count(), 1U);
}

// §2.8 step 4: an Init error is returned by Spawn, the name is released, and nothing stays
// in the process table.
TEST(Spawn, InitFailureReturnsErrorAndReleasesName) {
    Fixture f;
    auto failing = lambda_factory([](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            EXPECT_TRUE(self.process().node().find(Atom("svc")) != nullptr);
            return stop(Error(Err::Incorrect));
        };
    });
    const auto spawned = f.node.spawn_register(Atom("svc"), failing, {}, {});
    ASSERT_FALSE(spawned.has_value());
    EXPECT_EQ(spawned.error(), Error(Err::Incorrect));
    EXPECT_EQ(f.node.process_pid(Atom("svc")).error(), Err::ProcessUnknown);
    EXPECT_EQ(f.node.process_count(), 0U);
    ASSERT_EQ(f.events("spawn_failed").size(), 1U);
    ProbeLog log;
    EXPECT_TRUE(f.node.spawn_register(Atom("svc"), probe(log), {}, {}));
}

// §2.8 step 4: a panic in Init gives TerminateReasonPanic.
TEST(Spawn, InitPanicGivesPanic) {
    Fixture f;
    auto throwing = lambda_factory([](LambdaActor& actor) {
        actor.on_init = [](LambdaActor&, const Args&) -> Status { throw std::runtime_error("x"); };
    });
    EXPECT_EQ(f.node.spawn(throwing, {}, {}).error(), Error::panic());
    EXPECT_EQ(f.node.process_count(), 0U);
}

// §2.8 step 4: children spawned with LinkChild during a failing Init get
// MessageExitPID{failing pid, err} from it and die (it is their parent: never trapped).
TEST(Spawn, InitFailureKillsChildrenLinkedWithLinkChild) {
    Fixture f;
    ProbeLog linked_log;
    ProbeLog unlinked_log;
    PID linked;
    PID unlinked;
    PID failed;
    auto failing = lambda_factory([&](LambdaActor& actor) {
        actor.on_init = [&](LambdaActor& self, const Args&) {
            failed = self.self();
            linked =
                self.process().spawn(probe(linked_log, true), {.link_child = true}, {}).value();
            unlinked = self.process().spawn(probe(unlinked_log, true), {}, {}).value();
            return stop(Error::text("init failed"));
        };
    });
    EXPECT_FALSE(f.node.spawn(failing, {}, {}).has_value());
    f.run();
    EXPECT_EQ(f.node.find(linked), nullptr);
    ASSERT_TRUE(linked_log.reason.has_value());
    EXPECT_EQ(linked_log.reason->message(), to_string(failed) + ": init failed");
    EXPECT_NE(f.node.find(unlinked), nullptr);
    EXPECT_TRUE(unlinked_log.seen.empty());
}

// §2.8 step 4: messages queued during a failed Init are dropped.
TEST(Spawn, InitFailureDropsQueuedMessages) {
    Fixture f;
    auto failing = lambda_factory([](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            EXPECT_TRUE(self.process().send(self.self(), Text{"self"}));
            return stop(Error::text("no"));
        };
    });
    EXPECT_FALSE(f.node.spawn(failing, {}, {}).has_value());
    const auto drops = f.events("drop");
    ASSERT_EQ(drops.size(), 1U);
    EXPECT_EQ(drops.at(0).text("reason"), "init_failed");
}

// §3.5: LinkParent makes the child die with the parent, even when it traps exits.
TEST(Spawn, LinkParentChildDiesWithParent) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    const PID parent = f.node.spawn(probe(parent_log), {}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log, true), {.link_parent = true}, {}).value();
        return ok();
    });
    run_in(f, parent, [](LambdaActor&) { return stop(Error::text("parent down")); });
    EXPECT_EQ(f.node.find(child), nullptr);
    EXPECT_TRUE(child_log.seen.empty());
    EXPECT_EQ(child_log.reason->message(), to_string(parent) + ": parent down");
}

// §3.5: LinkChild makes the parent get MessageExitPID{child, reason}; a trapping parent sees
// it as a message.
TEST(Spawn, LinkChildParentGetsExit) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    const PID parent = f.node.spawn(probe(parent_log, true), {}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log), {.link_child = true}, {}).value();
        return ok();
    });
    run_in(f, child, [](LambdaActor&) { return stop(Error::text("child down")); });
    EXPECT_NE(f.node.find(parent), nullptr);
    const auto exits = parent_log.all<MessageExitPID>();
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits.at(0).pid, child);
    EXPECT_EQ(exits.at(0).reason, Error::text("child down"));
}

// §2.8, §3.5: spawning links nothing by default, either way.
TEST(Spawn, NoLinkByDefault) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    const PID parent = f.node.spawn(probe(parent_log), {}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log), {}, {}).value();
        return ok();
    });
    run_in(f, child, [](LambdaActor&) { return stop(Error::text("child down")); });
    EXPECT_NE(f.node.find(parent), nullptr);
    EXPECT_TRUE(parent_log.seen.empty());
    ProbeLog second_log;
    PID second;
    run_in(f, parent, [&second, &second_log](LambdaActor& self) {
        second = self.process().spawn(probe(second_log), {}, {}).value();
        return stop(Error::text("parent down"));
    });
    EXPECT_NE(f.node.find(second), nullptr);
}

// §3.3: Kill of a sleeping process tears it down at once with reason kill.
TEST(Kill, SleepingProcessIsTornDownAtOnce) {
    Fixture f;
    ProbeLog log;
    const PID pid = f.node.spawn(probe(log), {}, {}).value();
    ASSERT_TRUE(f.node.kill(pid));
    EXPECT_EQ(f.node.find(pid), nullptr);
    ASSERT_TRUE(log.reason.has_value());
    EXPECT_EQ(*log.reason, Error::kill());
    EXPECT_EQ(f.events("kill").at(0).text("state"), "sleep");
    EXPECT_EQ(f.events("exit").at(0).text("reason"), "kill");
}

// §3.3: Kill of a running (runnable) process marks it Zombee; at its next step it terminates
// with kill and its queued messages are dropped unhandled.
TEST(Kill, RunnableProcessBecomesZombeeAndStopsAtNextStep) {
    Fixture f;
    ProbeLog log;
    const PID pid = f.node.spawn(probe(log), {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"1"}));
    ASSERT_TRUE(f.node.send(pid, Text{"2"}));
    ASSERT_TRUE(f.node.kill(pid));
    ASSERT_NE(f.node.find(pid), nullptr);
    EXPECT_EQ(f.node.find(pid)->state(), ProcessState::Zombee);
    EXPECT_FALSE(log.reason.has_value());
    f.run();
    EXPECT_EQ(f.node.find(pid), nullptr);
    EXPECT_TRUE(log.seen.empty());
    EXPECT_EQ(*log.reason, Error::kill());
    EXPECT_EQ(f.events("kill").at(0).text("state"), "running");
    EXPECT_EQ(f.events("drop").size(), 2U);
    EXPECT_TRUE(f.events("take").empty());
}

// §3.3: a Kill inside the process's own callback lets the callback finish, then it stops.
TEST(Kill, CurrentCallbackFinishesThenKill) {
    Fixture f;
    ProbeLog log;
    ProbeLog peer_log;
    const PID peer = f.node.spawn(probe(peer_log), {}, {}).value();
    const PID pid = f.node.spawn(probe(log), {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Do{[peer](LambdaActor& self) {
                                EXPECT_TRUE(self.process().node().kill(self.self()));
                                EXPECT_EQ(self.process().state(), ProcessState::Zombee);
                                // Still inside the callback: a send from a Zombee is not allowed
                                // (not alive).
                                EXPECT_EQ(self.process().send(peer, Text{"late"}).error(),
                                          Err::NotAllowed);
                                return ok();
                            }}));
    ASSERT_TRUE(f.node.send(pid, Text{"never"}));
    f.run();
    EXPECT_EQ(f.node.find(pid), nullptr);
    EXPECT_TRUE(log.seen.empty());
    EXPECT_EQ(*log.reason, Error::kill());
    EXPECT_EQ(f.events("drop").size(), 1U);
}

// §3.3: Kill of an unknown or already terminated PID gives ProcessUnknown.
TEST(Kill, UnknownOrDeadPidIsProcessUnknown) {
    Fixture f;
    ProbeLog log;
    const PID pid = f.node.spawn(probe(log), {}, {}).value();
    ASSERT_TRUE(f.node.kill(pid));
    EXPECT_EQ(f.node.kill(pid).error(), Err::ProcessUnknown);
    EXPECT_EQ(f.node.kill(PID{f.node.name(), 5555, 1}).error(), Err::ProcessUnknown);
}

// §3.3: Kill propagates reason kill to links and monitors.
TEST(Kill, PropagatesKillToConsumers) {
    Fixture f;
    ProbeLog log;
    ProbeLog m_log;
    const PID pid = f.node.spawn(probe(log), {}, {}).value();
    const PID m = f.node.spawn(probe(m_log, true), {}, {}).value();
    run_in(f, m, [pid](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(pid));
        EXPECT_TRUE(self.process().monitor(pid));
        return ok();
    });
    ASSERT_TRUE(f.node.kill(pid));
    f.run();
    ASSERT_EQ(m_log.all<MessageExitPID>().size(), 1U);
    ASSERT_EQ(m_log.all<MessageDownPID>().size(), 1U);
    EXPECT_EQ(m_log.all<MessageExitPID>().at(0).reason, Error::kill());
    EXPECT_EQ(m_log.all<MessageDownPID>().at(0).reason, Error::kill());
}

// §3.3: Node.SendExit has From = core PID and fails for unknown targets.
TEST(Kill, NodeSendExitComesFromCorePid) {
    Fixture f;
    ProbeLog log;
    const PID pid = f.node.spawn(probe(log, true), {}, {}).value();
    ProbeLog child_log;
    PID child;
    run_in(f, pid, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log, true), {}, {}).value();
        return ok();
    });
    ASSERT_TRUE(f.node.send_exit(child, Error::text("from node")));
    f.run();
    ASSERT_EQ(child_log.seen.size(), 1U);
    EXPECT_EQ(child_log.seen.at(0).from, f.node.core_pid());
    EXPECT_EQ(child_log.all<MessageExitPID>().at(0).pid, f.node.core_pid());
    EXPECT_EQ(f.node.send_exit(PID{f.node.name(), 5555, 1}, Error::normal()).error(),
              Err::ProcessUnknown);
}

} // namespace
} // namespace routesim::runtime
