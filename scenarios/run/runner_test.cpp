// Goal: timeline actions and faults do what scenarios/FORMAT.md says for every value it lists:
// a send's or call's `expect` is compared with that send's or call's outcome, a client stopped
// by the timeline gets errors instead of crashing the run, `fail_spawns` accepts any name of a
// topology node and any node kind, and `spawn_fail` hits the classes its `targets` list.
// Method: small inline scenarios run with run_scenario; the checks, client records and route
// tables of the result are compared with the outcome the spec gives.
#include <gtest/gtest.h>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/testing.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios {
namespace {

using testing::check_at;
using testing::load;

/// The events of kind `kind` in a run's trace, in order.
std::vector<sim::TraceRecord> events(const sim::MemorySink& sink, std::string_view kind) {
    std::vector<sim::TraceRecord> out;
    for (const sim::TraceRecord& record : sink.records()) {
        if (record.kind == kind) {
            out.push_back(record);
        }
    }
    return out;
}

/// The exits with reason "panic", in order.
std::vector<sim::TraceRecord> panics(const sim::MemorySink& sink) {
    std::vector<sim::TraceRecord> out;
    for (const sim::TraceRecord& exit : events(sink, "exit")) {
        if (exit.text("reason") == "panic") {
            out.push_back(exit);
        }
    }
    return out;
}

/// Runs `scenario` with its whole trace kept in `sink`.
RunResult run_traced(const Scenario& scenario, sim::MemorySink& sink) {
    RunSettings settings;
    settings.extra_sinks.push_back(&sink);
    return run_scenario(scenario, settings);
}

const RouteRow* route_named(const RunResult& result, std::string_view router,
                            std::string_view route) {
    for (const RouterSummary& summary : result.routers) {
        if (summary.path != router) {
            continue;
        }
        for (const RouteRow& row : summary.routes) {
            if (row.name == route) {
                return &row;
            }
        }
    }
    return nullptr;
}

/// A temporary supervisor "sup" over a sink "a" and a sink "mute" that never answers calls;
/// `rest` follows the topology (it must start with a comma).
std::string with_sinks(std::string_view rest) {
    return std::string(R"({"name": "runner", "topology": {"kind": "supervisor", "name": "sup",
        "restart": {"strategy": "temporary"}, "children": [
            {"kind": "actor", "name": "a", "behavior": {"type": "sink"}},
            {"kind": "actor", "name": "mute",
             "behavior": {"type": "sink", "ignore_calls": true}}]})") +
           std::string(rest) + "}";
}

TEST(RunnerTimeline, SendExpectIsComparedWithTheSendOutcome) {
    const Scenario scenario = load(with_sinks(R"(, "timeline": [
        {"at": "1ms", "kill": "a"},
        {"at": "2ms", "from": "c", "to": "a", "send": {"type": "X"},
         "expect": "gen.ErrProcessUnknown"},
        {"at": "2ms", "from": "c", "to": "mute", "send": {"type": "X"}, "expect": "ok"},
        {"at": "2ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"}])"));
    const RunResult result = run_scenario(scenario);
    const Check* unknown = check_at(result, "/timeline/1/expect");
    ASSERT_NE(unknown, nullptr) << format_summary(scenario, result);
    EXPECT_TRUE(unknown->ok) << unknown->actual;
    const Check* delivered = check_at(result, "/timeline/2/expect");
    ASSERT_NE(delivered, nullptr);
    EXPECT_TRUE(delivered->ok) << delivered->actual;
    const Check* wrong = check_at(result, "/timeline/3/expect");
    ASSERT_NE(wrong, nullptr);
    EXPECT_FALSE(wrong->ok);
    EXPECT_EQ(wrong->actual, "gen.ErrProcessUnknown");
    EXPECT_EQ(wrong->what, "timeline send (due 2ms)"); // the summary adds "at <checked>"
    EXPECT_FALSE(result.passed());
}

