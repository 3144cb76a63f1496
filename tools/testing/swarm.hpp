// Generated scenarios for rapidcheck properties (swarm testing): random trees of routers,
// pools, supervisors and actors up to depth 3, with routing rules, workloads, timelines and
// fault mixes, each case turning a random subset of features on. A palette puts your own
// registered behaviours and rules (scenarios/run/registry.hpp) into the trees, so that
//     RC_GTEST_PROP(MyRouter, InvariantsHold, ()) {
//         routesim::testing::check_invariants(routesim::testing::draw_swarm_scenario(palette));
//     }
// checks every invariant on generated trees running your code. routesim's own swarm suite
// (tools/swarm_props.cpp) is this with the default palette.
// Part of tools/ (library routesim::testing; rapidcheck, GoogleTest).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/run/runner.hpp"
#include "sim/scheduler.hpp"

namespace routesim::testing {

/// What the generated trees are made of.
struct SwarmPalette {
    /// Behaviour objects an actor may get besides the built-ins ({"type": "my_worker", ...}).
    /// The common knobs (cost, terminate_cost, crash_on) are drawn on top of them.
    std::vector<nlohmann::json> behaviors;
    /// Draw the built-in behaviours too (echo, sink, keyed_state).
    bool builtin_behaviors = true;
    /// Rule objects a router may get besides the built-ins ({"type": "my_rule", ...}).
    std::vector<nlohmann::json> rules;
    /// Draw the built-in rules too (route, hash, by_type, field, discard).
    bool builtin_rules = true;
};

/// Draws one scenario document (call inside a property: it uses `*gen`). The default palette
/// draws exactly what routesim's swarm suite draws.
nlohmann::json draw_swarm_scenario(const SwarmPalette& palette = {});

/// The same as a generator.
rc::Gen<nlohmann::json> gen_swarm_scenario(SwarmPalette palette = {});

/// Loads `document` as a file would be and runs it as the fuzzer runs a campaign run (aimed
/// faults, random or PCT schedule, seed and scheduler drawn here, stop at the first
/// violation), then asserts (RC_ASSERT) that it loaded, that no invariant was violated and
/// that the run ended within its limits. The document, the seed and the violations are
/// logged for a failing case. Call inside a property; returns the run.
scenarios::RunResult check_invariants(const nlohmann::json& document);

/// Every violation of `result`, one Violation::to_string() per line ("" when none).
std::string describe_violations(const scenarios::RunResult& result);

} // namespace routesim::testing
