// Goal: simple-one-for-one follows §6.4, §6.7 and §6.8: specs are
// templates, each start_child spawns a new unregistered instance, restarts use the spec's
// args, no auto-shutdown, disable/enable semantics, shutdown behaviour (including the
// wait-set quirk that is deliberately not copied), and preserve_mailbox on restarts.
// Method: TestSupervisor with SimpleOneForOne specs on a Fixture; management calls run
// inside the supervisor's callback; instances are crashed by sending them an Error.
#include <gtest/gtest.h>

#include "runtime/supervisor_testing.hpp"

namespace routesim::runtime {
namespace {

using act::SupervisorChild;
using act::SupervisorSpec;
using act::SupervisorStrategy;
using act::SupervisorType;
using testing::child_spec;
using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::run_inside;
using testing::supervisor_factory;
using testing::supervisor_of;
using testing::SupervisorLog;
using testing::TestSupervisor;
using testing::Text;

SupervisorSpec sofo_spec(std::vector<std::string>* starts = nullptr) {
    SupervisorSpec spec;
    spec.type = SupervisorType::SimpleOneForOne;
    spec.children = {child_spec("w", starts), child_spec("v")};
    return spec;
}

PID spawn_supervisor(Fixture& f, const SupervisorSpec& spec, SupervisorLog* log = nullptr) {
    auto result = f.node.spawn(supervisor_factory(spec, log), {}, {});
    EXPECT_TRUE(result);
    f.run();
    return result ? result.value() : PID{};
}

std::vector<SupervisorChild> children(Fixture& f, const PID& sup) {
    return supervisor_of(f.node, sup).children();
}

void start(Fixture& f, const PID& sup, const char* name, Args args = {}) {
    run_inside(f, sup, [name, args](TestSupervisor& self) {
        EXPECT_TRUE(self.start_child(Atom(name), args));
    });
}

Error boom() {
    return Error::text("boom");
}

// §6.7: Init starts nothing.
TEST(SimpleOneForOne, InitStartsNothing) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    EXPECT_TRUE(children(f, sup).empty());
    EXPECT_EQ(f.node.process_count(), 1U);
}

// §6.7: every start_child spawns a new unregistered instance.
TEST(SimpleOneForOne, StartChildSpawnsANewUnregisteredInstance) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    start(f, sup, "w");
    start(f, sup, "w");
    const auto listing = children(f, sup);
    ASSERT_EQ(listing.size(), 2U);
    EXPECT_NE(listing[0].pid, listing[1].pid);
    EXPECT_TRUE(listing[0].name.empty());
    EXPECT_TRUE(f.node.registered().empty());
}

// §6.7: children() lists running instances by spec index, then PID id.
TEST(SimpleOneForOne, ChildrenAreSortedBySpecThenPid) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    start(f, sup, "v");
    start(f, sup, "w");
    start(f, sup, "v");
    const auto listing = children(f, sup);
    ASSERT_EQ(listing.size(), 3U);
    EXPECT_EQ(listing[0].spec, Atom("w"));
    EXPECT_EQ(listing[1].spec, Atom("v"));
    EXPECT_EQ(listing[2].spec, Atom("v"));
    EXPECT_LT(listing[1].pid.id, listing[2].pid.id);
}

// §6.7: start_child args are for that instance only; restarts use the spec's stored args.
TEST(SimpleOneForOne, RestartsUseTheSpecArgsNotTheInstanceArgs) {
    Fixture f;
    std::vector<std::string> starts;
    const PID sup = spawn_supervisor(f, sofo_spec(&starts));
    start(f, sup, "w", Args{Text{"mine"}});
    ASSERT_TRUE(f.node.send(children(f, sup)[0].pid, boom()));
    f.run();
    EXPECT_EQ(starts, (std::vector<std::string>{"mine", ""}));
    EXPECT_EQ(children(f, sup).size(), 1U);
}

