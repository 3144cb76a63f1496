// Goal: the event queue has a total order: due time, then insertion sequence.
// Method: interleaved pushes with equal and different due times.
#include "sim/event_queue.hpp"

#include <gtest/gtest.h>

namespace routesim::sim {
namespace {

TEST(EventQueue, PopsEarliestDueFirst) {
    EventQueue<int> queue;
    queue.push(Instant::from_ns(30), 3);
    queue.push(Instant::from_ns(10), 1);
    queue.push(Instant::from_ns(20), 2);
    EXPECT_EQ(queue.pop().payload, 1);
    EXPECT_EQ(queue.pop().payload, 2);
    EXPECT_EQ(queue.pop().payload, 3);
    EXPECT_TRUE(queue.empty());
}

TEST(EventQueue, EqualDueTimesComeOutInInsertionOrder) {
    EventQueue<int> queue;
    for (int i = 0; i < 100; i++) {
        queue.push(Instant::from_ns(i % 3 == 0 ? 5 : 7), i);
    }
    int last_at_five = -1;
    int last_at_seven = -1;
    while (!queue.empty()) {
        const auto entry = queue.pop();
        int& last = entry.due.ns() == 5 ? last_at_five : last_at_seven;
        EXPECT_GT(entry.payload, last);
        last = entry.payload;
        if (entry.due.ns() == 7) {
            EXPECT_EQ(last_at_five, 99) << "all due-5 entries come before due-7 ones";
        }
    }
}

TEST(EventQueue, SequenceNumbersIncrease) {
    EventQueue<int> queue;
    const std::uint64_t a = queue.push(Instant::zero(), 0);
    const std::uint64_t b = queue.push(Instant::zero(), 0);
    EXPECT_LT(a, b);
    EXPECT_EQ(queue.size(), 2U);
}

} // namespace
} // namespace routesim::sim
