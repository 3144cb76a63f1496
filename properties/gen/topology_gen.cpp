// The generator of topology cases and their rendering (properties/gen/topology.hpp).
// Every draw goes through rapidcheck, so a failing case shrinks: fewer operations, smaller
// trees, fewer faults.
#include <sstream>

#include "properties/gen/topology.hpp"

namespace routesim::properties::gen {
namespace {

using runtime::act::SupervisorStrategy;
using runtime::act::SupervisorType;

constexpr int depth_max = 3; // DESIGN.md: routers, pools and supervisors nest up to depth 3

NodeSpec draw_worker() {
    NodeSpec worker;
    worker.kind = NodeKind::Worker;
    // Workers that take a while to stop keep pending windows open (R25, R27).
    worker.stop_delay_us = *rc::gen::element(0, 0, 200, 1000, 3000);
    worker.cost_us = *rc::gen::element(0, 0, 0, 50, 400);
    worker.answers_calls = *rc::gen::weightedElement<bool>({{6, true}, {1, false}});
    return worker;
}

NodeKind draw_kind(int depth, Focus focus) {
    if (depth >= depth_max) {
        return NodeKind::Worker;
    }
    if (depth == 1) {
        switch (focus) {
        case Focus::Router:
        case Focus::AtomicInit:
            return NodeKind::Router;
        case Focus::Pool:
            return NodeKind::Pool;
        case Focus::Supervisor:
            return NodeKind::Supervisor;
        case Focus::Mixed:
            return *rc::gen::weightedElement<NodeKind>(
                {{9, NodeKind::Router}, {3, NodeKind::Pool}, {8, NodeKind::Supervisor}});
        }
    }
    if (focus == Focus::AtomicInit) {
        return *rc::gen::weightedElement<NodeKind>({{3, NodeKind::Worker}, {2, NodeKind::Router}});
    }
    if (focus != Focus::Mixed) {
        // Focused cases keep the subject's children simple, so the rule under test is hit.
        return *rc::gen::weightedElement<NodeKind>(
            {{6, NodeKind::Worker}, {1, focus == Focus::Pool ? NodeKind::Pool : NodeKind::Router}});
    }
    return *rc::gen::weightedElement<NodeKind>({{7, NodeKind::Worker},
                                                {4, NodeKind::Router},
                                                {3, NodeKind::Pool},
                                                {3, NodeKind::Supervisor}});
}

NodeSpec draw_node(int depth, Focus focus) {
    const NodeKind kind = draw_kind(depth, focus);
    if (kind == NodeKind::Worker) {
        return draw_worker();
    }
    NodeSpec node;
    node.kind = kind;
    int children = 1;
    switch (kind) {
    case NodeKind::Router:
        children = *rc::gen::inRange(1, 5);
        // R6: a nested router whose Init fails must leave no worker behind.
        node.init_fails =
            depth > 1 && *rc::gen::inRange(0, focus == Focus::AtomicInit ? 3 : 25) == 0;
        break;
    case NodeKind::Pool:
        node.pool_size = *rc::gen::inRange(1, 4);
        break;
    case NodeKind::Supervisor:
        children = *rc::gen::inRange(1, 4);
        node.sup_type =
            *rc::gen::element(SupervisorType::OneForOne, SupervisorType::AllForOne,
                              SupervisorType::RestForOne, SupervisorType::SimpleOneForOne);
        node.strategy =
            *rc::gen::weightedElement<SupervisorStrategy>({{2, SupervisorStrategy::Transient},
                                                           {3, SupervisorStrategy::Permanent},
                                                           {1, SupervisorStrategy::Temporary}});
        if (focus == Focus::Supervisor && depth == 1) {
            node.strategy = SupervisorStrategy::Permanent; // every kill is a restart decision
        }
        // A root supervisor that gives up early ends the case: give it more room.
        node.intensity = static_cast<std::uint16_t>(depth == 1 && focus == Focus::Mixed
                                                        ? *rc::gen::inRange(3, 9)
                                                        : *rc::gen::inRange(1, 5));
        node.period_ms = *rc::gen::element(5, 50, 1000);
        node.keep_order = *rc::gen::arbitrary<bool>();
        node.sofo_instances = *rc::gen::inRange(1, 4);
        break;
    case NodeKind::Worker:
        break;
    }
    for (int i = 0; i < children; i++) {
        node.children.push_back(draw_node(depth + 1, focus));
    }
    return node;
}

struct OpWeights {
    int send, call, route_admin, outside_admin, pool_admin, sup_admin, kill_worker, kill_node,
        exit_worker, inspect;
};

OpWeights weights_for(Focus focus) {
    switch (focus) {
    case Focus::Router:
    case Focus::AtomicInit:
        return {30, 10, 30, 6, 0, 0, 6, 0, 2, 6};
    case Focus::Pool:
        return {40, 10, 0, 0, 4, 0, 25, 0, 6, 0};
    case Focus::Supervisor:
        return {12, 4, 0, 0, 0, 4, 40, 2, 15, 0};
    case Focus::Mixed:
        break;
    }
    return {30, 12, 16, 4, 3, 4, 8, 2, 3, 4};
}

// Which kinds of node a tree has (operations aimed at an absent kind are not drawn).
struct Present {
    bool router = false;
    bool pool = false;
    bool supervisor = false;
    bool inner = false; // a router, pool or supervisor below the root
};

Present present_in(const NodeSpec& root) {
    Present present;
    std::vector<std::pair<const NodeSpec*, int>> stack{{&root, 1}};
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        present.router = present.router || node->kind == NodeKind::Router;
        present.pool = present.pool || node->kind == NodeKind::Pool;
        present.supervisor = present.supervisor || node->kind == NodeKind::Supervisor;
        present.inner = present.inner || (depth > 1 && node->kind != NodeKind::Worker);
        for (const NodeSpec& child : node->children) {
            stack.emplace_back(&child, depth + 1);
        }
    }
    return present;
}

rc::Gen<Op> gen_op(Focus focus, Present present) {
    return rc::gen::exec([focus, present] {
        const OpWeights w = weights_for(focus);
        std::vector<std::pair<std::size_t, OpKind>> kinds;
        const auto add = [&kinds](int weight, bool possible, OpKind kind) {
            if (weight > 0 && possible) {
                kinds.emplace_back(static_cast<std::size_t>(weight), kind);
            }
        };
        add(w.send, true, OpKind::Send);
        add(w.call, true, OpKind::Call);
        add(w.route_admin, present.router, OpKind::RouteAdmin);
        add(w.outside_admin, present.router, OpKind::OutsideAdmin);
        add(w.pool_admin, present.pool, OpKind::PoolAdmin);
        add(w.sup_admin, present.supervisor, OpKind::SupAdmin);
        add(w.kill_worker, true, OpKind::KillWorker);
        add(w.kill_node, present.inner, OpKind::KillNode);
        add(w.exit_worker, true, OpKind::ExitWorker);
        add(w.inspect, present.router, OpKind::Inspect);
        Op op;
        std::size_t total = 0;
        for (const auto& [weight, kind] : kinds) {
            total += weight;
        }
        std::size_t draw = *rc::gen::inRange<std::size_t>(0, total); // shrinks toward a send
        for (const auto& [weight, kind] : kinds) {
            if (draw < weight) {
                op.kind = kind;
                break;
            }
            draw -= weight;
        }
        op.burst = *rc::gen::weightedElement<std::uint32_t>({{4, 1}, {2, 2}, {1, 4}});
        op.delay_us = *rc::gen::element(0, 0, 0, 10, 100, 500, 2000);
        op.target = *rc::gen::inRange<std::uint32_t>(0, 1000);
        op.key = *rc::gen::inRange<std::uint32_t>(0, 16);
        op.client = *rc::gen::inRange<std::uint32_t>(0, 3);
        op.action = *rc::gen::inRange<std::uint32_t>(0, 6);
        op.name = *rc::gen::inRange<std::uint32_t>(0, 8);
        op.crash = *rc::gen::inRange(0, focus == Focus::Supervisor ? 4 : 16) == 0;
        op.timeout_ms = *rc::gen::element(1, 5, 20);
        return op;
    });
}

const char* kind_name(NodeKind kind) {
    switch (kind) {
    case NodeKind::Worker:
        return "worker";
    case NodeKind::Router:
        return "router";
    case NodeKind::Pool:
        return "pool";
    case NodeKind::Supervisor:
        return "supervisor";
    }
    return "?";
}

const char* op_name(OpKind kind) {
    static constexpr const char* names[] = {
        "send",      "call",        "route_admin", "outside_admin", "pool_admin",
        "sup_admin", "kill_worker", "kill_node",   "exit_worker",   "inspect"};
    return names[static_cast<int>(kind)];
}

void show_node(const NodeSpec& node, int depth, std::ostream& os) {
    os << std::string(static_cast<std::size_t>(depth) * 2, ' ') << kind_name(node.kind);
    switch (node.kind) {
    case NodeKind::Worker:
        os << " stop=" << node.stop_delay_us << "us cost=" << node.cost_us << "us"
           << (node.answers_calls ? "" : " silent");
        break;
    case NodeKind::Router:
        os << (node.init_fails ? " init_fails" : "");
        break;
    case NodeKind::Pool:
        os << " size=" << node.pool_size;
        break;
    case NodeKind::Supervisor:
        os << " " << runtime::act::supervisor_type_name(node.sup_type) << " "
           << runtime::act::supervisor_strategy_name(node.strategy)
           << " intensity=" << node.intensity << " period=" << node.period_ms << "ms"
           << (node.keep_order ? " keep_order" : "") << " sofo=" << node.sofo_instances;
        break;
    }
    os << "\n";
    for (const NodeSpec& child : node.children) {
        show_node(child, depth + 1, os);
    }
}

} // namespace

