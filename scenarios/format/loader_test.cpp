// Goal: the loader turns every field of the scenario format into the expected typed value,
// applies the spec's defaults, expands `repeat`, and rejects each malformed file with exactly
// one line naming the file, the JSON pointer and what was expected, without ever throwing.
// Method: good files under scenarios/testdata and inline snippets checked field by field; every
// scenarios/bad/<name>.json compared with its <name>.expected; truncated and mutated variants
// of a good file (a full sweep plus a rapidcheck property) must load or fail, never throw.
#include "scenarios/format/loader.hpp"
#include "scenarios/testing.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace routesim::scenarios {
namespace {

using sim::Duration;

using testing::read_text;
using testing::source_dir;

Scenario load_testdata(const std::string& name) {
    const std::string path = (source_dir / "scenarios/testdata" / name).string();
    auto loaded = load_scenario_file(path);
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

/// Loads inline text; returns the error line, or "" when it loaded.
std::string error_of(std::string_view text, const LoadLimits& limits = {}) {
    auto loaded = load_scenario_text(text, "inline.json", limits);
    return loaded ? std::string() : loaded.error().to_string();
}

Scenario load_inline(std::string_view text) {
    auto loaded = load_scenario_text(text, "inline.json");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().to_string());
    return loaded ? std::move(loaded).value() : Scenario{};
}

constexpr std::string_view sink_actor =
    R"({"kind": "actor", "name": "solo", "behavior": {"type": "sink"}})";

TEST(LoaderDefaults, MinimalFileGetsTheSpecDefaults) {
    const Scenario scenario = load_testdata("minimal.json");
    EXPECT_EQ(scenario.name, "minimal");
    EXPECT_EQ(scenario.description, "");
    EXPECT_EQ(scenario.run.seed, 1U);
    EXPECT_FALSE(scenario.run.until.has_value()); // "idle"
    EXPECT_EQ(scenario.run.scheduler, sim::Policy::Fifo);
    EXPECT_EQ(scenario.run.pct_depth, 3U);
    EXPECT_EQ(scenario.run.max_events, 10'000'000U);
    EXPECT_TRUE(scenario.run.schedule.empty());
    EXPECT_EQ(scenario.run.cost, Duration::zero());
    EXPECT_EQ(scenario.run.semantics, Semantics::Documented);
    EXPECT_EQ(scenario.expect.invariants, all_invariants());
    EXPECT_EQ(scenario.expect.pointer, "/expect");
    EXPECT_TRUE(scenario.workload.empty());
    EXPECT_TRUE(scenario.timeline.empty());
    EXPECT_FALSE(scenario.faults.kill.has_value());
    EXPECT_TRUE(scenario.clients.empty());
    const Node& root = scenario.topology;
    EXPECT_EQ(root.kind, NodeKind::Actor);
    EXPECT_EQ(root.name, "solo");
    EXPECT_EQ(root.path, "solo");
    EXPECT_EQ(root.pointer, "/topology");
    EXPECT_EQ(root.mailbox_size, 0U);
    EXPECT_TRUE(root.args.is_null());
    EXPECT_EQ(root.behaviour.type, BehaviourType::Sink);
    EXPECT_FALSE(root.behaviour.cost.has_value());
}

TEST(LoaderDefaults, WorkloadTimelineAndRouterDefaults) {
    const Scenario scenario = load_inline(R"({
      "name": "defaults",
      "topology": {"kind": "router", "name": "r", "routes": [
        {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "echo"}}}]},
      "workload": [{"from": "c", "to": "r", "call": {"type": "Q"}}],
      "timeline": [
        {"at": 5, "call": {"type": "Q"}, "from": "c", "to": "r/a"},
        {"at": "1ms", "disable_route": {"router": "r", "name": "a"}},
        {"at": "1ms", "exit": {"target": "r"}},
        {"at": "1ms", "fail_spawns": {"node": "r/a"}}]
    })");
    ASSERT_EQ(scenario.workload.size(), 1U);
    const WorkloadSource& source = scenario.workload[0];
    EXPECT_TRUE(source.is_call);
    EXPECT_EQ(source.at, Duration::zero());
    EXPECT_EQ(source.count, 1U);
    EXPECT_EQ(source.every, Duration::zero());
    EXPECT_EQ(source.priority, Priority::Normal);
    EXPECT_EQ(source.timeout, Duration::seconds(5));
    ASSERT_EQ(scenario.timeline.size(), 4U);
    EXPECT_EQ(scenario.timeline[0].at, Duration::nanoseconds(5));
    EXPECT_EQ(scenario.timeline[0].priority, Priority::Normal);
    EXPECT_EQ(scenario.timeline[0].timeout, Duration::seconds(5));
    EXPECT_EQ(scenario.timeline[1].via, Via::Call);
    EXPECT_FALSE(scenario.timeline[1].expect.has_value());
    EXPECT_EQ(scenario.timeline[2].reason, "normal");
    EXPECT_EQ(scenario.timeline[3].count, 1U);
    const RouterSpec& router = scenario.topology.router;
    EXPECT_EQ(router.route_message.kind, RuleKind::Discard);
    EXPECT_EQ(router.route_call.kind, RuleKind::Discard);
    EXPECT_EQ(router.on_route_failed, OnRouteFailed::Log);
    EXPECT_EQ(scenario.clients, std::vector<std::string>{"c"});
}

