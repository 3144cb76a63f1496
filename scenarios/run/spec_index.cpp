// SpecIndex: fault classes and statistics by node, and the spec of each spawned PID.
// Part of scenarios/run/: uses runtime/ and sim/.
#include "scenarios/run/spec_index.hpp"

#include <memory>
#include <utility>

#include "sim/assert.hpp"

namespace routesim::scenarios {

bool FaultClasses::matches(const std::vector<FaultTarget>& targets) const {
    for (FaultTarget target : targets) {
        switch (target) {
        case FaultTarget::RouteWorkers:
            if (route_worker) {
                return true;
            }
            break;
        case FaultTarget::PoolWorkers:
            if (pool_worker) {
                return true;
            }
            break;
        case FaultTarget::Workers:
            if (worker) {
                return true;
            }
            break;
        case FaultTarget::Routers:
            if (router) {
                return true;
            }
            break;
        case FaultTarget::Pools:
            if (pool) {
                return true;
            }
            break;
        case FaultTarget::Supervisors:
            if (supervisor) {
                return true;
            }
            break;
        }
    }
    return false;
}

std::unique_ptr<Node> spec_under(const Node& spec, const std::string& path) {
    auto copy = std::make_unique<Node>(spec);
    std::vector<Node*> stack{copy.get()};
    while (!stack.empty()) {
        Node* node = stack.back();
        stack.pop_back();
        RS_ASSERT(node->path.starts_with(spec.path));
        node->path = path + node->path.substr(spec.path.size());
        for (Node& child : node->children) {
            stack.push_back(&child);
        }
    }
    return copy;
}

SpecIndex::SpecIndex(const Scenario& scenario) : scenario_(scenario) {
    index_classes(scenario_.topology);
    for (const Action& action : scenario_.timeline) {
        if (action.worker.has_value()) {
            index_route_worker(*action.worker);
        }
    }
}

void SpecIndex::index_route_worker(const Node& worker) {
    index_classes(worker);
    FaultClasses& classes = classes_[worker.path];
    classes.route_worker = true;
    settle_crash_hit(classes);
}

void SpecIndex::settle_crash_hit(FaultClasses& classes) const {
    const auto& crash = scenario_.faults.crash;
    classes.crash_hit = crash.has_value() &&
                        (crash->targets.empty() ? classes.worker : classes.matches(crash->targets));
}

void SpecIndex::index_classes(const Node& root) {
    // Iterative walk (STYLE.md: code that walks scenario data is not recursive).
    std::vector<std::pair<const Node*, NodeKind>> stack{{&root, NodeKind::Actor}};
    bool is_root = true;
    while (!stack.empty()) {
        auto [node, parent_kind] = stack.back();
        stack.pop_back();
        FaultClasses& classes = classes_[node->path];
        classes.worker = node->kind == NodeKind::Actor;
        classes.router = node->kind == NodeKind::Router;
        classes.pool = node->kind == NodeKind::Pool;
        classes.supervisor = node->kind == NodeKind::Supervisor;
        // One kind each (draws and targets read them so).
        RS_ASSERT(classes.worker + classes.router + classes.pool + classes.supervisor == 1);
        if (!is_root) {
            classes.route_worker = classes.route_worker || parent_kind == NodeKind::Router;
            classes.pool_worker = parent_kind == NodeKind::Pool;
        }
        settle_crash_hit(classes);
        is_root = false;
        for (const Node& child : node->children) {
            stack.emplace_back(&child, node->kind);
        }
    }
}

const FaultClasses& SpecIndex::classes(const Node& spec) const {
    SpecEntry& entry = entry_of(spec);
    if (entry.classes == nullptr) {
        auto found = classes_.find(spec.path);
        RS_ASSERT(found != classes_.end());
        entry.classes = &found->second; // std::map nodes are stable
    }
    return *entry.classes;
}

void SpecIndex::note_spawn(const Node& spec, const FaultClasses& node_classes, NodeStats& stats,
                           const runtime::PID& pid) {
    stats.incarnations.push_back(pid);
    RS_ASSERT(pid.id >= runtime::Node::first_pid_id);
    const std::uint64_t index = pid.id - runtime::Node::first_pid_id;
    if (index >= spec_by_pid_.size()) {
        spec_by_pid_.resize(index + 16 + index / 2);
    }
    RS_ASSERT(spec_by_pid_[index].spec == nullptr); // ids are never reused
    spec_by_pid_[index] = Spawned{&spec, &node_classes};
}

} // namespace routesim::scenarios
