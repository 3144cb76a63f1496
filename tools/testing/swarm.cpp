// The swarm scenario generator and the invariant check of one generated case.
// Part of tools/ (library routesim::testing; rapidcheck, GoogleTest).
#include "tools/testing/swarm.hpp"

#include <string>
#include <vector>

#include "scenarios/format/loader.hpp"
#include "tools/fuzz.hpp"

namespace routesim::testing {
namespace {

using nlohmann::json;

/// Draws one scenario document. Depth is bounded (routers and supervisors nest at most 3
/// levels), so the recursion is too.
class SwarmScenario {
public:
    explicit SwarmScenario(const SwarmPalette& palette) : palette_(palette) {}

    json draw() {
        features_ = *rc::gen::inRange(0, 1 << 11); // swarm: which optional parts this case has
        json document{{"name", "swarm"}, {"topology", draw_root()}};
        document["run"] = json{{"max_events", 200000}};
        document["workload"] = draw_workload();
        if (has(1)) {
            document["timeline"] = draw_timeline();
        }
        if (has(2)) {
            document["faults"] = draw_faults();
        }
        return document;
    }

private:
    bool has(int bit) const { return (features_ >> bit & 1) != 0; }

    /// One of `objects`, drawn by index (rapidcheck prints the index of a failing case; it
    /// cannot print a JSON value).
    static json pick(const std::vector<json>& objects) {
        return objects[*rc::gen::inRange<std::size_t>(0, objects.size())];
    }

    static std::string duration_us(int low, int high) {
        return std::to_string(*rc::gen::inRange(low, high + 1)) + "us";
    }

    /// A behaviour object: a built-in one, or one of the palette's.
    json draw_behavior() {
        static const std::vector<std::string> types = {"echo", "sink", "keyed_state"};
        const auto& own = palette_.behaviors;
        // With built-ins too, half of the actors get one of the palette's.
        if (!own.empty() && (!palette_.builtin_behaviors || *rc::gen::inRange(0, 2) == 0)) {
            return pick(own);
        }
        json behavior{{"type", *rc::gen::elementOf(types)}};
        if (behavior["type"] == "echo") {
            behavior["reply"] = *rc::gen::arbitrary<bool>();
        }
        return behavior;
    }

    json draw_actor() {
        json behavior = draw_behavior();
        if (has(3) && *rc::gen::inRange(0, 3) == 0) {
            behavior["cost"] = duration_us(1, 100);
        }
        if (has(4) && *rc::gen::inRange(0, 3) == 0) {
            behavior["terminate_cost"] = duration_us(1, 200);
        }
        if (has(5) && *rc::gen::inRange(0, 6) == 0) {
            behavior["crash_on"] = json{{"nth", *rc::gen::inRange(1, 20)}};
        }
        return json{{"kind", "actor"}, {"behavior", behavior}};
    }

    json draw_rule(const std::vector<std::string>& routes) {
        const auto& own = palette_.rules;
        if (!own.empty() && (!palette_.builtin_rules || *rc::gen::inRange(0, 2) == 0)) {
            return pick(own);
        }
        return draw_builtin_rule(routes);
    }

    json draw_builtin_rule(const std::vector<std::string>& routes) {
        switch (*rc::gen::inRange(0, 5)) {
        case 0:
            return json{{"route", *rc::gen::elementOf(routes)}};
        case 1:
            return json{{"hash", "key"}, {"routes", routes}};
        case 2:
            return json{{"by_type", {{"A", routes.front()}, {"B", routes.back()}}},
                        {"default",
                         *rc::gen::elementOf(std::vector<std::string>{"discard", routes.front()})}};
        case 3:
            return json{{"field", "target"}, {"default", routes.front()}};
        default:
            return json("discard");
        }
    }

    json draw_router(int depth, const std::string& name) {
        const int count = *rc::gen::inRange(1, 5);
        json routes = json::array();
        std::vector<std::string> names;
        for (int i = 0; i < count; i++) {
            names.push_back("r" + std::to_string(i));
            routes.push_back(json{{"name", names.back()}, {"worker", draw_worker(depth + 1)}});
        }
        json router{{"kind", "router"},
                    {"routes", routes},
                    {"route_message", draw_rule(names)},
                    {"route_call", draw_rule(names)}};
        if (!name.empty()) {
            router["name"] = name;
            routers_.push_back(Router{name, names});
        }
        return router;
    }

    json draw_worker(int depth) {
        const int kind = *rc::gen::inRange(0, 10);
        if (kind < 7 || depth >= 3) {
            return draw_actor();
        }
        if (kind < 9) {
            return json{
                {"kind", "pool"}, {"size", *rc::gen::inRange(1, 4)}, {"worker", draw_actor()}};
        }
        return draw_router(depth, ""); // an unregistered router as a route's worker
    }

    json draw_supervisor(int depth) {
        static const std::vector<std::string> types = {"one_for_one", "all_for_one",
                                                       "rest_for_one"};
        static const std::vector<std::string> strategies = {"transient", "temporary", "permanent"};
        json children = json::array();
        const int count = *rc::gen::inRange(1, 4);
        for (int i = 0; i < count; i++) {
            const std::string name = "node:" + std::to_string(next_name_++);
            json child = *rc::gen::inRange(0, 2) == 0 || depth >= 2 ? draw_actor()
                                                                    : draw_router(depth + 1, name);
            child["name"] = name;
            if (child["kind"] == "actor") {
                actors_.push_back(name);
            }
            children.push_back(child);
        }
        return json{{"kind", "supervisor"},
                    {"name", "sup:" + std::to_string(next_name_++)},
                    {"type", *rc::gen::elementOf(types)},
                    {"restart",
                     {{"strategy", *rc::gen::elementOf(strategies)},
                      {"intensity", *rc::gen::inRange(1, 10)},
                      {"period", duration_us(100, 5000)}}},
                    {"children", children}};
    }

