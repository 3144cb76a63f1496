// Goal: the world's timer queue (sim/detail/timer_queue.hpp) fires by due time, then rank, then
// push order, skips cancelled timers, never confuses a stale TimerId with a later timer in the
// same slot, and destroys each callback's captures exactly once (at cancel, after firing, or
// with the queue); a callback runs in place while it schedules more timers.
// Method: the queue against a std::set model under a seeded mix of pushes, cancels and fires
// that grows past the inline chunk; captures counted through shared_ptr use counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim/detail/timer_queue.hpp"
#include "sim/prng.hpp"
#include "sim/world.hpp"

namespace routesim::sim::detail {
namespace {

TEST(TimerQueue, FiresByDueThenRankThenPushOrderAndSkipsCancelled) {
    TimerQueue queue;
    // The model: (due, rank, push index) of every live timer; its first element fires next.
    std::set<std::tuple<std::int64_t, std::uint64_t, std::uint64_t>> model;
    std::vector<TimerId> ids;
    std::vector<std::uint64_t> fired;
    std::uint64_t fired_count = 0;
    Prng prng(11);
    std::size_t most_live = 0;
    for (int step = 0; step < 20'000; step++) {
        const std::uint64_t roll = prng.below(10);
        if (roll < 5 || model.empty()) {
            const auto due = static_cast<std::int64_t>(prng.below(8));
            const std::uint64_t rank = prng.below(3);
            const std::uint64_t index = ids.size();
            ids.push_back(queue.push(due, rank, [&fired, index] { fired.push_back(index); }));
            model.emplace(due, rank, index);
        } else if (roll < 7) {
            // Cancel some timer, live or not: only a live one reports true.
            const std::uint64_t index = prng.below(ids.size());
            const bool live = std::any_of(model.begin(), model.end(), [index](const auto& entry) {
                return std::get<2>(entry) == index;
            });
            EXPECT_EQ(queue.cancel(ids[index]), live);
            std::erase_if(model,
                          [index](const auto& entry) { return std::get<2>(entry) == index; });
        } else {
            queue.drop_cancelled_head();
            ASSERT_FALSE(queue.empty());
            ASSERT_EQ(queue.next_due_ns(), std::get<0>(*model.begin()));
            while (!queue.fire_next(fired_count)) {
            }
            ASSERT_EQ(fired.back(), std::get<2>(*model.begin()));
            model.erase(model.begin());
        }
        ASSERT_EQ(queue.live(), model.size());
        most_live = std::max(most_live, model.size());
    }
    EXPECT_EQ(fired_count, fired.size());
    EXPECT_GT(most_live, 40U) << "the mix must grow the queue past its inline chunk";
    // Fired timers' ids are stale even though their slots were reused since.
    for (const std::uint64_t index : fired) {
        EXPECT_FALSE(queue.cancel(ids[index]));
    }
}

// A callback that schedules as it fires (a workload's chain) puts its new entry in the fired
// one's place at the root: the order must be the same as for a separate pop and push.
TEST(TimerQueue, TimersScheduledWhileFiringKeepTheOrder) {
    TimerQueue queue;
    std::set<std::tuple<std::int64_t, std::uint64_t, std::uint64_t>> model;
    std::vector<std::uint64_t> fired;
    std::uint64_t fired_count = 0;
    std::uint64_t pushed = 0;
    Prng prng(5);
    // Pushes timer number `pushed` due at least at `now`. As it fires, a third of them
    // schedule two more (the second a plain push), a third one more, a third none.
    std::function<void(std::int64_t)> push_at = [&](std::int64_t now) {
        const std::int64_t due = now + static_cast<std::int64_t>(prng.below(4));
        const std::uint64_t rank = prng.below(3);
        const std::uint64_t index = pushed++;
        queue.push(due, rank, [&, index, due] {
            fired.push_back(index);
            for (std::uint64_t more = 2 - index % 3; more > 0 && pushed < 5'000; more--) {
                push_at(due);
            }
        });
        model.emplace(due, rank, index);
    };
    for (int i = 0; i < 20; i++) {
        push_at(0);
    }
    while (!queue.empty()) {
        const auto next = *model.begin();
        ASSERT_EQ(queue.next_due_ns(), std::get<0>(next));
        model.erase(model.begin());
        ASSERT_TRUE(queue.fire_next(fired_count));
        ASSERT_EQ(fired.back(), std::get<2>(next));
        ASSERT_EQ(queue.live(), model.size());
    }
    EXPECT_TRUE(model.empty());
    EXPECT_GT(pushed, 100U) << "the chains must have run";
}

TEST(TimerQueue, CapturesAreDestroyedOnceAtCancelAfterFiringOrWithTheQueue) {
    auto token = std::make_shared<int>(0);
    std::uint64_t fired = 0;
    {
        TimerQueue queue;
        // Small captures stay in the slot; the 64-byte array forces a heap box.
        const TimerId cancelled = queue.push(1, 0, [token] {});
        std::array<std::uint64_t, 8> padding{};
        queue.push(2, 0, [token, padding] { (void)padding; });
        queue.push(3, 0, [token] {});
        EXPECT_EQ(token.use_count(), 4);
        EXPECT_TRUE(queue.cancel(cancelled));
        EXPECT_EQ(token.use_count(), 3) << "a cancelled timer's captures go at once";
        queue.drop_cancelled_head();
        EXPECT_TRUE(queue.fire_next(fired));
        EXPECT_EQ(token.use_count(), 2) << "a fired timer's captures go after it runs";
    }
    EXPECT_EQ(token.use_count(), 1) << "pending timers' captures go with the queue";
    EXPECT_EQ(fired, 1U);
}

TEST(TimerQueue, ACallbackRunsInPlaceWhileItSchedulesAndCannotCancelItself) {
    World world(WorldOptions{});
    struct NoSteps final : StepRunner {
        void run_step(TaskId) override {}
    } runner;
    world.set_runner(runner);
    TimerId self;
    std::string seen;
    int later = 0;
    const std::string text = "captured text, longer than a short string buffer";
    self = world.schedule_at(Instant::from_ns(5), [&, text] {
        for (int i = 0; i < 50; i++) {
            world.schedule_after(Duration::nanoseconds(1), [&later] { later++; });
        }
        EXPECT_FALSE(world.cancel(self));
        seen = text; // still in its slot after 50 pushes grew the slot chunks
    });
    world.run();
    EXPECT_EQ(seen, text);
    EXPECT_EQ(later, 50);
    EXPECT_EQ(world.timers_pending(), 0U);
    EXPECT_EQ(world.events(), 51U);
}

} // namespace
} // namespace routesim::sim::detail
