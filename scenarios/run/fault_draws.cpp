// FaultDraws: random crash, spawn-failure and terminate-cost draws; armed crashes.
// Part of scenarios/run/: uses runtime/ and sim/.
#include "scenarios/run/fault_draws.hpp"

#include "sim/assert.hpp"

namespace routesim::scenarios {

FaultDraws::FaultDraws(runtime::Node& node, const Scenario& scenario, SpecIndex& specs)
    : node_(node), scenario_(scenario), specs_(specs),
      crash_prng_(node.world().stream("faults.crash")),
      spawn_prng_(node.world().stream("faults.spawn_fail")),
      terminate_prng_(node.world().stream("faults.terminate_cost")) {
    node_.set_take_panic_hook([this](const runtime::PID& pid) { return take_panics(pid); });
}

FaultDraws::~FaultDraws() {
    node_.set_take_panic_hook({});
}

bool FaultDraws::is_watched_kind(const Node& spec) {
    return spec.kind == NodeKind::Pool || spec.kind == NodeKind::Supervisor;
}

void FaultDraws::arm_crash(const runtime::PID& pid) {
    crash_armed_.insert(pid.id);
    const Node* spec = specs_.spec_of(pid);
    if (spec != nullptr && is_watched_kind(*spec)) {
        (void)node_.watch_takes(pid, true); // a dead target: the mark is never taken
    }
}

bool FaultDraws::take_panics(const runtime::PID& pid) {
    // scenarios/FORMAT.md timeline `crash`: "panics on its next message"; faults.crash: "the
    // chance per message taken". The Node asks at messages and calls only, as a worker counts
    // them (exit signals are the runtime's bookkeeping).
    if (take_armed_crash(pid)) {
        return true;
    }
    const SpecIndex::Spawned* found = specs_.spawned(pid);
    return found != nullptr && is_watched_kind(*found->spec) &&
           draw_crash(*found->spec, *found->classes, pid);
}

bool FaultDraws::crash_drawn(const Node& spec, const runtime::PID& pid) {
    const auto& crash = scenario_.faults.crash;
    RS_ASSERT(crash.has_value()); // a node it can hit
    if (crash->probability_ppb == 0 || !crash_prng_.chance(crash->probability_ppb, 1'000'000'000)) {
        return false;
    }
    if (on_fault_drawn) {
        on_fault_drawn(Verb::Crash, spec, &pid);
    }
    return true;
}

bool FaultDraws::draw_spawn_failure(const Node& spec, const FaultClasses& classes) {
    const auto& spawn_fail = scenario_.faults.spawn_fail;
    if (!spawn_fail.has_value() || spawn_fail->probability_ppb == 0) {
        return false;
    }
    const bool hit =
        spawn_fail->targets.empty() ? classes.worker : classes.matches(spawn_fail->targets);
    if (!hit || !spawn_prng_.chance(spawn_fail->probability_ppb, 1'000'000'000)) {
        return false;
    }
    if (on_fault_drawn) {
        on_fault_drawn(Verb::FailSpawns, spec, nullptr);
    }
    return true;
}

std::optional<std::string> FaultDraws::injected_init_failure(const Node& spec) {
    RS_ASSERT(spec.kind != NodeKind::Actor);
    // scenarios/FORMAT.md: fail_spawns fails the next k spawns from any node's spec, and
    // spawn_fail hits the classes its targets list (routers, pools, supervisors included).
    NodeStats& stats = specs_.stats(spec);
    if (stats.fail_next > 0) {
        stats.fail_next--;
        return "init failed (fail_spawns)";
    }
    if (draw_spawn_failure(spec)) {
        return "init failed (faults.spawn_fail)";
    }
    return std::nullopt;
}

sim::Duration FaultDraws::draw_terminate_delay(const Node& spec, const FaultClasses& classes) {
    if (spec.kind == NodeKind::Actor && spec.behaviour.terminate_cost.has_value()) {
        return *spec.behaviour.terminate_cost;
    }
    const auto& max = scenario_.faults.terminate_cost_max;
    if (!max.has_value() || *max <= sim::Duration::zero() || !classes.worker) {
        return sim::Duration::zero();
    }
    return sim::Duration::nanoseconds(terminate_prng_.between(0, max->count_ns()));
}

void FaultDraws::watch_spawn(const Node& spec, const runtime::PID& pid) {
    RS_ASSERT(is_watched_kind(spec));
    RS_ASSERT(specs_.spec_of(pid) == &spec); // noted by the SpecIndex first
    // A pool or supervisor that faults.crash can hit draws at each message it takes.
    const auto& crash = scenario_.faults.crash;
    if (crash.has_value() && crash->probability_ppb > 0 && !crash->targets.empty() &&
        specs_.classes(spec).matches(crash->targets)) {
        const auto watched = node_.watch_takes(pid, true);
        RS_ASSERT(watched.has_value()); // called from the process's own Init
    }
}

} // namespace routesim::scenarios