    json draw_root() {
        if (*rc::gen::inRange(0, 5) < 3) {
            return draw_router(1, "router:" + std::to_string(next_name_++));
        }
        json root = draw_supervisor(1);
        if (routers_.empty()) {
            // Keep at least one router in every case: the races are about routers.
            const std::string name = "router:" + std::to_string(next_name_++);
            root["children"].push_back(draw_router(2, name));
        }
        return root;
    }

    json draw_workload() {
        json workload = json::array();
        const int count = *rc::gen::inRange(1, 4);
        for (int i = 0; i < count; i++) {
            const Router& router = *rc::gen::elementOf(routers_);
            json message{{"type", *rc::gen::elementOf(std::vector<std::string>{"A", "B", "C"})},
                         {"key", "$i"}};
            json source{{"from", "client:" + std::to_string(*rc::gen::inRange(0, 3))},
                        {"to", router.name},
                        {"count", *rc::gen::inRange(1, 61)},
                        {"every", duration_us(0, 100)},
                        {"at", duration_us(0, 500)}};
            if (*rc::gen::inRange(0, 4) == 0) {
                source["call"] = message;
                source["timeout"] = "5ms";
            } else {
                source["send"] = message;
            }
            workload.push_back(source);
        }
        return workload;
    }

    json draw_timeline() {
        static const std::vector<std::string> verbs = {
            "disable_route", "enable_route", "remove_route", "replace_route",
            "respawn_route", "add_route",    "kill"};
        json timeline = json::array();
        const int count = *rc::gen::inRange(1, 4);
        for (int i = 0; i < count; i++) {
            const Router& router = *rc::gen::elementOf(routers_);
            const std::string verb = *rc::gen::elementOf(verbs);
            const std::string route = *rc::gen::elementOf(router.routes);
            json action{{"at", duration_us(0, 2000)}};
            if (verb == "kill") {
                action["kill"] =
                    *rc::gen::inRange(0, 2) == 0 ? router.name : router.name + "/" + route;
            } else {
                json argument{{"router", router.name},
                              {"name", verb == "add_route" ? "extra" + std::to_string(i) : route}};
                if (verb == "add_route" || verb == "replace_route") {
                    argument["worker"] = draw_actor();
                }
                action[verb] = argument;
                action["via"] = *rc::gen::elementOf(std::vector<std::string>{"call", "admin"});
            }
            timeline.push_back(action);
        }
        return timeline;
    }

    json draw_faults() {
        static const std::vector<std::string> classes = {
            "route_workers", "pool_workers", "workers", "routers", "pools", "supervisors"};
        json faults = json::object();
        if (has(6)) {
            faults["kill"] = json{{"targets", json::array({*rc::gen::elementOf(classes)})},
                                  {"every", duration_us(100, 2000)}};
        }
        if (has(7)) {
            faults["crash"] = json{{"probability", *rc::gen::inRange(1, 50) / 1000.0}};
        }
        if (has(8)) {
            faults["spawn_fail"] = json{{"probability", *rc::gen::inRange(1, 50) / 1000.0}};
        }
        if (has(9)) {
            faults["terminate_cost"] = json{{"max", duration_us(1, 300)}};
        }
        if (has(10)) {
            faults["admin"] = json{{"routers", json::array({routers_.front().name})},
                                   {"every", duration_us(100, 2000)}};
        }
        return faults;
    }

    struct Router {
        std::string name;
        std::vector<std::string> routes;
    };
    const SwarmPalette& palette_;
    int features_ = 0;
    int next_name_ = 0;
    std::vector<Router> routers_;
    std::vector<std::string> actors_;
};

} // namespace

json draw_swarm_scenario(const SwarmPalette& palette) {
    return SwarmScenario(palette).draw();
}

rc::Gen<json> gen_swarm_scenario(SwarmPalette palette) {
    return rc::gen::exec([palette] { return draw_swarm_scenario(palette); });
}

std::string describe_violations(const scenarios::RunResult& result) {
    std::string text;
    for (const auto& violation : result.violations) {
        text += violation.to_string() + "\n";
    }
    return text;
}

scenarios::RunResult check_invariants(const json& document) {
    const auto scenario = scenarios::load_scenario_text(document.dump(), "swarm.json");
    if (!scenario.has_value()) {
        RC_LOG() << document.dump(2) << "\n" << scenario.error().to_string() << "\n";
    }
    RC_ASSERT(scenario.has_value());
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const sim::Policy policy =
        *rc::gen::elementOf(std::vector<sim::Policy>{sim::Policy::Random, sim::Policy::Pct});
    scenarios::RunResult result =
        scenarios::run_scenario(scenario.value(), tools::fuzz_settings(seed, policy, std::nullopt));
    RC_LOG() << "seed " << seed << " scheduler " << sim::policy_name(policy) << "\n"
             << document.dump(2) << "\n"
             << describe_violations(result);
    RC_TAG(result.outcome.events < 100    ? "events<100"
           : result.outcome.events < 1000 ? "events<1000"
                                          : "events>=1000",
           result.faults.empty() ? "no faults fired" : "faults fired",
           result.root_failure.empty() ? "root started" : "root failed");
    RC_ASSERT(result.violations.empty());
    RC_ASSERT(result.outcome.reason != sim::StopReason::EventLimit);
    RC_ASSERT(result.outcome.reason != sim::StopReason::TimeLimit);
    return result;
}

} // namespace routesim::testing
