// Goal: a taken message is handled in its queue slot and stays valid for the whole callback,
// while queue lengths read meanwhile do not count it; a queue that grows under it (sends to
// oneself), a forward of it to oneself, and a termination or kill inside the callback leave it
// intact (runtime/detail/ring.hpp). The Ring grows by linking blocks: it never moves an element,
// never holds two copies of a queue, and gives a drained queue's blocks back.
// Method: the Ring alone first (order, addresses, moves and allocated slots as it grows,
// drains, cycles and clears), then actors that read their message after growing their own
// queue; payloads are heap-held Text, so a dangling read shows up (and under ASan, aborts).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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
    for (const char* text : {"a", "b", "c"}) {
        ring.push_back(std::string(text));
    }
    std::string& taken = ring.take_front();
    const std::string* where = &taken;
    EXPECT_EQ(ring.size(), 2U);
    // The first block has 4 slots: "d" fills it, the rest go to blocks linked after it.
    std::vector<std::string> expected = {"b", "c"};
    for (int i = 0; i < 100; i++) {
        expected.push_back("d" + std::to_string(i));
        ring.push_back(std::string(expected.back()));
    }
    EXPECT_EQ(&taken, where);
    EXPECT_EQ(taken, "a");
    std::vector<std::string> queued;
    ring.for_each([&queued](const std::string& text) { queued.push_back(text); });
    EXPECT_EQ(queued, expected);
    ring.release_taken(taken);
    EXPECT_EQ(ring.size(), 102U);
}

/// Counts the copies and moves of its values, to show that a queue moves none.
struct Counted {
    static inline int copies = 0;
    static inline int moves = 0;
    int value = 0;
    explicit Counted(int v) : value(v) {}
    Counted(const Counted& other) : value(other.value) { copies++; }
    Counted(Counted&& other) noexcept : value(other.value) { moves++; }
    Counted& operator=(const Counted&) = delete;
    Counted& operator=(Counted&&) = delete;
    ~Counted() = default;
};

TEST(Ring, GrowthKeepsTheOrderAndNeverMovesAnElement) {
    Counted::copies = 0;
    Counted::moves = 0;
    detail::Ring<Counted> ring;
    for (int i = 0; i < 1000; i++) {
        ring.emplace_back(i);
    }
    std::vector<const Counted*> addresses;
    ring.for_each([&addresses](const Counted& element) { addresses.push_back(&element); });
    for (int i = 1000; i < 5000; i++) {
        ring.emplace_back(i);
    }
    std::size_t at = 0;
    ring.for_each([&](const Counted& element) {
        if (at < addresses.size()) {
            EXPECT_EQ(&element, addresses[at]) << "element " << at << " moved";
        }
        at++;
    });
    EXPECT_EQ(at, 5000U);
    EXPECT_EQ(Counted::copies, 0);
    EXPECT_EQ(Counted::moves, 0);
    for (int i = 0; i < 5000; i++) {
        Counted& taken = ring.take_front();
        ASSERT_EQ(taken.value, i);
        ring.release_taken(taken);
    }
    EXPECT_TRUE(ring.empty());
}

TEST(Ring, NeverHoldsTwiceTheQueueAndGivesADrainedQueuesBlocksBack) {
    TextRing ring;
    EXPECT_EQ(ring.allocated_slots(), 0U); // nothing until the first push
    const std::uint32_t block = TextRing::block_capacity_max;
    for (std::uint32_t i = 0; i < 100'000; i++) {
        ring.push_back(std::to_string(i));
        // At most one block's slots beyond the queue (the doubling first blocks sum to less).
        ASSERT_LE(ring.allocated_slots(), ring.size() + 2 * block) << "after " << i;
    }
    for (std::uint32_t i = 0; i < 100'000; i++) {
        std::string& taken = ring.take_front();
        ASSERT_EQ(taken, std::to_string(i));
        ring.release_taken(taken);
        ASSERT_LE(ring.allocated_slots(), ring.size() + TextRing::spare_slots_max + 2 * block)
            << "after " << i;
    }
    // The front block and at most spare_slots_max slots of spares stay.
    EXPECT_LE(ring.allocated_slots(), block + TextRing::spare_slots_max);
}

TEST(Ring, AQueueRefilledInBurstsReusesItsBlocks) {
    TextRing ring;
    std::vector<std::uint32_t> slots;
    for (int burst = 0; burst < 4; burst++) {
        for (int i = 0; i < 1024; i++) {
            ring.push_back(std::to_string(i));
        }
        slots.push_back(ring.allocated_slots());
        for (int i = 0; i < 1024; i++) {
            std::string& taken = ring.take_front();
            ASSERT_EQ(taken, std::to_string(i));
            ring.release_taken(taken);
        }
        EXPECT_EQ(ring.allocated_slots(), slots.back()); // drained: every block kept as a spare
    }
    EXPECT_EQ(slots, std::vector<std::uint32_t>(4, slots.front()));
}

TEST(Ring, AQueueThatStaysShortCyclesThroughItsBlocksWithoutGrowing) {
    TextRing ring;
    for (int i = 0; i < 100; i++) {
        ring.push_back(std::to_string(i));
    }
    std::uint32_t most = 0;
    for (int i = 100; i < 100'000; i++) {
        std::string& taken = ring.take_front();
        ASSERT_EQ(taken, std::to_string(i - 100));
        ring.release_taken(taken);
        ring.push_back(std::to_string(i));
        if (i >= 10'000) {
            most = std::max(most, ring.allocated_slots());
        }
    }
    EXPECT_EQ(ring.size(), 100U);
    EXPECT_LE(most, 100 + 2 * TextRing::block_capacity_max);
}

TEST(Ring, AnEmptiedQueueStartsAgainAtItsFirstSlot) {
    TextRing ring;
    ring.push_back(std::string("a"));
    std::string& first = ring.take_front();
    const std::string* slot = &first;
    ring.release_taken(first);
    for (int i = 0; i < 1000; i++) { // one message in flight, as a ping-pong actor's
        ring.push_back(std::to_string(i));
        std::string& taken = ring.take_front();
        ASSERT_EQ(&taken, slot);
        ring.release_taken(taken);
    }
    EXPECT_EQ(ring.allocated_slots(), 4U);
}

TEST(Ring, ClearKeepsTheTakenElementAndLaterPushesPassIt) {
    TextRing ring;
    for (int i = 0; i < 300; i++) {
        ring.push_back(std::to_string(i));
    }
    for (int i = 0; i < 40; i++) { // the front block is then the fourth one (32 slots)
        std::string& taken = ring.take_front();
        ring.release_taken(taken);
    }
    std::string& taken = ring.take_front();
    EXPECT_EQ(taken, "40");
    ring.clear();
    EXPECT_TRUE(ring.empty());
    for (int i = 0; i < 100; i++) {
        ring.push_back(std::string("later ") + std::to_string(i));
    }
    EXPECT_EQ(taken, "40");
    ring.release_taken(taken);
    std::vector<std::string> queued;
    ring.for_each([&queued](const std::string& text) { queued.push_back(text); });
    ASSERT_EQ(queued.size(), 100U);
    EXPECT_EQ(queued.front(), "later 0");
    EXPECT_EQ(queued.back(), "later 99");
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
                // The queue linked blocks of 8, 16 and 32 slots under the message being handled.
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
