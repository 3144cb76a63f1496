// Runner internals: the end-of-run summary of the supervisors, pools and waiting calls.
// Part of scenarios/run/: uses properties/, runtime/ and sim/.
#include "scenarios/run/detail/tree_summary.hpp"

#include <vector>

#include "properties/process_names.hpp"
#include "runtime/supervisor.hpp"
#include "scenarios/run/builder.hpp"

#include "sim/assert.hpp"

namespace routesim::scenarios::detail {
namespace {

using properties::MessageClass;
using properties::TopologyView;

// What names the processes of a run: the spec registry and the node's PID prefix.
struct Names {
    const SpecIndex& specs;
    const runtime::Node& node;
    const TopologyView& view;

    runtime::PID pid(std::uint64_t id) const {
        runtime::PID made = node.core_pid();
        made.id = id;
        return made;
    }
    // "path <pid>": the spec's path, else the registered name (a client), else the pid alone.
    std::string label(std::uint64_t id) const {
        const runtime::PID full = pid(id);
        std::string path;
        if (const Node* spec = specs.spec_of(full)) {
            path = spec->path;
        } else if (const properties::ProcessView* process = view.process(id)) {
            path = process->name;
        }
        return path.empty() ? properties::pid_part(full) : path + " " + properties::pid_part(full);
    }
};

// The last segment of a node path (a supervisor child's name).
std::string last_segment(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

ChildRow child_row(const Node& child, const SpecIndex& specs, const TopologyView& view,
                   const properties::SupervisorView* sup) {
    ChildRow row{.name = last_segment(child.path), .state = "not started"};
    if (sup != nullptr) {
        for (const properties::SupervisorChild& known : sup->children) {
            if (known.name == row.name) {
                row.restarts = known.restarts;
            }
        }
    }
    const runtime::PID* pid = specs.latest(child.path);
    if (pid == nullptr) {
        return row;
    }
    row.pid = properties::pid_part(*pid);
    const properties::ProcessView* process = view.process(pid->id);
    if (process == nullptr || process->alive) {
        row.state = "running";
        return row;
    }
    row.state = "exited";
    row.last_exit = process->end_reason.empty() ? "kill" : process->end_reason;
    return row;
}

// "restart intensity exceeded: 4 restarts in 5s > 3, last: w2 panic at 41ms" (§6.4: the exit
// that would have made one restart more than the intensity allows within the period).
std::string intensity_cause(const properties::SupervisorView& sup, std::uint64_t intensity,
                            sim::Duration period) {
    RS_ASSERT(sup.exceeded.has_value());
    return "restart intensity exceeded: " + std::to_string(sup.window.size() + 1) +
           " restarts in " + sim::format_duration(period) + " > " + std::to_string(intensity) +
           ", last: " + sup.exceeded_child + " " + sup.exceeded_reason + " at " +
           sim::format_instant(sup.exceeded_at);
}

SupervisorSummary summarise_supervisor(const Node& spec, const SpecIndex& specs,
                                       const TopologyView& view) {
    // §6.1: as the supervisor's Init applies them (0 means 5 and 5 s).
    const runtime::act::SupervisorRestart applied = runtime::act::applied_restart(restart_of(spec));
    SupervisorSummary summary{.path = spec.path,
                              .type = spec.supervisor.type,
                              .intensity = applied.intensity,
                              .period = applied.period};
    const runtime::PID* pid = specs.latest(spec.path);
    const properties::SupervisorView* sup = pid == nullptr ? nullptr : view.supervisor(pid->id);
    if (pid != nullptr) {
        summary.pid = properties::pid_part(*pid);
        summary.alive = view.is_alive(pid->id);
    }
    for (const Node& child : spec.children) {
        summary.children.push_back(child_row(child, specs, view, sup));
    }
    if (sup == nullptr) {
        return summary;
    }
    summary.restarts = sup->restarts;
    summary.window_restarts = sup->window.size();
    if (sup->terminated) {
        summary.terminated_at = sup->terminated_at;
        summary.terminated_reason = sup->terminated_reason;
    }
    if (sup->exceeded.has_value()) {
        summary.cause = intensity_cause(*sup, summary.intensity, summary.period);
    }
    return summary;
}

PoolSummary summarise_pool(const Node& spec, const SpecIndex& specs, const TopologyView& view) {
    PoolSummary summary{.path = spec.path, .size = effective_pool_size(spec.pool.size)};
    const runtime::PID* pid = specs.latest(spec.path);
    if (pid == nullptr) {
        return summary;
    }
    summary.pid = properties::pid_part(*pid);
    summary.alive = view.is_alive(pid->id);
    if (const properties::PoolView* pool = view.pool(pid->id)) {
        summary.live_workers = view.live_workers(*pool);
        summary.forwarded = pool->forwarded;
        summary.unhandled = pool->unhandled;
        summary.worker_restarts = pool->worker_restarts;
    }
    return summary;
}

} // namespace

void summarise_tree(const Scenario& scenario, const SpecIndex& specs, const runtime::Node& node,
                    const TopologyView& view, RunResult& result) {
    for (const Node* spec : preorder(scenario.topology)) { // tree order, as routers are listed
        if (spec->kind == NodeKind::Supervisor) {
            result.supervisors.push_back(summarise_supervisor(*spec, specs, view));
        } else if (spec->kind == NodeKind::Pool) {
            result.pools.push_back(summarise_pool(*spec, specs, view));
        }
    }
    const Names names{specs, node, view};
    for (const properties::PendingCall* call : view.pending_calls()) {
        result.waiting_calls.push_back(WaitingCall{
            names.label(call->caller),
            call->target == 0 ? std::string() : names.label(call->target), call->since, call->ref});
    }
}

void summarise_ledger(const TopologyView& view, RunResult& result) {
    result.ledger = view.ledger();
    result.user_ledger = view.user_ledger();
    result.exit_signals_sent = view.sent(MessageClass::ExitSignal);
    result.admin_sent = view.sent(MessageClass::Admin);
    result.internal_sent = view.sent(MessageClass::Internal);
    RS_ASSERT(result.user_ledger.sent + result.exit_signals_sent + result.admin_sent +
                  result.internal_sent ==
              result.ledger.sent);
}

} // namespace routesim::scenarios::detail
