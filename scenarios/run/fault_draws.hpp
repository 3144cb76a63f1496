// FaultDraws: the random faults that processes draw as they run (faults.crash per message
// taken, faults.spawn_fail per Init, faults.terminate_cost per stop), each from its own PRNG
// stream, and the crashes armed on a PID (timeline `crash`, pinned or aimed crashes).
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/spec_index.hpp"
#include "sim/prng.hpp"

namespace routesim::scenarios {

/// The fault draws of one run. Installs the Node's take-panic hook for its lifetime (pools
/// and supervisors, whose message loop is the runtime's, crash through it). Owned by the
/// run's faults; behaviours get it by reference.
class FaultDraws {
public:
    FaultDraws(runtime::Node& node, const Scenario& scenario, SpecIndex& specs);
    ~FaultDraws();
    FaultDraws(const FaultDraws&) = delete;
    FaultDraws& operator=(const FaultDraws&) = delete;

    /// Random crash for a message taken by `pid`, a process of `spec` with fault classes
    /// `classes` (faults.crash). Inline: a worker or router draws at every message it takes.
    bool draw_crash(const Node& spec, const FaultClasses& classes, const runtime::PID& pid) {
        // crash_hit is false without faults.crash (SpecIndex::settle_crash_hit).
        return classes.crash_hit && crash_drawn(spec, pid);
    }
    /// Random Init failure for a spawn of `spec` (faults.spawn_fail).
    bool draw_spawn_failure(const Node& spec) {
        return draw_spawn_failure(spec, specs_.classes(spec));
    }
    /// The same, with the node's classes already looked up.
    bool draw_spawn_failure(const Node& spec, const FaultClasses& classes);
    /// The injected Init failure of a spawn of a router, pool or supervisor `spec`: a pending
    /// timeline fail_spawns, else a faults.spawn_fail draw (when its targets include the
    /// node's class). Returns the reason text, or nullopt when the Init goes on. Workers make
    /// the same checks in their own Init.
    std::optional<std::string> injected_init_failure(const Node& spec);
    /// The stop delay of a process of `spec`: its terminate_cost knob, else a draw in
    /// [0, faults.terminate_cost.max] for workers.
    sim::Duration draw_terminate_delay(const Node& spec, const FaultClasses& classes);

    /// Marks a PID to panic on its next message (timeline `crash`, a pinned or aimed crash).
    /// Workers, routers and clients look at the mark when they take a message; a pool or a
    /// supervisor, whose message loop is the runtime's, is watched by the Node instead and
    /// panics at its next message or call take (Node::watch_takes).
    void arm_crash(const runtime::PID& pid);
    /// True (once) when the PID was marked by arm_crash.
    bool take_armed_crash(const runtime::PID& pid) {
        return !crash_armed_.empty() && crash_armed_.erase(pid.id) > 0;
    }
    /// Called from the Init of a pool or supervisor `pid` of `spec`: one that faults.crash can
    /// hit has the Node ask at each message it takes.
    void watch_spawn(const Node& spec, const runtime::PID& pid);

    /// Told of every random crash (Verb::Crash, with the victim) and spawn failure
    /// (Verb::FailSpawns, no pid) that a draw fires, so the run can record it.
    std::function<void(Verb verb, const Node& spec, const runtime::PID* pid)> on_fault_drawn;

private:
    /// draw_crash for a node faults.crash can hit: the draw, and its record when it hits.
    bool crash_drawn(const Node& spec, const runtime::PID& pid);
    /// The Node's take-panic hook: an armed crash, else a faults.crash draw for a pool or a
    /// supervisor, at a message or call take.
    bool take_panics(const runtime::PID& pid);
    /// True when `spec` is a pool or a supervisor: a kind whose crashes the Node injects.
    static bool is_watched_kind(const Node& spec);

    runtime::Node& node_;
    const Scenario& scenario_;
    SpecIndex& specs_;
    // One stream per kind of draw, so that a reproducer that pins crashes and spawn failures
    // as timeline actions keeps the terminate-cost draws of the run it came from.
    sim::Prng crash_prng_;
    sim::Prng spawn_prng_;
    sim::Prng terminate_prng_;
    std::set<std::uint64_t> crash_armed_;
};

} // namespace routesim::scenarios
