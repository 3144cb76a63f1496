// Harness: per-run shared state, fault draws and fault classes.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/harness.hpp"

#include <memory>
#include <utility>

#include "scenarios/run/json_message.hpp"
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

MessageCache::MessageCache(const Scenario& scenario) : scenario_(scenario) {
    sources_.resize(scenario.workload.size());
    for (std::size_t i = 0; i < scenario.workload.size(); i++) {
        // As RunState::instantiate reads the message: a top-level {"uniform": ...} member is
        // a draw, so that source's messages depend on the run.
        const Json& message = scenario.workload[i].message;
        bool draws = false;
        walk_payload(message, [&draws](const Json& value) {
            draws = draws || is_uniform_generator(value);
            return !draws;
        });
        sources_[i].cacheable = !draws;
    }
}

void MessageCache::index_workload(const runtime::Message& message) {
    const auto* json = message.get<JsonMessage>();
    RS_ASSERT(json != nullptr);
    RS_ASSERT(json->shared_index() == JsonMessage::unshared);
    json->mark_shared(shared_++); // its receipts are kept by this index (Receipts)
}

MessageCache::Receipts* MessageCache::receipts_of(std::string_view name, const runtime::PID& pid) {
    const bool full = receipts_by_name_.size() + receipts_by_pid_.size() >= identities_max;
    if (!name.empty()) {
        auto found = receipts_by_name_.find(name);
        if (found != receipts_by_name_.end()) {
            return &found->second;
        }
        return full ? nullptr
                    : &receipts_by_name_.try_emplace(std::string(name), *this).first->second;
    }
    auto found = receipts_by_pid_.find(pid);
    if (found != receipts_by_pid_.end()) {
        return &found->second;
    }
    return full ? nullptr : &receipts_by_pid_.try_emplace(pid, *this).first->second;
}

const Node* MessageCache::fault_worker(const Node& spec, const std::string& path) {
    auto found = fault_workers_.find(std::pair{path, &spec});
    if (found != fault_workers_.end()) {
        return found->second.get();
    }
    if (fault_workers_.size() >= fault_workers_max) {
        return nullptr;
    }
    return fault_workers_.emplace(std::pair{path, &spec}, spec_under(spec, path))
        .first->second.get();
}

void MessageCache::Receipts::store(const runtime::Message& of, runtime::Message receipt) {
    // Only a shared workload message keeps receipts: other messages die with their run.
    const auto* json = of.get<JsonMessage>();
    if (json == nullptr || json->shared_index() == JsonMessage::unshared ||
        cache_.stored_ >= stored_max) {
        return;
    }
    const std::uint32_t index = json->shared_index();
    RS_ASSERT(index < cache_.shared_);
    if (index >= by_message_.size()) {
        by_message_.resize(cache_.shared_); // every message shared so far
    }
    RS_ASSERT(by_message_[index].empty());
    RS_ASSERT(!receipt.empty());
    by_message_[index] = std::move(receipt);
    cache_.stored_++;
}

Harness::Harness(runtime::Node& node, const Scenario& scenario)
    : node_(node), scenario_(scenario), crash_prng_(node.world().stream("faults.crash")),
      spawn_prng_(node.world().stream("faults.spawn_fail")),
      terminate_prng_(node.world().stream("faults.terminate_cost")) {
    index_classes(scenario_.topology);
    for (const Action& action : scenario_.timeline) {
        if (action.worker.has_value()) {
            index_route_worker(*action.worker);
        }
    }
    node_.set_take_panic_hook([this](const runtime::PID& pid) { return take_panics(pid); });
}

Harness::~Harness() {
    node_.set_take_panic_hook({});
}

void Harness::note_outcome(std::map<std::int64_t, TimedOutcome>& table, std::int64_t action,
                           std::string result, sim::Instant at) {
    RS_ASSERT(action >= 0);
    RS_ASSERT(&table == &admin_results || &table == &call_results);
    auto [entry, added] = table.try_emplace(action, TimedOutcome{std::move(result), at});
    if (added && on_outcome) {
        on_outcome(action, entry->second); // an action's outcome counts once, when it arrives
    }
}

bool Harness::is_watched_kind(const Node& spec) {
    return spec.kind == NodeKind::Pool || spec.kind == NodeKind::Supervisor;
}