TEST(LoaderRepeat, ExpandsSupervisorChildrenWithTheirIndex) {
    const Scenario scenario = load_testdata("router-pool-per-shard.json");
    const Node& root = scenario.topology;
    EXPECT_EQ(root.supervisor.strategy, RestartStrategy::Permanent);
    EXPECT_EQ(root.supervisor.intensity, 10U);
    EXPECT_EQ(root.supervisor.period, Duration::seconds(1));
    ASSERT_EQ(root.children.size(), 5U);
    for (std::uint64_t i = 0; i < 4; i++) {
        const Node& pool = root.children[i];
        const std::string index = std::to_string(i);
        EXPECT_EQ(pool.kind, NodeKind::Pool);
        EXPECT_EQ(pool.name, "shard:" + index);
        EXPECT_EQ(pool.path, "sup_root/shard:" + index);
        EXPECT_EQ(pool.pointer, "/topology/children/0");
        EXPECT_EQ(pool.repeat_index, i);
        EXPECT_EQ(pool.pool.size, 4U);
        const Json args = {{"shard", index},
                           {"tags", {"s" + index, {{"deep", "x" + index + "y" + index}}}}};
        EXPECT_EQ(pool.args, args);
        ASSERT_EQ(pool.children.size(), 1U);
        EXPECT_EQ(pool.children[0].path, "sup_root/shard:" + index + "/#*");
        EXPECT_EQ(pool.children[0].pointer, "/topology/children/0/worker");
        EXPECT_EQ(pool.children[0].behaviour.cost, Duration::microseconds(5));
    }
    const Node& router = root.children[4];
    EXPECT_EQ(router.pointer, "/topology/children/1");
    EXPECT_FALSE(router.repeat_index.has_value());
    EXPECT_EQ(router.router.route_message.kind, RuleKind::Hash);
    EXPECT_EQ(router.router.route_message.field, "key");
    EXPECT_EQ(router.router.route_message.prefix, "shard:");
    EXPECT_EQ(router.router.route_message.count, 4U);
    EXPECT_EQ(router.router.route_message.pointer, "/topology/children/1/route_message");
    EXPECT_EQ(scenario.run.until, sim::Instant::zero() + Duration::seconds(2));
    // Duplicates in the list collapse; the order is the enum's.
    EXPECT_EQ(scenario.expect.invariants,
              (std::vector<Invariant>{Invariant::KeyAffinity, Invariant::SenderPreservation}));
}

TEST(LoaderRepeat, ExpandsRouteEntriesAndTheNearestRepeatBindsTheIndex) {
    const Scenario scenario = load_inline(R"({
      "name": "nested",
      "topology": {"kind": "supervisor", "name": "top", "children": [
        {"repeat": 2, "kind": "router", "name": "r{i}", "args": "outer {i}", "routes": [
          {"repeat": 3, "name": "route{i}", "args": {"{i}": "{i}{i}"},
           "worker": {"kind": "actor", "behavior": {"type": "sink"}}}]}]}
    })");
    ASSERT_EQ(scenario.topology.children.size(), 2U);
    for (std::size_t r = 0; r < 2; r++) {
        const Node& router = scenario.topology.children[r];
        EXPECT_EQ(router.name, "r" + std::to_string(r));
        EXPECT_EQ(router.args, Json("outer " + std::to_string(r)));
        ASSERT_EQ(router.router.routes.size(), 3U);
        ASSERT_EQ(router.children.size(), 3U);
        for (std::size_t i = 0; i < 3; i++) {
            const std::string index = std::to_string(i);
            const RouteSpec& route = router.router.routes[i];
            EXPECT_EQ(route.name, "route" + index);
            EXPECT_EQ(route.args, Json({{index, index + index}}));
            EXPECT_EQ(route.pointer, "/topology/children/0/routes/0");
            EXPECT_EQ(router.children[i].path, "top/r" + std::to_string(r) + "/route" + index);
            EXPECT_EQ(router.children[i].repeat_index, i);
        }
    }
}

