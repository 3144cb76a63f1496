// Runner internals: the reachability probes of `expect.sometimes` (scenarios/FORMAT.md). A
// trace sink placed after the run's TopologyView: after every event it tests each probe not
// yet reached against the view and its own counts, and records the first event at which the
// probe held. A run whose scenario has no probes attaches none. Private to scenarios/run/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/topology_view.hpp"
#include "runtime/events.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios::detail {

/// The probes of one run. Cost per event: nothing once every probe is reached; else a kind
/// decode and, per probe not reached, a compare or two (a route_state probe reads the view's
/// route; targets are resolved again only when a process starts or ends).
class Probes final : public sim::TraceSink {
public:
    /// `view` must be fed each event before this sink (the monitor set's view is).
    Probes(const Scenario& scenario, const Targets& targets, const properties::TopologyView& view);
    void on_event(const sim::TraceEvent& event) override;
    /// Every probe in file order, reached or not.
    std::vector<ProbeResult> results() const;

private:
    /// Whose restarts a `restarts` probe counts: the parent that restarts the target.
    enum class Parent : std::uint8_t { None, Router, Supervisor, Pool };
    struct State {
        const Probe* probe = nullptr;
        bool reached = false;
        std::uint64_t seq = 0;
        sim::Instant at;
        std::uint64_t count = 0; ///< restarts seen so far
        /// restarts: the parent's target and the child's name there (route, child spec, "#k").
        Parent parent = Parent::None;
        std::string parent_target;
        std::string child;
        /// The pid the probe's process target (router, parent or `at`) resolved to, 0: none;
        /// resolved again after an event that starts or ends a process.
        std::uint64_t pid = 0;
        bool resolved = false;
    };

    void set_parent(const Scenario& scenario, State& state) const;
    bool holds(State& state, runtime::ev::Kind code, const sim::TraceEvent& event);
    bool route_state_holds(State& state);
    bool restarted(State& state, runtime::ev::Kind code, const sim::TraceEvent& event);
    bool event_holds(State& state, const sim::TraceEvent& event);
    /// The pid the state's process target names now (cached, see State::pid).
    std::uint64_t pid_of(State& state, const std::string& target);

    const Targets& targets_;
    const properties::TopologyView& view_;
    std::vector<State> states_;
    std::size_t remaining_ = 0;
};

} // namespace routesim::scenarios::detail
