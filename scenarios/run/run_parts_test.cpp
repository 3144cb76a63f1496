// Goal: the parts a run is composed of do their one job on their own, without run_scenario:
// SpecIndex classes each node for `faults.*.targets`, counts Inits per spec node (not per
// path) and finds the spec of each PID it was told of; FaultDraws keeps one PRNG stream per kind of
// draw (crash draws and armed crashes leave the terminate-cost and spawn-failure draws as they
// were, which is what lets a reproducer pin a crash and keep the rest of the run), and takes an
// armed crash once; Outcomes counts an action's first outcome once; the Timeline reports a pinned
// action whose step never came and a timed action the run stopped before, and checks a reached
// pin's `expect`. Method: the parts built by hand on a World and Node from small inline scenarios;
// their draws, tables and the verdicts in a Checks compared with what scenarios/FORMAT.md says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/detail/expectations.hpp"
#include "scenarios/run/detail/timeline.hpp"
#include "scenarios/run/detail/workload.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/testing.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios {
namespace {

using testing::load;

/// A temporary supervisor "sup" over a sink "a"; `rest` follows the topology (it must start
/// with a comma).
std::string with_sink(const std::string& rest) {
    return R"({"name": "parts", "topology": {"kind": "supervisor", "name": "sup",
        "restart": {"strategy": "temporary"}, "children": [
            {"kind": "actor", "name": "a", "behavior": {"type": "sink"}}]})" +
           rest + "}";
}

const std::string random_faults = R"(, "faults": {"crash": {"probability": 0.5},
    "spawn_fail": {"probability": 0.5}, "terminate_cost": {"max": "2ms"}})";

/// A World, a Node and the draws of a run of `scenario` under seed 5.
struct DrawRig {
    explicit DrawRig(const Scenario& scenario)
        : world(sim::WorldOptions{.seed = 5}), node(world, runtime::NodeOptions{}), specs(scenario),
          draws(node, scenario, specs) {}
    sim::World world;
    runtime::Node node;
    SpecIndex specs;
    FaultDraws draws;
};

/// Draws `count` terminate delays of `spec`; with `others`, a crash draw, an armed crash and
/// a spawn-failure draw between each two.
std::vector<std::int64_t> terminate_draws(DrawRig& rig, const Node& spec, bool others) {
    const FaultClasses& classes = rig.specs.classes(spec);
    runtime::PID pid;
    pid.id = 4242; // no process of the node: nothing is watched
    std::vector<std::int64_t> delays;
    for (int i = 0; i < 32; i++) {
        delays.push_back(rig.draws.draw_terminate_delay(spec, classes).count_ns());
        if (others) {
            (void)rig.draws.draw_crash(spec, classes, pid);
            rig.draws.arm_crash(pid);
            EXPECT_TRUE(rig.draws.take_armed_crash(pid));
            (void)rig.draws.draw_spawn_failure(spec, classes);
        }
    }
    return delays;
}

TEST(SpecIndex, ClassesInitsAndSpawnsAreKeptPerSpecNode) {
    const Scenario scenario = load(R"({"name": "specs", "topology": {"kind": "router",
        "name": "r", "routes": [{"name": "w",
            "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
        "route_message": {"by_type": {"X": "w"}}},
        "faults": {"crash": {"probability": 0.5, "targets": ["route_workers"]}},
        "timeline": [{"at": "1ms", "replace_route": {"router": "r", "name": "w",
            "worker": {"kind": "actor", "behavior": {"type": "echo"}}}}]})");
    SpecIndex specs(scenario);
    const Node& router = scenario.topology;
    const Node& worker = router.children.at(0);
    const FaultClasses& classes = specs.classes(worker);
    EXPECT_TRUE(classes.route_worker && classes.worker && classes.crash_hit);
    EXPECT_FALSE(classes.router || classes.pool || classes.pool_worker);
    EXPECT_TRUE(specs.classes(router).router);
    EXPECT_FALSE(specs.classes(router).crash_hit); // its targets name route workers only
    // The timeline's worker shares the path of the one it replaces but counts its own Inits.
    const Node& replacement = *scenario.timeline.at(0).worker;
    ASSERT_EQ(replacement.path, worker.path);
    EXPECT_EQ(specs.count_init(worker), 1U);
    EXPECT_EQ(specs.count_init(worker), 2U);
    EXPECT_EQ(specs.count_init(replacement), 1U);
    runtime::PID pid;
    pid.id = runtime::Node::first_pid_id + 3;
    EXPECT_EQ(specs.spec_of(pid), nullptr);
    specs.note_spawn(worker, pid);
    EXPECT_EQ(specs.spec_of(pid), &worker);
    EXPECT_EQ(specs.classes_of(pid), &classes);
    EXPECT_EQ(specs.stats(worker).incarnations, std::vector<runtime::PID>{pid});
    runtime::PID next = pid;
    next.id++;
    EXPECT_EQ(specs.spec_of(next), nullptr);
}