TEST(LoaderRepeat, ZeroRepeatLeavesNoNode) {
    const Scenario scenario = load_inline(R"({"name": "zero", "topology": {
      "kind": "supervisor", "children": [
        {"repeat": 0, "kind": "actor", "name": "never", "behavior": {"type": "sink"}}]}})");
    EXPECT_TRUE(scenario.topology.children.empty());
}

TEST(LoaderFull, ParsesRunTopologyAndRules) {
    const Scenario scenario = load_testdata("full.json");
    const RunOptions& run = scenario.run;
    EXPECT_EQ(run.seed, UINT64_MAX);
    EXPECT_EQ(run.until, sim::Instant::from_ns(2'500'000));
    EXPECT_EQ(run.scheduler, sim::Policy::Pct);
    EXPECT_EQ(run.pct_depth, 5U);
    EXPECT_EQ(run.max_events, 5000U);
    EXPECT_EQ(run.schedule, (std::vector<std::uint32_t>{0, 1, UINT32_MAX}));
    EXPECT_EQ(run.cost, Duration::microseconds(3));
    EXPECT_EQ(run.semantics, Semantics::Upstream);
    const Node& root = scenario.topology;
    EXPECT_EQ(root.mailbox_size, 64U);
    EXPECT_EQ(root.args, Json::parse(R"({"anything": [1, 2, {"x": null}]})"));
    EXPECT_EQ(root.supervisor.type, SupervisorType::RestForOne);
    EXPECT_EQ(root.supervisor.strategy, RestartStrategy::Temporary);
    EXPECT_EQ(root.supervisor.intensity, 0U);
    EXPECT_EQ(root.supervisor.period, Duration::milliseconds(250));
    EXPECT_TRUE(root.supervisor.keep_order);
    ASSERT_EQ(root.children.size(), 5U);
    const Behaviour& store = root.children[0].behaviour;
    EXPECT_EQ(store.crash_on->nth, 3U);
    EXPECT_EQ(store.init.fail_first, 2U);
    EXPECT_EQ(store.terminate_cost, Duration::milliseconds(2));
    EXPECT_TRUE(store.ignore_calls);
    const Behaviour& audit = root.children[1].behaviour;
    EXPECT_EQ(audit.type, BehaviourType::Echo);
    EXPECT_TRUE(audit.reply);
    EXPECT_EQ(audit.crash_on->type, "Poison");
    EXPECT_FALSE(audit.init.fail);
    const Node& router = root.children[2];
    EXPECT_EQ(router.mailbox_size, 8U);
    const Rule& by_type = router.router.route_message;
    EXPECT_EQ(by_type.kind, RuleKind::ByType);
    EXPECT_EQ(by_type.by_type.at("RefundEvent"), "refunds:0");
    EXPECT_EQ(by_type.by_type.at("Noise"), "discard");
    EXPECT_EQ(by_type.default_route, "audit");
    EXPECT_EQ(router.router.route_call.routes,
              (std::vector<std::string>{"refunds:0", "refunds:1"}));
    EXPECT_EQ(router.router.on_route_failed, OnRouteFailed::DeadLetter);
    EXPECT_EQ(router.router.dead_letter, "audit");
    const Node& field_router = root.children[3];
    EXPECT_EQ(field_router.router.route_message.kind, RuleKind::Field);
    EXPECT_EQ(field_router.router.route_message.field, "target");
    EXPECT_EQ(field_router.router.route_call.default_route, "discard");
    EXPECT_EQ(field_router.router.on_route_failed, OnRouteFailed::Terminate);
    EXPECT_EQ(root.children[4].supervisor.type, SupervisorType::SimpleOneForOne);
}

