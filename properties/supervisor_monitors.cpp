// The restart_intensity monitor (§6.4).
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/supervisor_monitors.hpp"

#include <string>

#include "runtime/supervisor.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;
namespace {

std::string pid_of(std::uint64_t pid) {
    return "<" + std::to_string(pid) + ">";
}

// "child "w" (exit of <7>)": the triggering exit of a decision.
std::string child_of(const sim::TraceEvent& event) {
    return "child \"" + std::string(field_text(event, trace::sup_key_child)) + "\" (exit of " +
           pid_of(field_uint(event, trace::pid)) + ")";
}

} // namespace

bool RestartIntensity::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::sup_restart, trace::sup_intensity_exceeded});
}

void RestartIntensity::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::sup_restart)) {
        const std::uint64_t sup = field_uint(event, trace::sup_key_sup);
        on_restart(sup, supervisors_[sup], event);
    } else if (is_kind(event, trace::sup_intensity_exceeded)) {
        const std::uint64_t sup = field_uint(event, trace::sup_key_sup);
        on_exceeded(sup, supervisors_[sup], event);
    }
}

void RestartIntensity::slide(State& state, sim::Instant now) {
    // §6.4: entries older than Period drop out; one exactly Period old still counts.
    while (!state.window.empty() && now - state.window.front().at > state.period) {
        state.window.pop_front();
    }
}

void RestartIntensity::on_restart(std::uint64_t sup, State& state, const sim::TraceEvent& event) {
    RS_ASSERT(event.at >= (state.window.empty() ? sim::Instant::zero() : state.window.back().at));
    state.intensity = field_uint(event, trace::sup_key_intensity);
    state.period = sim::Duration::nanoseconds(
        static_cast<std::int64_t>(field_uint(event, trace::sup_key_period_ns)));
    const Witness decision = witness_of(event);
    if (state.exceeded.has_value()) {
        report(event.at,
               "supervisor " + pid_of(sup) + " restarted " + child_of(event) +
                   " after its restart intensity was exceeded",
               {*state.exceeded, decision});
        return;
    }
    slide(state, event.at);
    state.window.push_back(decision);
    if (state.window.size() <= state.intensity) {
        return;
    }
    // §6.4: the (intensity+1)-th decision within one period trips the limit instead.
    std::vector<Witness> witnesses{state.window.front()};
    if (state.window.size() > 2) {
        witnesses.push_back(state.window[state.window.size() - 2]);
    }
    witnesses.push_back(decision);
    report(event.at,
           "supervisor " + pid_of(sup) + " made " + std::to_string(state.window.size()) +
               " restart decisions within " +
               sim::format_duration(event.at - state.window.front().at) +
               ", but its intensity allows at most " + std::to_string(state.intensity) +
               " in any period of " + sim::format_duration(state.period) + ": the restart of " +
               child_of(event) + " should have tripped the limit",
           std::move(witnesses));
    // Keep the window bounded; each further excess within the period is reported too.
    while (state.window.size() > state.intensity) {
        state.window.pop_front();
    }
}

void RestartIntensity::on_exceeded(std::uint64_t sup, State& state, const sim::TraceEvent& event) {
    slide(state, event.at);
    const std::size_t decisions = state.window.size() + 1; // this decision counts too (§6.4)
    if (state.intensity != 0 && decisions <= state.intensity) {
        std::vector<Witness> witnesses;
        if (!state.window.empty()) {
            witnesses.push_back(state.window.front());
        }
        witnesses.push_back(witness_of(event));
        report(event.at,
               "supervisor " + pid_of(sup) + " declared its restart intensity exceeded for " +
                   child_of(event) + ", but that is only restart decision " +
                   std::to_string(decisions) + " within its period of " +
                   sim::format_duration(state.period) + " (intensity " +
                   std::to_string(state.intensity) + ")",
               std::move(witnesses));
    }
    state.exceeded = witness_of(event);
}

} // namespace routesim::properties
