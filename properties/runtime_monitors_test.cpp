// Goal: each runtime-level monitor passes on real runs and reports the exact violation on a
// hand-built or mutated trace (a duplicated take, a changed From, a reordered pair, a call
// that ends twice or never, a message lost with its mailbox).
// Method: real runs through the runtime with the monitors attached; then events emitted by
// hand onto a bare trace bus.
#include <gtest/gtest.h>

#include <algorithm>

#include "properties/runtime_monitors.hpp"
#include "runtime/testing.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::properties {
namespace {

namespace trace = runtime::trace;
using runtime::testing::Fixture;
using runtime::testing::lambda_factory;
using runtime::testing::LambdaActor;
using runtime::testing::Text;

struct Monitored {
    MonitorSet set;
    MessageConservation* conservation = nullptr;
    PairFifo* pair_fifo = nullptr;
    CallOutcomeMonitor* call_outcome = nullptr;
    SenderPreservation* sender = nullptr;

    Monitored() {
        auto a = std::make_unique<MessageConservation>();
        auto b = std::make_unique<PairFifo>();
        auto c = std::make_unique<CallOutcomeMonitor>();
        auto d = std::make_unique<SenderPreservation>();
        conservation = a.get();
        pair_fifo = b.get();
        call_outcome = c.get();
        sender = d.get();
        set.add(std::move(a));
        set.add(std::move(b));
        set.add(std::move(c));
        set.add(std::move(d));
    }
};

// A small real workload: an echo that answers calls, a forwarder in front of it, clients
// that send and call, and a victim killed with messages queued.
void run_real_workload(Fixture& f) {
    const auto echo = lambda_factory([](LambdaActor& actor) {
        actor.on_call = [](LambdaActor&, const runtime::PID&, const runtime::Ref&,
                           const runtime::Message&) {
            return runtime::act::CallReply::value(Text{"pong"});
        };
        actor.on_message = [](LambdaActor&, const runtime::PID&, const runtime::Message&) {
            return runtime::ok();
        };
    });
    const runtime::PID worker = f.node.spawn(echo, {}, {}).value();
    const auto forwarder = lambda_factory([worker](LambdaActor& actor) {
        actor.on_message = [worker](LambdaActor& self, const runtime::PID&,
                                    const runtime::Message&) {
            (void)self.process().forward(worker, self.current(), runtime::MessagePriority::Normal);
            return runtime::ok();
        };
        actor.on_call = [worker](LambdaActor& self, const runtime::PID&, const runtime::Ref&,
                                 const runtime::Message&) {
            (void)self.process().forward(worker, self.current(), runtime::MessagePriority::Normal);
            return runtime::act::CallReply::later();
        };
    });
    const runtime::PID front = f.node.spawn(forwarder, {}, {}).value();
    const auto client = lambda_factory([front](LambdaActor& actor) {
        actor.on_message = [front](LambdaActor& self, const runtime::PID&,
                                   const runtime::Message&) {
            for (int i = 0; i < 3; i++) {
                (void)self.process().send(front, Text{"m"});
            }
            (void)self.process().call(front, Text{"q"}, {},
                                      [](runtime::CallResult) { return runtime::ok(); });
            return runtime::ok();
        };
    });
    const runtime::PID c1 = f.node.spawn(client, {}, {}).value();
    const runtime::PID c2 = f.node.spawn(client, {}, {}).value();
    ASSERT_TRUE(f.node.send(c1, Text{"go"}));
    ASSERT_TRUE(f.node.send(c2, Text{"go"}));
    const runtime::PID victim = f.node.spawn(echo, {}, {}).value();
    ASSERT_TRUE(f.node.send(victim, Text{"a"}));
    ASSERT_TRUE(f.node.send(victim, Text{"b"}));
    ASSERT_TRUE(f.node.kill(victim));
}

TEST(RuntimeMonitors, HoldOnARealRunUnderEveryPolicy) {
    for (sim::Policy policy : {sim::Policy::Fifo, sim::Policy::Random, sim::Policy::Pct}) {
        sim::WorldOptions options;
        options.seed = 3;
        options.scheduler.policy = policy;
        Fixture f(options);
        Monitored m;
        f.world.trace().add_sink(m.set);
        run_real_workload(f);
        const sim::RunOutcome outcome = f.run();
        m.set.finish(outcome.end, outcome.reason == sim::StopReason::Idle);
        f.world.trace().remove_sink(m.set);
        for (const auto& monitor : m.set.monitors()) {
            EXPECT_TRUE(monitor->holds())
                << monitor->name() << ": " << monitor->violations().front().to_string();
        }
        const Ledger& ledger = m.conservation->ledger();
        EXPECT_TRUE(ledger.balanced()) << ledger.to_string();
        // 2 "go" at the clients + 8 messages and calls at the worker (forwards are not ends).
        EXPECT_EQ(ledger.handled, 10U);
        EXPECT_EQ(ledger.queued, 0U);
        EXPECT_GE(ledger.dropped_by_reason.at("terminated"), 1U) << ledger.to_string();
    }
}

// Emits one event with the runtime's field names onto a bus.
struct Bus {
    sim::TraceBus bus;
    Monitored m;
    Bus() { bus.add_sink(m.set); }
    ~Bus() { bus.remove_sink(m.set); }
    void send(std::uint64_t id, std::uint64_t from, std::uint64_t to, std::uint64_t queue = 2) {
        bus.emit(sim::Instant::zero(), trace::send,
                 {{trace::id, id},
                  {trace::from, from},
                  {trace::to, to},
                  {trace::queue, queue},
                  {trace::type, std::uint64_t{0}},
                  {trace::msg, "Text"}});
    }
    void take(std::uint64_t pid, std::uint64_t id, std::uint64_t from, std::uint64_t queue = 2) {
        bus.emit(sim::Instant::from_ns(5), trace::take,
                 {{trace::pid, pid},
                  {trace::id, id},
                  {trace::queue, queue},
                  {trace::type, std::uint64_t{0}},
                  {trace::from, from}});
    }
    void forward(std::uint64_t id, std::uint64_t by, std::uint64_t to, std::uint64_t from) {
        bus.emit(sim::Instant::from_ns(3), trace::forward,
                 {{trace::id, id},
                  {trace::by, by},
                  {trace::to, to},
                  {trace::from, from},
                  {trace::queue, std::uint64_t{2}}});
    }
};

TEST(MessageConservationMonitor, CatchesADuplicatedTake) {
    Bus b;
    b.send(1, 10, 20);
    b.take(20, 1, 10);
    b.take(20, 1, 10);
    ASSERT_EQ(b.m.conservation->violations().size(), 1U);
    EXPECT_EQ(b.m.conservation->violations()[0].explanation,
              "message 1 was taken although it is not queued there (taken twice?)");
    EXPECT_EQ(b.m.conservation->violations()[0].witnesses.size(), 1U);
}

TEST(MessageConservationMonitor, CatchesADuplicatedForward) {
    Bus b;
    b.send(1, 10, 20);
    b.take(20, 1, 10);
    b.forward(1, 20, 30, 10);
    b.forward(1, 20, 31, 10);
    ASSERT_FALSE(b.m.conservation->holds());
    EXPECT_EQ(b.m.conservation->violations()[0].explanation,
              "message 1 was forwarded by a process that does not hold it (duplicated)");
}

TEST(MessageConservationMonitor, CatchesAMessageLostWithItsMailbox) {
    Bus b;
    b.send(1, 10, 20);
    b.bus.emit(sim::Instant::from_ns(9), trace::exit,
               {{trace::pid, std::uint64_t{20}}, {trace::reason, "kill"}, {trace::name, ""}});
    b.m.set.finish(sim::Instant::from_ns(10), true);
    ASSERT_FALSE(b.m.conservation->holds());
    EXPECT_EQ(b.m.conservation->violations()[0].explanation,
              "message 1 was lost: its holder #0 <\u202620> ended without dropping or handling it");
}

TEST(MessageConservationMonitor, LedgerCountsEachCategoryOnce) {
    Bus b;
    b.send(1, 10, 20);
    b.send(2, 10, 20);
    b.send(3, 10, 21);
    b.take(20, 1, 10);
    b.bus.emit(sim::Instant::zero(), trace::drop,
               {{trace::pid, std::uint64_t{20}},
                {trace::id, std::uint64_t{2}},
                {trace::queue, std::uint64_t{2}},
                {trace::reason, "terminated"}});
    b.m.set.finish(sim::Instant::zero(), false);
    const Ledger& ledger = b.m.conservation->ledger();
    EXPECT_TRUE(b.m.conservation->holds());
    EXPECT_EQ(ledger.sent, 3U);
    EXPECT_EQ(ledger.handled, 1U);
    EXPECT_EQ(ledger.dropped, 1U);
    EXPECT_EQ(ledger.queued, 1U);
    EXPECT_EQ(ledger.to_string(),
              "sent 3: handled 1, discarded 0, route_failed 0, unhandled 0, dropped 1 "
              "(terminated 1), queued 1");
}

// A witness reads `kind key=value ...` with the fields in emitted order, however long.
TEST(Witness, RendersEveryFieldInOrderAndLongTextsWhole) {
    const sim::TraceKey kind{"send"};
    const sim::TraceKey a{"a"};
    const sim::TraceKey b{"b"};
    const sim::TraceKey c{"c"};
    const sim::TraceKey d{"d"};
    const std::string long_text(700, 'x');
    const sim::TraceField fields[] = {{a, std::int64_t{-12}},
                                      {b, std::uint64_t{18446744073709551615U}},
                                      {c, true},
                                      {d, std::string_view("hi there")}};
    const sim::TraceEvent event{7, sim::Instant::from_ns(5), kind, fields, 4};
    EXPECT_EQ(describe_event(event), "send a=-12 b=18446744073709551615 c=true d=hi there");
    const sim::TraceField long_fields[] = {{a, std::string_view(long_text)}, {c, false}};
    const sim::TraceEvent long_event{8, sim::Instant::from_ns(5), kind, long_fields, 2};
    EXPECT_EQ(describe_event(long_event), "send a=" + long_text + " c=false");
    const Witness witness = witness_of(event);
    EXPECT_EQ(witness.seq, 7U);
    EXPECT_EQ(witness.at, sim::Instant::from_ns(5));
}

// A supervisor's preserve_mailbox: the dead child's queued message is kept (`preserve`, with
// the supervisor as `parent`), then forwarded by the supervisor to the next incarnation, or
// dropped; either way it ends exactly once, and the other monitors hold too.
TEST(MessageConservationMonitor, FollowsAPreservedMessageToTheNextIncarnationOrItsDrop) {
    Bus b;
    b.send(1, 10, 20);
    b.send(2, 10, 20);
    for (std::uint64_t id : {1U, 2U}) {
        b.bus.emit(sim::Instant::zero(), trace::preserve,
                   {{trace::pid, std::uint64_t{20}},
                    {trace::id, std::uint64_t{id}},
                    {trace::queue, std::uint64_t{2}},
                    {trace::parent, std::uint64_t{5}}});
    }
    b.bus.emit(sim::Instant::from_ns(9), trace::exit,
               {{trace::pid, std::uint64_t{20}}, {trace::reason, "kill"}, {trace::name, ""}});
    b.forward(1, 5, 21, 10); // handed over to the new incarnation 21
    b.take(21, 1, 10);
    b.bus.emit(sim::Instant::zero(), trace::drop, // the hand-over of 2 failed
               {{trace::pid, std::uint64_t{21}},
                {trace::id, std::uint64_t{2}},
                {trace::queue, std::uint64_t{2}},
                {trace::reason, "preserve_failed"}});
    b.m.set.finish(sim::Instant::from_ns(10), true);
    for (const auto& monitor : b.m.set.monitors()) {
        EXPECT_TRUE(monitor->holds()) << monitor->violations().front().to_string();
    }
    const Ledger& ledger = b.m.conservation->ledger();
    EXPECT_EQ(ledger.sent, 2U);
    EXPECT_EQ(ledger.handled, 1U);
    EXPECT_EQ(ledger.dropped, 1U);
    EXPECT_TRUE(ledger.balanced()) << ledger.to_string();
}

// A kept message whose supervisor ends without handing it over or dropping it is lost.
TEST(MessageConservationMonitor, CatchesAPreservedMessageLostWithItsSupervisor) {
    Bus b;
    b.send(1, 10, 20);
    b.bus.emit(sim::Instant::zero(), trace::preserve,
               {{trace::pid, std::uint64_t{20}},
                {trace::id, std::uint64_t{1}},
                {trace::queue, std::uint64_t{2}},
                {trace::parent, std::uint64_t{5}}});
    b.bus.emit(sim::Instant::from_ns(9), trace::exit,
               {{trace::pid, std::uint64_t{5}}, {trace::reason, "shutdown"}, {trace::name, ""}});
    b.m.set.finish(sim::Instant::from_ns(10), true);
    ASSERT_FALSE(b.m.conservation->holds());
    EXPECT_EQ(b.m.conservation->violations()[0].explanation,
              "message 1 was lost: its holder #0 <\u20265> ended without dropping or handling it");
}

TEST(PairFifoMonitor, CatchesAReorderedPair) {
    Bus b;
    b.send(1, 10, 20);
    b.send(2, 10, 20);
    b.take(20, 2, 10);
    ASSERT_EQ(b.m.pair_fifo->violations().size(), 1U);
    EXPECT_EQ(b.m.pair_fifo->violations()[0].explanation,
              "message 2 from <\u202610> was taken by <\u202620> before message 1 sent earlier on "
              "the same pair");
    // The witnesses: the earlier send, the later one, and the take that overtook (the pids
    // are named as far as the view knows them: no spawn here, so by PID alone).
    const std::vector<Witness>& witnesses = b.m.pair_fifo->violations()[0].witnesses;
    ASSERT_EQ(witnesses.size(), 3U);
    EXPECT_EQ(witnesses[0].text, "send id=1 from=<\u202610> to=<\u202620> queue=2");
    EXPECT_EQ(witnesses[1].text, "send id=2 from=<\u202610> to=<\u202620> queue=2");
    EXPECT_EQ(witnesses[2].text, "take pid=<\u202620> id=2 queue=2 type=0 from=<\u202610>");
    EXPECT_EQ(witnesses[2].seq, 2U);
}

TEST(PairFifoMonitor, AllowsOvertakingAcrossQueues) {
    Bus b;
    b.send(1, 10, 20, 2);
    b.send(2, 10, 20, 1);
    b.take(20, 2, 10, 1);
    b.take(20, 1, 10, 2);
    EXPECT_TRUE(b.m.pair_fifo->holds());
}

// An entry that left its pair out of order (a drop) is skipped, and a message that comes back
// to a pair it left (forwarded in a loop) counts only at its new place in the order.
TEST(PairFifoMonitor, SkipsEntriesThatLeftAndCountsAReturningMessageAtItsNewPlace) {
    Bus b;
    b.send(1, 10, 20);
    b.send(2, 10, 20);
    b.send(3, 10, 20);
    b.bus.emit(sim::Instant::zero(), trace::drop,
               {{trace::pid, std::uint64_t{20}},
                {trace::id, std::uint64_t{2}},
                {trace::queue, std::uint64_t{2}},
                {trace::reason, "terminated"}});
    b.take(20, 1, 10);
    b.take(20, 3, 10); // 2 was dropped: 3 is next
    EXPECT_TRUE(b.m.pair_fifo->holds()) << b.m.pair_fifo->violations().front().to_string();
    // Message 4 goes 20 -> 30, 30 forwards it back to 20 and 20 forwards it to 30 again, after
    // message 5 was sent from 20 to 30: 5 is now older on the pair (20, 30) than 4.
    b.send(4, 20, 30);
    b.take(30, 4, 20);
    b.forward(4, 30, 20, 20);
    b.take(20, 4, 20);
    b.send(5, 20, 30);
    b.forward(4, 20, 30, 20);
    b.take(30, 5, 20);
    EXPECT_TRUE(b.m.pair_fifo->holds()) << b.m.pair_fifo->violations().front().to_string();
    b.send(6, 20, 30);
    b.take(30, 6, 20); // 4 (forwarded after 5) is still queued: 6 overtakes it
    ASSERT_EQ(b.m.pair_fifo->violations().size(), 1U);
    EXPECT_EQ(b.m.pair_fifo->violations()[0].explanation,
              "message 6 from <\u202620> was taken by <\u202630> before message 4 sent earlier on "
              "the same pair");
}

// Each pair keeps its own order through a growing pair index (more pairs than the index first
// holds), and leaving from the tail or the middle of a pair keeps the rest in order.
TEST(PairFifoMonitor, KeepsEachPairsOrderAcrossManyPairsAndRemovalsAnywhere) {
    Bus b;
    std::uint64_t id = 1;
    for (std::uint64_t round = 0; round < 3; round++) {
        for (std::uint64_t sender = 100; sender < 200; sender++) {
            b.send(id++, sender, 20);
        }
    }
    // Pair 100 holds 1, 101, 201: drop the tail (201) and take the rest in order.
    b.bus.emit(sim::Instant::zero(), trace::drop,
               {{trace::pid, std::uint64_t{20}},
                {trace::id, std::uint64_t{201}},
                {trace::queue, std::uint64_t{2}},
                {trace::reason, "terminated"}});
    b.take(20, 1, 100);
    b.take(20, 101, 100);
    b.send(id++, 100, 20); // 301 joins the emptied pair
    b.take(20, 301, 100);
    // Pair 150 holds 51, 151, 251: drop the middle one.
    b.bus.emit(sim::Instant::zero(), trace::drop,
               {{trace::pid, std::uint64_t{20}},
                {trace::id, std::uint64_t{151}},
                {trace::queue, std::uint64_t{2}},
                {trace::reason, "terminated"}});
    b.take(20, 51, 150);
    b.take(20, 251, 150);
    EXPECT_TRUE(b.m.pair_fifo->holds()) << b.m.pair_fifo->violations().front().to_string();
    // Pair 199 holds 100, 200, 300: taking 300 first overtakes 100.
    b.take(20, 300, 199);
    ASSERT_EQ(b.m.pair_fifo->violations().size(), 1U);
    EXPECT_EQ(b.m.pair_fifo->violations()[0].explanation,
              "message 300 from <\u2026199> was taken by <\u202620> before message 100 sent "
              "earlier on the "
              "same pair");
}

TEST(SenderPreservationMonitor, CatchesAChangedFrom) {
    Bus b;
    b.send(1, 10, 20);
    b.take(20, 1, 10);
    b.forward(1, 20, 30, 20);
    ASSERT_EQ(b.m.sender->violations().size(), 1U);
    EXPECT_EQ(b.m.sender->violations()[0].explanation,
              "message 1 arrived with From <\u202620> instead of the original sender <\u202610>");
}

// In a set the three message monitors share one MessageTracker, whichever comes first: each
// finding still lands on the monitor that owns its check. A monitor outside any set runs only
// its own check.
TEST(MessageMonitors, ShareOneTrackerAndReportEachFindingToItsOwner) {
    MonitorSet set;
    auto fifo = std::make_unique<PairFifo>();
    auto sender = std::make_unique<SenderPreservation>();
    auto conservation = std::make_unique<MessageConservation>();
    const PairFifo& f = *fifo;
    const SenderPreservation& s = *sender;
    const MessageConservation& c = *conservation;
    set.add(std::move(fifo));
    set.add(std::move(sender));
    set.add(std::move(conservation));
    EXPECT_TRUE(f.watches(trace::exit));  // the lead reads for every check it carries
    EXPECT_FALSE(s.watches(trace::send)); // the followers get their findings from the lead
    EXPECT_FALSE(c.watches(trace::take));
    SenderPreservation alone;
    EXPECT_FALSE(alone.watches(trace::exit));
    sim::TraceBus bus;
    bus.add_sink(set);
    bus.add_sink(alone);
    const auto send = [&](std::uint64_t id) {
        bus.emit(sim::Instant::zero(), trace::send,
                 {{trace::id, id},
                  {trace::from, std::uint64_t{10}},
                  {trace::to, std::uint64_t{20}},
                  {trace::queue, std::uint64_t{2}},
                  {trace::type, std::uint64_t{0}},
                  {trace::msg, "Text"}});
    };
    const auto take = [&](std::uint64_t id) {
        bus.emit(sim::Instant::zero(), trace::take,
                 {{trace::pid, std::uint64_t{20}},
                  {trace::id, id},
                  {trace::queue, std::uint64_t{2}},
                  {trace::type, std::uint64_t{0}},
                  {trace::from, std::uint64_t{10}}});
    };
    send(1);
    send(2);
    take(2); // pair_fifo: before message 1
    bus.emit(sim::Instant::zero(), trace::forward,
             {{trace::id, std::uint64_t{2}},
              {trace::by, std::uint64_t{20}},
              {trace::to, std::uint64_t{30}},
              {trace::from, std::uint64_t{20}},
              {trace::queue, std::uint64_t{2}}}); // sender_preservation: From changed
    take(2);                                      // message_conservation: it is queued at 30 now
    bus.remove_sink(alone);
    bus.remove_sink(set);
    ASSERT_EQ(f.violations().size(), 1U);
    EXPECT_EQ(f.violations()[0].explanation, "message 2 from <\u202610> was taken by <\u202620> "
                                             "before message 1 sent earlier on the same pair");
    ASSERT_EQ(s.violations().size(), 1U);
    EXPECT_EQ(s.violations()[0].explanation,
              "message 2 arrived with From <\u202620> instead of the original sender <\u202610>");
    ASSERT_EQ(c.violations().size(), 1U);
    EXPECT_EQ(c.violations()[0].explanation,
              "message 2 was taken although it is not queued there (taken twice?)");
    ASSERT_EQ(alone.violations().size(), 1U);
    EXPECT_EQ(alone.violations()[0].explanation, s.violations()[0].explanation);
}

// A campaign reuses one set across runs: after reset() the same ids tell a new story.
TEST(MonitorSet, ResetForgetsEventsAndViolations) {
    Bus b;
    b.send(1, 10, 20);
    b.take(20, 1, 10);
    b.forward(1, 20, 30, 20); // From changed: sender_preservation is violated
    b.take(20, 1, 10);        // taken twice: message_conservation is violated
    ASSERT_FALSE(b.m.sender->holds());
    ASSERT_FALSE(b.m.conservation->holds());
    b.m.set.reset();
    for (const auto& monitor : b.m.set.monitors()) {
        EXPECT_TRUE(monitor->holds()) << monitor->name();
    }
    // Message 1 again, from another sender, taken once: nothing from the first run remains.
    b.send(1, 11, 21);
    b.take(21, 1, 11);
    for (const auto& monitor : b.m.set.monitors()) {
        EXPECT_TRUE(monitor->holds())
            << monitor->name() << ": " << monitor->violations().front().to_string();
    }
    b.m.set.finish(sim::Instant::from_ns(10), true);
    EXPECT_EQ(b.m.conservation->ledger().sent, 1U);
    EXPECT_EQ(b.m.conservation->ledger().handled, 1U);
}

TEST(SenderPreservationMonitor, CatchesAResponseToTheWrongProcess) {
    Bus b;
    b.bus.emit(sim::Instant::zero(), trace::call,
               {{trace::caller, std::uint64_t{10}},
                {trace::ref, std::uint64_t{7}},
                {trace::timeout_ns, std::int64_t{5}}});
    b.bus.emit(sim::Instant::zero(), trace::response,
               {{trace::from, std::uint64_t{30}},
                {trace::to, std::uint64_t{20}},
                {trace::ref, std::uint64_t{7}},
                {trace::outcome, "ok"}});
    ASSERT_FALSE(b.m.sender->holds());
    EXPECT_EQ(b.m.sender->violations()[0].explanation,
              "the response to ref 7 went to <\u202620> instead of the caller <\u202610>");
}

TEST(CallOutcomeMonitor, CatchesACallThatEndsTwiceOrNever) {
    Bus b;
    const auto call = [&b](std::uint64_t ref) {
        b.bus.emit(sim::Instant::zero(), trace::call,
                   {{trace::caller, std::uint64_t{10}},
                    {trace::ref, ref},
                    {trace::timeout_ns, std::int64_t{5}}});
    };
    const auto result = [&b](std::uint64_t ref) {
        b.bus.emit(sim::Instant::zero(), trace::call_result,
                   {{trace::caller, std::uint64_t{10}}, {trace::ref, ref}, {trace::outcome, "ok"}});
    };
    call(1);
    result(1);
    result(1);
    call(2);
    b.m.set.finish(sim::Instant::from_ns(1), true);
    const auto& violations = b.m.call_outcome->violations();
    ASSERT_EQ(violations.size(), 2U);
    EXPECT_EQ(violations[0].explanation,
              "call ref 1 of <\u202610> ended although it was not open (ended twice?)");
    EXPECT_EQ(violations[1].explanation,
              "call ref 2 of <\u202610> never ended (no response, error or timeout)");
    // Each names the event that decides it: the second result, and the call left open.
    ASSERT_EQ(violations[0].witnesses.size(), 1U);
    EXPECT_EQ(violations[0].witnesses[0].text, "call_result caller=<\u202610> ref=1 outcome=ok");
    EXPECT_EQ(violations[0].witnesses[0].seq, 2U);
    ASSERT_EQ(violations[1].witnesses.size(), 1U);
    EXPECT_EQ(violations[1].witnesses[0].text, "call caller=<\u202610> ref=2 timeout_ns=5");
}

TEST(MonitorSet, StopsTheWorldOnTheFirstViolation) {
    Fixture f;
    Monitored m;
    m.set.stop_on_violation(f.world);
    f.world.trace().add_sink(m.set);
    // A hand-made duplicate take on the live bus.
    f.world.emit(trace::take, {{trace::pid, std::uint64_t{1}},
                               {trace::id, std::uint64_t{99}},
                               {trace::queue, std::uint64_t{2}},
                               {trace::type, std::uint64_t{0}},
                               {trace::from, std::uint64_t{2}}});
    const sim::RunOutcome outcome = f.run();
    f.world.trace().remove_sink(m.set);
    EXPECT_EQ(outcome.reason, sim::StopReason::Requested);
    EXPECT_EQ(f.world.stop_request(), "message_conservation violated");
    ASSERT_NE(m.set.first_violation(), nullptr);
    EXPECT_NE(m.set.first_violation()->to_string().find("message_conservation violated at 0ns"),
              std::string::npos);
}

// A monitor that records the kinds it is given; it watches `kinds`, or everything when empty.
class KindRecorder final : public Monitor {
public:
    KindRecorder(std::string name, std::vector<std::string> kinds)
        : name_(std::move(name)), kinds_(std::move(kinds)) {}
    std::string_view name() const override { return name_; }
    bool watches(const sim::TraceKey& kind) const override {
        asked++;
        return kinds_.empty() ||
               std::find(kinds_.begin(), kinds_.end(), std::string(kind.name)) != kinds_.end();
    }
    void on_event(const sim::TraceEvent& event) override { seen.emplace_back(event.kind.name); }
    void reset() override { seen.clear(); }
    std::vector<std::string> seen;
    mutable int asked = 0;

private:
    std::string name_;
    std::vector<std::string> kinds_;
};

TEST(MonitorSet, PassesEachMonitorOnlyTheKindsItWatches) {
    MonitorSet set;
    auto sends = std::make_unique<KindRecorder>("sends", std::vector<std::string>{"send", "kind7"});
    auto all = std::make_unique<KindRecorder>("all", std::vector<std::string>{});
    KindRecorder& s = *sends;
    KindRecorder& a = *all;
    set.add(std::move(sends));
    set.add(std::move(all));
    sim::TraceBus bus;
    bus.add_sink(set);
    std::vector<std::string> expected_all;
    // Kinds with texts that do not outlive their emit, more of them than the first table holds.
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 100; i++) {
            const std::string name = i % 10 == 0 ? "send" : "kind" + std::to_string(i);
            bus.emit(sim::Instant::zero(), sim::TraceKey(name), {});
            expected_all.push_back(name);
        }
    }
    bus.remove_sink(set);
    EXPECT_EQ(a.seen, expected_all);
    std::vector<std::string> expected_sends;
    for (const std::string& name : expected_all) {
        if (name == "send" || name == "kind7") {
            expected_sends.push_back(name);
        }
    }
    EXPECT_EQ(s.seen, expected_sends);
    EXPECT_EQ(s.asked, 91); // once per distinct kind, not per event
}