TEST(FaultDraws, CrashDrawsAndArmedCrashesLeaveTheTerminateDrawsAsTheyWere) {
    const Scenario scenario = load(with_sink(random_faults));
    const Node& worker = scenario.topology.children.at(0);
    DrawRig alone(scenario);
    DrawRig mixed(scenario);
    const std::vector<std::int64_t> plain = terminate_draws(alone, worker, false);
    EXPECT_EQ(terminate_draws(mixed, worker, true), plain);
    // Not a constant sequence: the draws do come from a stream.
    EXPECT_NE(std::count(plain.begin(), plain.end(), plain.front()),
              static_cast<std::ptrdiff_t>(plain.size()));
}

TEST(FaultDraws, SpawnFailureDrawsLeaveTheCrashDrawsAsTheyWere) {
    const Scenario scenario = load(with_sink(random_faults));
    const Node& worker = scenario.topology.children.at(0);
    runtime::PID pid;
    pid.id = 4242;
    const auto crashes = [&](DrawRig& rig, bool spawns) {
        const FaultClasses& classes = rig.specs.classes(worker);
        std::vector<bool> drawn;
        for (int i = 0; i < 64; i++) {
            drawn.push_back(rig.draws.draw_crash(worker, classes, pid));
            if (spawns) {
                (void)rig.draws.draw_spawn_failure(worker, classes);
            }
        }
        return drawn;
    };
    DrawRig alone(scenario);
    DrawRig mixed(scenario);
    const std::vector<bool> plain = crashes(alone, false);
    EXPECT_EQ(crashes(mixed, true), plain);
    EXPECT_NE(std::count(plain.begin(), plain.end(), true), 0);
    EXPECT_NE(std::count(plain.begin(), plain.end(), false), 0);
}

TEST(FaultDraws, AnArmedCrashIsTakenOnceAndOnlyByItsPid) {
    const Scenario scenario = load(with_sink(""));
    DrawRig rig(scenario);
    runtime::PID armed;
    armed.id = 77;
    runtime::PID other;
    other.id = 78;
    EXPECT_FALSE(rig.draws.take_armed_crash(armed));
    rig.draws.arm_crash(armed);
    EXPECT_FALSE(rig.draws.take_armed_crash(other));
    EXPECT_TRUE(rig.draws.take_armed_crash(armed));
    EXPECT_FALSE(rig.draws.take_armed_crash(armed));
    // No faults.crash: a worker never draws one.
    const Node& worker = scenario.topology.children.at(0);
    EXPECT_FALSE(rig.draws.draw_crash(worker, rig.specs.classes(worker), armed));
}

TEST(Outcomes, AnActionsFirstOutcomeCountsOnceAndIsToldOnce) {
    Outcomes outcomes;
    std::vector<std::string> told;
    outcomes.on_outcome = [&told](std::int64_t action, const TimedOutcome& outcome) {
        told.push_back(std::to_string(action) + ":" + outcome.result);
    };
    const sim::Instant at = sim::Instant::zero() + sim::Duration::milliseconds(3);
    outcomes.note_call(2, "ok", at);
    outcomes.note_call(2, "gen.ErrTimeout", at);  // a late second answer: ignored
    outcomes.note_admin(2, "gen.ErrUnknown", at); // another table
    EXPECT_EQ(told, (std::vector<std::string>{"2:ok", "2:gen.ErrUnknown"}));
    ASSERT_TRUE(outcomes.call_results().contains(2));
    EXPECT_EQ(outcomes.call_results().at(2).result, "ok");
    EXPECT_EQ(outcomes.call_results().at(2).at, at);
    EXPECT_EQ(outcomes.admin_results().at(2).result, "gen.ErrUnknown");
}

