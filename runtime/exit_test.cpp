// Goal: termination follows Ergo (§3.2, §3.3, §4.3, §1.4): wrapped reasons
// for untrapped exits with one-level unwrap for consumers, trap-exit, the parent exception,
// the teardown order, dropped mailboxes, and exits lost to a full Urgent queue.
// Method: probe actors send exits from their own callbacks and record what they see; the
// trace shows the order of teardown steps.
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

/// Expects a process API call to succeed; the command goes on either way.
Status must(const SendResult& result) {
    EXPECT_TRUE(result.has_value());
    return ok();
}

// §3.2 (t005/t006): A sends SendExit(B, R). B's Terminate sees "<A>: R" wrapping R; B's
// monitors and linkers are told R itself.
TEST(Exit, UntrappedExitTerminatesWithWrappedReason) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    ProbeLog m_log;
    const Error custom = Error::text("custom reason");
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    const PID m = f.node.spawn(probe(m_log, true), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().monitor(b));
        EXPECT_TRUE(self.process().link(b));
        return ok();
    });
    run_in(f, a, [b, custom](LambdaActor& self) {
        EXPECT_TRUE(self.process().send_exit(b, custom));
        return ok();
    });
    ASSERT_TRUE(b_log.reason.has_value());
    EXPECT_TRUE(b_log.reason->is_wrapped());
    EXPECT_EQ(b_log.reason->message(), to_string(a) + ": custom reason");
    EXPECT_EQ(b_log.reason->unwrap(), custom);
    const auto downs = m_log.all<MessageDownPID>();
    const auto exits = m_log.all<MessageExitPID>();
    ASSERT_EQ(downs.size(), 1U);
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(downs.at(0).pid, b);
    EXPECT_EQ(downs.at(0).reason, custom);
    EXPECT_EQ(exits.at(0).reason, custom);
    EXPECT_NE(f.node.find(a), nullptr);
}

// §3.2: the propagated reason is unwrapped one level only.
TEST(Exit, PropagatedReasonUnwrapsOneLevelOnly) {
    Fixture f;
    ProbeLog b_log;
    ProbeLog m_log;
    const Error twice = Error::wrap("outer", Error::wrap("inner", Error::shutdown()));
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().monitor(b));
        return ok();
    });
    run_in(f, b, [twice](LambdaActor&) { return stop(twice); });
    ASSERT_EQ(m_log.all<MessageDownPID>().size(), 1U);
    EXPECT_EQ(m_log.all<MessageDownPID>().at(0).reason, Error::wrap("inner", Error::shutdown()));
    EXPECT_EQ(*b_log.reason, twice);
}

// §4.3: with trap-exit on, the exit arrives in HandleMessage as MessageExitPID and the actor
// keeps running.
TEST(Exit, TrapExitDeliversMessageExitPidToHandleMessage) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log, true), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().send_exit(b, Error::shutdown()));
        return ok();
    });
    EXPECT_NE(f.node.find(b), nullptr);
    const auto exits = b_log.all<MessageExitPID>();
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits.at(0).pid, a);
    EXPECT_EQ(exits.at(0).reason, Error::shutdown());
    EXPECT_EQ(b_log.seen.at(0).from, a);
    EXPECT_FALSE(b_log.reason.has_value());
}

// §4.3: an exit whose From is the actor's parent is never trapped, whatever the reason.
TEST(Exit, ExitFromParentIsNeverTrapped) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    const PID parent = f.node.spawn(probe(parent_log), {}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log, true), {}, {}).value();
        EXPECT_TRUE(self.process().send_exit(child, Error::normal()));
        return ok();
    });
    EXPECT_EQ(f.node.find(child), nullptr);
    EXPECT_TRUE(child_log.seen.empty());
    ASSERT_TRUE(child_log.reason.has_value());
    EXPECT_EQ(child_log.reason->message(), to_string(parent) + ": normal");
    EXPECT_EQ(child_log.reason->unwrap(), Error::normal());
}

// §4.3: the node's exit to a node-spawned actor comes from its parent (the core PID), so it
// is not trapped either.
TEST(Exit, NodeSendExitToNodeChildIsNotTrapped) {
    Fixture f;
    ProbeLog b_log;
    const PID b = f.node.spawn(probe(b_log, true), {}, {}).value();
    ASSERT_TRUE(f.node.send_exit(b, Error::text("bye")));
    f.run();
    EXPECT_EQ(f.node.find(b), nullptr);
    EXPECT_EQ(b_log.reason->message(), to_string(f.node.core_pid()) + ": bye");
}

