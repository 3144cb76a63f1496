// Goal: links and monitors follow Ergo (§3.4, §2.2): one-way links, exit
// signals and down notices with their From and queue, one-shot relations, the error values of
// link/unlink/monitor/demonitor, and name links that fire on termination or unregister.
// Method: probe actors run link commands inside their own callbacks and record what they
// take; queues are read from the trace's take events.
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

/// Makes `pid` terminate with `reason` from inside its own callback.
void stop_with(Fixture& f, const PID& pid, Error reason) {
    run_in(f, pid, [reason](LambdaActor&) { return stop(reason); });
}

// §3.4: A.Link(B) makes A a consumer: B's death sends A MessageExitPID{B, reason} from B.
TEST(Link, TargetDeathSendsExitToConsumer) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log, true), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(b));
        return ok();
    });
    stop_with(f, b, Error::text("gone"));
    const auto exits = a_log.all<MessageExitPID>();
    ASSERT_EQ(exits.size(), 1U);
    EXPECT_EQ(exits.at(0).pid, b);
    EXPECT_EQ(exits.at(0).reason, Error::text("gone"));
    EXPECT_EQ(a_log.seen.at(0).from, b);
    EXPECT_NE(f.node.find(a), nullptr);
}

// §3.4: links are one-directional: the consumer's death does not affect the target.
TEST(Link, IsOneWayConsumerDeathLeavesTargetAlone) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log, true), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(b));
        return ok();
    });
    stop_with(f, a, Error::text("gone"));
    EXPECT_EQ(f.node.find(a), nullptr);
    EXPECT_NE(f.node.find(b), nullptr);
    EXPECT_TRUE(b_log.seen.empty());
}

// §3.4, §4.3: an untrapping consumer terminates on the exit signal.
TEST(Link, UntrappedConsumerDiesWithTarget) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(b));
        return ok();
    });
    ASSERT_TRUE(f.node.kill(b));
    f.run();
    EXPECT_EQ(f.node.find(a), nullptr);
    ASSERT_TRUE(a_log.reason.has_value());
    EXPECT_EQ(a_log.reason->unwrap(), Error::kill());
}

// §3.4, §1.3: a monitor's Down is a regular message in the System queue: it is taken before
// Main messages that were queued earlier, and never terminates the receiver.
TEST(Monitor, DownGoesToSystemQueueBeforeMain) {
    Fixture f;
    ProbeLog m_log;
    ProbeLog b_log;
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().monitor(b));
        return ok();
    });
    ASSERT_TRUE(f.node.send(m, Text{"main-1"}));
    ASSERT_TRUE(f.node.send(m, Text{"main-2"}));
    ASSERT_TRUE(f.node.kill(b)); // sleeping: torn down at once, the Down is queued now
    f.run();
    ASSERT_EQ(m_log.seen.size(), 3U);
    const MessageDownPID* down = m_log.seen.at(0).message.get<MessageDownPID>();
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(down->pid, b);
    EXPECT_EQ(down->reason, Error::kill());
    EXPECT_EQ(m_log.seen.at(1).message.get<Text>()->value, "main-1");
    EXPECT_NE(f.node.find(m), nullptr);
    bool found_take = false;
    for (const auto& take : f.events("take")) {
        if (take.number("from") == static_cast<std::int64_t>(b.id)) {
            EXPECT_EQ(take.number("queue"), static_cast<std::int64_t>(Queue::System));
            EXPECT_EQ(take.number("type"), static_cast<std::int64_t>(MailboxType::Regular));
            found_take = true;
        }
    }
    EXPECT_TRUE(found_take);
}

// §3.4: monitors never terminate the receiver, even without trap-exit, for any reason.
TEST(Monitor, DownNeverTerminatesReceiver) {
    Fixture f;
    ProbeLog m_log;
    ProbeLog b_log;
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().monitor(b));
        return ok();
    });
    stop_with(f, b, Error::panic());
    EXPECT_NE(f.node.find(m), nullptr);
    ASSERT_EQ(m_log.all<MessageDownPID>().size(), 1U);
    EXPECT_EQ(m_log.all<MessageDownPID>().at(0).reason, Error::panic());
}

// §3.4: every relation is one-shot: a name link fires once, then a new owner of the name
// dying tells nobody.
TEST(Link, IsOneShot) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    ProbeLog c_log;
    const PID a = f.node.spawn(probe(a_log, true), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("svc"), probe(b_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(Atom("svc")));
        EXPECT_TRUE(self.process().monitor(Atom("svc")));
        return ok();
    });
    stop_with(f, b, Error::text("first"));
    const PID c = f.node.spawn_register(Atom("svc"), probe(c_log), {}, {}).value();
    stop_with(f, c, Error::text("second"));
    EXPECT_EQ(a_log.all<MessageExitProcessID>().size(), 1U);
    EXPECT_EQ(a_log.all<MessageDownProcessID>().size(), 1U);
    EXPECT_EQ(a_log.all<MessageExitProcessID>().at(0).reason, Error::text("first"));
}