TEST(RunnerTimeline, CallExpectIsComparedWithTheCallOutcome) {
    const Scenario scenario = load(with_sinks(R"(, "timeline": [
        {"at": "1ms", "from": "c1", "to": "mute", "call": {"type": "Q"}, "timeout": "1ms",
         "expect": "gen.ErrTimeout"},
        {"at": "1ms", "from": "c2", "to": "a", "call": {"type": "Q"}, "expect": "ok"},
        {"at": "3ms", "kill": "a"},
        {"at": "4ms", "from": "c2", "to": "a", "call": {"type": "Q"}, "expect": "ok"}],
        "expect": {"clients": {"c1": {"errors": {"gen.ErrTimeout": 1}},
                               "c2": {"received": 1, "types": {"Ack": 1}}}})"));
    const RunResult result = run_scenario(scenario);
    const Check* timeout = check_at(result, "/timeline/0/expect");
    ASSERT_NE(timeout, nullptr) << format_summary(scenario, result);
    EXPECT_TRUE(timeout->ok) << timeout->actual;
    const Check* answered = check_at(result, "/timeline/1/expect");
    ASSERT_NE(answered, nullptr);
    EXPECT_TRUE(answered->ok) << answered->actual;
    const Check* dead = check_at(result, "/timeline/3/expect");
    ASSERT_NE(dead, nullptr);
    EXPECT_FALSE(dead->ok);
    EXPECT_EQ(dead->actual, "gen.ErrProcessUnknown");
}

TEST(RunnerClients, StoppedClientRecordsNotAllowedInsteadOfCrashing) {
    // The timeline fires before the workload at an instant, so c is dead before its first
    // send; its later sends and calls (workload and timeline) fail the same way.
    const Scenario scenario = load(with_sinks(R"(,
        "workload": [{"from": "c", "to": "a", "send": {"type": "X"}, "count": 2, "every": "1ms"},
                     {"from": "c", "to": "a", "call": {"type": "Q"}, "at": "1ms"}],
        "timeline": [{"at": "0ns", "kill": "c", "expect": "ok"},
                     {"at": "2ms", "from": "c", "to": "a", "send": {"type": "X"},
                      "expect": "gen.ErrNotAllowed"},
                     {"at": "2ms", "from": "c", "to": "a", "call": {"type": "X"},
                      "expect": "gen.ErrNotAllowed"},
                     {"at": "3ms", "exit": {"target": "d", "reason": "shutdown"}},
                     {"at": "4ms", "from": "d", "to": "a", "send": {"type": "X"}}],
        "expect": {"clients": {"c": {"received": 0, "errors": {"gen.ErrNotAllowed": 5}},
                               "d": {"errors": {"gen.ErrNotAllowed": 1}}},
                   "processed": {"a": 0}})"));
    const RunResult result = run_scenario(scenario);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
}

/// A router "r" whose route "x" is `worker`, and a timeline that sets one failing spawn on
/// `node` and kills the route's worker: the eager respawn fails and leaves the route dead.
std::string fail_one_spawn(std::string_view worker, std::string_view node) {
    return R"({"name": "fail-spawns", "topology": {"kind": "router", "name": "r",
        "routes": [{"name": "x", "worker": )" +
           std::string(worker) + R"(}]},
        "timeline": [{"at": "1ms", "fail_spawns": {"node": ")" +
           std::string(node) + R"(", "count": 1}},
                     {"at": "2ms", "kill": "r/x"}]})";
}

TEST(RunnerFailSpawns, RegisteredNameWorksLikeThePath) {
    // fail_spawns names a topology node by its tree path or by its registered name, and both
    // fail the same spawn. A route's worker has no name (R5), so the node is a supervisor's
    // child: its restart after the kill fails in Init.
    const auto text = [](std::string_view node) {
        return R"({"name": "fail-spawns", "topology": {"kind": "supervisor", "name": "sup",
            "children": [{"kind": "actor", "name": "w", "behavior": {"type": "sink"}}]},
            "timeline": [{"at": "1ms", "fail_spawns": {"node": ")" +
               std::string(node) + R"(", "count": 1}},
                         {"at": "2ms", "kill": "w"}],
            "expect": {"dead": ["w"]}})";
    };
    std::vector<std::uint64_t> hashes;
    for (std::string_view node : {"sup/w", "w"}) {
        const Scenario scenario = load(text(node));
        ASSERT_EQ(scenario.timeline[0].node, "sup/w");
        const RunResult result = run_scenario(scenario);
        EXPECT_TRUE(result.passed()) << "fail_spawns node " << node << "\n"
                                     << format_summary(scenario, result);
        hashes.push_back(result.trace_hash);
    }
    EXPECT_EQ(hashes[0], hashes[1]);
}

