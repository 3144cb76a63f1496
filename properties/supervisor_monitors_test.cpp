// Goal: restart_intensity holds on real supervisors of every restarting type (one decision per
// triggering exit, all_for_one included, windows sliding in virtual time) and reports the
// exact violation on an extra restart decision, a restart after the limit tripped, and a
// limit declared tripped too early, its witnesses naming processes by path and PID.
// Method: real supervisors (runtime/supervisor_testing.hpp) with children crashed on a
// schedule and the monitor attached; the recorded trace replayed with one sup_restart
// duplicated; hand-built sup_restart / sup_intensity_exceeded sequences on a bare bus.
#include <gtest/gtest.h>

#include "properties/monitor_testing.hpp"
#include "properties/monitors.hpp"
#include "properties/runtime_monitors.hpp"
#include "properties/supervisor_monitors.hpp"
#include "runtime/supervisor_testing.hpp"

namespace routesim::properties {
namespace {

using runtime::PID;
using runtime::act::SupervisorSpec;
using runtime::act::SupervisorType;
using runtime::testing::Fixture;
using U = std::uint64_t;

constexpr std::int64_t second_ns = 1'000'000'000;

SupervisorSpec three_children(SupervisorType type) {
    SupervisorSpec spec;
    spec.type = type;
    spec.children = {runtime::testing::child_spec("a"), runtime::testing::child_spec("b"),
                     runtime::testing::child_spec("c")};
    spec.restart.strategy = runtime::act::SupervisorStrategy::Permanent;
    spec.restart.intensity = 2;
    spec.restart.period = sim::Duration::seconds(1);
    return spec;
}

// Crashes child "a" at each of `at_ms`; the last crash trips the limit (§6.4).
void crash_on_schedule(Fixture& f, const PID& sup, const std::vector<std::int64_t>& at_ms) {
    for (const std::int64_t ms : at_ms) {
        f.world.schedule_at(sim::Instant::zero() + sim::Duration::milliseconds(ms), [&f, sup] {
            const PID child = runtime::testing::child_pid(f.node, sup, "a");
            ASSERT_FALSE(child.empty());
            (void)f.node.send(child, runtime::Error::text("boom"));
        });
    }
    f.run();
}

// Two restarts, a pause longer than the period, two more, then the fifth crash trips.
const std::vector<std::int64_t> crashes_ms = {0, 10, 1500, 1510, 1520};

TEST(RestartIntensityMonitor, HoldsOnRealRestartsOfEveryRestartingType) {
    for (SupervisorType type :
         {SupervisorType::OneForOne, SupervisorType::AllForOne, SupervisorType::RestForOne}) {
        Fixture f;
        RestartIntensity monitor;
        f.world.trace().add_sink(monitor);
        const PID sup =
            f.node
                .spawn(runtime::testing::supervisor_factory(three_children(type), nullptr), {}, {})
                .value();
        crash_on_schedule(f, sup, crashes_ms);
        f.world.trace().remove_sink(monitor);
        EXPECT_TRUE(monitor.holds()) << monitor.violations().front().to_string();
        // §6.4: one decision per triggering exit, though AFO restarts all three children.
        EXPECT_EQ(f.events("sup_restart").size(), 4U);
        EXPECT_EQ(f.events("sup_intensity_exceeded").size(), 1U);
    }
}

TEST(RestartIntensityMonitor, CatchesAnExtraRestartDecision) {
    Fixture f;
    const PID sup = f.node
                        .spawn(runtime::testing::supervisor_factory(
                                   three_children(SupervisorType::AllForOne), nullptr),
                               {}, {})
                        .value();
    crash_on_schedule(f, sup, crashes_ms);
    std::deque<sim::TraceRecord> records = f.memory.records();
    // A second decision for the exit at 10 ms: three decisions within one period.
    const std::size_t second = testing::find_record(records, "sup_restart", [](const auto& record) {
        return record.at == sim::Instant::zero() + sim::Duration::milliseconds(10);
    });
    records.insert(records.begin() + static_cast<std::ptrdiff_t>(second) + 1, records[second]);
    RestartIntensity monitor;
    testing::replay(records, monitor);
    ASSERT_GE(monitor.violations().size(), 1U);
    const Violation& violation = monitor.violations()[0];
    const std::string child = std::to_string(records[second].number("pid"));
    EXPECT_EQ(violation.explanation,
              "supervisor #0 <\u2026" + std::to_string(sup.id) +
                  "> made 3 restart decisions within 10ms, "
                  "but its intensity allows at most 2 in any period of 1s: the restart of child "
                  "\"a\" (exit of #0/a <\u2026" +
                  child + ">) should have tripped the limit");
    EXPECT_EQ(violation.at, sim::Instant::zero() + sim::Duration::milliseconds(10));
    ASSERT_EQ(violation.witnesses.size(), 3U);
    EXPECT_EQ(violation.witnesses[0].at, sim::Instant::zero());
    // The witness names processes by path and PID (the monitor's view): the unregistered
    // supervisor is its parent's first child, #0.
    EXPECT_EQ(violation.witnesses[2].text, "sup_restart sup=#0 <\u2026" + std::to_string(sup.id) +
                                               "> child=a pid=#0/a <\u2026" + child +
                                               "> reason=boom intensity=2 period_ns=1000000000");
}

TEST(RestartIntensityMonitor, CountsBothEndsOfThePeriod) {
    testing::HandTrace trace;
    RestartIntensity monitor;
    trace.bus.add_sink(monitor);
    trace.sup_restart(1, "a", 2, 1, second_ns);
    trace.now = sim::Instant::from_ns(second_ns + 1);
    trace.sup_restart(1, "a", 3, 1, second_ns); // the first fell out of the window
    EXPECT_TRUE(monitor.holds());
    trace.now = sim::Instant::from_ns(2 * second_ns + 1);
    trace.sup_restart(1, "a", 4, 1, second_ns); // exactly one period later: still inside
    trace.bus.remove_sink(monitor);
    ASSERT_EQ(monitor.violations().size(), 1U);
    EXPECT_EQ(
        monitor.violations()[0].explanation,
        "supervisor <\u20261> made 2 restart decisions within 1s, but its intensity allows at "
        "most 1 in any period of 1s: the restart of child \"a\" (exit of <\u20264>) should have "
        "tripped the limit");
}

TEST(RestartIntensityMonitor, CatchesARestartAfterTheLimitTripped) {
    testing::HandTrace trace;
    RestartIntensity monitor;
    trace.bus.add_sink(monitor);
    trace.sup_restart(1, "a", 2, 1, second_ns);
    trace.sup_intensity_exceeded(1, "a", 3);
    trace.now = sim::Instant::from_ns(5 * second_ns);
    trace.sup_restart(1, "b", 4, 1, second_ns);
    trace.bus.remove_sink(monitor);
    ASSERT_EQ(monitor.violations().size(), 1U);
    EXPECT_EQ(monitor.violations()[0].explanation,
              "supervisor <\u20261> restarted child \"b\" (exit of <\u20264>) after its restart "
              "intensity "
              "was exceeded");
    EXPECT_EQ(monitor.violations()[0].witnesses[0].text,
              "sup_intensity_exceeded sup=1 child=a pid=3 reason=boom");
}

TEST(RestartIntensityMonitor, CatchesALimitDeclaredTrippedTooEarly) {
    testing::HandTrace trace;
    RestartIntensity monitor;
    trace.bus.add_sink(monitor);
    trace.sup_restart(1, "a", 2, 3, second_ns);
    trace.sup_intensity_exceeded(1, "a", 3);
    trace.bus.remove_sink(monitor);
    ASSERT_EQ(monitor.violations().size(), 1U);
    EXPECT_EQ(monitor.violations()[0].explanation,
              "supervisor <\u20261> declared its restart intensity exceeded for child \"a\" "
              "(exit of <\u20263>), but that is only restart decision 2 within its period of 1s "
              "(intensity 3)");
}

// preserve_mailbox on a real supervisor: the messages queued behind a fatal one are kept,
// handed to the next incarnation and handled there; every monitor holds and the ledger counts
// each message once (none is lost with the dead mailbox).
TEST(PreservedMailbox, EveryMonitorHoldsWhenASupervisorHandsMessagesOver) {
    Fixture f;
    MonitorSet set;
    MessageConservation* conservation = nullptr;
    for (std::string_view name : monitor_names()) {
        if (auto monitor = make_monitor(name, MonitorOptions{})) {
            if (auto* found = dynamic_cast<MessageConservation*>(monitor.get())) {
                conservation = found;
            }
            set.add(std::move(monitor));
        }
    }
    ASSERT_NE(conservation, nullptr);
    f.world.trace().add_sink(set);
    SupervisorSpec spec;
    spec.children = {runtime::testing::child_spec("a")};
    spec.children[0].preserve_mailbox = true;
    const PID sup =
        f.node.spawn(runtime::testing::supervisor_factory(spec, nullptr), {}, {}).value();
    const PID first = runtime::testing::child_pid(f.node, sup, "a");
    ASSERT_TRUE(f.node.send(first, runtime::Error::text("boom")));
    ASSERT_TRUE(f.node.send(first, runtime::testing::Text{"m1"}));
    ASSERT_TRUE(f.node.send(first, runtime::testing::Text{"m2"}));
    f.run();
    set.finish(f.world.now(), true);
    f.world.trace().remove_sink(set);
    ASSERT_NE(runtime::testing::child_pid(f.node, sup, "a"), first);
    EXPECT_EQ(f.events("preserve").size(), 2U);
    for (const auto& monitor : set.monitors()) {
        EXPECT_TRUE(monitor->holds()) << monitor->violations().front().to_string();
    }
    const Ledger& ledger = conservation->ledger();
    EXPECT_TRUE(ledger.balanced()) << ledger.to_string();
    EXPECT_EQ(ledger.dropped, 0U) << ledger.to_string();
    EXPECT_GE(ledger.handled, 3U) << ledger.to_string(); // boom, then m1 and m2 after the restart
}

} // namespace
} // namespace routesim::properties
