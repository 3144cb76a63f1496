// Runner internals: the invariant monitors of a run (its own, or a campaign's MonitorKit's)
// and how they are made. Private to scenarios/run/.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "properties/monitor.hpp"
#include "properties/monitors.hpp"
#include "properties/runtime_monitors.hpp"
#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"

namespace routesim::scenarios::detail {

/// The invariant monitors of a run. Their set always feeds its TopologyView (keep_view): the
/// ledger and the summary's tree read it whichever invariants are required.
struct Monitors {
    // The profile and invariants the set was made for.
    runtime::Semantics semantics = runtime::Semantics::Documented;
    std::vector<Invariant> invariants;
    properties::MonitorSet set;
    /// Per invariant of the scenario (in its order): the name of its verdict and the monitor
    /// that judges it (null: unchecked, or determinism), found once when the set is made.
    std::vector<std::pair<std::string, properties::Monitor*>> judges;
};

/// Monitors for every invariant of `invariants` under `semantics`, by their stable names.
std::unique_ptr<Monitors> make_monitors(runtime::Semantics semantics,
                                        const std::vector<Invariant>& invariants);

} // namespace routesim::scenarios::detail