TEST(RunnerFailSpawns, RouterPoolAndSupervisorSpawnsFail) {
    for (std::string_view worker :
         {R"({"kind": "router", "routes": [{"name": "y", "worker": {"kind": "actor",
              "behavior": {"type": "sink"}}}]})",
          R"({"kind": "pool", "size": 1,
              "worker": {"kind": "actor", "behavior": {"type": "sink"}}})",
          R"({"kind": "supervisor", "children": [{"kind": "actor", "name": "kid",
              "behavior": {"type": "sink"}}]})"}) {
        const Scenario scenario = load(fail_one_spawn(worker, "r/x"));
        const RunResult result = run_scenario(scenario);
        const RouteRow* route = route_named(result, "r", "x");
        ASSERT_NE(route, nullptr) << format_summary(scenario, result);
        EXPECT_EQ(route->state, "dead") << worker;
    }
}

TEST(RunnerSpawnFail, TargetsReachRoutersPoolsAndSupervisors) {
    // Probability 1 on the listed class: the root of that class cannot start; workers (the
    // default class) are not hit when targets are listed.
    const std::string tree = R"({"kind": "router", "name": "root", "routes": [{"name": "x",
        "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]})";
    const auto with_targets = [&](std::string_view targets, std::string_view root) {
        return R"({"name": "spawn-fail", "topology": )" + std::string(root) +
               R"(, "faults": {"spawn_fail": {"probability": 1, "targets": )" +
               std::string(targets) + "}}}";
    };
    const std::string pool = R"({"kind": "pool", "name": "root", "size": 1,
        "worker": {"kind": "actor", "behavior": {"type": "sink"}}})";
    const std::string supervisor = R"({"kind": "supervisor", "name": "root",
        "children": [{"kind": "actor", "name": "kid", "behavior": {"type": "sink"}}]})";
    EXPECT_NE(run_scenario(load(with_targets(R"(["routers"])", tree))).root_failure, "");
    EXPECT_NE(run_scenario(load(with_targets(R"(["pools"])", pool))).root_failure, "");
    EXPECT_NE(run_scenario(load(with_targets(R"(["supervisors"])", supervisor))).root_failure, "");
    EXPECT_EQ(run_scenario(load(with_targets(R"(["pools"])", tree))).root_failure, "");
}