TEST(MonitorSet, ResetKeepsTheKindIndex) {
    MonitorSet set;
    auto sends = std::make_unique<KindRecorder>("sends", std::vector<std::string>{"send"});
    KindRecorder& s = *sends;
    set.add(std::move(sends));
    sim::TraceBus bus;
    bus.add_sink(set);
    for (const char* kind : {"send", "take", "send"}) {
        bus.emit(sim::Instant::zero(), sim::TraceKey(kind), {});
    }
    set.reset();
    EXPECT_TRUE(s.seen.empty());
    for (const char* kind : {"take", "send"}) {
        bus.emit(sim::Instant::zero(), sim::TraceKey(kind), {});
    }
    bus.remove_sink(set);
    EXPECT_EQ(s.seen, std::vector<std::string>{"send"});
    EXPECT_EQ(s.asked, 2); // each kind asked about once, before the reset
}

// A monitor that reads the takes of the processes it follows only; a send names the process
// to follow (its `from`). With `every_take_after_send`, a send also makes it read every take
// until the next take it reads.
class FollowedTakes final : public Monitor {
public:
    explicit FollowedTakes(bool every_take_after_send = false)
        : every_take_after_send_(every_take_after_send) {
        read_followed_takes_only();
    }
    std::string_view name() const override {
        return every_take_after_send_ ? "every_take_after_send" : "followed_takes";
    }
    void on_event(const sim::TraceEvent& event) override {
        if (const auto send = read_event<runtime::ev::Send>(event)) {
            follow_takes_of(send->from.value);
            follow_every_take(every_take_after_send_);
        } else if (const auto take = read_event<runtime::ev::Take>(event)) {
            takes.push_back(take->pid.value);
            follow_every_take(false);
        }
    }
    void reset() override { takes.clear(); }
    std::vector<std::uint64_t> takes;

private:
    bool every_take_after_send_;
};

