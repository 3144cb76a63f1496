// Goal: the scheduler's run queue (sim/detail/run_queue.hpp) is a FIFO through wrap-around and
// growth, erase_at keeps the order of the rest, and assign replaces the contents.
// Method: the ring compared with a std::deque model under a seeded mix of operations that
// wraps the head around and grows the ring several times.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "sim/detail/run_queue.hpp"
#include "sim/prng.hpp"

namespace routesim::sim::detail {
namespace {

std::vector<std::uint64_t> contents(const RunQueue<std::uint64_t>& queue) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < queue.size(); i++) {
        out.push_back(queue.at(i));
    }
    return out;
}

TEST(RunQueue, StaysAFifoThroughWrapAroundGrowthAndErase) {
    RunQueue<std::uint64_t> queue;
    std::deque<std::uint64_t> model;
    Prng prng(7);
    std::uint64_t next = 1;
    std::size_t longest = 0;
    for (int step = 0; step < 20'000; step++) {
        const std::uint64_t op = prng.below(10);
        if (op < 6 || model.empty()) {
            queue.push_back(next);
            model.push_back(next);
            next++;
        } else if (op < 9) {
            ASSERT_EQ(queue.front(), model.front()) << step;
            queue.pop_front();
            model.pop_front();
        } else {
            const std::size_t index = prng.below(model.size());
            queue.erase_at(index);
            model.erase(model.begin() + static_cast<std::ptrdiff_t>(index));
        }
        ASSERT_EQ(queue.size(), model.size()) << step;
        longest = std::max(longest, model.size());
    }
    EXPECT_EQ(contents(queue), std::vector<std::uint64_t>(model.begin(), model.end()));
    EXPECT_GT(longest, 16U * 8); // the ring grew several times past its first capacity

    const std::vector<std::uint64_t> replacement{5, 6, 7};
    queue.assign(replacement.begin(), replacement.end());
    EXPECT_EQ(contents(queue), replacement);
    queue.pop_front();
    EXPECT_EQ(queue.front(), 6U);
}

} // namespace
} // namespace routesim::sim::detail