TEST(RunnerFaults, HugeEveryNeitherOverflowsNorAborts) {
    // Gaps are drawn in [0, 2 x every]; an `every` above half the largest duration used to
    // overflow the doubled bound and fail an assertion in the PRNG.
    const Scenario scenario = load(R"({"name": "huge-every", "run": {"until": "1s"},
        "topology": {"kind": "router", "name": "r", "routes": [{"name": "a",
            "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]},
        "workload": [{"from": "c", "to": "r", "send": {"type": "X"}, "count": 3}],
        "faults": {"kill": {"targets": ["workers"], "every": 9223372036854775807},
                   "admin": {"routers": ["r"], "every": "5000000000s"}}})");
    const RunResult result = run_scenario(scenario);
    EXPECT_EQ(result.outcome.reason, sim::StopReason::Until) << format_summary(scenario, result);
    EXPECT_TRUE(result.faults.empty());
}

// `until` is a time or "idle": RunSettings::until cuts a run the file lets go to idle, and
// RunSettings::until_idle lets a run the file cuts go on to idle (`--until idle`).
TEST(RunnerSettings, UntilIdleOverridesTheFilesStopTime) {
    const Scenario scenario = load(with_sinks(R"(, "run": {"until": "1ms"}, "workload": [
        {"from": "c", "to": "a", "send": {"type": "X"}, "count": 5, "every": "1ms"}])"));
    const RunResult cut = run_scenario(scenario);
    EXPECT_EQ(cut.outcome.reason, sim::StopReason::Until);
    EXPECT_EQ(cut.outcome.end, sim::Instant::zero() + sim::Duration::milliseconds(1));
    RunSettings idle;
    idle.until_idle = true;
    idle.until = sim::Instant::zero() + sim::Duration::milliseconds(2); // until_idle wins
    const RunResult whole = run_scenario(scenario, idle);
    EXPECT_EQ(whole.outcome.reason, sim::StopReason::Idle);
    EXPECT_EQ(whole.outcome.end, sim::Instant::zero() + sim::Duration::milliseconds(4));
    RunSettings shorter;
    shorter.until = sim::Instant::zero() + sim::Duration::microseconds(500);
    EXPECT_EQ(run_scenario(scenario, shorter).outcome.end,
              sim::Instant::zero() + sim::Duration::microseconds(500));
}

// -- crash on every node kind (scenarios/FORMAT.md timeline `crash`: "the process panics on
// its next message"; `faults.crash` hits the classes its `targets` list) ----------------------

TEST(RunnerCrash, PoolPanicsOnItsNextMessageAndItsSupervisorRestartsIt) {
    // §5: the pool terminates with Panic; its workers follow through their
    // LinkParent; the transient supervisor restarts the pool (Panic is abnormal, §6.1).
    const Scenario scenario = load(R"({"name": "crash-pool", "topology": {"kind": "supervisor",
        "name": "sup", "restart": {"strategy": "transient"}, "children": [
            {"kind": "pool", "name": "p", "size": 2,
             "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]},
        "timeline": [{"at": "1ms", "crash": "p"},
                     {"at": "2ms", "from": "c", "to": "p", "send": {"type": "X"}},
                     {"at": "3ms", "from": "c", "to": "p", "send": {"type": "X"}}],
        "expect": {"alive": ["sup", "p", "p/#0", "p/#1"],
                   "inspect": {"p": {"ergo:messages_forwarded": "1"}}}})");
    sim::MemorySink sink;
    const RunResult result = run_traced(scenario, sink);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    const auto panicked = panics(sink);
    ASSERT_EQ(panicked.size(), 1U) << format_summary(scenario, result);
    EXPECT_EQ(panicked[0].text("name"), "p");
    EXPECT_EQ(panicked[0].at, sim::Instant::zero() + sim::Duration::milliseconds(2));
    // Two pools and four workers were spawned: the restart made a fresh pool.
    std::size_t pools = 0;
    for (const sim::TraceRecord& spawn : events(sink, "spawn")) {
        pools += spawn.text("name") == "p" ? 1U : 0U;
    }
    EXPECT_EQ(pools, 2U);
}

TEST(RunnerCrash, SupervisorPanicIsAGracefulShutdownThenItsParentRestartsIt) {
    // §6.2: a panic in a supervisor's loop stops its children first, then
    // the supervisor terminates with Panic; its own supervisor restarts it with its children.
    const Scenario scenario = load(R"({"name": "crash-supervisor", "topology": {
        "kind": "supervisor", "name": "root", "restart": {"strategy": "transient"},
        "children": [{"kind": "supervisor", "name": "inner", "restart": {"strategy": "transient"},
            "children": [{"kind": "actor", "name": "kid", "behavior": {"type": "sink"}}]}]},
        "timeline": [{"at": "1ms", "crash": "inner"},
                     {"at": "2ms", "from": "c", "to": "inner", "send": {"type": "Poke"}}],
        "expect": {"alive": ["root", "inner", "kid"]}})");
    sim::MemorySink sink;
    const RunResult result = run_traced(scenario, sink);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    const auto panicked = panics(sink);
    ASSERT_EQ(panicked.size(), 1U) << format_summary(scenario, result);
    EXPECT_EQ(panicked[0].text("name"), "inner");
    ASSERT_EQ(events(sink, "sup_shutdown").size(), 1U);
    std::uint64_t kid_exit = 0;
    std::size_t kids = 0;
    for (const sim::TraceRecord& exit : events(sink, "exit")) {
        kid_exit = exit.text("name") == "kid" && kid_exit == 0 ? exit.seq : kid_exit;
    }
    for (const sim::TraceRecord& spawn : events(sink, "spawn")) {
        kids += spawn.text("name") == "kid" ? 1U : 0U;
    }
    EXPECT_NE(kid_exit, 0U);
    EXPECT_LT(kid_exit, panicked[0].seq); // graceful: the child is gone before the supervisor
    EXPECT_EQ(kids, 2U);
}

TEST(RunnerCrash, ClientPanicsOnItsNextMessage) {
    // The client is a plain actor: it panics on the next message it receives (here a
    // receipt), not on the driver's order to make a call, and its later sends are refused
    // like those of any stopped client.
    const Scenario scenario = load(R"({"name": "crash-client", "topology": {"kind": "actor",
        "name": "e", "behavior": {"type": "echo", "reply": true}},
        "timeline": [{"at": "1ms", "crash": "c"},
                     {"at": "2ms", "from": "c", "to": "e", "call": {"type": "Q"},
                      "expect": "ok"},
                     {"at": "3ms", "from": "c", "to": "e", "send": {"type": "X"}},
                     {"at": "4ms", "from": "c", "to": "e", "send": {"type": "X"},
                      "expect": "gen.ErrNotAllowed"}],
        "expect": {"alive": ["e"], "clients": {"c": {"received": 2,
                   "types": {"Reply": 1, "Receipt": 1}, "errors": {"gen.ErrNotAllowed": 1}}}}})");
    sim::MemorySink sink;
    const RunResult result = run_traced(scenario, sink);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    const auto panicked = panics(sink);
    ASSERT_EQ(panicked.size(), 1U) << format_summary(scenario, result);
    EXPECT_EQ(panicked[0].text("name"), "c");
    EXPECT_EQ(panicked[0].at, sim::Instant::zero() + sim::Duration::milliseconds(3));
}

