// Build probe: builds a loaded scenario's runtime topology on a fresh World and Node, up to the
// point where it would run (the topology root spawned with its subtree, then the clients), and
// reports what was built. Used by the loader fuzz target, the 10,000-node benchmark and its
// test. It runs no workload, timeline or fault and reads no wall clock.
// Part of scenarios/ (test and benchmark support): uses runtime/, sim/ and the builder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios::probe {

/// What building a scenario produced.
struct Built {
    /// Live processes on the node after the build (topology processes plus clients).
    std::size_t processes = 0;
    /// Registered names on the node after the build.
    std::size_t registered = 0;
    /// Why the root did not start; empty when it did.
    std::string root_failure;
};

/// Topology nodes after `repeat` (the root included), iteratively.
inline std::uint64_t count_nodes(const Node& root) {
    std::uint64_t count = 0;
    std::vector<const Node*> stack{&root};
    while (!stack.empty()) {
        const Node* node = stack.back();
        stack.pop_back();
        count++;
        for (const Node& child : node->children) {
            stack.push_back(&child);
        }
    }
    return count;
}

/// Builds `scenario` as the runner does before time 0 and counts what is alive.
/// Cost: one spawn per process of the topology.
inline Built build(const Scenario& scenario) {
    sim::WorldOptions options;
    options.seed = scenario.run.seed;
    sim::World world(options);
    runtime::Node node(world, runtime::NodeOptions{});
    // The parts a run gives its processes (detail::Runner owns the same).
    SpecIndex specs(scenario);
    FaultDraws draws(node, scenario, specs);
    const Targets targets(node, specs);
    ClientRecords clients;
    Outcomes outcomes;
    RouterRecords routers;
    const BuildContext context{WorkerContext{specs, draws, targets, nullptr, scenario}, routers,
                               outcomes};
    const ClientContext client_context{node, draws, targets, clients, outcomes};
    Built built;
    const Node& root = scenario.topology;
    const runtime::Factory factory = factory_for(context, root);
    const auto spawned = root.name.empty() ? node.spawn(factory, options_for(root), {})
                                           : node.spawn_register(runtime::Atom(root.name), factory,
                                                                 options_for(root), {});
    if (!spawned) {
        built.root_failure = spawned.error().message();
    }
    for (const std::string& client : scenario.clients) {
        (void)node.spawn_register(runtime::Atom(client), client_factory(client_context, client), {},
                                  {});
    }
    built.processes = node.process_count();
    built.registered = node.registered().size();
    return built;
}

} // namespace routesim::scenarios::probe
