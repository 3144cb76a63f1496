// Goal: a taken message is handled in its queue slot and stays valid for the whole callback,
// while queue lengths read meanwhile do not count it; a queue that grows under it (sends to
// oneself), a forward of it to oneself, and a termination or kill inside the callback leave it
// intact (runtime/detail/ring.hpp).
// Method: the Ring alone first, then actors that read their message after growing their own
// queue; payloads are heap-held Text, so a dangling read shows up (and under ASan, aborts).
#include <gtest/gtest.h>

#include "runtime/detail/ring.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

using TextRing = detail::Ring<std::string>;

TEST(RingTakeInPlace, TakenElementIsNotCountedAndItsSlotIsNotReused) {
    TextRing ring;
    TextRing::Buffer retired;
    for (const char* text : {"a", "b", "c"}) {
        ring.push_back(retired, std::string(text));
    }
    std::string& taken = ring.take_front();
    EXPECT_EQ(ring.size(), 2U);
    // Capacity is 4: "d" fills the last free slot; "e" must grow rather than reuse "a"'s slot.
    ring.push_back(retired, std::string("d"));
    EXPECT_EQ(retired.slots, nullptr);
    ring.push_back(retired, std::string("e"));
    EXPECT_NE(retired.slots, nullptr);
    EXPECT_EQ(taken, "a");
    std::vector<std::string> queued;
    ring.for_each([&queued](const std::string& text) { queued.push_back(text); });
    EXPECT_EQ(queued, (std::vector<std::string>{"b", "c", "d", "e"}));
    ring.release_taken(taken);
    TextRing::free_buffer(retired);
    EXPECT_EQ(retired.slots, nullptr);
}

TEST(RingTakeInPlace, GrowthWithoutATakeFreesTheOldBuffer) {
    TextRing ring;
    TextRing::Buffer retired;
    for (int i = 0; i < 9; i++) {
        ring.push_back(retired, std::to_string(i));
    }
    EXPECT_EQ(retired.slots, nullptr);
    std::string& taken = ring.take_front();
    EXPECT_EQ(taken, "0");
    ring.release_taken(taken);
    EXPECT_EQ(ring.size(), 8U);
}

TEST(TakeInPlace, MessageSurvivesSelfSendsThatGrowTheQueue) {
    Fixture f;
    std::vector<std::string> seen;
    std::vector<std::uint32_t> lengths;
    const Factory factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_message = [&](LambdaActor& self, const PID&, const Message& message) {
            const std::string value = message.get<Text>()->value;
            seen.push_back(value);
            if (value == "first") {
                for (int i = 0; i < 40; i++) {
                    const Text text{"self " + std::to_string(i)};
                    EXPECT_TRUE(self.process().send(self.self(), text));
                }
                // The queue grew from 4 to 64 slots under the message being handled.
                EXPECT_EQ(message.get<Text>()->value, "first");
                EXPECT_EQ(self.current().message.get<Text>()->value, "first");
                lengths.push_back(self.process().queue_length(Queue::Main));
            }
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"first"}));
    f.run();
    ASSERT_EQ(seen.size(), 41U);
    EXPECT_EQ(seen.back(), "self 39");
    EXPECT_EQ(lengths, (std::vector<std::uint32_t>{40}));
}

TEST(TakeInPlace, ForwardOfTheTakenMessageToOneselfCopiesIt) {
    Fixture f;
    std::vector<std::string> seen;
    const Factory factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_message = [&](LambdaActor& self, const PID&, const Message& message) {
            seen.push_back(message.get<Text>()->value);
            if (seen.size() == 1) {
                // Fill the queue to its capacity, then forward the message being handled: the
                // forward grows the queue while copying from the taken slot.
                for (int i = 0; i < 3; i++) {
                    EXPECT_TRUE(self.process().send(self.self(), Text{"filler"}));
                }
                EXPECT_TRUE(
                    self.process().forward(self.self(), self.current(), MessagePriority::Normal));
                EXPECT_EQ(self.process().queue_length(Queue::Main), 4U);
            }
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"original"}));
    f.run();
    EXPECT_EQ(seen,
              (std::vector<std::string>{"original", "filler", "filler", "filler", "original"}));
}

TEST(TakeInPlace, QueueLengthDuringAHandlerExcludesTheTakenMessage) {
    Fixture f;
    std::vector<std::uint32_t> lengths;
    const Factory factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_message = [&](LambdaActor& self, const PID&, const Message&) {
            lengths.push_back(self.process().queue_length(Queue::Main));
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    for (const char* text : {"a", "b", "c"}) {
        ASSERT_TRUE(f.node.send(pid, Text{text}));
    }
    f.run();
    EXPECT_EQ(lengths, (std::vector<std::uint32_t>{2, 1, 0}));
}

TEST(TakeInPlace, StopInsideAHandlerDropsOnlyTheQueuedMessages) {
    Fixture f;
    std::string last_read;
    const Factory factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_message = [&](LambdaActor& self, const PID&, const Message& message) {
            for (int i = 0; i < 5; i++) {
                EXPECT_TRUE(self.process().send(self.self(), Text{"later"}));
            }
            last_read = message.get<Text>()->value;
            return stop(Error::normal());
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"fatal"}));
    f.run();
    EXPECT_EQ(last_read, "fatal");
    EXPECT_EQ(f.node.find(pid), nullptr);
    const std::vector<sim::TraceRecord> takes = f.events("take");
    ASSERT_EQ(takes.size(), 1U);
    const std::vector<sim::TraceRecord> drops = f.events("drop");
    ASSERT_EQ(drops.size(), 5U);
    for (const sim::TraceRecord& drop : drops) {
        EXPECT_NE(drop.number("id"), takes[0].number("id"));
    }
}

TEST(TakeInPlace, KillOfOneselfInsideAHandlerKeepsTheMessageUntilItReturns) {
    Fixture f;
    std::string read_after_kill;
    const Factory factory = lambda_factory([&](LambdaActor& actor) {
        actor.on_message = [&](LambdaActor& self, const PID&, const Message& message) {
            for (int i = 0; i < 6; i++) {
                EXPECT_TRUE(self.process().send(self.self(), Text{"later"}));
            }
            EXPECT_TRUE(self.process().node().kill(self.self()));
            read_after_kill = message.get<Text>()->value;
            return ok();
        };
    });
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"victim"}));
    f.run();
    EXPECT_EQ(read_after_kill, "victim");
    EXPECT_EQ(f.node.find(pid), nullptr);
    EXPECT_EQ(f.events("drop").size(), 6U);
}

} // namespace
} // namespace routesim::runtime