// §2.4: exit signals that arrive while a call waits pile up and are handled after it.
TEST(Exit, ExitDuringCallIsHandledAfterTheCall) {
    Fixture f;
    ProbeLog server_log;
    ProbeLog b_log;
    std::vector<std::string> events;
    const PID server = f.node.spawn(probe(server_log), {}, {}).value(); // never replies
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    ASSERT_TRUE(f.node.send(b, Do{[server, &events](LambdaActor& self) {
                                EXPECT_TRUE(self.process().call(
                                    server, Text{"req"}, {}, [&events, &self](CallResult r) {
                                        events.push_back(r ? "ok" : r.error().name());
                                        events.push_back(sim::format_instant(self.process().now()));
                                        return ok();
                                    }));
                                return ok();
                            }}));
    f.run(sim::Instant::zero() + sim::Duration::seconds(1));
    ASSERT_TRUE(f.node.send_exit(b, Error::text("bye")));
    f.run(sim::Instant::zero() + sim::Duration::seconds(2));
    EXPECT_NE(f.node.find(b), nullptr);
    f.run();
    EXPECT_EQ(events, (std::vector<std::string>{"gen.ErrTimeout", "5s"}));
    EXPECT_EQ(f.node.find(b), nullptr);
    EXPECT_EQ(b_log.reason->unwrap(), Error::text("bye"));
}

// §3.2: teardown order: exit (state Terminated), dropped mailbox, link exits, monitor downs,
// the name released and name consumers told, then Terminate, in which the process can no
// longer be found (t005).
TEST(Exit, TeardownOrderLinksMonitorsNameThenTerminate) {
    Fixture f;
    ProbeLog linker_log;
    ProbeLog monitor_log;
    ProbeLog name_log;
    const PID linker = f.node.spawn(probe(linker_log, true), {}, {}).value();
    const PID monitor = f.node.spawn(probe(monitor_log), {}, {}).value();
    const PID namer = f.node.spawn(probe(name_log, true), {}, {}).value();
    std::vector<std::string> inside_terminate;
    auto target_factory = lambda_factory([&inside_terminate](LambdaActor& actor) {
        actor.on_terminate = [&inside_terminate](LambdaActor& self, const Error&) {
            Node& node = self.process().node();
            inside_terminate.push_back(node.find(self.self()) == nullptr ? "pid-gone"
                                                                         : "pid-found");
            inside_terminate.push_back(node.find(Atom("target")) == nullptr ? "name-gone"
                                                                            : "name-found");
            inside_terminate.push_back(node.process_pid(Atom("target")) ? "registered"
                                                                        : "unregistered");
            self.process().log("info", "terminate");
        };
    });
    const PID target = f.node.spawn_register(Atom("target"), target_factory, {}, {}).value();
    run_in(f, monitor,
           [target](LambdaActor& self) { return must(self.process().monitor(target)); });
    run_in(f, namer, [](LambdaActor& self) { return must(self.process().link(Atom("target"))); });
    run_in(f, linker, [target](LambdaActor& self) { return must(self.process().link(target)); });
    const std::uint64_t before = f.world.trace().count();
    ASSERT_TRUE(f.node.kill(target));
    std::vector<std::string> steps;
    for (const auto& record : f.memory.records()) {
        if (record.seq < before) {
            continue;
        }
        if (record.kind == "send") {
            steps.push_back("send:" + std::to_string(record.number("to")));
        } else if (record.kind == "kill" || record.kind == "exit" || record.kind == "unregister" ||
                   record.kind == "log") {
            steps.push_back(record.kind);
        }
    }
    const auto to = [](const PID& pid) { return "send:" + std::to_string(pid.id); };
    EXPECT_EQ(steps, (std::vector<std::string>{"kill", "exit", to(linker), to(monitor),
                                               "unregister", to(namer), "log"}));
    EXPECT_EQ(inside_terminate,
              (std::vector<std::string>{"pid-gone", "name-gone", "unregistered"}));
}

