// Monitors of the Supervisor invariants of DESIGN.md: restart_intensity. They read the
// supervisor's trace events (runtime/supervisor.hpp: sup_restart, sup_intensity_exceeded).
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>

#include "properties/monitor.hpp"

namespace routesim::properties {

/// restart_intensity: a supervisor never makes more restart decisions in a period than its
/// intensity allows, counted as §6.4 counts them: one decision per
/// triggering exit (all_for_one included), a window of `period` back from each decision, both
/// ends included. It also reports a restart after the limit tripped, and a limit declared
/// tripped while the window still had room. Memory: at most intensity + 1 decisions per
/// supervisor.
class RestartIntensity final : public Monitor {
public:
    std::string_view name() const override { return "restart_intensity"; }
    void on_event(const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void reset() override { supervisors_.clear(); }

private:
    struct State {
        std::deque<Witness> window;  // the decisions within one period of the latest
        std::uint64_t intensity = 0; // from the latest sup_restart (0: not known yet)
        sim::Duration period;
        std::optional<Witness> exceeded;
    };
    void on_restart(std::uint64_t sup, State& state, const sim::TraceEvent& event);
    void on_exceeded(std::uint64_t sup, State& state, const sim::TraceEvent& event);
    static void slide(State& state, sim::Instant now);

    std::map<std::uint64_t, State> supervisors_; // by supervisor pid id
};

} // namespace routesim::properties