TEST(LoaderFull, ParsesRoutesAndTheirWorkers) {
    const Scenario scenario = load_testdata("full.json");
    const Node& router = scenario.topology.children[2];
    std::vector<std::string> names;
    for (const RouteSpec& route : router.router.routes) {
        names.push_back(route.name);
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"payments", "refunds:0", "refunds:1", "bulk", "nested"}));
    ASSERT_EQ(router.children.size(), 5U);
    EXPECT_EQ(router.router.routes[0].args, Json::parse(R"({"region": "eu"})"));
    EXPECT_EQ(router.children[0].behaviour.type, BehaviourType::Forward);
    EXPECT_EQ(router.children[0].behaviour.to, "payments_store");
    EXPECT_TRUE(router.children[2].name.empty()); // route workers are unnamed (R5)
    EXPECT_EQ(router.children[2].path, "sup_root/event_router/refunds:1");
    const Node& bulk = router.children[3];
    EXPECT_EQ(bulk.pool.size, 0U);
    EXPECT_EQ(effective_pool_size(bulk.pool.size), 3U);
    EXPECT_EQ(bulk.pool.worker_mailbox_size, 16U);
    EXPECT_EQ(router.children[4].router.route_message.kind, RuleKind::Route);
    EXPECT_EQ(router.children[4].router.route_message.route, "leaf");
}

TEST(LoaderFull, ParsesWorkloadAndTimeline) {
    const Scenario scenario = load_testdata("full.json");
    ASSERT_EQ(scenario.workload.size(), 2U);
    const WorkloadSource& sends = scenario.workload[0];
    EXPECT_FALSE(sends.is_call);
    EXPECT_EQ(sends.message["amount"], Json::parse(R"({"uniform": [-5, 10]})"));
    EXPECT_EQ(sends.message["key"], "$i");
    EXPECT_EQ(sends.count, 10U);
    EXPECT_EQ(sends.every, Duration::microseconds(1));
    EXPECT_EQ(sends.priority, Priority::High);
    EXPECT_EQ(sends.pointer, "/workload/0");
    EXPECT_EQ(scenario.workload[1].timeout, Duration::milliseconds(20));
    EXPECT_EQ(scenario.workload[1].at, Duration::milliseconds(1));
    const std::vector<Action>& timeline = scenario.timeline;
    ASSERT_EQ(timeline.size(), 15U);
    EXPECT_EQ(timeline[0].verb, Verb::AddRoute);
    EXPECT_EQ(timeline[0].via, Via::Admin);
    EXPECT_EQ(timeline[0].expect, "ok");
    ASSERT_TRUE(timeline[0].worker.has_value());
    EXPECT_EQ(timeline[0].worker->path, "event_router/late");
    EXPECT_EQ(timeline[0].worker->children[0].path, "event_router/late/late_child");
    EXPECT_EQ(timeline[1].verb, Verb::RemoveRoute);
    EXPECT_EQ(timeline[1].router, "sup_root/event_router");
    EXPECT_EQ(timeline[1].route, "payments");
    EXPECT_EQ(timeline[1].expect, "gen.ErrBusy");
    EXPECT_EQ(timeline[5].verb, Verb::ReplaceRoute);
    EXPECT_EQ(timeline[6].target, "event_router/late/late_child");
    EXPECT_EQ(timeline[7].reason, "shutdown");
    EXPECT_EQ(timeline[9].verb, Verb::Crash);
    EXPECT_EQ(timeline[10].node, "sup_root/event_router/refunds:1");
    EXPECT_EQ(timeline[10].count, 2U);
    EXPECT_EQ(timeline[12].verb, Verb::Send);
    EXPECT_EQ(timeline[12].message["x"], "$i"); // no generators outside the workload
    EXPECT_EQ(timeline[13].priority, Priority::Max);
    EXPECT_EQ(timeline[13].timeout, Duration::milliseconds(1));
    ASSERT_TRUE(timeline[14].check.has_value());
    EXPECT_TRUE(timeline[14].check->invariants.empty());
    EXPECT_EQ(timeline[14].check->pointer, "/timeline/14/check");
    EXPECT_EQ(scenario.clients, (std::vector<std::string>{"client:1", "client:2", "client:3"}));
}