void emit_take(sim::TraceBus& bus, std::uint64_t pid) {
    sim::emit_event(bus, sim::Instant::zero(), runtime::ev::Take{.pid = pid});
}
void emit_send_from(sim::TraceBus& bus, std::uint64_t from) {
    sim::emit_event(bus, sim::Instant::zero(), runtime::ev::Send{.from = from});
}

TEST(MonitorSet, SparesTakesOfProcessesNoMonitorFollows) {
    MonitorSet set;
    auto followed = std::make_unique<FollowedTakes>();
    FollowedTakes& f = *followed;
    auto all = std::make_unique<KindRecorder>("all", std::vector<std::string>{});
    KindRecorder& a = *all;
    set.add(std::move(followed));
    set.add(std::move(all));
    sim::TraceBus bus;
    bus.add_sink(set);
    emit_take(bus, 5);
    emit_send_from(bus, 7);
    emit_take(bus, 7);
    emit_take(bus, 5);
    emit_send_from(bus, 3);
    emit_take(bus, 3);
    emit_take(bus, 4); // inside the followed range, not followed
    emit_take(bus, 7);
    EXPECT_EQ(f.takes, (std::vector<std::uint64_t>{7, 3, 7}));
    EXPECT_EQ(a.seen.size(), 8U); // a monitor that reads every take still gets them all
    set.reset();                  // a new run follows nobody yet
    emit_take(bus, 7);
    bus.remove_sink(set);
    EXPECT_TRUE(f.takes.empty());
    // Fed singly, the monitor sees every take.
    FollowedTakes alone;
    bus.add_sink(alone);
    emit_take(bus, 5);
    bus.remove_sink(alone);
    EXPECT_EQ(alone.takes, std::vector<std::uint64_t>{5});
}

TEST(MonitorSet, PassesEveryTakeWhileAMonitorFollowsEveryTake) {
    MonitorSet set;
    auto every = std::make_unique<FollowedTakes>(true);
    FollowedTakes& e = *every;
    auto followed = std::make_unique<FollowedTakes>();
    FollowedTakes& f = *followed;
    set.add(std::move(every));
    set.add(std::move(followed));
    sim::TraceBus bus;
    bus.add_sink(set);
    emit_take(bus, 5); // nobody follows <5>: spared
    emit_send_from(bus, 9);
    emit_take(bus, 5); // after the send: every take reaches every monitor
    emit_take(bus, 6); // spared again
    emit_take(bus, 9); // followed by both
    EXPECT_EQ(e.takes, (std::vector<std::uint64_t>{5, 9}));
    EXPECT_EQ(f.takes, (std::vector<std::uint64_t>{5, 9}));
    emit_send_from(bus, 9);
    set.reset(); // a new run: no monitor follows every take
    emit_take(bus, 5);
    bus.remove_sink(set);
    EXPECT_TRUE(e.takes.empty());
    EXPECT_TRUE(f.takes.empty());
}

} // namespace
} // namespace routesim::properties