// §3.4: a fired PID monitor is gone: demonitoring it afterwards finds nothing.
TEST(Monitor, IsOneShot) {
    Fixture f;
    ProbeLog m_log;
    ProbeLog b_log;
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().monitor(b));
        return ok();
    });
    stop_with(f, b, Error::normal());
    std::optional<SendResult> demonitored;
    run_in(f, m, [b, &demonitored](LambdaActor& self) {
        demonitored = self.process().demonitor(b);
        return ok();
    });
    ASSERT_TRUE(demonitored.has_value());
    EXPECT_FALSE(demonitored->has_value());
    EXPECT_EQ(m_log.all<MessageDownPID>().size(), 1U);
}

// §3.4: a duplicate relation gives TargetExist; a link and a monitor are distinct relations.
TEST(Link, DuplicateIsTargetExist) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("b"), probe(b_log), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(b));
        EXPECT_EQ(self.process().link(b).error(), Err::TargetExist);
        EXPECT_TRUE(self.process().monitor(b));
        EXPECT_EQ(self.process().monitor(b).error(), Err::TargetExist);
        EXPECT_TRUE(self.process().link(Atom("b")));
        EXPECT_EQ(self.process().link(Atom("b")).error(), Err::TargetExist);
        EXPECT_TRUE(self.process().monitor(Atom("b")));
        EXPECT_EQ(self.process().monitor(Atom("b")).error(), Err::TargetExist);
        return ok();
    });
    EXPECT_EQ(f.events("link").size(), 4U);
}

// §3.4: unlink/demonitor of a relation that does not exist gives TargetUnknown.
TEST(Link, UnlinkUnknownIsTargetUnknown) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("b"), probe(b_log), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_EQ(self.process().unlink(b).error(), Err::TargetUnknown);
        EXPECT_EQ(self.process().demonitor(b).error(), Err::TargetUnknown);
        EXPECT_EQ(self.process().unlink(Atom("b")).error(), Err::TargetUnknown);
        EXPECT_TRUE(self.process().monitor(b));
        // A monitor is not a link.
        EXPECT_EQ(self.process().unlink(b).error(), Err::TargetUnknown);
        EXPECT_TRUE(self.process().demonitor(b));
        EXPECT_EQ(self.process().demonitor(b).error(), Err::TargetUnknown);
        return ok();
    });
}

// §3.4: after unlink/demonitor the target's death tells the former consumer nothing.
TEST(Link, UnlinkStopsNotification) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, a, [b](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(b));
        EXPECT_TRUE(self.process().monitor(b));
        EXPECT_TRUE(self.process().unlink(b));
        EXPECT_TRUE(self.process().demonitor(b));
        return ok();
    });
    stop_with(f, b, Error::text("gone"));
    EXPECT_NE(f.node.find(a), nullptr);
    EXPECT_TRUE(a_log.seen.empty());
}

// §3.4: linking oneself (own PID or own name) is NotAllowed.
TEST(Link, SelfIsNotAllowed) {
    Fixture f;
    ProbeLog a_log;
    const PID a = f.node.spawn_register(Atom("me"), probe(a_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_EQ(self.process().link(self.self()).error(), Err::NotAllowed);
        EXPECT_EQ(self.process().link(Atom("me")).error(), Err::NotAllowed);
        return ok();
    });
    EXPECT_TRUE(f.events("link").empty());
}

// §3.4: an unknown PID or name gives ProcessUnknown.
TEST(Link, UnknownTargetIsProcessUnknown) {
    Fixture f;
    ProbeLog a_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID ghost{f.node.name(), 7777, 1};
    run_in(f, a, [ghost](LambdaActor& self) {
        EXPECT_EQ(self.process().link(ghost).error(), Err::ProcessUnknown);
        EXPECT_EQ(self.process().monitor(ghost).error(), Err::ProcessUnknown);
        EXPECT_EQ(self.process().link(Atom("ghost")).error(), Err::ProcessUnknown);
        EXPECT_EQ(self.process().monitor(Atom("ghost")).error(), Err::ProcessUnknown);
        return ok();
    });
}

