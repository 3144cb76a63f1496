// Generated C++ topologies for the property suites: the case model (a tree of routers, pools,
// supervisors and workers nested up to depth 3, a timeline of workload, admin operations and
// faults, a scheduling policy and seed), its rapidcheck generator, and the checker that builds
// the tree on a runtime::Node, runs it with every invariant monitor installed and reports.
// Test support beside properties/ (may use every layer; the suites use it, the library not).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/node.hpp"
#include "runtime/supervisor.hpp"
#include "sim/scheduler.hpp"
#include "sim/world.hpp"

namespace routesim::properties::gen {

// -- the case model -----------------------------------------------------------------------

/// What a node of the generated tree runs.
enum class NodeKind : std::uint8_t { Worker, Router, Pool, Supervisor };

/// One node of the tree. Routers own one route per child ("r0", "r1", ...), pools spawn
/// their first child as the worker spec, supervisors have one child spec per child.
struct NodeSpec {
    NodeKind kind = NodeKind::Worker;
    // Worker: virtual time to stop once told (widens pending windows) and per message.
    std::int32_t stop_delay_us = 0;
    std::int32_t cost_us = 0;
    bool answers_calls = true; ///< false: handle_call replies nothing, so callers time out
    // Router: the last Init route has a nil factory, so Init fails (R6, atomic_init).
    bool init_fails = false;
    // Pool.
    std::int32_t pool_size = 1;
    // Supervisor (§6.1).
    runtime::act::SupervisorType sup_type = runtime::act::SupervisorType::OneForOne;
    runtime::act::SupervisorStrategy strategy = runtime::act::SupervisorStrategy::Transient;
    std::uint16_t intensity = 1;
    std::int32_t period_ms = 100;
    bool keep_order = false;
    std::int32_t sofo_instances = 1; ///< SOFO: instances started right after Init
    std::vector<NodeSpec> children;
};

/// One timeline operation, applied between steps at its virtual time.
enum class OpKind : std::uint8_t {
    Send,         ///< a client sends Work to an entry (a router or pool)
    Call,         ///< a client calls an entry with Work
    RouteAdmin,   ///< a router runs a management call on its admin path (inside, R37)
    OutsideAdmin, ///< documented profile: the harness calls a management method (§8)
    PoolAdmin,    ///< a pool adds or removes workers from its admin path (§5)
    SupAdmin,     ///< a supervisor disables/enables/starts a child (§6.8)
    KillWorker,   ///< Node.Kill of a live leaf worker
    KillNode,     ///< Node.Kill of a live router, pool or supervisor (not the root)
    ExitWorker,   ///< SendExit with an abnormal reason to a live leaf worker
    Inspect,      ///< compare every live router's Inspect counters with the trace
};

struct Op {
    OpKind kind = OpKind::Send;
    std::int32_t delay_us = 0; ///< after the previous operation
    std::uint32_t target = 0;  ///< picks an entry, router, pool, supervisor or victim
    std::uint32_t key = 0;     ///< workload key (routers hash it, R10)
    std::uint32_t client = 0;
    std::uint32_t action = 0; ///< admin: which operation
    std::uint32_t name = 0;   ///< admin: which route / child
    std::uint32_t burst = 1;  ///< workload: messages sent back to back (queues build up)
    bool crash = false;       ///< workload: the worker that takes it crashes (panics)
    std::int32_t timeout_ms = 5;
};

/// One generated case: everything a run is a function of.
struct TopologyCase {
    NodeSpec root;
    runtime::Semantics semantics = runtime::Semantics::Documented;
    sim::Policy policy = sim::Policy::Random;
    std::uint32_t pct_depth = 3;
    std::uint64_t seed = 1;
    std::uint32_t take_panic_ppm = 0; ///< fault point take.panic (crash at take)
    std::uint32_t spawn_fail_ppm = 0; ///< fault point spawn.init_fail (spawn failures)
    std::uint32_t clients = 1;
    std::uint32_t free_workers = 1; ///< registered top-level workers "free0".. (R17)
    std::vector<Op> ops;
};

/// Which part of the runtime a generated case exercises most (the mutation check biases
/// cases toward the rule it breaks; the suites use Mixed).
/// What a case concentrates on. AtomicInit: a router root over nested routers, a third of
/// which fail their Init (R6), under router traffic and admin.
enum class Focus : std::uint8_t { Mixed, Router, Pool, Supervisor, AtomicInit };

/// The generator of cases. `Mixed` draws every kind of root and operation.
rc::Gen<TopologyCase> gen_case(Focus focus = Focus::Mixed);

/// The case gen_case(focus) draws from rapidcheck's Random(seed) at `size`: the same case
/// on every run and platform (fixed-seed tests).
TopologyCase sample_case(Focus focus, std::uint64_t seed, int size);

/// A readable rendering of a case (rapidcheck prints it on a failure).
void showValue(const TopologyCase& topology_case, std::ostream& os);
std::string describe(const TopologyCase& topology_case);

// -- the checker --------------------------------------------------------------------------

/// One monitor's violation, as text.
struct Finding {
    std::string monitor;
    std::string text;
};

/// What one run of a case showed.
struct CaseResult {
    std::vector<Finding> findings;
    std::uint64_t trace_hash = 0;
    sim::RunOutcome outcome;
    std::uint64_t routers_inspected = 0;
    /// True when the run hit a limit instead of settling (a liveness failure).
    bool hit_limit = false;
    bool violated(std::string_view monitor) const;
    /// Every finding, one block each, or "no violation".
    std::string describe() const;
};

/// Runs the case with every monitor of monitor_names() on the trace bus, to quiescence or
/// the event limit, checks every live router's Inspect counters against the trace
/// (CounterConsistency::check_inspection) at Inspect operations and at the end, and returns
/// what the monitors found (a test breaks a rule around it with runtime::MutationScope).
/// `trace_out`, when given, receives the run's trace as JSON Lines (to study a failure).
CaseResult run_case(const TopologyCase& topology_case, std::ostream* trace_out = nullptr);

} // namespace routesim::properties::gen
