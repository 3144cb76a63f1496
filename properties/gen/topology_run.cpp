// The checker of generated topologies (properties/gen/topology.hpp): builds the tree from
// C++ behaviours (no scenario layer), applies the timeline between steps, and collects what
// every invariant monitor found.
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "properties/gen/topology.hpp"
#include "properties/monitors.hpp"
#include "properties/router_monitors.hpp"
#include "runtime/actor.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "sim/assert.hpp"

namespace routesim::properties::gen {
namespace {

using namespace routesim::runtime; // NOLINT: the checker drives the runtime throughout

constexpr std::uint64_t events_max = 300'000;

// -- messages -----------------------------------------------------------------------------

struct Work {
    static constexpr std::string_view type_name = "Work";
    std::uint32_t key = 0;
    bool crash = false;
};
struct Reply {
    static constexpr std::string_view type_name = "Reply";
    std::uint64_t worker = 0;
};
struct Fire { // to a client: send or call `target`
    static constexpr std::string_view type_name = "Fire";
    PID target;
    Work work;
    bool is_call = false;
    std::int32_t timeout_ms = 5;
    std::uint32_t burst = 1;
};
struct AdminRequest { // to a router, pool or supervisor: run a management call inside
    static constexpr std::string_view type_name = "AdminRequest";
    std::uint32_t action = 0;
    std::uint32_t name = 0;
};
struct StartInstances { // a SOFO supervisor to itself, right after Init
    static constexpr std::string_view type_name = "StartInstances";
    std::int32_t count = 0;
};

class Harness;

// -- behaviours ---------------------------------------------------------------------------

class TopoWorker final : public act::Actor {
public:
    TopoWorker(Harness& harness, const NodeSpec& spec) : harness_(harness), spec_(spec) {}
    Status init(const Args&) override;
    Status handle_message(const PID&, const Message& message) override {
        const Work* work = message.get<Work>();
        if (work != nullptr && work->crash) {
            throw std::runtime_error("crash"); // a panic (§4.2)
        }
        if (spec_.cost_us > 0) {
            process().busy_for(sim::Duration::microseconds(spec_.cost_us));
        }
        return ok();
    }
    act::CallReply handle_call(const PID&, const Ref&, const Message& request) override {
        const Work* work = request.get<Work>();
        if (work != nullptr && work->crash) {
            throw std::runtime_error("crash");
        }
        return spec_.answers_calls ? act::CallReply::value(Reply{self().id})
                                   : act::CallReply::later();
    }
    sim::Duration terminate_delay() const override {
        return sim::Duration::microseconds(spec_.stop_delay_us);
    }
    std::string_view behavior_name() const override { return "TopoWorker"; }

private:
    Harness& harness_;
    const NodeSpec& spec_;
};

class TopoRouter final : public act::Router {
public:
    TopoRouter(Harness& harness, std::size_t index);
    sim::Result<act::RouterOptions, Error> init(const Args&) override;
    Atom route_message(const PID&, const Message& message) override { return pick(message); }
    Atom route_call(const PID&, const Ref&, const Message& request) override {
        return pick(request);
    }
    Status handle_message(const PID&, const Message& message) override {
        if (const AdminRequest* request = message.get<AdminRequest>()) {
            admin(*request);
        }
        return ok(); // MessageRouteFailed (R19) is accepted silently
    }
    /// Runs one management call (R30–R38); the result is checked by the monitors.
    void admin(const AdminRequest& request);

private:
    Atom pick(const Message& message);

