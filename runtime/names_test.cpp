// Goal: the name registry follows Ergo (§2.2, §1.1, §3.2): one name per
// process, ErrTaken/ErrNotAllowed/ErrNameUnknown/ErrAtomTooLong, lookup at send time, names
// freed on termination.
// Method: probe actors register and unregister from their own callbacks; the node's
// registry queries and sends by name check the effect.
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

// §2.2: a process has at most one name; a second name or a name in use gives ErrTaken.
TEST(Names, RegisterIsTakenForSecondNameOrNameInUse) {
    Fixture f;
    ProbeLog a_log;
    ProbeLog b_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    const PID b = f.node.spawn(probe(b_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().register_name(Atom("alpha")));
        EXPECT_EQ(self.process().register_name(Atom("beta")).error(), Err::Taken);
        EXPECT_EQ(self.process().register_name(Atom("alpha")).error(), Err::Taken);
        return ok();
    });
    run_in(f, b, [](LambdaActor& self) {
        EXPECT_EQ(self.process().register_name(Atom("alpha")).error(), Err::Taken);
        return ok();
    });
    EXPECT_EQ(f.node.process_pid(Atom("alpha")).value(), a);
    EXPECT_EQ(f.node.find(a)->name(), Atom("alpha"));
    EXPECT_EQ(f.node.process_pid(Atom("beta")).error(), Err::ProcessUnknown);
}

// §2.2: RegisterName fails with NotAllowed during Init.
TEST(Names, RegisterDuringInitIsNotAllowed) {
    Fixture f;
    std::optional<SendResult> registered;
    auto factory = lambda_factory([&registered](LambdaActor& actor) {
        actor.on_init = [&registered](LambdaActor& self, const Args&) {
            registered = self.process().register_name(Atom("early"));
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    EXPECT_EQ(registered->error(), Err::NotAllowed);
    EXPECT_EQ(f.node.process_pid(Atom("early")).error(), Err::ProcessUnknown);
}

// §2.2: UnregisterName without a name gives NameUnknown; with one it frees the name and the
// process keeps running.
TEST(Names, UnregisterFreesNameAndProcessKeepsRunning) {
    Fixture f;
    ProbeLog a_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_EQ(self.process().unregister_name().error(), Err::NameUnknown);
        EXPECT_TRUE(self.process().register_name(Atom("alpha")));
        EXPECT_TRUE(self.process().unregister_name());
        EXPECT_TRUE(self.process().name().empty());
        EXPECT_EQ(self.process().unregister_name().error(), Err::NameUnknown);
        return ok();
    });
    EXPECT_NE(f.node.find(a), nullptr);
    EXPECT_EQ(f.node.process_pid(Atom("alpha")).error(), Err::ProcessUnknown);
    EXPECT_EQ(f.node.send(Atom("alpha"), Text{"x"}).error(), Err::ProcessUnknown);
    EXPECT_EQ(f.events("unregister").size(), 1U);
}

// §2.2: after an unregister the process may take another name.
TEST(Names, NewNameAfterUnregister) {
    Fixture f;
    ProbeLog a_log;
    const PID a = f.node.spawn(probe(a_log), {}, {}).value();
    run_in(f, a, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().register_name(Atom("first")));
        EXPECT_TRUE(self.process().unregister_name());
        EXPECT_TRUE(self.process().register_name(Atom("second")));
        return ok();
    });
    EXPECT_EQ(f.node.process_pid(Atom("second")).value(), a);
}

// §2.2: a by-name lookup happens at send time, so a reassigned name reaches the new owner.
TEST(Names, LookupAtSendTimeReachesNewOwner) {
    Fixture f;
    ProbeLog first_log;
    ProbeLog second_log;
    const PID first = f.node.spawn_register(Atom("svc"), probe(first_log), {}, {}).value();
    ASSERT_TRUE(f.node.send(Atom("svc"), Text{"one"}));
    f.run();
    run_in(f, first, [](LambdaActor&) { return stop(Error::normal()); });
    EXPECT_EQ(f.node.send(Atom("svc"), Text{"lost"}).error(), Err::ProcessUnknown);
    const PID second = f.node.spawn_register(Atom("svc"), probe(second_log), {}, {}).value();
    ASSERT_TRUE(f.node.send(Atom("svc"), Text{"two"}));
    f.run();
    ASSERT_EQ(first_log.all<Text>().size(), 1U);
    ASSERT_EQ(second_log.all<Text>().size(), 1U);
    EXPECT_EQ(second_log.all<Text>().at(0).value, "two");
    EXPECT_NE(first, second);
}