/// Every part a Timeline needs, as the Runner wires them (without faults or monitors).
struct TimelineRig {
    explicit TimelineRig(const Scenario& scenario)
        : world(sim::WorldOptions{.seed = 1}), node(world, runtime::NodeOptions{}),
          clock(world, node), specs(scenario), draws(node, scenario, specs), targets(node, specs),
          tally(false),
          checks(world), build{WorkerContext{specs, draws, targets, nullptr, scenario}, routers,
                               outcomes},
          client{node, draws, targets, clients, outcomes},
          workload(core(scenario), targets, clients, outcomes, nullptr),
          expectations(core(scenario), detail::Expectations::Links{targets, specs, clients, routers,
                                                                   tally, checks}),
          timeline(core(scenario), detail::Timeline::Links{specs, draws, targets, build, workload,
                                                           outcomes, expectations, checks}) {
        world.set_runner(clock);
        const Node& root = scenario.topology;
        EXPECT_TRUE(node.spawn_register(runtime::Atom(root.name), factory_for(build, root),
                                        options_for(root), {}));
        for (const std::string& name : scenario.clients) {
            EXPECT_TRUE(
                node.spawn_register(runtime::Atom(name), client_factory(client, name), {}, {}));
        }
        outcomes.on_outcome = [this](std::int64_t index, const TimedOutcome& outcome) {
            timeline.check_outcome(static_cast<std::uint32_t>(index), outcome.result);
        };
    }
    detail::RunCore core(const Scenario& scenario) {
        return detail::RunCore{world, node, scenario, clock};
    }
    /// The check made at `pointer`, or nullptr.
    const Check* check_at(const std::string& pointer) const {
        for (const Check& check : checks.all()) {
            if (check.pointer == pointer) {
                return &check;
            }
        }
        return nullptr;
    }

    sim::World world;
    runtime::Node node;
    detail::StepClock clock;
    SpecIndex specs;
    FaultDraws draws;
    Targets targets;
    ClientRecords clients;
    Outcomes outcomes;
    RouterRecords routers;
    Tally tally;
    detail::Checks checks;
    BuildContext build;
    ClientContext client;
    detail::Workload workload;
    detail::Expectations expectations;
    detail::Timeline timeline;
};

TEST(Timeline, APinnedActionWhoseStepNeverCameIsReportedAsNotReached) {
    // At 1ms the send to a is the only step: the pin at step 1 fires after it, the one at
    // step 5 never does.
    const Scenario scenario = load(with_sink(R"(, "timeline": [
        {"at": "1ms", "from": "c", "to": "a", "send": {"type": "X"}},
        {"at": "1ms", "step": 1, "from": "c", "to": "a", "send": {"type": "Y"},
         "expect": "ok"},
        {"at": "1ms", "step": 5, "from": "c", "to": "a", "send": {"type": "Z"}}])"));
    TimelineRig rig(scenario);
    rig.timeline.schedule();
    const sim::RunOutcome outcome = rig.world.run(std::nullopt);
    EXPECT_EQ(outcome.reason, sim::StopReason::Idle);
    EXPECT_EQ(rig.checks.all().size(), 1U); // the reached pin's expect
    rig.timeline.report_missed_pins();
    const Check* reached = rig.check_at("/timeline/1/expect");
    ASSERT_NE(reached, nullptr);
    EXPECT_TRUE(reached->ok) << reached->actual;
    const Check* missed = rig.check_at("/timeline/2/step");
    ASSERT_NE(missed, nullptr);
    EXPECT_FALSE(missed->ok);
    EXPECT_EQ(missed->what, "timeline send (due 1ms, step 5)");
    EXPECT_EQ(missed->expected, "fired");
    EXPECT_EQ(missed->actual, "not reached (the run had fewer process steps at that instant)");
    EXPECT_EQ(rig.checks.all().size(), 2U);
}

TEST(Timeline, ATimedActionAfterTheStopIsReportedOnlyWhenTheRunStoppedAtUntil) {
    const Scenario scenario = load(with_sink(R"(, "timeline": [
        {"at": "1ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"},
        {"at": "9ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"}])"));
    TimelineRig rig(scenario);
    rig.timeline.schedule();
    const sim::Instant until = sim::Instant::zero() + sim::Duration::milliseconds(5);
    const sim::RunOutcome outcome = rig.world.run(until);
    EXPECT_EQ(outcome.reason, sim::StopReason::Until);
    sim::RunOutcome idle = outcome;
    idle.reason = sim::StopReason::Idle;
    rig.timeline.report_actions_not_reached(idle);
    EXPECT_EQ(rig.check_at("/timeline/1/at"), nullptr); // an idle run performs every action
    rig.timeline.report_actions_not_reached(outcome);
    const Check* sent = rig.check_at("/timeline/0/expect");
    ASSERT_NE(sent, nullptr);
    EXPECT_TRUE(sent->ok);
    const Check* late = rig.check_at("/timeline/1/at");
    ASSERT_NE(late, nullptr);
    EXPECT_FALSE(late->ok);
    EXPECT_EQ(late->actual, "not reached: the run stopped at run.until (5ms)");
}

} // namespace
} // namespace routesim::scenarios
