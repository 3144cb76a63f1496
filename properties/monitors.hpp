// The monitor factory: every invariant monitor of DESIGN.md by its stable name, so scenario
// files, the fuzzer and property tests can ask for monitors by name.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "properties/monitor.hpp"
#include "runtime/node.hpp"

namespace routesim::properties {

/// What a monitor needs to know about the run it watches.
struct MonitorOptions {
    /// The Router semantics profile the run uses (management results are checked against it).
    runtime::Semantics semantics = runtime::Semantics::Documented;
};

/// A new monitor for the invariant `name`, or nullptr when no trace monitor has that name
/// (`determinism` is checked by running twice, not by a monitor).
std::unique_ptr<Monitor> make_monitor(std::string_view name, const MonitorOptions& options);

/// The names make_monitor accepts, in DESIGN.md table order.
std::vector<std::string_view> monitor_names();

} // namespace routesim::properties
