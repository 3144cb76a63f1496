// Goal: fault rules fire exactly when their trigger says, and every firing is traced.
// Method: a plan over one site, occurrences counted by hand.
#include "sim/fault.hpp"

#include <gtest/gtest.h>

namespace routesim::sim {
namespace {

struct PlanFixture {
    TraceBus trace;
    MemorySink memory;
    FaultPlan plan{Prng(1), trace};
    PlanFixture() { trace.add_sink(memory); }
};

TEST(FaultPlan, UnarmedSiteNeverFires) {
    PlanFixture f;
    const FaultSiteId site = f.plan.site("spawn.init");
    EXPECT_FALSE(f.plan.is_armed(site));
    for (int i = 0; i < 10; i++) {
        EXPECT_FALSE(f.plan.should_fire(site, Instant::zero()));
    }
    EXPECT_EQ(f.plan.occurrences(site), 10U);
    EXPECT_TRUE(f.memory.records().empty());
}

TEST(FaultPlan, NthOccurrenceFiresOnce) {
    PlanFixture f;
    f.plan.add_rule(
        FaultRule{.site = "take.panic", .trigger = FaultTrigger::Nth, .nth = 3, .tag = "worker"});
    const FaultSiteId site = f.plan.site("take.panic");
    std::vector<bool> fired;
    for (int i = 0; i < 6; i++) {
        fired.push_back(f.plan.should_fire(site, Instant::zero(), "pid-7"));
    }
    EXPECT_EQ(fired, (std::vector<bool>{false, false, true, false, false, false}));
    ASSERT_EQ(f.memory.records().size(), 1U);
    const TraceRecord& record = f.memory.records()[0];
    EXPECT_EQ(record.kind, "fault");
    EXPECT_EQ(record.text("site"), "take.panic");
    EXPECT_EQ(record.number("occurrence"), 3);
    EXPECT_EQ(record.text("tag"), "worker");
    EXPECT_EQ(record.text("detail"), "pid-7");
}

TEST(FaultPlan, AtTimeFiresFromThatInstantOn) {
    PlanFixture f;
    f.plan.add_rule(FaultRule{.site = "s",
                              .trigger = FaultTrigger::AtTime,
                              .at = Instant::from_ns(100),
                              .firings_max = 2});
    const FaultSiteId site = f.plan.site("s");
    EXPECT_FALSE(f.plan.should_fire(site, Instant::from_ns(99)));
    EXPECT_TRUE(f.plan.should_fire(site, Instant::from_ns(100)));
    EXPECT_TRUE(f.plan.should_fire(site, Instant::from_ns(150)));
    EXPECT_FALSE(f.plan.should_fire(site, Instant::from_ns(200))) << "firings_max reached";
    EXPECT_EQ(f.plan.firings(site), 2U);
}

TEST(FaultPlan, ProbabilityFiresAboutThatOften) {
    PlanFixture f;
    f.plan.add_rule(FaultRule{.site = "p", .probability_ppb = 100'000'000}); // 10%
    const FaultSiteId site = f.plan.site("p");
    int fired = 0;
    for (int i = 0; i < 10000; i++) {
        fired += f.plan.should_fire(site, Instant::zero()) ? 1 : 0;
    }
    EXPECT_GT(fired, 800);
    EXPECT_LT(fired, 1200);
}

TEST(FaultPlan, SameSeedFiresAtTheSameOccurrences) {
    auto firings = [] {
        PlanFixture f;
        f.plan.add_rule(FaultRule{.site = "p", .probability_ppb = 300'000'000});
        const FaultSiteId site = f.plan.site("p");
        std::vector<bool> fired;
        for (int i = 0; i < 200; i++) {
            fired.push_back(f.plan.should_fire(site, Instant::zero()));
        }
        return fired;
    };
    EXPECT_EQ(firings(), firings());
}

} // namespace
} // namespace routesim::sim