    Harness& harness_;
    std::size_t index_;
    std::vector<Atom> candidates_; // the fixed hash table of the rule (key_affinity)
    std::vector<Atom> admin_names_;
};

class TopoPool final : public act::Pool {
public:
    TopoPool(Harness& harness, std::size_t index) : harness_(harness), index_(index) {}
    sim::Result<act::PoolOptions, Error> init(const Args&) override;
    Status handle_message(const PID&, const Message& message) override {
        if (const AdminRequest* request = message.get<AdminRequest>()) {
            // §5: only from the pool's own callbacks; errors (PoolEmpty) are fine.
            (void)(request->action % 2 == 0 ? add_workers(1) : remove_workers(1));
        }
        return ok();
    }

private:
    Harness& harness_;
    std::size_t index_;
};

class TopoSupervisor final : public act::Supervisor {
public:
    TopoSupervisor(Harness& harness, std::size_t index) : harness_(harness), index_(index) {}
    sim::Result<act::SupervisorSpec, Error> init(const Args&) override;
    Status handle_message(const PID&, const Message& message) override;

private:
    Harness& harness_;
    std::size_t index_;
    std::vector<Atom> names_;
};

class Client final : public act::Actor {
public:
    Status handle_message(const PID&, const Message& message) override {
        const Fire* fire = message.get<Fire>();
        if (fire == nullptr) {
            return ok();
        }
        if (!fire->is_call) {
            for (std::uint32_t i = 0; i < fire->burst; i++) {
                (void)process().send(fire->target, fire->work);
            }
            return ok();
        }
        const CallOptions options{.timeout = sim::Duration::milliseconds(fire->timeout_ms)};
        (void)process().call(fire->target, fire->work, options, [](CallResult) { return ok(); });
        return ok();
    }
    std::string_view behavior_name() const override { return "Client"; }
};

// -- the harness --------------------------------------------------------------------------

class Harness {
public:
    explicit Harness(const TopologyCase& topology_case);
    CaseResult run();

    // -- used by the behaviours --
    Factory factory_of(std::size_t index) {
        return [this, index]() -> std::unique_ptr<Behavior> {
            switch (flat_[index]->kind) {
            case NodeKind::Worker:
                return std::make_unique<TopoWorker>(*this, *flat_[index]);
            case NodeKind::Router:
                return std::make_unique<TopoRouter>(*this, index);
            case NodeKind::Pool:
                return std::make_unique<TopoPool>(*this, index);
            case NodeKind::Supervisor:
                return std::make_unique<TopoSupervisor>(*this, index);
            }
            return nullptr;
        };
    }
    const NodeSpec& spec(std::size_t index) const { return *flat_[index]; }
    const std::vector<std::size_t>& children(std::size_t index) const { return children_[index]; }
    std::uint32_t free_workers() const { return case_.free_workers; }
    void started(std::size_t index, const PID& pid) {
        latest_[index] = pid;
        if (flat_[index]->kind == NodeKind::Router) {
            router_pids_.push_back(pid);
        }
    }
    void worker_started(const PID& pid) { workers_.push_back(pid); }
    std::uint64_t next_instance() { return ++instances_; }
    sim::World& world() { return world_; }

private:
    void flatten(const NodeSpec& node);
    void setup();
    void apply(const Op& op);
    PID pick_entry(std::uint32_t target) const;
    PID pick_live(const std::vector<PID>& pids, std::uint32_t target) const;
    PID pick_of_kind(NodeKind kind, std::uint32_t target) const;
    void inspect_routers();
    bool alive(const PID& pid) const {
        const Process* process = node_.find(pid);
        return process != nullptr && process->is_alive();
    }

