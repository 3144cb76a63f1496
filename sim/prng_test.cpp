// Goal: the PRNG is portable, its helpers are in range and unbiased, and child streams are
// independent of each other's draws.
// Method: known-answer values, range sweeps, a chi-square-style bucket check, fork isolation.
#include "sim/prng.hpp"

#include <gtest/gtest.h>

#include <array>

namespace routesim::sim {
namespace {

TEST(Prng, Splitmix64MatchesPublishedVector) {
    // First outputs of splitmix64 seeded with 0 (reference implementation by Vigna).
    std::uint64_t state = 0;
    EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
    EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
    EXPECT_EQ(splitmix64(state), 0x06c45d188009454fULL);
}

TEST(Prng, SameSeedSameSequence) {
    Prng a(12345);
    Prng b(12345);
    for (int i = 0; i < 1000; i++) {
        ASSERT_EQ(a.next_u64(), b.next_u64());
    }
}

TEST(Prng, KnownAnswerIsStableAcrossBuilds) {
    // Pinned so that a change of the algorithm (and every recorded trace hash) is noticed.
    Prng prng(1);
    const std::uint64_t first = prng.next_u64();
    Prng again(1);
    EXPECT_EQ(again.next_u64(), first);
    EXPECT_EQ(first, 0xb3f2af6d0fc710c5ULL);
}

TEST(Prng, BelowStaysInRangeAndCoversIt) {
    Prng prng(7);
    std::array<int, 7> seen{};
    for (int i = 0; i < 7000; i++) {
        const std::uint64_t value = prng.below(7);
        ASSERT_LT(value, 7U);
        seen[value]++;
    }
    for (int count : seen) {
        // Expected 1000 each; a fair generator stays well within +-20%.
        EXPECT_GT(count, 800);
        EXPECT_LT(count, 1200);
    }
}

TEST(Prng, BetweenIsInclusive) {
    Prng prng(3);
    bool saw_low = false;
    bool saw_high = false;
    for (int i = 0; i < 2000; i++) {
        const std::int64_t value = prng.between(-2, 2);
        ASSERT_GE(value, -2);
        ASSERT_LE(value, 2);
        saw_low = saw_low || value == -2;
        saw_high = saw_high || value == 2;
    }
    EXPECT_TRUE(saw_low);
    EXPECT_TRUE(saw_high);
    EXPECT_EQ(prng.between(5, 5), 5);
}

TEST(Prng, ChanceHonoursBounds) {
    Prng prng(11);
    int hits = 0;
    for (int i = 0; i < 10000; i++) {
        EXPECT_FALSE(prng.chance(0, 10));
        EXPECT_TRUE(prng.chance(10, 10));
        hits += prng.chance(1, 4) ? 1 : 0;
    }
    EXPECT_GT(hits, 2200);
    EXPECT_LT(hits, 2800);
}

TEST(Prng, ForkedStreamsDoNotShiftEachOther) {
    const Prng root(99);
    Prng scheduler = root.fork("scheduler");
    Prng faults = root.fork("faults");
    const std::uint64_t faults_first = faults.next_u64();
    // Extra draws in the scheduler stream leave a fresh faults stream unchanged.
    for (int i = 0; i < 100; i++) {
        scheduler.next_u64();
    }
    Prng faults_again = root.fork("faults");
    EXPECT_EQ(faults_again.next_u64(), faults_first);
    EXPECT_NE(root.fork("scheduler").next_u64(), faults_first);
}

TEST(Prng, Fnv1aMatchesReference) {
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    static_assert(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
}

} // namespace
} // namespace routesim::sim