TEST(LoaderFull, ParsesFaultsAndExpect) {
    const Scenario scenario = load_testdata("full.json");
    const Faults& faults = scenario.faults;
    ASSERT_TRUE(faults.kill.has_value());
    EXPECT_EQ(faults.kill->targets,
              (std::vector<FaultTarget>{FaultTarget::RouteWorkers, FaultTarget::PoolWorkers,
                                        FaultTarget::Routers}));
    EXPECT_EQ(faults.kill->every, Duration::milliseconds(20));
    EXPECT_EQ(faults.crash->probability_ppb, 10'000'000U);
    EXPECT_TRUE(faults.crash->targets.empty());
    EXPECT_EQ(faults.spawn_fail->probability_ppb, 1'000'000'000U);
    EXPECT_EQ(faults.spawn_fail->targets.size(), 3U);
    EXPECT_EQ(faults.terminate_cost_max, Duration::milliseconds(2));
    EXPECT_EQ(faults.admin->routers,
              (std::vector<std::string>{"event_router", "sup_root/field_router"}));
    EXPECT_EQ(faults.admin->every, Duration::milliseconds(5));
    const Expect& expect = scenario.expect;
    EXPECT_EQ(expect.invariants, all_invariants());
    EXPECT_EQ(expect.inspect.at("event_router").at("ergo:forwarded"), "1000");
    EXPECT_EQ(expect.routes.at("event_router").at("payments").state, RouteState::Disabled);
    EXPECT_EQ(expect.routes.at("event_router").at("payments").restarts, 1U);
    EXPECT_EQ(expect.routes.at("event_router").at("late").state, RouteState::PendingRemove);
    EXPECT_FALSE(expect.routes.at("event_router").at("late").restarts.has_value());
    const ClientExpect& client = expect.clients.at("client:1");
    EXPECT_EQ(client.received, 10U);
    EXPECT_EQ(client.types.at("Receipt"), 10U);
    EXPECT_EQ(client.errors.at("gen.ErrTimeout"), 0U);
    EXPECT_EQ(expect.alive, (std::vector<std::string>{"event_router", "client:3"}));
    EXPECT_TRUE(expect.dead.empty());
    EXPECT_EQ(expect.route_failed.at("event_router").at("gen.ErrDisabled"), 3U);
    EXPECT_EQ(expect.processed.at("event_router/payments"), 10U);
}

TEST(LoaderValues, ProbabilityRoundsToPartsPerBillion) {
    const auto ppb = [](std::string_view probability) {
        const Scenario scenario = load_inline(
            R"({"name": "p", "topology": {"kind": "actor", "behavior": {"type": "sink"}},
                "faults": {"crash": {"probability": )" +
            std::string(probability) + "}}}");
        return scenario.faults.crash.has_value() ? scenario.faults.crash->probability_ppb : 7U;
    };
    EXPECT_EQ(ppb("0"), 0U);
    EXPECT_EQ(ppb("1"), 1'000'000'000U);
    EXPECT_EQ(ppb("1.0"), 1'000'000'000U);
    EXPECT_EQ(ppb("0.1"), 100'000'000U);
    EXPECT_EQ(ppb("0.3333333333"), 333'333'333U);
    EXPECT_EQ(ppb("0.0000000004"), 0U);
    EXPECT_EQ(ppb("0.0000000006"), 1U);
    EXPECT_EQ(ppb("1e-3"), 1'000'000U);
}

TEST(LoaderValues, DurationsAcceptStringsAndNanoseconds) {
    const auto every = [](std::string_view duration) {
        const Scenario scenario = load_inline(
            R"({"name": "d", "topology": )" + std::string(sink_actor) +
            R"(, "workload": [{"from": "c", "to": "solo", "send": {"type": "T"}, "every": )" +
            std::string(duration) + "}]}");
        return scenario.workload.empty() ? Duration::nanoseconds(-1) : scenario.workload[0].every;
    };
    EXPECT_EQ(every(R"("250us")"), Duration::microseconds(250));
    EXPECT_EQ(every(R"("5s")"), Duration::seconds(5));
    EXPECT_EQ(every(R"("7ms")"), Duration::milliseconds(7));
    EXPECT_EQ(every(R"("13ns")"), Duration::nanoseconds(13));
    EXPECT_EQ(every("42"), Duration::nanoseconds(42));
    EXPECT_EQ(every("9223372036854775807"), Duration::nanoseconds(INT64_MAX));
}

TEST(LoadError, PrintsFilePointerAndMessage) {
    EXPECT_EQ(
        (LoadError{"bad.json", "/topology/children/3/route_message", "unknown rule"}).to_string(),
        "bad.json: /topology/children/3/route_message: unknown rule");
    EXPECT_EQ((LoadError{"bad.json", "", "invalid JSON"}).to_string(), "bad.json: invalid JSON");
}

TEST(LoaderFile, MissingFileIsAnErrorWithThePathAsLabel) {
    const std::string path = (source_dir / "scenarios/testdata/no-such-file.json").string();
    const auto loaded = load_scenario_file(path);
    ASSERT_FALSE(loaded.has_value());
    EXPECT_EQ(loaded.error().file, path);
    EXPECT_EQ(loaded.error().pointer, "");
    EXPECT_NE(loaded.error().message.find("cannot open file"), std::string::npos);
}

TEST(LoaderLimits, EveryLimitIsEnforcedWithAClearError) {
    const std::string text = R"({"name": "x", "topology": {"kind": "supervisor", "children": [
        {"repeat": 5, "kind": "actor", "name": "a{i}", "behavior": {"type": "sink"}}]},
        "timeline": [{"at": 0, "kill": "a0"}, {"at": 0, "kill": "a1"}]})";
    EXPECT_EQ(error_of(text), "");
    EXPECT_EQ(error_of(text, LoadLimits{.file_bytes_max = 10}), "inline.json: file is " +
                                                                    std::to_string(text.size()) +
                                                                    " bytes (expected at most 10)");
    EXPECT_EQ(error_of(text, LoadLimits{.nodes_max = 4}),
              "inline.json: /topology/children/0/repeat: repeat 5 takes the topology over the "
              "node limit of 4 (expected at most 4 nodes in total)");
    EXPECT_EQ(error_of(text, LoadLimits{.repeat_max = 4}),
              "inline.json: /topology/children/0/repeat: 5 is over the repeat limit of 4 "
              "(expected an integer from 0 to 4)");
    EXPECT_EQ(error_of(text, LoadLimits{.tree_depth_max = 1}),
              "inline.json: /topology/children/0: topology is nested deeper than 1 levels "
              "(expected at most 1 levels of nodes)");
    EXPECT_EQ(error_of(text, LoadLimits{.json_depth_max = 3}),
              "inline.json: /topology/children/0: JSON nested deeper than 3 levels (expected at "
              "most 3 nested arrays and objects)");
    EXPECT_EQ(error_of(text, LoadLimits{.processes_max = 5}),
              "inline.json: /topology: topology spawns 6 processes when built (expected at most "
              "5; a pool multiplies its worker subtree by its size)");
    EXPECT_EQ(error_of(text, LoadLimits{.timeline_actions_max = 1}),
              "inline.json: /timeline: timeline has 2 actions (expected at most 1)");
}

