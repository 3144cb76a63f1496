// The monitor factory.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/monitors.hpp"

#include <array>

#include "properties/router_monitors.hpp"
#include "properties/runtime_monitors.hpp"
#include "properties/supervisor_monitors.hpp"

namespace routesim::properties {
namespace {

constexpr std::array<std::string_view, 11> names = {
    "route_stability", "key_affinity",        "pending_exclusivity",    "sender_preservation",
    "atomic_init",     "counter_consistency", "no_forward_to_disabled", "message_conservation",
    "call_outcome",    "pair_fifo",           "restart_intensity",
};

} // namespace

std::unique_ptr<Monitor> make_monitor(std::string_view name, const MonitorOptions& options) {
    if (name == "route_stability") {
        return std::make_unique<RouteStability>(options.semantics);
    }
    if (name == "key_affinity") {
        return std::make_unique<KeyAffinity>();
    }
    if (name == "pending_exclusivity") {
        return std::make_unique<PendingExclusivity>(options.semantics);
    }
    if (name == "sender_preservation") {
        return std::make_unique<SenderPreservation>();
    }
    if (name == "atomic_init") {
        return std::make_unique<AtomicInit>();
    }
    if (name == "counter_consistency") {
        return std::make_unique<CounterConsistency>();
    }
    if (name == "no_forward_to_disabled") {
        return std::make_unique<NoForwardToDisabled>(options.semantics);
    }
    if (name == "message_conservation") {
        return std::make_unique<MessageConservation>();
    }
    if (name == "call_outcome") {
        return std::make_unique<CallOutcomeMonitor>();
    }
    if (name == "pair_fifo") {
        return std::make_unique<PairFifo>();
    }
    if (name == "restart_intensity") {
        return std::make_unique<RestartIntensity>();
    }
    return nullptr;
}

std::vector<std::string_view> monitor_names() {
    return {names.begin(), names.end()};
}

} // namespace routesim::properties