// §3.2: a terminated process's name is released before Terminate runs.
TEST(Names, ReleasedOnTermination) {
    Fixture f;
    std::optional<bool> registered_in_terminate;
    auto factory = lambda_factory([&registered_in_terminate](LambdaActor& actor) {
        actor.on_terminate = [&registered_in_terminate](LambdaActor& self, const Error&) {
            registered_in_terminate = self.process().node().process_pid(Atom("svc")).has_value();
        };
    });
    const PID pid = f.node.spawn_register(Atom("svc"), factory, {}, {}).value();
    ASSERT_TRUE(f.node.kill(pid));
    EXPECT_EQ(registered_in_terminate, std::optional<bool>(false));
    EXPECT_TRUE(f.node.registered().empty());
}

// §1.1: an Atom of more than 255 bytes fails with ErrAtomTooLong.
TEST(Names, AtomTooLong) {
    EXPECT_TRUE(make_atom(std::string(255, 'a')).has_value());
    EXPECT_EQ(make_atom(std::string(256, 'a')).error(), Err::AtomTooLong);
}

// §2.2: the registry lists names sorted, whatever the registration order.
TEST(Names, RegisteredIsSortedByName) {
    Fixture f;
    std::vector<ProbeLog> logs(3);
    const PID c = f.node.spawn_register(Atom("charlie"), probe(logs[0]), {}, {}).value();
    const PID a = f.node.spawn_register(Atom("alpha"), probe(logs[1]), {}, {}).value();
    const PID b = f.node.spawn_register(Atom("bravo"), probe(logs[2]), {}, {}).value();
    const auto listing = f.node.registered();
    ASSERT_EQ(listing.size(), 3U);
    EXPECT_EQ(listing[0], std::make_pair(Atom("alpha"), a));
    EXPECT_EQ(listing[1], std::make_pair(Atom("bravo"), b));
    EXPECT_EQ(listing[2], std::make_pair(Atom("charlie"), c));
}

// §2.1: sending to one's own name goes through the normal by-name path and records the
// name as the target.
TEST(Names, SendToOwnNameIsDelivered) {
    Fixture f;
    ProbeLog log;
    const PID pid = f.node.spawn_register(Atom("me"), probe(log), {}, {}).value();
    run_in(f, pid, [](LambdaActor& self) {
        EXPECT_TRUE(self.process().send(Atom("me"), Text{"hello"}));
        EXPECT_EQ(self.current().target_name, Atom());
        return ok();
    });
    ASSERT_EQ(log.all<Text>().size(), 1U);
    EXPECT_EQ(log.seen.at(0).from, pid);
}

// §2.2: a name registered with SpawnRegister is visible during the child's Init and a send
// by name during Init reaches the process after Init.
TEST(Names, SpawnRegisterNameVisibleDuringInit) {
    Fixture f;
    ProbeLog log;
    std::optional<SendResult> sent;
    auto factory = lambda_factory([&sent, &log](LambdaActor& actor) {
        actor.on_init = [&sent](LambdaActor& self, const Args&) {
            sent = self.process().node().send(Atom("early"), Text{"queued"});
            return ok();
        };
        actor.on_message = [&log](LambdaActor&, const PID& from, const Message& message) {
            log.seen.push_back(Seen{from, message});
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn_register(Atom("early"), factory, {}, {}));
    EXPECT_TRUE(sent->has_value());
    f.run();
    ASSERT_EQ(log.all<Text>().size(), 1U);
    EXPECT_EQ(log.all<Text>().at(0).value, "queued");
}

} // namespace
} // namespace routesim::runtime

namespace routesim::runtime {
namespace {

// §1.1: a PID prints as <CRC32 of the node name in upper-case hex.high.low>, the id split
// into two signed 32-bit halves (the CRC values are zlib's crc32 of the node names).
TEST(PidText, PrintsTheNodeCrcAndTheIdAsTwoSignedHalves) {
    const PID a{Atom("a@localhost"), 1001, 1};
    const PID b{Atom("b@localhost"), (std::uint64_t{7} << 32) | 0xffffffffU, 1};
    EXPECT_EQ(to_string(a), "<1CACE339.0.1001>");
    EXPECT_EQ(to_string(b), "<854E8538.7.-1>");
    EXPECT_EQ(to_string(a), "<1CACE339.0.1001>");
    EXPECT_EQ(to_string(Ref{Atom("b@localhost"), 5, 1}), "Ref#<854E8538.5>");
    EXPECT_EQ(to_string(PID{}), "");
}

} // namespace
} // namespace routesim::runtime