/// The error line for every fixture, keyed by file name, in sorted order.
std::vector<std::filesystem::path> bad_fixtures() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(source_dir / "scenarios/bad")) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(BadFixtures, EachPrintsExactlyItsExpectedLine) {
    const std::vector<std::filesystem::path> files = bad_fixtures();
    EXPECT_GE(files.size(), 30U);
    for (const std::filesystem::path& file : files) {
        std::filesystem::path expected_file = file;
        expected_file.replace_extension(".expected");
        ASSERT_TRUE(std::filesystem::exists(expected_file)) << expected_file;
        std::string expected = read_text(expected_file);
        ASSERT_FALSE(expected.empty()) << expected_file;
        ASSERT_EQ(expected.back(), '\n') << expected_file;
        expected.pop_back();
        EXPECT_EQ(expected.find('\n'), std::string::npos) << expected_file << ": one line";
        const auto loaded = load_scenario_text(read_text(file), file.filename().string());
        ASSERT_FALSE(loaded.has_value()) << file << " loaded but must be rejected";
        EXPECT_EQ(loaded.error().to_string(), expected) << file;
    }
}

TEST(BadFixtures, EveryExpectedFileHasItsInput) {
    for (const auto& entry : std::filesystem::directory_iterator(source_dir / "scenarios/bad")) {
        if (entry.path().extension() == ".expected") {
            std::filesystem::path input = entry.path();
            input.replace_extension(".json");
            EXPECT_TRUE(std::filesystem::exists(input)) << input;
        }
    }
}