// §6.7 (t009): AddChild stores the template without starting it.
TEST(SimpleOneForOne, AddChildStoresTheTemplateOnly) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.add_child(child_spec("u")));
        results.push_back(self.add_child(child_spec("u")));
    });
    EXPECT_TRUE(results[0]);
    EXPECT_TRUE(results[1].error().is(Err::SupervisorChildDuplicate));
    EXPECT_TRUE(children(f, sup).empty());
    start(f, sup, "u");
    EXPECT_EQ(children(f, sup).size(), 1U);
}

// §6.7: no auto-shutdown; the supervisor stays alive with zero children.
TEST(SimpleOneForOne, StaysAliveWithZeroChildren) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    start(f, sup, "w");
    ASSERT_TRUE(f.node.send(children(f, sup)[0].pid, Error::normal()));
    f.run();
    EXPECT_TRUE(children(f, sup).empty());
    EXPECT_NE(f.node.find(sup), nullptr);
}

// §6.7: Temporary instances are never restarted.
TEST(SimpleOneForOne, TemporaryInstancesAreNotRestarted) {
    Fixture f;
    SupervisorSpec spec = sofo_spec();
    spec.restart.strategy = SupervisorStrategy::Temporary;
    const PID sup = spawn_supervisor(f, spec);
    start(f, sup, "w");
    ASSERT_TRUE(f.node.send(children(f, sup)[0].pid, boom()));
    f.run();
    EXPECT_TRUE(children(f, sup).empty());
}

// §6.7: DisableChild flags the spec and stops every instance with Shutdown; start_child on
// it is then ChildDisabled; EnableChild only clears the flag.
TEST(SimpleOneForOne, DisableStopsInstancesAndEnableOnlyClears) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = sofo_spec();
    spec.enable_handle_child = true;
    spec.restart.strategy = SupervisorStrategy::Permanent;
    const PID sup = spawn_supervisor(f, spec, &log);
    start(f, sup, "w");
    start(f, sup, "w");
    start(f, sup, "v");
    Status refused;
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("w"))); });
    run_inside(f, sup, [&refused](TestSupervisor& self) { refused = self.start_child(Atom("w")); });
    ASSERT_EQ(children(f, sup).size(), 1U);
    EXPECT_EQ(children(f, sup)[0].spec, Atom("v"));
    EXPECT_TRUE(refused.error().is(Err::SupervisorChildDisabled));
    EXPECT_EQ(log.stopped.size(), 2U);
    EXPECT_TRUE(log.stopped[0].second.is(TerminateReason::Shutdown));
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.enable_child(Atom("w"))); });
    EXPECT_EQ(children(f, sup).size(), 1U);
    start(f, sup, "w");
    EXPECT_EQ(children(f, sup).size(), 2U);
}

// §6.8: unknown specs are reported by every call.
TEST(SimpleOneForOne, UnknownSpecIsChildUnknown) {
    Fixture f;
    const PID sup = spawn_supervisor(f, sofo_spec());
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.start_child(Atom("x")));
        results.push_back(self.enable_child(Atom("x")));
        results.push_back(self.disable_child(Atom("x")));
    });
    for (const Status& result : results) {
        EXPECT_TRUE(result.error().is(Err::SupervisorChildUnknown));
    }
}

// §6.7: a non-child exit stops every instance with that reason, then the supervisor ends
// with it.
TEST(SimpleOneForOne, NonChildExitStopsAllInstancesThenTerminates) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = sofo_spec();
    spec.enable_handle_child = true;
    const PID sup = spawn_supervisor(f, spec, &log);
    start(f, sup, "w");
    start(f, sup, "v");
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("my exit")));
    f.run();
    EXPECT_EQ(*log.terminated, Error::text("my exit"));
    EXPECT_EQ(f.node.process_count(), 0U);
}

// §6.4: SOFO ends with ErrSupervisorRestartsExceeded even with other instances running.
TEST(SimpleOneForOne, ExceededIntensityEndsWithRestartsExceeded) {
    Fixture f;
    SupervisorLog log;
    SupervisorSpec spec = sofo_spec();
    spec.restart.intensity = 1;
    const PID sup = spawn_supervisor(f, spec, &log);
    start(f, sup, "w");
    start(f, sup, "v");
    for (int i = 0; i < 2; i++) {
        ASSERT_TRUE(f.node.send(children(f, sup)[0].pid, boom()));
        f.run();
    }
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_TRUE(log.terminated->is(Err::SupervisorRestartsExceeded));
    EXPECT_EQ(f.node.process_count(), 0U);
}

