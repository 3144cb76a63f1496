// The restart_intensity monitor (§6.4).
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/supervisor_monitors.hpp"

#include <string>

#include "properties/event_text.hpp"
#include "runtime/supervisor.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;
namespace {

// "child "w" (exit of <7>)": the triggering exit of a decision (a sup_restart or a
// sup_intensity_exceeded).
std::string child_of(const sim::TraceEvent& event, const TopologyView* names) {
    std::string_view child;
    std::uint64_t pid = 0;
    if (const auto restart = read_event<runtime::ev::SupRestart>(event)) {
        child = restart->child.text;
        pid = restart->pid;
    } else if (const auto exceeded = read_event<runtime::ev::SupIntensityExceeded>(event)) {
        child = exceeded->child.text;
        pid = exceeded->pid;
    }
    return "child \"" + std::string(child) + "\" (exit of " + pid_text(pid, names) + ")";
}

} // namespace

bool RestartIntensity::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::sup_restart, trace::sup_intensity_exceeded});
}

void RestartIntensity::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void RestartIntensity::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    feed_own_view(kind, event);
    if (kind != EventKind::SupRestart && kind != EventKind::SupIntensityExceeded) {
        return;
    }
    std::uint64_t sup = 0;
    if (const auto* restart = decoded<runtime::ev::SupRestart>(event)) {
        sup = restart->sup;
    } else if (const auto* exceeded = decoded<runtime::ev::SupIntensityExceeded>(event)) {
        sup = exceeded->sup;
    }
    const SupervisorView* state = view().supervisor(sup);
    if (state == nullptr) {
        return; // an event that does not decode: the view skipped it too
    }
    if (kind == EventKind::SupRestart) {
        on_restart(sup, *state, event);
    } else {
        on_exceeded(sup, *state, event);
    }
}

void RestartIntensity::on_restart(std::uint64_t sup, const SupervisorView& state,
                                  const sim::TraceEvent& event) {
    const Witness decision = witness(event);
    if (state.exceeded_before_last) {
        report(event.at,
               "supervisor " + pid_text(sup, names()) + " restarted " + child_of(event, names()) +
                   " after its restart intensity was exceeded",
               {state.exceeded->witness(), decision});
        return;
    }
    RS_ASSERT(!state.window.empty() && state.window.back().at == event.at);
    if (state.window.size() <= state.intensity) {
        return;
    }
    // §6.4: the (intensity+1)-th decision within one period trips the limit instead.
    std::vector<Witness> witnesses{state.window.front().event.witness(names())};
    if (state.window.size() > 2) {
        witnesses.push_back(state.window[state.window.size() - 2].event.witness(names()));
    }
    witnesses.push_back(decision);
    report(event.at,
           "supervisor " + pid_text(sup, names()) + " made " + std::to_string(state.window.size()) +
               " restart decisions within " +
               sim::format_duration(event.at - state.window.front().at) +
               ", but its intensity allows at most " + std::to_string(state.intensity) +
               " in any period of " + sim::format_duration(state.period) + ": the restart of " +
               child_of(event, names()) + " should have tripped the limit",
           std::move(witnesses));
}

void RestartIntensity::on_exceeded(std::uint64_t sup, const SupervisorView& state,
                                   const sim::TraceEvent& event) {
    const std::size_t decisions = state.window.size() + 1; // this decision counts too (§6.4)
    if (state.intensity != 0 && decisions <= state.intensity) {
        std::vector<Witness> witnesses;
        if (!state.window.empty()) {
            witnesses.push_back(state.window.front().event.witness(names()));
        }
        witnesses.push_back(witness(event));
        report(event.at,
               "supervisor " + pid_text(sup, names()) +
                   " declared its restart intensity exceeded for " + child_of(event, names()) +
                   ", but that is only restart decision " + std::to_string(decisions) +
                   " within its period of " + sim::format_duration(state.period) + " (intensity " +
                   std::to_string(state.intensity) + ")",
               std::move(witnesses));
    }
}

} // namespace routesim::properties
