// Monitors of the Supervisor invariants of DESIGN.md: restart_intensity. They read the
// supervisor's trace events (runtime/supervisor.hpp: sup_restart, sup_intensity_exceeded).
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>

#include "properties/monitor.hpp"
#include "properties/topology_view.hpp"

namespace routesim::properties {

/// restart_intensity: a supervisor never makes more restart decisions in a period than its
/// intensity allows, counted as §6.4 counts them: one decision per
/// triggering exit (all_for_one included), a window of `period` back from each decision, both
/// ends included. It also reports a restart after the limit tripped, and a limit declared
/// tripped while the window still had room. It keeps no state: the decisions are the view's
/// supervisor window (TopologyView::supervisor).
class RestartIntensity final : public Monitor {
public:
    std::string_view name() const override { return "restart_intensity"; }
    void on_event(const sim::TraceEvent& event) override;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    bool reads_view() const override { return true; }
    void reset() override {} // the windows are the view's (SupervisorView::window)

private:
    void on_restart(std::uint64_t sup, const SupervisorView& state, const sim::TraceEvent& event);
    void on_exceeded(std::uint64_t sup, const SupervisorView& state, const sim::TraceEvent& event);
};

} // namespace routesim::properties