TEST(RunnerCrash, DrawnCrashTargetsLeadBackToTheirVictims) {
    // A fault's target is the path from a registered ancestor that resolve_target brings back
    // to the victim: "router/route" and "sup/pool/#k" are pinnable; a route name with a '/'
    // would be split on the way back, so that victim is recorded by pid, not pinnable.
    const Scenario routed = load(R"({"name": "crash-targets",
        "topology": {"kind": "router", "name": "r",
            "routes": [{"name": "odd/name", "worker": {"kind": "actor", "behavior": {"type": "sink"}}},
                       {"name": "plain", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
            "route_message": {"field": "target"}},
        "workload": [{"from": "c", "to": "r", "send": {"type": "X", "target": "plain"}},
                     {"from": "c", "to": "r", "send": {"type": "X", "target": "odd/name"}, "at": "1ms"}],
        "faults": {"crash": {"probability": 1, "targets": ["route_workers"]}}})");
    const RunResult result = run_scenario(routed);
    ASSERT_EQ(result.faults.size(), 2U) << format_summary(routed, result);
    EXPECT_EQ(result.faults[0].target, "r/plain");
    EXPECT_TRUE(result.faults[0].pinnable);
    EXPECT_TRUE(result.faults[1].target.starts_with("<")) << result.faults[1].target;
    EXPECT_FALSE(result.faults[1].pinnable);

    const Scenario pooled = load(R"({"name": "crash-targets",
        "topology": {"kind": "supervisor", "name": "root",
            "children": [{"kind": "pool", "name": "p", "size": 2,
                          "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]},
        "workload": [{"from": "c", "to": "p", "send": {"type": "X"}}],
        "faults": {"crash": {"probability": 1, "targets": ["pool_workers"]}}})");
    const RunResult pool_result = run_scenario(pooled);
    ASSERT_EQ(pool_result.faults.size(), 1U) << format_summary(pooled, pool_result);
    EXPECT_EQ(pool_result.faults[0].target, "p/#0");
    EXPECT_TRUE(pool_result.faults[0].pinnable);
}

TEST(MessageCacheFaultWorkers, OneCopyPerPathWithItsSubtreeMoved) {
    // A campaign keeps the worker spec of a random add_route / replace_route fault once per
    // "<router>/<route>" path: every run that adds that route gets the same node, whose
    // subtree lies under the new path as a pinned timeline worker's would.
    const Scenario scenario = load(R"({"name": "fault-workers",
        "topology": {"kind": "router", "name": "r",
            "routes": [{"name": "a", "worker": {"kind": "pool", "size": 1,
                "worker": {"kind": "actor", "behavior": {"type": "sink"}}}}],
            "route_message": {"route": "a"}}})");
    MessageCache cache(scenario);
    const Node& spec = scenario.topology.children.front();
    const Node* first = cache.fault_worker(spec, "r/fault:0");
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(cache.fault_worker(spec, "r/fault:0"), first);
    EXPECT_EQ(first->path, "r/fault:0");
    ASSERT_EQ(first->children.size(), 1U);
    EXPECT_EQ(first->children.front().path, "r/fault:0/#*");
    EXPECT_EQ(first->children.front().behaviour.type, spec.children.front().behaviour.type);
    const Node* second = cache.fault_worker(spec, "r/fault:1");
    EXPECT_NE(second, first);
    EXPECT_EQ(second->path, "r/fault:1");
    EXPECT_EQ(spec.path, "r/a"); // the scenario's own node is left as it was
}

TEST(RunnerCrash, RandomCrashesHitListedPoolsAndSupervisors) {
    // `faults.crash` with probability 1 and targets: a listed class panics at its first
    // message; the draw is recorded as a pinnable fault.
    const auto with_targets = [](std::string_view targets, std::string_view root) {
        return load(R"({"name": "random-crash", "topology": )" + std::string(root) +
                    R"(, "workload": [{"from": "c", "to": "root", "send": {"type": "X"}}],
                    "faults": {"crash": {"probability": 1, "targets": )" +
                    std::string(targets) + "}}}");
    };
    const std::string pool = R"({"kind": "pool", "name": "root", "size": 1,
        "worker": {"kind": "actor", "behavior": {"type": "sink"}}})";
    const std::string supervisor = R"({"kind": "supervisor", "name": "root",
        "children": [{"kind": "actor", "name": "kid", "behavior": {"type": "sink"}}]})";
    for (const auto& [targets, root] :
         {std::pair{"[\"pools\"]", pool}, std::pair{"[\"supervisors\"]", supervisor}}) {
        const Scenario scenario = with_targets(targets, root);
        sim::MemorySink sink;
        const RunResult result = run_traced(scenario, sink);
        const auto panicked = panics(sink);
        ASSERT_EQ(panicked.size(), 1U) << targets << "\n" << format_summary(scenario, result);
        EXPECT_EQ(panicked[0].text("name"), "root");
        ASSERT_EQ(result.faults.size(), 1U);
        EXPECT_EQ(result.faults[0].verb, Verb::Crash);
        EXPECT_EQ(result.faults[0].target, "root");
        EXPECT_EQ(result.faults[0].origin, "faults.crash");
    }
    // Not listed: the same pool is not hit.
    sim::MemorySink sink;
    (void)run_traced(with_targets(R"(["supervisors"])", pool), sink);
    EXPECT_TRUE(panics(sink).empty());
}

