// Runner internals: the end-of-run summary of the supervisors, pools and calls still waiting,
// read from the run's TopologyView and the scenario's tree, and the ledger split by message
// class. Private to scenarios/run/.
#pragma once

#include "properties/topology_view.hpp"
#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/run/spec_index.hpp"

namespace routesim::scenarios::detail {

/// Fills `result`'s supervisors and pools (tree order) and waiting calls (start order) from
/// `view`, the scenario's specs and the node registry `specs`. `node` names the PIDs.
void summarise_tree(const Scenario& scenario, const SpecIndex& specs, const runtime::Node& node,
                    const properties::TopologyView& view, RunResult& result);

/// Fills `result`'s ledger, user ledger and runtime message counts from `view`.
void summarise_ledger(const properties::TopologyView& view, RunResult& result);

} // namespace routesim::scenarios::detail