// §3.2: messages left in a terminated process's mailbox are discarded (trace `drop`).
TEST(Exit, QueuedMessagesAreDroppedOnTermination) {
    Fixture f;
    ProbeLog b_log;
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    ASSERT_TRUE(f.node.send(b, Do{[](LambdaActor&) { return stop(Error::text("x")); }}));
    ASSERT_TRUE(f.node.send(b, Text{"1"}));
    ASSERT_TRUE(f.node.send(b, Text{"2"}));
    f.run();
    EXPECT_TRUE(b_log.seen.empty());
    const auto drops = f.events("drop");
    ASSERT_EQ(drops.size(), 2U);
    EXPECT_EQ(drops.at(0).text("reason"), "terminated");
    EXPECT_LT(drops.at(0).number("id"), drops.at(1).number("id"));
}

// §1.4: an exit pushed into a full Urgent queue is dropped: a link silently never fires
// (trace signal_lost), while an explicit SendExit returns ProcessMailboxFull.
TEST(Exit, ExitIntoFullUrgentQueueIsLostForLinks) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), ProcessOptions{.mailbox_size = 1}, {}).value();
    run_in(f, b, [a](LambdaActor& self) { return must(self.process().link(a)); });
    ASSERT_TRUE(f.node.send(b, Text{"urgent"}, MessagePriority::Max)); // Urgent now full
    ASSERT_TRUE(f.node.kill(a));
    EXPECT_EQ(f.node.send_exit(b, Error::text("explicit")).error(), Err::ProcessMailboxFull);
    f.run();
    EXPECT_NE(f.node.find(b), nullptr);
    ASSERT_EQ(b_log.seen.size(), 1U);
    EXPECT_EQ(b_log.seen.at(0).message.get<Text>()->value, "urgent");
    const auto lost = f.events("signal_lost");
    ASSERT_EQ(lost.size(), 1U);
    EXPECT_EQ(lost.at(0).number("from"), static_cast<std::int64_t>(a.id));
    EXPECT_EQ(lost.at(0).number("to"), static_cast<std::int64_t>(b.id));
}

// §3.2, §4.2: a callback that throws terminates with Panic; consumers are told Panic.
TEST(Exit, PanicPropagatesPanic) {
    Fixture f;
    ProbeLog b_log;
    ProbeLog m_log;
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) { return must(self.process().monitor(b)); });
    run_in(f, b, [](LambdaActor&) -> Status { throw std::runtime_error("boom"); });
    EXPECT_EQ(*b_log.reason, Error::panic());
    ASSERT_EQ(m_log.all<MessageDownPID>().size(), 1U);
    EXPECT_EQ(m_log.all<MessageDownPID>().at(0).reason, Error::panic());
}

// §3.3: SendExit from a process: NotAllowed to oneself, one's parent or one's leader;
// ProcessUnknown for an unknown target.
TEST(Exit, SendExitToSelfParentOrLeaderIsNotAllowed) {
    Fixture f;
    ProbeLog parent_log;
    ProbeLog child_log;
    const PID parent = f.node.spawn(probe(parent_log), {}, {}).value();
    PID child;
    run_in(f, parent, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log), {}, {}).value();
        return ok();
    });
    const PID ghost{f.node.name(), 6666, 1};
    run_in(f, child, [parent, ghost, &f](LambdaActor& self) {
        EXPECT_EQ(self.process().parent(), parent);
        EXPECT_EQ(self.process().leader(), f.node.core_pid());
        EXPECT_EQ(self.process().send_exit(self.self(), Error::normal()).error(), Err::NotAllowed);
        EXPECT_EQ(self.process().send_exit(parent, Error::normal()).error(), Err::NotAllowed);
        EXPECT_EQ(self.process().send_exit(f.node.core_pid(), Error::normal()).error(),
                  Err::NotAllowed);
        EXPECT_EQ(self.process().send_exit(ghost, Error::normal()).error(), Err::ProcessUnknown);
        return ok();
    });
    EXPECT_NE(f.node.find(parent), nullptr);
    EXPECT_NE(f.node.find(child), nullptr);
}