TEST(BadFixtures, LoaderOnlyListNamesExistingFixtures) {
    // Later schema tests skip the files listed under "## loader-only"; a stale name would hide
    // a fixture from them.
    const std::string readme = read_text(source_dir / "scenarios/bad/README.md");
    const std::size_t section = readme.find("\n## loader-only\n");
    ASSERT_NE(section, std::string::npos);
    std::size_t listed = 0;
    for (std::size_t open = readme.find('`', section); open != std::string::npos;
         open = readme.find('`', open + 1)) {
        const std::size_t close = readme.find('`', open + 1);
        ASSERT_NE(close, std::string::npos);
        const std::string name = readme.substr(open + 1, close - open - 1);
        open = close;
        const bool kebab = name.find('-') != std::string::npos &&
                           std::all_of(name.begin(), name.end(), [](char c) {
                               return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                           });
        if (!kebab) {
            continue; // a path or a JSON value such as `1e400`, not a fixture name
        }
        EXPECT_TRUE(std::filesystem::exists(source_dir / "scenarios/bad" / (name + ".json")))
            << name;
        listed++;
    }
    EXPECT_GE(listed, 20U);
}

TEST(LoaderRobustness, TruncatedAndMutatedFilesNeverThrow) {
    const std::string text = read_text(source_dir / "scenarios/testdata/full.json");
    ASSERT_GT(text.size(), 100U);
    // Every 7th cut, and every cut near the end where most structure closes.
    std::size_t loaded = 0;
    for (std::size_t length = 0; length <= text.size(); length++) {
        if (length % 7 != 0 && length + 40 < text.size()) {
            continue;
        }
        EXPECT_NO_THROW(loaded += load_scenario_text(text.substr(0, length), "cut.json") ? 1U : 0U);
    }
    EXPECT_EQ(loaded, 2U); // the whole file, with or without its final newline
    const std::vector<char> replacements = {'{', '}', '"', ',', '-', '\xff', '\0'};
    for (std::size_t at = 0; at < text.size(); at += 13) {
        for (char replacement : replacements) {
            std::string mutated = text;
            mutated[at] = replacement;
            EXPECT_NO_THROW(static_cast<void>(load_scenario_text(mutated, "mutated.json")));
        }
    }
}

RC_GTEST_PROP(LoaderProps, RandomEditsNeverThrow, ()) {
    static const std::string text = read_text(source_dir / "scenarios/testdata/full.json");
    std::string mutated = text;
    const auto edits = *rc::gen::inRange(1, 8);
    for (int edit = 0; edit < edits; edit++) {
        const auto at = *rc::gen::inRange<std::size_t>(0, mutated.size());
        const auto kind = *rc::gen::inRange(0, 3);
        if (kind == 0) {
            mutated[at] = *rc::gen::arbitrary<char>();
        } else if (kind == 1) {
            mutated.erase(at, *rc::gen::inRange<std::size_t>(1, 40));
        } else {
            mutated.insert(at, *rc::gen::element<std::string>("{", "}", "[", "]", "\"", ",", "-1",
                                                              "1e999", "\"{i}\"", "null",
                                                              "{\"repeat\": 3}"));
        }
    }
    auto loaded = load_scenario_text(mutated, "random.json");
    if (!loaded.has_value()) {
        RC_ASSERT(loaded.error().to_string().find('\n') == std::string::npos);
        RC_ASSERT(loaded.error().to_string().rfind("random.json: ", 0) == 0U);
    }
}

TEST(Spellings, RoundTripEveryEnumerator) {
    for (std::size_t i = 0; i < spellings(Verb{}).names.size(); i++) {
        const auto verb = static_cast<Verb>(i);
        EXPECT_EQ(parse_spelling<Verb>(spelling(verb)), verb);
    }
    EXPECT_EQ(spelling(Invariant::NoForwardToDisabled), "no_forward_to_disabled");
    EXPECT_EQ(spelling(RouteState::PendingReplace), "pending_replace");
    EXPECT_EQ(parse_spelling<sim::Policy>("replay"), std::nullopt);
    EXPECT_TRUE(is_outcome_name("ok"));
    EXPECT_TRUE(is_outcome_name("act.ErrRouteDuplicate"));
    EXPECT_TRUE(is_outcome_name("gen.ErrProcessMailboxFull"));
    EXPECT_FALSE(is_outcome_name("gen.ErrRouteDuplicate"));
    EXPECT_EQ(ergo_error_names().size(), 51U);
}

} // namespace
} // namespace routesim::scenarios