rc::Gen<TopologyCase> gen_case(Focus focus) {
    return rc::gen::exec([focus] {
        TopologyCase c;
        c.root = draw_node(1, focus);
        c.semantics =
            *rc::gen::element(runtime::Semantics::Documented, runtime::Semantics::Upstream);
        c.policy = *rc::gen::element(sim::Policy::Random, sim::Policy::Pct);
        c.pct_depth = *rc::gen::inRange<std::uint32_t>(1, 5);
        c.seed = *rc::gen::inRange<std::uint64_t>(1, 1'000'000'000);
        c.take_panic_ppm = *rc::gen::element<std::uint32_t>(0, 0, 0, 500, 3000);
        c.spawn_fail_ppm = *rc::gen::element<std::uint32_t>(0, 0, 0, 2000, 20000);
        c.clients = *rc::gen::inRange<std::uint32_t>(1, 4);
        c.free_workers = *rc::gen::inRange<std::uint32_t>(0, 3);
        c.ops = *rc::gen::container<std::vector<Op>>(gen_op(focus, present_in(c.root)));
        return c;
    });
}

TopologyCase sample_case(Focus focus, std::uint64_t seed, int size) {
    return gen_case(focus)(rc::Random(seed), size).value();
}

void showValue(const TopologyCase& c, std::ostream& os) {
    os << "semantics=" << runtime::semantics_name(c.semantics)
       << " policy=" << sim::policy_name(c.policy) << " pct_depth=" << c.pct_depth
       << " seed=" << c.seed << " take_panic_ppm=" << c.take_panic_ppm
       << " spawn_fail_ppm=" << c.spawn_fail_ppm << " clients=" << c.clients
       << " free_workers=" << c.free_workers << "\n";
    show_node(c.root, 0, os);
    for (std::size_t i = 0; i < c.ops.size(); i++) {
        const Op& op = c.ops[i];
        os << "  op " << i << ": +" << op.delay_us << "us " << op_name(op.kind)
           << " target=" << op.target << " key=" << op.key << " client=" << op.client
           << " action=" << op.action << " name=" << op.name << " burst=" << op.burst
           << (op.crash ? " crash" : "") << " timeout=" << op.timeout_ms << "ms\n";
    }
}

std::string describe(const TopologyCase& topology_case) {
    std::ostringstream os;
    showValue(topology_case, os);
    return os.str();
}

bool CaseResult::violated(std::string_view monitor) const {
    for (const Finding& finding : findings) {
        if (finding.monitor == monitor) {
            return true;
        }
    }
    return false;
}

std::string CaseResult::describe() const {
    if (findings.empty()) {
        return "no violation";
    }
    std::ostringstream os;
    for (const Finding& finding : findings) {
        os << "[" << finding.monitor << "] " << finding.text << "\n";
    }
    return os.str();
}

} // namespace routesim::properties::gen