    const TopologyCase& case_;
    NodeSpec free_spec_;
    std::vector<const NodeSpec*> flat_; // preorder
    std::vector<std::vector<std::size_t>> children_;
    std::vector<PID> latest_;      // latest incarnation per node
    std::vector<PID> router_pids_; // every router started, in order
    std::vector<PID> workers_;     // every leaf worker started, in order
    std::vector<PID> clients_;
    std::uint64_t instances_ = 0;
    MonitorSet monitors_;
    CounterConsistency* counters_ = nullptr;
    std::uint64_t inspected_ = 0;
    sim::World world_;
    Node node_;
};

Status TopoWorker::init(const Args&) {
    harness_.worker_started(self());
    return ok();
}

TopoRouter::TopoRouter(Harness& harness, std::size_t index) : harness_(harness), index_(index) {
    const std::size_t owned = harness.children(index).size();
    for (int copy = 0; copy < 2; copy++) { // owned routes twice as likely as the others
        for (std::size_t i = 0; i < owned; i++) {
            candidates_.push_back(Atom("r" + std::to_string(i)));
        }
    }
    candidates_.push_back(Atom("x0")); // owned only once an admin call adds it
    for (std::uint32_t i = 0; i < harness.free_workers(); i++) {
        candidates_.push_back(Atom("free" + std::to_string(i))); // a registry route (R17)
    }
    candidates_.push_back(Atom("nobody"));    // neither owned nor registered (R18)
    candidates_.push_back(act::RouteDiscard); // R11
    for (std::size_t i = 0; i < owned; i++) {
        admin_names_.push_back(Atom("r" + std::to_string(i)));
    }
    admin_names_.push_back(Atom("x0"));
    admin_names_.push_back(Atom("x1"));
}

sim::Result<act::RouterOptions, Error> TopoRouter::init(const Args&) {
    harness_.started(index_, self());
    act::RouterOptions options;
    const std::vector<std::size_t>& children = harness_.children(index_);
    for (std::size_t i = 0; i < children.size(); i++) {
        options.routes.push_back(
            act::Route{Atom("r" + std::to_string(i)), harness_.factory_of(children[i]), {}});
    }
    if (harness_.spec(index_).init_fails) {
        options.routes.push_back(act::Route{Atom("broken"), Factory(), {}}); // R6, R48
    }
    return options;
}

Atom TopoRouter::pick(const Message& message) {
    const Work* work = message.get<Work>();
    if (work == nullptr) {
        return act::RouteDiscard;
    }
    // A hash rule over a fixed table: one key, one name, whatever the routes' states.
    const std::uint64_t hash = (work->key + 1) * 0x9e3779b97f4a7c15ULL ^ index_;
    const Atom name = candidates_[static_cast<std::size_t>(hash % candidates_.size())];
    const std::string key = std::to_string(work->key);
    harness_.world().emit(runtime::ev::RouteKey{self().id, key, runtime::ev::text(name)});
    return name;
}

void TopoRouter::admin(const AdminRequest& request) {
    const Atom name = admin_names_[request.name % admin_names_.size()];
    const std::vector<std::size_t>& children = harness_.children(index_);
    const Factory spec = harness_.factory_of(children[request.name % children.size()]);
    switch (request.action % 6) {
    case 0:
        (void)add_route(act::Route{name, spec, {}});
        return;
    case 1:
        (void)remove_route(name);
        return;
    case 2:
        (void)disable_route(name);
        return;
    case 3:
        (void)enable_route(name);
        return;
    case 4:
        (void)replace_route(name, act::Route{Atom(), spec, {}});
        return;
    default:
        (void)respawn_route(name);
        return;
    }
}

sim::Result<act::PoolOptions, Error> TopoPool::init(const Args&) {
    harness_.started(index_, process().pid());
    act::PoolOptions options;
    options.pool_size = harness_.spec(index_).pool_size;
    options.worker_factory = harness_.factory_of(harness_.children(index_).front());
    return options;
}

sim::Result<act::SupervisorSpec, Error> TopoSupervisor::init(const Args&) {
    harness_.started(index_, self());
    const NodeSpec& node = harness_.spec(index_);
    act::SupervisorSpec spec;
    spec.type = node.sup_type;
    spec.restart = act::SupervisorRestart{.strategy = node.strategy,
                                          .intensity = node.intensity,
                                          .period = sim::Duration::milliseconds(node.period_ms),
                                          .keep_order = node.keep_order};
    // Child names are registered (OFO/AFO/RFO), so each instance gets its own.
    const std::uint64_t instance = harness_.next_instance();
    for (const std::size_t child : harness_.children(index_)) {
        names_.push_back(Atom("n" + std::to_string(child) + "_" + std::to_string(instance)));
        spec.children.push_back(
            act::SupervisorChildSpec{.name = names_.back(), .factory = harness_.factory_of(child)});
    }
    if (node.sup_type == act::SupervisorType::SimpleOneForOne) {
        (void)process().send(self(), StartInstances{node.sofo_instances});
    }
    return spec;
}

Status TopoSupervisor::handle_message(const PID&, const Message& message) {
    if (const StartInstances* start = message.get<StartInstances>()) {
        for (std::int32_t i = 0; i < start->count; i++) {
            (void)start_child(names_.front());
        }
    } else if (const AdminRequest* request = message.get<AdminRequest>()) {
        // §6.8: from the supervisor's own callback; errors are part of the behaviour.
        const Atom name = names_[request->name % names_.size()];
        switch (request->action % 3) {
        case 0:
            (void)disable_child(name);
            break;
        case 1:
            (void)enable_child(name);
            break;
        default:
            (void)start_child(name);
            break;
        }
    }
    return ok();
}

sim::WorldOptions world_options(const TopologyCase& c) {
    sim::WorldOptions options;
    options.seed = c.seed;
    options.scheduler = sim::SchedulerOptions{
        .policy = c.policy, .pct_depth = c.pct_depth, .pct_steps_expected = 4'000};
    options.limits.events_max = events_max;
    return options;
}

Harness::Harness(const TopologyCase& topology_case)
    : case_(topology_case), world_(world_options(topology_case)),
      node_(world_, NodeOptions{.semantics = topology_case.semantics}) {
    flatten(case_.root);
    latest_.resize(flat_.size());
    for (const std::string_view name : monitor_names()) {
        std::unique_ptr<Monitor> monitor = make_monitor(name, MonitorOptions{case_.semantics});
        RS_ASSERT(monitor != nullptr);
        monitors_.add(std::move(monitor));
    }
    counters_ = dynamic_cast<CounterConsistency*>(monitors_.find("counter_consistency"));
    RS_ASSERT(counters_ != nullptr);
    world_.trace().add_sink(monitors_);
}

void Harness::flatten(const NodeSpec& root) {
    // Preorder without recursion (STYLE §4): a stack of (node, parent index).
    std::vector<std::pair<const NodeSpec*, std::size_t>> stack{{&root, SIZE_MAX}};
    while (!stack.empty()) {
        const auto [node, parent] = stack.back();
        stack.pop_back();
        const std::size_t index = flat_.size();
        flat_.push_back(node);
        children_.emplace_back();
        if (parent != SIZE_MAX) {
            children_[parent].push_back(index);
        }
        for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
            stack.emplace_back(&*child, index);
        }
    }
    RS_ASSERT(flat_.size() == children_.size());
}

void Harness::setup() {
    for (std::uint32_t i = 0; i < case_.free_workers; i++) {
        const NodeSpec* spec = &free_spec_;
        (void)node_.spawn_register(Atom("free" + std::to_string(i)),
                                   [this, spec]() -> std::unique_ptr<Behavior> {
                                       return std::make_unique<TopoWorker>(*this, *spec);
                                   },
                                   {}, {});
    }
    for (std::uint32_t i = 0; i < case_.clients; i++) {
        clients_.push_back(node_.spawn([] { return std::make_unique<Client>(); }, {}, {}).value());
    }
    (void)node_.spawn(factory_of(0), {}, {}); // a failed root Init is a valid (short) case
    // Faults are armed once the tree stands, so that most cases have a tree to break.
    if (case_.take_panic_ppm > 0) {
        world_.faults().add_rule(sim::FaultRule{.site = "take.panic",
                                                .probability_ppb = case_.take_panic_ppm * 1000ULL});
    }
    if (case_.spawn_fail_ppm > 0) {
        world_.faults().add_rule(sim::FaultRule{.site = "spawn.init_fail",
                                                .probability_ppb = case_.spawn_fail_ppm * 1000ULL});
    }
    sim::Instant at = world_.now();
    for (std::size_t i = 0; i < case_.ops.size(); i++) {
        at = at + sim::Duration::microseconds(case_.ops[i].delay_us);
        const Op* op = &case_.ops[i];
        world_.schedule_at(
            at, [this, op] { apply(*op); }, sim::TimerLane::Actions, static_cast<std::uint32_t>(i));
    }
}

PID Harness::pick_live(const std::vector<PID>& pids, std::uint32_t target) const {
    std::vector<PID> live;
    for (const PID& pid : pids) {
        if (alive(pid)) {
            live.push_back(pid);
        }
    }
    return live.empty() ? PID{} : live[target % live.size()];
}

PID Harness::pick_of_kind(NodeKind kind, std::uint32_t target) const {
    std::vector<PID> pids;
    for (std::size_t i = 0; i < flat_.size(); i++) {
        if (flat_[i]->kind == kind && !latest_[i].empty()) {
            pids.push_back(latest_[i]);
        }
    }
    return pick_live(pids, target);
}

PID Harness::pick_entry(std::uint32_t target) const {
    std::vector<PID> entries;
    for (std::size_t i = 0; i < flat_.size(); i++) {
        const NodeKind kind = flat_[i]->kind;
        if ((kind == NodeKind::Router || kind == NodeKind::Pool) && !latest_[i].empty()) {
            entries.push_back(latest_[i]);
        }
    }
    // A tree of supervisors and workers only: the workload goes to the workers.
    return entries.empty() ? pick_live(workers_, target) : entries[target % entries.size()];
}

void Harness::apply(const Op& op) {
    switch (op.kind) {
    case OpKind::Send:
    case OpKind::Call: {
        const PID target = pick_entry(op.target);
        if (!target.empty() && !clients_.empty()) {
            (void)node_.send(clients_[op.client % clients_.size()],
                             Fire{target, Work{op.key, op.crash}, op.kind == OpKind::Call,
                                  op.timeout_ms, op.burst});
        }
        return;
    }
    case OpKind::OutsideAdmin:
        if (case_.semantics == Semantics::Documented) {
            // §8 documented profile: management from outside while the router is alive.
            const PID pid = pick_of_kind(NodeKind::Router, op.target);
            if (Process* process = pid.empty() ? nullptr : node_.find(pid)) {
                dynamic_cast<TopoRouter&>(process->behavior()).admin({op.action, op.name});
            }
            return;
        }
        [[fallthrough]]; // upstream: only from the router's own callbacks (R36, R37)
    case OpKind::RouteAdmin:
    case OpKind::PoolAdmin:
    case OpKind::SupAdmin: {
        const NodeKind kind = op.kind == OpKind::PoolAdmin  ? NodeKind::Pool
                              : op.kind == OpKind::SupAdmin ? NodeKind::Supervisor
                                                            : NodeKind::Router;
        const PID pid = pick_of_kind(kind, op.target);
        if (!pid.empty()) {
            (void)node_.send(pid, AdminRequest{op.action, op.name}, MessagePriority::High);
        }
        return;
    }
    case OpKind::KillWorker:
    case OpKind::ExitWorker: {
        const PID pid = pick_live(workers_, op.target);
        if (!pid.empty()) {
            (void)(op.kind == OpKind::KillWorker ? node_.kill(pid)
                                                 : node_.send_exit(pid, Error::text("fault")));
        }
        return;
    }
    case OpKind::KillNode: {
        std::vector<PID> inner;
        for (std::size_t i = 1; i < flat_.size(); i++) { // never the root
            if (flat_[i]->kind != NodeKind::Worker && !latest_[i].empty()) {
                inner.push_back(latest_[i]);
            }
        }
        const PID pid = pick_live(inner, op.target);
        if (!pid.empty()) {
            (void)node_.kill(pid);
        }
        return;
    }
    case OpKind::Inspect:
        inspect_routers();
        return;
    }
}

void Harness::inspect_routers() {
    for (const PID& pid : router_pids_) {
        if (!alive(pid)) {
            continue;
        }
        const sim::Result<Inspection, Err> values = node_.inspect(pid);
        if (values) {
            inspected_++;
            (void)counters_->check_inspection(pid.id, values.value(), world_.now());
        }
    }
}

CaseResult Harness::run() {
    setup();
    CaseResult result;
    result.outcome = world_.run();
    result.hit_limit = result.outcome.reason == sim::StopReason::EventLimit ||
                       result.outcome.reason == sim::StopReason::TimeLimit;
    const bool idle = result.outcome.reason == sim::StopReason::Idle;
    inspect_routers();
    monitors_.finish(result.outcome.end, idle);
    for (const auto& monitor : monitors_.monitors()) {
        for (const Violation& violation : monitor->violations()) {
            result.findings.push_back(Finding{std::string(monitor->name()), violation.to_string()});
        }
    }
    if (result.hit_limit) {
        result.findings.push_back(Finding{
            "liveness",
            "the run did not settle: " + std::string(sim::stop_reason_name(result.outcome.reason)) +
                " after " + std::to_string(result.outcome.events) + " events"});
    }
    result.trace_hash = world_.trace().hash();
    result.routers_inspected = inspected_;
    world_.trace().remove_sink(monitors_);
    return result;
}

} // namespace

CaseResult run_case(const TopologyCase& topology_case, std::ostream* trace_out) {
    // The harness holds the world, the node and the monitors: too big for the stack.
    auto harness = std::make_unique<Harness>(topology_case);
    std::optional<sim::JsonlSink> jsonl;
    if (trace_out != nullptr) {
        jsonl.emplace(*trace_out);
        harness->world().trace().add_sink(*jsonl);
    }
    CaseResult result = harness->run();
    if (jsonl) {
        harness->world().trace().remove_sink(*jsonl);
    }
    return result;
}

} // namespace routesim::properties::gen
