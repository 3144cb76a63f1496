// Targets: runtime resolution of the target strings of a scenario ("name", "router/route",
// "pool/#2", "sup/child") to the live process they name now.
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <optional>
#include <string_view>

#include "runtime/node.hpp"
#include "scenarios/run/spec_index.hpp"

namespace routesim::scenarios {

/// The live process a target names now: a registered name or client, then path segments
/// (a supervisor child by name, a router's route by name, a pool worker "#k" in spawn order,
/// which the spec registry's incarnations order). Defined in builder.cpp (it knows the
/// scenario's router class).
std::optional<runtime::PID> resolve_target(runtime::Node& node, SpecIndex& specs,
                                           std::string_view target);

/// Target resolution of one run, for the parts that hold no node or registry of their own.
class Targets {
public:
    Targets(runtime::Node& node, SpecIndex& specs) : node_(node), specs_(specs) {}
    /// The live process `target` names now, if any (resolve_target).
    std::optional<runtime::PID> resolve(std::string_view target) const {
        return resolve_target(node_, specs_, target);
    }

private:
    runtime::Node& node_;
    SpecIndex& specs_;
};

} // namespace routesim::scenarios
