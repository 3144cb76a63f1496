// Goal: a behaviour and a routing rule registered by name (scenarios/run/registry.hpp) work
// wherever a built-in does: the loader accepts their names and knobs and rejects unknown ones
// with the usual one-line error that lists the registered names; a run uses them (the worker
// with its common knobs, the rule with its default and its key traced for key_affinity);
// registering a bad name throws; the swarm generator puts them in generated trees on which
// every invariant holds; and a CLI made from routesim::cli_main validates, runs and fuzzes a
// file that uses them.
// Method: a counting worker "tally" (with a knob check) and a key rule "by_key" (with a knob
// that breaks key affinity on purpose) are registered by this file's static initializer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "properties/gen/bounded_check.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/run/registry.hpp"
#include "sim/time.hpp"
#include "tools/cli.hpp"
#include "tools/testing/scenario_testing.hpp"
#include "tools/testing/swarm.hpp"

namespace routesim {
namespace {

using nlohmann::json;

/// Counts the messages it takes; every `reply_every`-th one is answered with a Tally to the
/// sender; a call gets the count.
class Tally final : public WorkerLogic {
public:
    explicit Tally(const WorkerSpec& spec)
        : every_(spec.knobs.value("reply_every", std::uint64_t{0})) {}
    bool handle_message(WorkerIo& io, const Json&) override {
        count_++;
        if (every_ > 0 && count_ % every_ == 0) {
            (void)io.reply(json{{"type", "Tally"}, {"n", count_}});
        }
        return true;
    }
    std::optional<Json> handle_call(WorkerIo&, const Json&) override {
        return json{{"type", "Tally"}, {"n", count_}};
    }
    runtime::Inspection inspect() const override { return {{"tally", std::to_string(count_)}}; }

private:
    std::uint64_t every_;
    std::uint64_t count_ = 0;
};

/// Sends each message's type on to the target of its "target" knob (a client, here) as a
/// Relayed message, through WorkerIo::send; with "refuse", its Init fails.
class Relay final : public WorkerLogic {
public:
    explicit Relay(const WorkerSpec& spec)
        : target_(spec.knobs.value("target", "")), refuse_(spec.knobs.value("refuse", false)) {}
    std::optional<std::string> init(WorkerIo& io) override {
        if (refuse_) {
            return "relay refuses to start at " + sim::format_instant(io.now());
        }
        return std::nullopt;
    }
    bool handle_message(WorkerIo& io, const Json& message) override {
        if (!io.send(target_, json{{"type", "Relayed"}, {"of", message["type"]}})) {
            io.log("warning", "relay: " + target_ + " is not running");
        }
        return true;
    }
    std::optional<Json> handle_call(WorkerIo&, const Json&) override { return std::nullopt; }

private:
    std::string target_;
    bool refuse_;
};

/// routes[key % routes] for an integer "key", else the rule's default. With "drift", every
/// message moves one route further (a rule that breaks key affinity).
class ByKey final : public RoutingRule {
public:
    explicit ByKey(const RuleSpec& spec)
        : routes_(spec.routes), drift_(spec.knobs.value("drift", false)) {}
    std::string route(const Json& message) override {
        const auto key = message.find("key");
        if (key == message.end() || !key->is_number_unsigned() || routes_.empty()) {
            return "";
        }
        const std::uint64_t shift = drift_ ? routed_++ : 0;
        return routes_[(key->get<std::uint64_t>() + shift) % routes_.size()];
    }
    std::optional<Json> key(const Json& message) const override {
        const auto key = message.find("key");
        return key == message.end() ? std::nullopt : std::optional<Json>(*key);
    }

private:
    std::vector<std::string> routes_;
    bool drift_;
    std::uint64_t routed_ = 0;
};

// Before main(): the tables are made on first use, whatever the initialization order.
const bool registered = [] {
    const auto tally = [](const WorkerSpec& spec) { return std::make_unique<Tally>(spec); };
    register_behavior(
        "tally", tally, {"reply_every"}, [](const Json& knobs) -> std::optional<KnobError> {
            if (knobs.contains("reply_every") && !knobs["reply_every"].is_number_unsigned()) {
                return KnobError{"reply_every", "a non-negative integer"};
            }
            return std::nullopt;
        });
    register_rule("by_key", [](const RuleSpec& spec) { return std::make_unique<ByKey>(spec); },
                  {"drift"});
    // Factories that fail: a throwing one (knob "explode") and one that makes nothing.
    register_behavior("fragile",
                      [](const WorkerSpec& spec) -> std::unique_ptr<WorkerLogic> {
                          if (spec.knobs.value("explode", false)) {
                              throw std::runtime_error("explode is set");
                          }
                          return std::make_unique<Tally>(spec);
                      },
                      {"explode"});
    register_rule("broken", [](const RuleSpec&) { return std::unique_ptr<RoutingRule>(); });
    register_behavior("relay", [](const WorkerSpec& spec) { return std::make_unique<Relay>(spec); },
                      {"target", "refuse"});
    return true;
}();

/// A router "front" over two tally workers, routed by by_key; `worker` and `rule` replace
/// the behaviour and the rule objects.
json front(json worker = json{{"type", "tally"}, {"reply_every", 2}},
           json rule = json{{"type", "by_key"}}) {
    return json{{"name", "registered"},
                {"topology",
                 {{"kind", "router"},
                  {"name", "front"},
                  {"routes",
                   {{{"name", "r0"}, {"worker", {{"kind", "actor"}, {"behavior", worker}}}},
                    {{"name", "r1"}, {"worker", {{"kind", "actor"}, {"behavior", worker}}}}}},
                  {"route_message", rule},
                  {"route_call", rule}}},
                {"workload",
                 {{{"from", "c"},
                   {"to", "front"},
                   {"send", {{"type", "W"}, {"key", "$i"}}},
                   {"count", 6},
                   {"every", "1ms"}},
                  {{"from", "c"},
                   {"to", "front"},
                   {"call", {{"type", "Get"}, {"key", 1}}},
                   {"at", "20ms"}}}},
                {"expect",
                 {{"processed", {{"front/r0", 3}, {"front/r1", 4}}},
                  {"clients", {{"c", {{"received", 3}, {"types", {{"Tally", 3}}}}}}}}}};
}

scenarios::LoadError load_error(const json& document) {
    const auto loaded = scenarios::load_scenario_text(document.dump(), "inline.json");
    EXPECT_FALSE(loaded.has_value());
    return loaded.has_value() ? scenarios::LoadError{} : loaded.error();
}

TEST(Registry, TheLoaderAcceptsRegisteredNamesWithTheirKnobs) {
    ASSERT_TRUE(registered);
    const auto scenario = testing::load_scenario_json(front());
    ASSERT_TRUE(scenario.has_value());
    const scenarios::Node& worker = scenario->topology.children.at(0);
    EXPECT_EQ(worker.behaviour.type, scenarios::BehaviourType::Custom);
    EXPECT_EQ(worker.behaviour.custom, "tally");
    EXPECT_EQ(worker.behaviour.knobs, json({{"reply_every", 2}}));
    EXPECT_EQ(scenarios::behaviour_name(worker.behaviour), "tally");
    EXPECT_EQ(scenario->topology.router.route_message.kind, scenarios::RuleKind::Custom);
    EXPECT_EQ(scenario->topology.router.route_message.custom, "by_key");
}

TEST(Registry, UnknownNamesAreRejectedWithTheRegisteredOnesListed) {
    const scenarios::LoadError behaviour = load_error(front(json{{"type", "talley"}}));
    EXPECT_EQ(behaviour.pointer, "/topology/routes/0/worker/behavior/type");
    // Registered names follow the built-ins, sorted (a std::map: the same on every run).
    EXPECT_EQ(behaviour.message, "unknown behavior type \"talley\" (expected one of: echo, sink, "
                                 "keyed_state, forward, fragile, relay, tally)");
    const scenarios::LoadError rule =
        load_error(front(json{{"type", "tally"}}, {{"type", "bykey"}}));
    EXPECT_EQ(rule.pointer, "/topology/route_message/type");
    EXPECT_EQ(rule.message,
              "unknown rule type \"bykey\" (expected a registered rule: broken, by_key)");
    const scenarios::LoadError knob = load_error(front(json{{"type", "tally"}, {"every", 2}}));
    EXPECT_EQ(knob.pointer, "/topology/routes/0/worker/behavior/every");
    EXPECT_NE(knob.message.find("reply_every"), std::string::npos) << knob.message;
    const scenarios::LoadError value =
        load_error(front(json{{"type", "tally"}, {"reply_every", "two"}}));
    EXPECT_EQ(value.pointer, "/topology/routes/0/worker/behavior/reply_every");
    EXPECT_EQ(value.message, "expected a non-negative integer, got \"two\"");
    const scenarios::LoadError both =
        load_error(front(json{{"type", "tally"}}, {{"type", "by_key"}, {"hash", "key"}}));
    EXPECT_EQ(both.pointer, "/topology/route_message");
    const scenarios::LoadError bare = load_error(front(json{{"type", "tally"}}, "by_key"));
    EXPECT_EQ(bare.message,
              "unknown rule \"by_key\" (expected one of: by_type, hash, field, route, "
              "discard); a registered rule is written {\"type\": \"by_key\"}");
}

TEST(Registry, BadRegistrationsThrow) {
    const BehaviorFactory worker = [](const WorkerSpec& spec) {
        return std::make_unique<Tally>(spec);
    };
    EXPECT_THROW(register_behavior("echo", worker), std::invalid_argument);
    EXPECT_THROW(register_behavior("tally", worker), std::invalid_argument);
    EXPECT_THROW(register_behavior("", worker), std::invalid_argument);
    EXPECT_THROW(register_behavior(std::string(256, 'a'), worker), std::invalid_argument);
    EXPECT_THROW(register_behavior("with_cost", worker, {"cost"}), std::invalid_argument);
    EXPECT_THROW(register_behavior("no_factory", nullptr), std::invalid_argument);
    EXPECT_THROW(register_rule("hash", nullptr), std::invalid_argument);
    EXPECT_THROW(register_rule("with_default",
                               [](const RuleSpec& spec) { return std::make_unique<ByKey>(spec); },
                               {"default"}),
                 std::invalid_argument);
    EXPECT_THROW(register_rule("with_field",
                               [](const RuleSpec& spec) { return std::make_unique<ByKey>(spec); },
                               {"field"}),
                 std::invalid_argument);
    // Nothing of a rejected registration is kept.
    EXPECT_EQ(registered_behavior("with_cost"), nullptr);
    EXPECT_EQ(registered_rule("with_default"), nullptr);
}

TEST(Registry, ARunUsesTheRegisteredWorkerAndRule) {
    // Keys 0..5: r0 takes 0, 2, 4 and r1 takes 1, 3, 5 and the call; each answers its second
    // message with a Tally, and the call gets one: 3 Tallies at the client.
    const auto scenario = testing::load_scenario_json(front());
    ASSERT_TRUE(scenario.has_value());
    const scenarios::RunResult result = scenarios::run_scenario(*scenario);
    EXPECT_TRUE(testing::RunPassed(result));
    // A rule without a route for a message uses its default ("discard" here): no key field.
    json keyless = front();
    keyless["workload"][0]["send"].erase("key");
    keyless["expect"] = {{"processed", {{"front/r0", 0}, {"front/r1", 1}}}};
    const auto dropped = testing::load_scenario_json(keyless);
    ASSERT_TRUE(dropped.has_value());
    EXPECT_TRUE(testing::RunPassed(scenarios::run_scenario(*dropped)));
}

TEST(Registry, KeyAffinityChecksARegisteredRuleKey) {
    json document = front(json{{"type", "tally"}}, {{"type", "by_key"}, {"drift", true}});
    document["workload"][0]["send"]["key"] = 7; // one key, six messages
    document.erase("expect");
    document["expect"] = {{"invariants", "all"}};
    const auto drifting = testing::load_scenario_json(document);
    ASSERT_TRUE(drifting.has_value());
    const scenarios::RunResult result = scenarios::run_scenario(*drifting);
    EXPECT_TRUE(testing::InvariantViolated(result, "key_affinity"));
    EXPECT_FALSE(testing::RunPassed(result));
    EXPECT_NE(testing::failure_report(result).find("key_affinity"), std::string::npos);
    // The same key without drift keeps its route.
    document["topology"]["route_message"] = {{"type", "by_key"}};
    const auto steady = testing::load_scenario_json(document);
    ASSERT_TRUE(steady.has_value());
    EXPECT_TRUE(testing::RunPassed(scenarios::run_scenario(*steady)));
}

TEST(Registry, AFactoryThatFailsFailsItsProcessInitWithTheReason) {
    const auto worker =
        testing::load_scenario_json(front(json{{"type", "fragile"}, {"explode", true}}));
    ASSERT_TRUE(worker.has_value());
    const scenarios::RunResult exploded = scenarios::run_scenario(*worker);
    EXPECT_NE(exploded.root_failure.find("registered behavior \"fragile\": the factory threw: "
                                         "explode is set"),
              std::string::npos)
        << exploded.root_failure;
    const auto rule =
        testing::load_scenario_json(front(json{{"type", "tally"}}, {{"type", "broken"}}));
    ASSERT_TRUE(rule.has_value());
    const scenarios::RunResult broken = scenarios::run_scenario(*rule);
    EXPECT_NE(broken.root_failure.find("registered rule \"broken\": the factory made no rule"),
              std::string::npos)
        << broken.root_failure;
    // A factory that succeeds: the same scenario runs.
    const auto fine = testing::load_scenario_json(front(json{{"type", "fragile"}}));
    ASSERT_TRUE(fine.has_value());
    EXPECT_TRUE(scenarios::run_scenario(*fine).root_failure.empty());
}

TEST(Registry, ARegisteredWorkerSendsToTargetsAndMayFailItsInit) {
    // Six messages relayed to client "c" (none answered: handle_call says nothing, so the
    // call times out), and six relayed to nobody (logged, nothing received).
    json document = front(json{{"type", "relay"}, {"target", "c"}});
    document["expect"] = {
        {"clients", {{"c", {{"types", {{"Relayed", 6}}}, {"errors", {{"gen.ErrTimeout", 1}}}}}}}};
    const auto relayed = testing::load_scenario_json(document);
    ASSERT_TRUE(relayed.has_value());
    EXPECT_TRUE(testing::RunPassed(scenarios::run_scenario(*relayed)));
    document["topology"]["routes"][0]["worker"]["behavior"]["target"] = "nobody";
    document["topology"]["routes"][1]["worker"]["behavior"]["target"] = "nobody";
    document["expect"] = {{"clients", {{"c", {{"received", 0}}}}}};
    const auto lost = testing::load_scenario_json(document);
    ASSERT_TRUE(lost.has_value());
    EXPECT_TRUE(testing::RunPassed(scenarios::run_scenario(*lost)));
    const auto refusing =
        testing::load_scenario_json(front(json{{"type", "relay"}, {"refuse", true}}));
    ASSERT_TRUE(refusing.has_value());
    const scenarios::RunResult refused = scenarios::run_scenario(*refusing);
    EXPECT_NE(refused.root_failure.find("relay refuses to start at 0ns"), std::string::npos)
        << refused.root_failure;
}

class RegistryFixture : public testing::ScenarioTest {};

TEST_F(RegistryFixture, CheckFailedNamesTheFailedExpectation) {
    json document = front();
    document["expect"]["processed"]["front/r0"] = 4;
    const auto result = run_json(document);
    ASSERT_TRUE(result.has_value());
    EXPECT_TRUE(testing::CheckFailed(*result, "/expect/processed/front~1r0"));
    EXPECT_FALSE(testing::CheckFailed(*result, "/expect/processed/front~1r1"));
    const std::string report = testing::failure_report(*result);
    EXPECT_NE(report.find("expected 4, got 3"), std::string::npos) << report;
    EXPECT_NE(summary(*result).find("FAIL"), std::string::npos);
}

/// Runs the CLI library on `args` as a program would from its main.
int cli(std::vector<std::string> args) {
    args.insert(args.begin(), "routesim-registry");
    std::vector<char*> argv;
    for (std::string& arg : args) {
        argv.push_back(arg.data());
    }
    return cli_main(static_cast<int>(argv.size()), argv.data());
}

TEST(Registry, TheCliLibraryValidatesRunsAndFuzzesRegisteredTypes) {
    const std::filesystem::path dir = std::filesystem::path(ROUTESIM_BINARY_DIR) / "registry-cli";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "registered.json").string();
    std::ofstream(file) << front().dump(2);
    EXPECT_EQ(cli({"validate", file}), 0);
    EXPECT_EQ(cli({"run", file}), 0);
    EXPECT_EQ(cli({"fuzz", file, "--runs", "30", "--out", (dir / "fuzz").string()}), 0);
    std::ofstream(dir / "unknown.json") << front(json{{"type", "talley"}}).dump(2);
    EXPECT_EQ(cli({"validate", (dir / "unknown.json").string()}), 2);
}

TEST(RegistryProps, EveryInvariantHoldsOnGeneratedTreesOfRegisteredTypes) {
    testing::SwarmPalette palette;
    palette.behaviors = {json{{"type", "tally"}, {"reply_every", 3}}, json{{"type", "tally"}}};
    palette.rules = {json{{"type", "by_key"}}};
    properties::gen::check_bounded(properties::gen::Budget{.max_success = 40}, [&palette] {
        const json document = testing::draw_swarm_scenario(palette);
        RC_CLASSIFY(document.dump().find("tally") != std::string::npos, "has tally");
        RC_CLASSIFY(document.dump().find("by_key") != std::string::npos, "has by_key");
        testing::check_invariants(document);
    });
}

TEST(RegistryProps, TheCheckCatchesARegisteredRuleThatBreaksKeyAffinity) {
    // The same property over routers that all route with the drifting rule: some case sends
    // one key twice through one router, and key_affinity must catch it. (rapidcheck then
    // prints "Some of your RapidCheck properties had failures" at exit: this one, on purpose.)
    testing::SwarmPalette palette;
    palette.rules = {json{{"type", "by_key"}, {"drift", true}}};
    palette.builtin_rules = false;
    rc::detail::TestParams params;
    params.maxSuccess = 200;
    params.seed = 20240601; // fixed (STYLE §6)
    rc::detail::TestMetadata metadata;
    metadata.id = "RegistryProps/drift";
    const rc::detail::TestResult result = rc::detail::checkProperty(
        rc::detail::toProperty(
            [&palette] { testing::check_invariants(testing::draw_swarm_scenario(palette)); }),
        metadata, params);
    ASSERT_TRUE(result.is<rc::detail::FailureResult>());
    const auto& failure = result.get<rc::detail::FailureResult>();
    EXPECT_NE(failure.description.find("key_affinity"), std::string::npos) << failure.description;
}

} // namespace
} // namespace routesim