// §6.7: while shutting down, start_child returns nil without starting; the others fail
// with "shutting down".
TEST(SimpleOneForOne, WhileShuttingDownStartIsNilAndOthersFail) {
    Fixture f;
    SupervisorSpec spec = sofo_spec();
    spec.children[0].factory = lambda_factory([](LambdaActor& actor) {
        actor.on_message = [](LambdaActor& self, const PID&, const Message&) {
            self.process().busy_for(sim::Duration::seconds(1));
            return ok();
        };
    });
    const PID sup = spawn_supervisor(f, spec);
    start(f, sup, "w");
    ASSERT_TRUE(f.node.send(children(f, sup)[0].pid, Text{"work"}));
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("bye")));
    f.run(sim::Instant::zero() + sim::Duration::milliseconds(500));
    std::vector<Status> results;
    run_inside(f, sup, [&results](TestSupervisor& self) {
        results.push_back(self.start_child(Atom("v")));
        results.push_back(self.add_child(child_spec("u")));
        results.push_back(self.enable_child(Atom("v")));
        results.push_back(self.disable_child(Atom("v")));
    });
    ASSERT_EQ(results.size(), 4U);
    EXPECT_TRUE(results[0]);
    for (std::size_t i = 1; i < results.size(); i++) {
        EXPECT_EQ(results[i].error().message(), "shutting down");
    }
    EXPECT_EQ(f.node.process_count(), 0U); // the busy instance stopped at 1 s, then the sup
}

// §6.7 quirk not copied: instances stopped by DisableChild are not left in the shutdown
// wait set, so a later shutdown completes.
TEST(SimpleOneForOne, LaterShutdownDoesNotWaitForDisabledInstances) {
    Fixture f;
    SupervisorLog log;
    const PID sup = spawn_supervisor(f, sofo_spec(), &log);
    start(f, sup, "w");
    run_inside(f, sup, [](TestSupervisor& self) { EXPECT_TRUE(self.disable_child(Atom("w"))); });
    start(f, sup, "v");
    ASSERT_TRUE(f.node.send_exit(sup, Error::text("bye")));
    f.run();
    ASSERT_TRUE(log.terminated.has_value());
    EXPECT_EQ(*log.terminated, Error::text("bye"));
}

// preserve_mailbox under SOFO: a restart hands the kept messages to the replacement; an
// instance that is not restarted has them dropped at once.
TEST(SimpleOneForOne, PreservedMailboxGoesOnlyToARestartReplacement) {
    Fixture f;
    std::vector<std::pair<PID, std::string>> seen;
    SupervisorSpec spec = sofo_spec();
    spec.children[0].preserve_mailbox = true;
    spec.children[0].factory = lambda_factory([&seen](LambdaActor& actor) {
        actor.on_message = [&seen](LambdaActor& self, const PID&,
                                   const Message& message) -> Status {
            const std::string value = message.get<Text>()->value;
            seen.emplace_back(self.self(), value);
            if (value == "crash") {
                return stop(boom());
            }
            return value == "quit" ? stop(Error::normal()) : ok();
        };
    });
    const PID sup = spawn_supervisor(f, spec);
    start(f, sup, "w");
    const PID first = children(f, sup)[0].pid;
    ASSERT_TRUE(f.node.send(first, Text{"crash"}));
    ASSERT_TRUE(f.node.send(first, Text{"kept"}));
    f.run();
    const PID second = children(f, sup)[0].pid;
    ASSERT_NE(second, first);
    EXPECT_EQ(seen.back(), std::make_pair(second, std::string("kept")));
    ASSERT_TRUE(f.node.send(second, Text{"quit"}));
    ASSERT_TRUE(f.node.send(second, Text{"lost"}));
    f.run();
    EXPECT_TRUE(children(f, sup).empty());
    ASSERT_EQ(f.events("drop").size(), 1U);
    EXPECT_EQ(f.events("drop")[0].text("reason"), "not_restarted");
}

} // namespace
} // namespace routesim::runtime