// -- workload generators at any depth (scenarios/FORMAT.md Values: "a field value "$i" ...") --

TEST(RunnerWorkload, GeneratorsApplyToNestedPayloadValues) {
    // The router hashes on "key" and traces the hashed value as compact JSON (route_key), so
    // the trace shows each message's "key" object after substitution.
    const Scenario scenario = load(R"({"name": "nested-generators", "topology": {
        "kind": "router", "name": "r",
        "route_message": {"hash": "key", "routes": ["a"]},
        "routes": [{"name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]},
        "workload": [{"from": "c", "to": "r", "count": 2, "send": {"type": "X",
            "key": {"i": "$i", "deep": {"u": {"uniform": [7, 7]}},
                    "list": ["$i", {"uniform": [3, 3]}]}}}]})");
    sim::MemorySink sink;
    const RunResult result = run_traced(scenario, sink);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
    const auto keys = events(sink, "route_key");
    ASSERT_EQ(keys.size(), 2U);
    EXPECT_EQ(keys[0].text("key"), R"({"deep":{"u":7},"i":0,"list":[0,3]})");
    EXPECT_EQ(keys[1].text("key"), R"({"deep":{"u":7},"i":1,"list":[1,3]})");
}

// -- unresolved timeline calls (scenarios/FORMAT.md timeline: `expect` is "the outcome the call
// must return; a mismatch fails the run") -----------------------------------------------------

TEST(RunnerTimeline, CallStillWaitingAtUntilFailsItsExpect) {
    const Scenario scenario = load(with_sinks(R"(, "run": {"until": "3ms"}, "timeline": [
        {"at": "1ms", "from": "c", "to": "mute", "call": {"type": "Q"}, "timeout": "5s",
         "expect": "gen.ErrTimeout"},
        {"at": "1ms", "from": "d", "to": "mute", "call": {"type": "Q"}, "timeout": "5s"}])"));
    const RunResult result = run_scenario(scenario);
    const Check* pending = check_at(result, "/timeline/0/expect");
    ASSERT_NE(pending, nullptr) << format_summary(scenario, result);
    EXPECT_FALSE(pending->ok);
    EXPECT_EQ(pending->expected, "gen.ErrTimeout");
    EXPECT_NE(pending->actual.find("no result"), std::string::npos) << pending->actual;
    EXPECT_EQ(pending->what, "timeline call (due 1ms)");
    EXPECT_EQ(pending->at, sim::Instant::zero() + sim::Duration::milliseconds(3));
    EXPECT_EQ(check_at(result, "/timeline/1/expect"), nullptr); // no expect, nothing to check
    EXPECT_FALSE(result.passed());
}

TEST(RunnerTimeline, ActionWithExpectDueAfterUntilFailsAsNotReached) {
    const Scenario scenario = load(with_sinks(R"(, "run": {"until": "3ms"}, "timeline": [
        {"at": "3ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"},
        {"at": "4ms", "check": {"alive": ["a"]}},
        {"at": "5ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"},
        {"at": "6ms", "kill": "a"}])"));
    const RunResult result = run_scenario(scenario);
    const Check* at_until = check_at(result, "/timeline/0/expect");
    ASSERT_NE(at_until, nullptr) << format_summary(scenario, result);
    EXPECT_TRUE(at_until->ok) << at_until->actual; // due at until: performed
    const Check* check = check_at(result, "/timeline/1/at");
    ASSERT_NE(check, nullptr) << format_summary(scenario, result);
    EXPECT_FALSE(check->ok);
    EXPECT_EQ(check->what, "timeline check (due 4ms)");
    EXPECT_EQ(check->expected, "evaluated");
    const Check* send = check_at(result, "/timeline/2/at");
    ASSERT_NE(send, nullptr);
    EXPECT_FALSE(send->ok);
    EXPECT_EQ(send->expected, "ok");
    EXPECT_NE(send->actual.find("not reached"), std::string::npos) << send->actual;
    EXPECT_NE(send->actual.find("3ms"), std::string::npos) << send->actual;
    EXPECT_EQ(check_at(result, "/timeline/3/at"), nullptr); // nothing to check
    EXPECT_FALSE(result.passed());
}

TEST(RunnerTimeline, IdleRunReachesEveryTimedAction) {
    const Scenario scenario = load(with_sinks(R"(, "timeline": [
        {"at": "5ms", "from": "c", "to": "a", "send": {"type": "X"}, "expect": "ok"},
        {"at": "9ms", "check": {"alive": ["a"]}}])"));
    const RunResult result = run_scenario(scenario);
    EXPECT_EQ(check_at(result, "/timeline/1/at"), nullptr) << format_summary(scenario, result);
    EXPECT_TRUE(result.passed()) << format_summary(scenario, result);
}

} // namespace
} // namespace routesim::scenarios

