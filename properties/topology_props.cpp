// Goal: on generated C++ topologies (routers with owned, registry and unknown routes, pools,
// supervisors of all four types, nested up to depth 3), with generated workloads (sends and
// calls with keys), admin sequences (route add/remove/disable/enable/replace/respawn from the
// router's own callbacks, and from outside under the documented profile; pool and supervisor
// management) and faults (kills, exits, crashes at take, spawn failures), under random and
// PCT scheduling and both semantics profiles, every invariant monitor of DESIGN.md holds,
// every live router's Inspect counters agree with the trace, and a case is a pure function of
// its seed (the determinism invariant).
// Method: rapidcheck draws a case (properties/gen/topology.hpp); the checker builds the tree
// on a Node with every monitor of monitor_names() on the trace bus, runs it to quiescence
// and reports every violation with its witnesses. The default budget keeps the whole file
// well under a minute; the `nightly` CTest reruns it with RC_PARAMS=max_success=<large>.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>

#include "properties/gen/bounded_check.hpp"
#include "properties/gen/topology.hpp"

namespace routesim::properties {
namespace {

using gen::Budget;
using gen::CaseResult;
using gen::Focus;
using gen::TopologyCase;

// Cases per property in the default (CI) run; the size bounds the timeline's length.
// About 5 s in all on an idle core (cases take well under a millisecond each).
constexpr Budget mixed_budget{.max_success = 3000, .max_size = 100};
constexpr Budget focused_budget{.max_success = 1000, .max_size = 100};

void holds(const TopologyCase& topology_case) {
    const CaseResult result = gen::run_case(topology_case);
    RC_CLASSIFY(result.routers_inspected > 0, "inspected a router");
    RC_CLASSIFY(result.outcome.events < 100, "events < 100");
    RC_CLASSIFY(result.outcome.events >= 100 && result.outcome.events < 1000, "events 100-999");
    RC_CLASSIFY(result.outcome.events >= 1000, "events >= 1000");
    if (!result.findings.empty()) {
        RC_FAIL(result.describe());
    }
}

TEST(TopologyProps, EveryMonitorHoldsUnderRandomScheduling) {
    gen::check_bounded(mixed_budget, [] {
        TopologyCase topology_case = *gen::gen_case(Focus::Mixed);
        topology_case.policy = sim::Policy::Random;
        holds(topology_case);
    });
}

TEST(TopologyProps, EveryMonitorHoldsUnderPctScheduling) {
    gen::check_bounded(mixed_budget, [] {
        TopologyCase topology_case = *gen::gen_case(Focus::Mixed);
        topology_case.policy = sim::Policy::Pct;
        holds(topology_case);
    });
}

TEST(TopologyProps, EveryMonitorHoldsUnderRouterAdminStorms) {
    gen::check_bounded(focused_budget, [] { holds(*gen::gen_case(Focus::Router)); });
}

TEST(TopologyProps, EveryMonitorHoldsWhenPoolWorkersDie) {
    gen::check_bounded(focused_budget, [] { holds(*gen::gen_case(Focus::Pool)); });
}

TEST(TopologyProps, EveryMonitorHoldsUnderSupervisorRestartStorms) {
    gen::check_bounded(focused_budget, [] { holds(*gen::gen_case(Focus::Supervisor)); });
}

TEST(TopologyProps, EveryMonitorHoldsWhenNestedRoutersFailTheirInit) {
    gen::check_bounded(focused_budget, [] { holds(*gen::gen_case(Focus::AtomicInit)); });
}

// The focus above really draws failing Inits (R6): most of its cases have a nested router
// whose Init fails, where the mixed generator has one in only a few percent.
TEST(TopologyProps, AtomicInitFocusDrawsFailingNestedRouters) {
    const auto fails_somewhere = [](const gen::NodeSpec& root) {
        std::vector<const gen::NodeSpec*> stack{&root};
        while (!stack.empty()) {
            const gen::NodeSpec* node = stack.back();
            stack.pop_back();
            if (node->init_fails) {
                return true;
            }
            for (const gen::NodeSpec& child : node->children) {
                stack.push_back(&child);
            }
        }
        return false;
    };
    int focused = 0;
    int mixed = 0;
    for (std::uint64_t seed = 1; seed <= 200; seed++) {
        focused += fails_somewhere(gen::sample_case(Focus::AtomicInit, seed, 60).root) ? 1 : 0;
        mixed += fails_somewhere(gen::sample_case(Focus::Mixed, seed, 60).root) ? 1 : 0;
    }
    EXPECT_GE(focused, 60) << "of 200 cases";
    EXPECT_GT(focused, 2 * mixed);
}

TEST(TopologyProps, SameCaseAndSeedGiveTheSameTraceHash) {
    gen::check_bounded(focused_budget, [] {
        const TopologyCase topology_case = *gen::gen_case(Focus::Mixed);
        const CaseResult first = gen::run_case(topology_case);
        const CaseResult second = gen::run_case(topology_case);
        RC_ASSERT(first.trace_hash == second.trace_hash);
        RC_ASSERT(first.outcome.events == second.outcome.events);
        RC_ASSERT(first.describe() == second.describe());
    });
}

// The determinism check can fail: most non-trivial cases give a different trace under
// another seed (a hash that ignored the schedule or the faults would pass the one above).
TEST(TopologyProps, DifferentSeedsGiveDifferentTraceHashes) {
    int eligible = 0;
    int different = 0;
    for (std::uint64_t seed = 1; seed <= 24; seed++) {
        TopologyCase topology_case = gen::sample_case(Focus::Mixed, seed, 60);
        const CaseResult first = gen::run_case(topology_case);
        if (first.outcome.events < 50U) {
            continue; // too little happens for a schedule to matter
        }
        topology_case.seed += 1;
        const CaseResult second = gen::run_case(topology_case);
        eligible++;
        different += first.trace_hash != second.trace_hash ? 1 : 0;
    }
    ASSERT_GE(eligible, 8);
    EXPECT_GE(different * 10, eligible * 8) << different << " of " << eligible << " differ";
}

// A case the suites found (shrunk by rapidcheck): a one-for-one supervisor that exceeded its
// intensity is shutting down and still waits for a router child; its own handle_message then
// runs disable_child and enable_child on that child, and the runtime stops on
// RS_ASSERT(spec.pid.empty()) in supervisor_ofo.cpp (child_started). Fixed as Ergo behaves
// (§6.8): the new instance's PID is kept and the old instance's exit is matched by name. The
// death-test wrapper keeps the rest of the suite running should it regress.
TEST(TopologyRegressions, EnableChildDuringShutdownKeepsTheSupervisorConsistent) {
    using runtime::act::SupervisorStrategy;
    TopologyCase c;
    c.semantics = runtime::Semantics::Upstream;
    c.policy = sim::Policy::Random;
    c.pct_depth = 1;
    c.seed = 1;
    c.spawn_fail_ppm = 20000;
    c.clients = 1;
    c.free_workers = 0;
    gen::NodeSpec worker;
    gen::NodeSpec silent = worker;
    silent.answers_calls = false;
    gen::NodeSpec slow = worker;
    slow.stop_delay_us = 1000;
    slow.cost_us = 50;
    gen::NodeSpec slower = worker;
    slower.stop_delay_us = 3000;
    gen::NodeSpec router;
    router.kind = gen::NodeKind::Router;
    router.children = {silent, worker, slow, worker};
    c.root.kind = gen::NodeKind::Supervisor;
    c.root.strategy = SupervisorStrategy::Permanent;
    c.root.intensity = 3;
    c.root.period_ms = 1000;
    c.root.children = {router, slower, worker};
    const auto op = [](gen::OpKind kind, std::int32_t delay_us, std::uint32_t target,
                       std::uint32_t action, std::uint32_t burst) {
        gen::Op o;
        o.kind = kind;
        o.delay_us = delay_us;
        o.target = target;
        o.action = action;
        o.burst = burst;
        o.crash = true;
        return o;
    };
    using gen::OpKind;
    c.ops = {op(OpKind::KillWorker, 0, 0, 0, 1),    op(OpKind::KillWorker, 2000, 0, 0, 4),
             op(OpKind::KillWorker, 100, 0, 0, 1),  op(OpKind::KillWorker, 0, 777, 0, 1),
             op(OpKind::KillWorker, 500, 8, 0, 1),  op(OpKind::KillWorker, 0, 237, 0, 1),
             op(OpKind::KillWorker, 500, 19, 0, 1), op(OpKind::KillWorker, 500, 95, 0, 2),
             op(OpKind::SupAdmin, 10, 0, 0, 1),     op(OpKind::KillWorker, 0, 19, 0, 1),
             op(OpKind::SupAdmin, 0, 0, 1, 1)};
    EXPECT_EXIT(
        {
            const CaseResult result = gen::run_case(c);
            std::exit(result.findings.empty() ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace routesim::properties
