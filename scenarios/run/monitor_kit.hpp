// MonitorKit: the invariant monitors kept across the runs of one campaign
// (RunSettings::monitors). A campaign-scope object owned by the caller.
// Part of scenarios/run/: uses properties/, runtime/ and sim/.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"

namespace routesim::scenarios {

namespace detail {
struct Monitors;
} // namespace detail

/// The invariant monitors, kept across the runs of one campaign (RunSettings::monitors): a
/// run that asks for the same monitors under the same profile resets them
/// (MonitorSet::reset) instead of making them and their kind index anew. Serves one
/// executing run at a time (a finished run may still be alive: its results were copied out
/// when it ended).
class MonitorKit {
public:
    MonitorKit();
    ~MonitorKit();
    MonitorKit(const MonitorKit&) = delete;
    MonitorKit& operator=(const MonitorKit&) = delete;
    /// Runs that found the kit's monitors ready and reset them.
    std::uint64_t reuses() const { return reuses_; }
    /// The monitors for a run under `semantics` that judges `invariants`: the kit's, reset,
    /// when they were made for the same, else new ones the kit keeps from now on.
    detail::Monitors& acquire(runtime::Semantics semantics,
                              const std::vector<Invariant>& invariants);

private:
    std::unique_ptr<detail::Monitors> monitors_;
    std::uint64_t reuses_ = 0;
};

} // namespace routesim::scenarios