// §3.3: SendExit needs Running/WaitResponse; during Init it is NotAllowed.
TEST(Exit, SendExitDuringInitIsNotAllowed) {
    Fixture f;
    ProbeLog b_log;
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    std::optional<SendResult> sent;
    auto factory = lambda_factory([b, &sent](LambdaActor& actor) {
        actor.on_init = [b, &sent](LambdaActor& self, const Args&) {
            sent = self.process().send_exit(b, Error::normal());
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    EXPECT_EQ(sent->error(), Err::NotAllowed);
}

// §3.6: Node::stop sends every process a Shutdown exit from its parent, which is never
// trapped: everything terminates with "<parent>: shutdown".
TEST(Exit, NodeStopSendsShutdownFromTheParent) {
    Fixture f;
    ProbeLog top_log;
    ProbeLog child_log;
    const PID top = f.node.spawn(probe(top_log, true), {}, {}).value();
    PID child;
    run_in(f, top, [&child, &child_log](LambdaActor& self) {
        child = self.process().spawn(probe(child_log, true), {}, {}).value();
        return ok();
    });
    f.node.stop();
    f.run();
    EXPECT_EQ(f.node.process_count(), 0U);
    EXPECT_EQ(top_log.reason->message(), to_string(f.node.core_pid()) + ": shutdown");
    EXPECT_EQ(child_log.reason->unwrap(), Error::shutdown());
    EXPECT_TRUE(child_log.reason->is_clean());
    EXPECT_EQ(child_log.reason->message(), to_string(top) + ": shutdown");
}

// An injected crash (Node::watch_takes): a watched process asks the take-panic hook at each
// take; a yes is a panic in place of the item (§3.2: terminate with Panic, logged like a
// callback panic), the behaviour never sees the item, and an unwatched process is not asked.
TEST(TakeWatch, WatchedProcessPanicsAtTheTakeTheHookPicks) {
    Fixture f;
    int handled = 0;
    std::vector<PID> asked;
    f.node.set_take_panic_hook([&asked](const PID& pid) {
        asked.push_back(pid);
        return asked.size() == 2; // the second take asked about
    });
    const auto factory = lambda_factory([&handled](LambdaActor& self) {
        self.on_message = [&handled](LambdaActor&, const PID&, const Message&) {
            handled++;
            return ok();
        };
    });
    const PID watched = f.node.spawn(factory, {}, {}).value();
    const PID other = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.watch_takes(watched, true));
    for (int i = 0; i < 3; i++) {
        ASSERT_TRUE(f.node.send(other, Text{"x"}));
        ASSERT_TRUE(f.node.send(watched, Text{"x"}));
    }
    f.run();
    EXPECT_EQ(handled, 3 + 1); // other: 3; watched: the first only
    ASSERT_EQ(asked.size(), 2U);
    EXPECT_EQ(asked[0], watched);
    EXPECT_EQ(asked[1], watched);
    EXPECT_EQ(f.node.find(watched), nullptr);
    const auto exits = f.events("exit");
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits[0].number("pid"), static_cast<std::int64_t>(watched.id));
    EXPECT_EQ(exits[0].text("reason"), "panic");
    const auto logs = f.events("log");
    ASSERT_FALSE(logs.empty());
    EXPECT_EQ(logs.back().text("text"), "panic in callback");
    // The third message died with the process (§3.2).
    EXPECT_EQ(f.events("drop").size(), 1U);
    EXPECT_EQ(f.node.watch_takes(watched, true).error(), Err::ProcessUnknown);
}

// A planned take.panic fault is a panic in the callback that would take the item, so it only
// ever fires at a message or a call: an exit signal is handled by the runtime, not by user
// code, and still terminates the linker with its own reason (§3.2).
TEST(TakePanicFault, NeverFiresAtAnExitSignal) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, b, [a](LambdaActor& self) { return must(self.process().link(a)); });
    sim::FaultPlan& plan = f.world.faults();
    plan.add_rule(sim::FaultRule{.site = "take.panic", .probability_ppb = 1'000'000'000});
    ASSERT_TRUE(f.node.kill(a));
    f.run();
    ASSERT_TRUE(b_log.reason.has_value());
    EXPECT_EQ(b_log.reason->unwrap(), Error::kill());
    EXPECT_EQ(plan.occurrences(plan.site("take.panic")), 0U);
    EXPECT_TRUE(f.events("fault").empty());
}

} // namespace
} // namespace routesim::runtime