void Harness::arm_crash(const runtime::PID& pid) {
    crash_armed_.insert(pid.id);
    const Node* spec = spec_of(pid);
    if (spec != nullptr && is_watched_kind(*spec)) {
        (void)node_.watch_takes(pid, true); // a dead target: the mark is never taken
    }
}

bool Harness::take_panics(const runtime::PID& pid) {
    // scenarios/FORMAT.md timeline `crash`: "panics on its next message"; faults.crash: "the
    // chance per message taken". The Node asks at messages and calls only, as a worker counts
    // them (exit signals are the runtime's bookkeeping).
    if (take_armed_crash(pid)) {
        return true;
    }
    const Spawned* found = spawned(pid);
    return found != nullptr && is_watched_kind(*found->spec) &&
           draw_crash(*found->spec, *found->classes, pid);
}

void Harness::index_route_worker(const Node& worker) {
    index_classes(worker);
    FaultClasses& classes = classes_[worker.path];
    classes.route_worker = true;
    settle_crash_hit(classes);
}

void Harness::settle_crash_hit(FaultClasses& classes) const {
    const auto& crash = scenario_.faults.crash;
    classes.crash_hit = crash.has_value() &&
                        (crash->targets.empty() ? classes.worker : classes.matches(crash->targets));
}

void Harness::index_classes(const Node& root) {
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

const FaultClasses& Harness::classes(const Node& spec) const {
    SpecEntry& entry = entry_of(spec);
    if (entry.classes == nullptr) {
        auto found = classes_.find(spec.path);
        RS_ASSERT(found != classes_.end());
        entry.classes = &found->second; // std::map nodes are stable
    }
    return *entry.classes;
}

bool Harness::crash_drawn(const Node& spec, const runtime::PID& pid) {
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

bool Harness::draw_spawn_failure(const Node& spec, const FaultClasses& classes) {
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

std::optional<std::string> Harness::injected_init_failure(const Node& spec) {
    RS_ASSERT(spec.kind != NodeKind::Actor);
    // scenarios/FORMAT.md: fail_spawns fails the next k spawns from any node's spec, and
    // spawn_fail hits the classes its targets list (routers, pools, supervisors included).
    NodeStats& stats = this->stats(spec);
    if (stats.fail_next > 0) {
        stats.fail_next--;
        return "init failed (fail_spawns)";
    }
    if (draw_spawn_failure(spec)) {
        return "init failed (faults.spawn_fail)";
    }
    return std::nullopt;
}

sim::Duration Harness::draw_terminate_delay(const Node& spec, const FaultClasses& classes) {
    if (spec.kind == NodeKind::Actor && spec.behaviour.terminate_cost.has_value()) {
        return *spec.behaviour.terminate_cost;
    }
    const auto& max = scenario_.faults.terminate_cost_max;
    if (!max.has_value() || *max <= sim::Duration::zero() || !classes.worker) {
        return sim::Duration::zero();
    }
    return sim::Duration::nanoseconds(terminate_prng_.between(0, max->count_ns()));
}

void Harness::note_spawn(const Node& spec, const FaultClasses& node_classes, NodeStats& stats,
                         const runtime::PID& pid) {
    stats.incarnations.push_back(pid);
    RS_ASSERT(pid.id >= runtime::Node::first_pid_id);
    const std::uint64_t index = pid.id - runtime::Node::first_pid_id;
    if (index >= spec_by_pid_.size()) {
        spec_by_pid_.resize(index + 16 + index / 2);
    }
    RS_ASSERT(spec_by_pid_[index].spec == nullptr); // ids are never reused
    spec_by_pid_[index] = Spawned{&spec, &node_classes};
    // A pool or supervisor that faults.crash can hit draws at each message it takes.
    const auto& crash = scenario_.faults.crash;
    if (is_watched_kind(spec) && crash.has_value() && crash->probability_ppb > 0 &&
        !crash->targets.empty() && node_classes.matches(crash->targets)) {
        const auto watched = node_.watch_takes(pid, true);
        RS_ASSERT(watched.has_value()); // called from the process's own Init
    }
}

const Node* Harness::spec_of(const runtime::PID& pid) const {
    const Spawned* found = spawned(pid);
    return found == nullptr ? nullptr : found->spec;
}

const FaultClasses* Harness::classes_of(const runtime::PID& pid) const {
    const Spawned* found = spawned(pid);
    return found == nullptr ? nullptr : found->classes;
}

} // namespace routesim::scenarios