namespace routesim::scenarios {
namespace {

// Issue 24: the determinism re-run of a run no monitor stopped is hash-only.
TEST(Runner, AHashOnlyRunGivesTheFullRunsHashAndKeepsNoVerdicts) {
    for (const char* name : {"hot-deploy", "restarts", "pending-operations"}) {
        const Scenario scenario = load(testing::read_text(
            testing::source_dir / "scenarios/examples" / (std::string(name) + ".json")));
        RunSettings full;
        full.check_determinism = false;
        RunSettings hash_only = full;
        hash_only.hash_only = true;
        const RunResult a = run_scenario(scenario, full);
        const RunResult b = run_scenario(scenario, hash_only);
        EXPECT_EQ(a.trace_hash, b.trace_hash) << name;
        EXPECT_EQ(a.trace_events, b.trace_events) << name;
        EXPECT_FALSE(a.invariants.empty()) << name;
        for (const InvariantResult& invariant : b.invariants) {
            // No monitor ran: only run_scenario's own determinism entry (unchecked here).
            EXPECT_EQ(invariant.name, "determinism") << name;
        }
        EXPECT_LT(b.invariants.size(), a.invariants.size()) << name;
        EXPECT_TRUE(b.checks.empty()) << name;
        EXPECT_TRUE(b.routers.empty()) << name; // nor a summary
    }
}

TEST(Runner, TheDeterminismVerdictHoldsWithTheHashOnlyReRun) {
    const Scenario scenario =
        load(testing::read_text(testing::source_dir / "scenarios/examples/hot-deploy.json"));
    const RunResult result = run_scenario(scenario, RunSettings{});
    bool found = false;
    for (const InvariantResult& invariant : result.invariants) {
        if (invariant.name == "determinism") {
            found = true;
            EXPECT_EQ(invariant.verdict, "holds");
        }
    }
    EXPECT_EQ(found, std::find(scenario.expect.invariants.begin(), scenario.expect.invariants.end(),
                               Invariant::Determinism) != scenario.expect.invariants.end());
}

} // namespace
} // namespace routesim::scenarios