// §1.2: Link* and Monitor* need Running/WaitResponse; during Init they are NotAllowed.
TEST(Link, NotAllowedDuringInit) {
    Fixture f;
    ProbeLog b_log;
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    std::optional<SendResult> linked;
    std::optional<SendResult> monitored;
    auto factory = lambda_factory([b, &linked, &monitored](LambdaActor& actor) {
        actor.on_init = [b, &linked, &monitored](LambdaActor& self, const Args&) {
            linked = self.process().link(b);
            monitored = self.process().monitor(b);
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    EXPECT_EQ(linked->error(), Err::NotAllowed);
    EXPECT_EQ(monitored->error(), Err::NotAllowed);
}

// §3.4: a name link fires MessageExitProcessID from the core PID when the owner terminates.
TEST(Link, ByNameFiresExitProcessIDFromCorePid) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log, true), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("svc"), probe(b_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(Atom("svc")));
        return ok();
    });
    stop_with(f, b, Error::text("down"));
    ASSERT_EQ(a_log.seen.size(), 1U);
    EXPECT_EQ(a_log.seen.at(0).from, f.node.core_pid());
    const MessageExitProcessID* exit = a_log.seen.at(0).message.get<MessageExitProcessID>();
    ASSERT_NE(exit, nullptr);
    EXPECT_EQ(exit->process_id, (ProcessID{Atom("svc"), f.node.name()}));
    EXPECT_EQ(exit->reason, Error::text("down"));
}

// §2.2, §3.4: unregistering a name sends name linkers an exit with ErrUnregistered and name
// monitors a Down with ErrUnregistered; the owner keeps running.
TEST(Link, ByNameUnregisterSendsUnregistered) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log, true), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("svc"), probe(b_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(Atom("svc")));
        EXPECT_TRUE(self.process().monitor(Atom("svc")));
        return ok();
    });
    run_in(f, b, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().unregister_name());
        return ok();
    });
    EXPECT_NE(f.node.find(b), nullptr);
    const auto exits = a_log.all<MessageExitProcessID>();
    const auto downs = a_log.all<MessageDownProcessID>();
    ASSERT_EQ(exits.size(), 1U);
    ASSERT_EQ(downs.size(), 1U);
    EXPECT_EQ(exits.at(0).reason, Error(Err::Unregistered));
    EXPECT_EQ(downs.at(0).reason, Error(Err::Unregistered));
    EXPECT_EQ(downs.at(0).process_id.name, Atom("svc"));
    EXPECT_EQ(a_log.seen.at(0).from, f.node.core_pid());
    // The exit (Urgent) is taken before the down (System).
    EXPECT_TRUE(a_log.seen.at(0).message.is<MessageExitProcessID>());
}

// §3.4: a name link without trap-exit terminates the consumer, wrapped with the ProcessID.
TEST(Link, ByNameUntrappedTerminatesWithProcessIdOrigin) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("svc"), probe(b_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().link(Atom("svc")));
        return ok();
    });
    stop_with(f, b, Error::text("down"));
    ASSERT_TRUE(a_log.reason.has_value());
    EXPECT_TRUE(a_log.reason->is_wrapped());
    EXPECT_EQ(a_log.reason->message(), to_string(ProcessID{Atom("svc"), f.node.name()}) + ": down");
    EXPECT_EQ(a_log.reason->unwrap(), Error::text("down"));
}

// §3.4: MonitorPID of a process that is already gone fails (ProcessUnknown once it left the
// table).
TEST(Monitor, DeadTargetFails) {
    Fixture f;
    ProbeLog m_log;
    ProbeLog b_log;
    const PID m = f.node.spawn(probe(m_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    ASSERT_TRUE(f.node.kill(b));
    run_in(f, m, [b](LambdaActor& self) {
        EXPECT_EQ(self.process().monitor(b).error(), Err::ProcessUnknown);
        EXPECT_EQ(self.process().link(b).error(), Err::ProcessUnknown);
        return ok();
    });
}

// §3.2: consumers are told in creation order, links before monitors.
TEST(Link, ConsumersNotifiedInCreationOrder) {
    Fixture f;
    std::vector<ProbeLog> logs(4);
    std::vector<PID> consumers;
    for (ProbeLog& log : logs) {
        consumers.push_back(f.node.spawn(probe(log, true), {}, {}).value());
    }
    ProbeLog b_log;
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    // Creation order: monitor(0), link(1), monitor(2), link(3).
    for (std::size_t i = 0; i < consumers.size(); i++) {
        run_in(f, consumers[i], [b, i](LambdaActor& self) {
            EXPECT_TRUE(i % 2 == 0 ? self.process().monitor(b) : self.process().link(b));
            return ok();
        });
    }
    const std::uint64_t before = f.world.trace().count();
    stop_with(f, b, Error::text("x"));
    std::vector<std::int64_t> order;
    for (const auto& record : f.memory.records()) {
        if (record.seq >= before && record.kind == "send" &&
            record.number("from") == static_cast<std::int64_t>(b.id)) {
            order.push_back(record.number("to"));
        }
    }
    const auto id = [&](std::size_t i) { return static_cast<std::int64_t>(consumers[i].id); };
    EXPECT_EQ(order, (std::vector<std::int64_t>{id(1), id(3), id(0), id(2)}));
}

} // namespace
} // namespace routesim::runtime
