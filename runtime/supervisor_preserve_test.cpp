// Goal: routesim's preserve_mailbox extension (SupervisorChildSpec::preserve_mailbox, not in
// Ergo 3.1.0, §6.1) carries exactly the documented messages to the next incarnation, in
// order, and accounts for every other one in the trace (`preserve`, `forward`, `drop`).
// Method: a one-for-one supervisor over a recording child; messages are queued behind a fatal
// one (or behind a kill) and the incarnations' takes, the node's stash and the trace are read.
#include <gtest/gtest.h>

#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

using act::SupervisorChildSpec;
using act::SupervisorSpec;
using act::SupervisorStrategy;
using testing::child_pid;
using testing::child_spec;
using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::run_inside;
using testing::supervisor_factory;
using testing::TestSupervisor;
using testing::Text;

PID spawn_supervisor(Fixture& f, const SupervisorSpec& spec) {
    auto result = f.node.spawn(supervisor_factory(spec, nullptr), {}, {});
    EXPECT_TRUE(result);
    return result ? result.value() : PID{};
}

Error boom() {
    return Error::text("boom");
}

struct Seen {
    PID pid;
    std::string value;
};

// A child that records the Text it takes and stops with boom on "crash".
SupervisorChildSpec preserving_child(std::vector<Seen>& seen, bool preserve) {
    SupervisorChildSpec spec{.name = Atom("p"), .preserve_mailbox = preserve};
    spec.factory = lambda_factory([&seen](LambdaActor& actor) {
        actor.on_message = [&seen](LambdaActor& self, const PID&,
                                   const Message& message) -> Status {
            const auto* text = message.get<Text>();
            if (text == nullptr) {
                return ok();
            }
            seen.push_back(Seen{self.self(), text->value});
            return text->value == "crash" ? stop(boom()) : ok();
        };
    });
    return spec;
}

std::vector<std::string> values_of(const std::vector<Seen>& seen, const PID& pid) {
    std::vector<std::string> values;
    for (const Seen& item : seen) {
        if (item.pid == pid) {
            values.push_back(item.value);
        }
    }
    return values;
}

// The messages queued behind the fatal one reach the restarted child, in order.
TEST(PreserveMailbox, QueuedMessagesReachTheRestartedChildInOrder) {
    Fixture f;
    std::vector<Seen> seen;
    SupervisorSpec spec;
    spec.children = {preserving_child(seen, true)};
    const PID sup = spawn_supervisor(f, spec);
    const PID first = child_pid(f.node, sup, "p");
    for (const char* value : {"crash", "m1", "m2"}) {
        ASSERT_TRUE(f.node.send(Atom("p"), Text{value}));
    }
    f.run();
    const PID second = child_pid(f.node, sup, "p");
    ASSERT_NE(second, first);
    EXPECT_EQ(values_of(seen, first), (std::vector<std::string>{"crash"}));
    EXPECT_EQ(values_of(seen, second), (std::vector<std::string>{"m1", "m2"}));
    EXPECT_EQ(f.events("preserve").size(), 2U);
    for (const auto& record : f.events("forward")) {
        EXPECT_EQ(record.number("by"), static_cast<std::int64_t>(sup.id));
    }
}

// Without the flag the same messages are dropped with the mailbox (§3.2).
TEST(PreserveMailbox, WithoutTheFlagQueuedMessagesAreDropped) {
    Fixture f;
    std::vector<Seen> seen;
    SupervisorSpec spec;
    spec.children = {preserving_child(seen, false)};
    const PID sup = spawn_supervisor(f, spec);
    for (const char* value : {"crash", "m1", "m2"}) {
        ASSERT_TRUE(f.node.send(Atom("p"), Text{value}));
    }
    f.run();
    EXPECT_TRUE(values_of(seen, child_pid(f.node, sup, "p")).empty());
    EXPECT_EQ(f.events("drop").size(), 2U);
    EXPECT_TRUE(f.events("preserve").empty());
}

// User messages of every queue survive in drain order (Urgent, System, Main); exit signals
// do not.
TEST(PreserveMailbox, UserMessagesSurviveAndExitSignalsDoNot) {
    Fixture f;
    std::vector<Seen> seen;
    SupervisorSpec spec;
    spec.children = {preserving_child(seen, true)};
    const PID sup = spawn_supervisor(f, spec);
    const PID first = child_pid(f.node, sup, "p");
    ASSERT_TRUE(f.node.send(first, Text{"main"}));
    ASSERT_TRUE(f.node.send(first, Text{"high"}, MessagePriority::High));
    ASSERT_TRUE(f.node.send(first, Text{"max"}, MessagePriority::Max));
    ASSERT_TRUE(f.node.send_exit(first, Error::text("late exit")));
    ASSERT_TRUE(f.node.kill(first)); // Zombee: torn down at its next step, mailbox full
    f.run();
    const PID second = child_pid(f.node, sup, "p");
    EXPECT_TRUE(values_of(seen, first).empty());
    EXPECT_EQ(values_of(seen, second), (std::vector<std::string>{"max", "high", "main"}));
    ASSERT_EQ(f.events("drop").size(), 1U);
    EXPECT_EQ(f.events("drop")[0].number("queue"), static_cast<std::int64_t>(Queue::Urgent));
    EXPECT_EQ(f.events("preserve").size(), 3U);
}

// A child that is not restarted keeps its messages for its next start (start_child).
TEST(PreserveMailbox, NextStartOfAStoppedChildReceivesTheMessages) {
    Fixture f;
    std::vector<Seen> seen;
    SupervisorSpec spec;
    spec.children = {preserving_child(seen, true), child_spec("other")};
    spec.restart.strategy = SupervisorStrategy::Temporary;
    const PID sup = spawn_supervisor(f, spec);
    for (const char* value : {"crash", "m1"}) {
        ASSERT_TRUE(f.node.send(Atom("p"), Text{value}));
    }
    f.run();
    EXPECT_TRUE(child_pid(f.node, sup, "p").empty());
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.start_child(Atom("p"))); });
    EXPECT_EQ(values_of(seen, child_pid(f.node, sup, "p")), (std::vector<std::string>{"m1"}));
}

// Messages never handed over are dropped when the supervisor terminates.
TEST(PreserveMailbox, KeptMessagesAreDroppedWithTheSupervisor) {
    Fixture f;
    std::vector<Seen> seen;
    SupervisorSpec spec;
    spec.children = {preserving_child(seen, true), child_spec("other")};
    spec.restart.strategy = SupervisorStrategy::Temporary;
    const PID sup = spawn_supervisor(f, spec);
    for (const char* value : {"crash", "m1"}) {
        ASSERT_TRUE(f.node.send(Atom("p"), Text{value}));
    }
    f.run();
    ASSERT_TRUE(f.node.kill(sup));
    f.run();
    ASSERT_EQ(f.events("drop").size(), 1U);
    EXPECT_EQ(f.events("drop")[0].text("reason"), "parent_terminated");
    EXPECT_TRUE(f.node.take_preserved(PID{}).empty());
}

} // namespace
} // namespace routesim::runtime
