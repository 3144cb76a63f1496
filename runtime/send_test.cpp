// Goal: sends are synchronous enqueues with Ergo's errors, queues drain in Ergo's order, and
// messages of one sender to one receiver are taken in order (§1.4, §2.1).
// Method: small actors that record what they take; the trace is checked where order matters.
#include <gtest/gtest.h>

#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

Factory recorder(std::vector<std::string>& seen) {
    return lambda_factory([&seen](LambdaActor& actor) {
        actor.on_message = [&seen](LambdaActor&, const PID&, const Message& message) {
            seen.push_back(message.get<Text>()->value);
            return ok();
        };
    });
}

TEST(Send, DeliversInOrderFromOneSender) {
    Fixture f;
    std::vector<std::string> seen;
    const PID target = f.node.spawn(recorder(seen), {}, {}).value();
    for (const char* text : {"a", "b", "c"}) {
        ASSERT_TRUE(f.node.send(target, Text{text}));
    }
    f.run();
    EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Send, FirstPidIs1001) {
    Fixture f;
    std::vector<std::string> seen;
    const PID pid = f.node.spawn(recorder(seen), {}, {}).value();
    EXPECT_EQ(pid.id, 1001U);
    EXPECT_EQ(f.node.spawn(recorder(seen), {}, {}).value().id, 1002U);
}

TEST(Send, UnknownTargetFailsAtOnce) {
    Fixture f;
    EXPECT_EQ(f.node.send(PID{f.node.name(), 4242, 1}, Text{"x"}).error(), Err::ProcessUnknown);
    EXPECT_EQ(f.node.send(Atom("nobody"), Text{"x"}).error(), Err::ProcessUnknown);
    ASSERT_EQ(f.events("send_failed").size(), 2U);
}

TEST(Send, MailboxLimitIsPerQueue) {
    Fixture f;
    std::vector<std::string> seen;
    const PID target = f.node.spawn(recorder(seen), ProcessOptions{.mailbox_size = 2}, {}).value();
    EXPECT_TRUE(f.node.send(target, Text{"1"}));
    EXPECT_TRUE(f.node.send(target, Text{"2"}));
    EXPECT_EQ(f.node.send(target, Text{"3"}).error(), Err::ProcessMailboxFull);
    // The System queue has its own cap of 2.
    EXPECT_TRUE(f.node.send(target, Text{"h1"}, MessagePriority::High));
    EXPECT_TRUE(f.node.send(target, Text{"h2"}, MessagePriority::High));
    EXPECT_EQ(f.node.send(target, Text{"h3"}, MessagePriority::High).error(),
              Err::ProcessMailboxFull);
    f.run();
    EXPECT_EQ(seen, (std::vector<std::string>{"h1", "h2", "1", "2"}));
}

TEST(Send, StrictPriorityDrainOrder) {
    Fixture f;
    std::vector<std::string> seen;
    const PID target = f.node.spawn(recorder(seen), {}, {}).value();
    ASSERT_TRUE(f.node.send(target, Text{"normal"}));
    ASSERT_TRUE(f.node.send(target, Text{"high"}, MessagePriority::High));
    ASSERT_TRUE(f.node.send(target, Text{"max"}, MessagePriority::Max));
    f.run();
    EXPECT_EQ(seen, (std::vector<std::string>{"max", "high", "normal"}));
}

TEST(Send, ByNameReachesTheRegisteredProcess) {
    Fixture f;
    std::vector<std::string> seen;
    ASSERT_TRUE(f.node.spawn_register(Atom("echo"), recorder(seen), {}, {}));
    ASSERT_TRUE(f.node.send(Atom("echo"), Text{"hi"}));
    f.run();
    EXPECT_EQ(seen, (std::vector<std::string>{"hi"}));
    EXPECT_EQ(f.node.process_pid(Atom("echo")).value().id, 1001U);
}

TEST(Send, OneMessagePerStep) {
    Fixture f;
    std::vector<std::string> seen_a;
    std::vector<std::string> seen_b;
    const PID a = f.node.spawn(recorder(seen_a), {}, {}).value();
    const PID b = f.node.spawn(recorder(seen_b), {}, {}).value();
    ASSERT_TRUE(f.node.send(a, Text{"a1"}));
    ASSERT_TRUE(f.node.send(a, Text{"a2"}));
    ASSERT_TRUE(f.node.send(b, Text{"b1"}));
    f.run();
    // FIFO: a takes one message and goes to the back of the runnable queue behind b.
    std::vector<std::uint64_t> takers;
    for (const auto& take : f.events("take")) {
        takers.push_back(static_cast<std::uint64_t>(take.number("pid")));
    }
    EXPECT_EQ(takers, (std::vector<std::uint64_t>{a.id, b.id, a.id}));
}

TEST(Send, SelfSendDuringInitIsHandledAfterInit) {
    Fixture f;
    std::vector<std::string> seen;
    auto factory = lambda_factory([&seen](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            EXPECT_TRUE(self.process().send(self.self(), Text{"from-init"}));
            return ok();
        };
        actor.on_message = [&seen](LambdaActor&, const PID&, const Message& message) {
            seen.push_back(message.get<Text>()->value);
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    f.run();
    EXPECT_EQ(seen, (std::vector<std::string>{"from-init"}));
}

TEST(Send, ThrowingCallbackTerminatesWithPanic) {
    Fixture f;
    std::string reason;
    auto factory = lambda_factory([&reason](LambdaActor& actor) {
        actor.on_message = [](LambdaActor&, const PID&, const Message&) -> Status {
            throw std::runtime_error("boom");
        };
        actor.on_terminate = [&reason](LambdaActor&, const Error& error) {
            reason = error.message();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"x"}));
    f.run();
    EXPECT_EQ(reason, "panic");
    EXPECT_EQ(f.node.find(pid), nullptr);
}

} // namespace
} // namespace routesim::runtime
