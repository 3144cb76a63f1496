// TopologyView: the run's processes, route tables, supervisors, pools, pending calls and
// ledger, updated per trace event. Events are read typed (runtime/events.hpp, read_event in
// apply), by member, never by field position or key.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/topology_view.hpp"

#include <algorithm>

#include "runtime/mailbox.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace ev = runtime::ev;
namespace {

// -- decode: events arrive typed (read_event in apply); these helpers turn them into the
// view's own terms --------------------------------------------------------------------------

constexpr std::uint64_t no_message_id = ~std::uint64_t{0}; // no emitter hands it out

// Each message step is decoded once, with every field a reader of it needs (the view's ledger,
// and through last_hop() the message monitors).
MessageHop hop_of(const ev::Send& send) {
    return MessageHop{.kind = HopKind::Send,
                      .id = send.id,
                      .by = send.from.value,
                      .to = send.to.value,
                      .queue = static_cast<std::uint64_t>(send.queue),
                      .type = static_cast<std::uint64_t>(send.type)};
}
MessageHop hop_of(const ev::Forward& forward) {
    return MessageHop{.kind = HopKind::Forward,
                      .id = forward.id,
                      .by = forward.by.value,
                      .to = forward.to.value,
                      .from = forward.from,
                      .queue = static_cast<std::uint64_t>(forward.queue)};
}
MessageHop hop_of(const ev::Take& take) {
    return MessageHop{.kind = HopKind::Take,
                      .id = take.id,
                      .by = take.pid.value,
                      .from = take.from,
                      .type = static_cast<std::uint64_t>(take.type)};
}
MessageHop hop_of(const ev::Drop& drop) {
    return MessageHop{.kind = HopKind::Drop, .id = drop.id, .by = drop.pid};
}
MessageHop hop_of(const ev::Preserve& preserve) {
    return MessageHop{
        .kind = HopKind::Preserve, .id = preserve.id, .by = preserve.pid, .to = preserve.parent};
}

MessageClass class_of_send(runtime::MailboxType type, std::string_view msg) {
    if (type == runtime::MailboxType::Exit) {
        return MessageClass::ExitSignal;
    }
    if (type >= runtime::MailboxType::Event) {
        return MessageClass::Internal;
    }
    if (msg.empty() || msg.front() != 'r') {
        return MessageClass::User; // the common case: one comparison
    }
    if (msg.starts_with("router.admin")) {
        return MessageClass::Admin;
    }
    return msg.starts_with("routesim.") ? MessageClass::Internal : MessageClass::User;
}

constexpr std::size_t where_index(MessageWhere where) {
    return static_cast<std::size_t>(where);
}

} // namespace

// -- small types ----------------------------------------------------------------------------

std::string Ledger::to_string() const {
    std::string text = "sent " + std::to_string(sent) + ": handled " + std::to_string(handled) +
                       ", discarded " + std::to_string(discarded) + ", route_failed " +
                       std::to_string(route_failed) + ", unhandled " + std::to_string(unhandled) +
                       ", dropped " + std::to_string(dropped);
    if (!dropped_by_reason.empty()) {
        text += " (";
        bool first = true;
        for (const auto& [reason, count] : dropped_by_reason) {
            text += (first ? "" : ", ") + reason + " " + std::to_string(count);
            first = false;
        }
        text += ")";
    }
    text += ", queued " + std::to_string(queued);
    return text;
}

std::string_view message_class_name(MessageClass what) {
    switch (what) {
    case MessageClass::User:
        return "user";
    case MessageClass::ExitSignal:
        return "exit_signal";
    case MessageClass::Admin:
        return "admin";
    case MessageClass::Internal:
        return "internal";
    }
    return "user";
}

const RouteView* RouterView::route(std::string_view name) const {
    for (const RouteView& entry : routes) {
        if (entry.name == name) {
            return &entry;
        }
    }
    return nullptr;
}

const RouteView* RouterView::route_of_worker(std::uint64_t worker) const {
    RS_ASSERT(worker != 0);
    for (const RouteView& entry : routes) {
        if (entry.worker == worker) {
            return &entry;
        }
    }
    return nullptr;
}

// -- queries --------------------------------------------------------------------------------

TopologyView::TopologyView() {
    messages_.reserve(512);
    processes_.reserve(64);
}

const TopologyView::Roles* TopologyView::roles(std::uint64_t pid) const {
    if (pid < dense_max) {
        return pid < roles_dense_.size() ? &roles_dense_[pid] : nullptr;
    }
    auto found = roles_sparse_.find(pid);
    return found == roles_sparse_.end() ? nullptr : &found->second;
}

TopologyView::Roles& TopologyView::roles_of(std::uint64_t pid) {
    if (pid >= dense_max) {
        return roles_sparse_[pid];
    }
    if (pid >= roles_dense_.size()) {
        roles_dense_.resize(std::min<std::size_t>(
            std::max<std::size_t>(pid + 1, 2 * roles_dense_.size()), dense_max));
        RS_ASSERT(pid < roles_dense_.size());
    }
    return roles_dense_[pid];
}

const ProcessView* TopologyView::process(std::uint64_t pid) const {
    const Roles* found = roles(pid);
    return found == nullptr || found->process == none ? nullptr : &processes_[found->process];
}

ProcessView* TopologyView::process_mut(std::uint64_t pid) {
    return const_cast<ProcessView*>(process(pid));
}

bool TopologyView::is_alive(std::uint64_t pid) const {
    const ProcessView* found = process(pid);
    return found != nullptr && found->alive;
}

std::uint64_t TopologyView::registered(std::string_view name) const {
    for (const auto& [registered_name, pid] : registered_) {
        if (registered_name == name) {
            return pid;
        }
    }
    return 0;
}

const RouterView* TopologyView::router(std::uint64_t pid) const {
    const Roles* found = roles(pid);
    return found == nullptr || found->router == none ? nullptr : &routers_[found->router];
}

RouterView* TopologyView::router_mut(std::uint64_t pid) {
    if (last_router_ != none && routers_[last_router_].pid == pid) {
        return &routers_[last_router_]; // a router's events come in runs
    }
    const Roles* found = roles(pid);
    if (found == nullptr || found->router == none) {
        return nullptr;
    }
    last_router_ = found->router;
    return &routers_[last_router_];
}

std::pair<const RouterView*, const RouteView*>
TopologyView::route_of_worker(std::uint64_t worker) const {
    const ProcessView* found = process(worker);
    if (worker == 0 || found == nullptr) {
        return {nullptr, nullptr};
    }
    const RouterView* parent = router(found->parent);
    if (parent == nullptr) {
        return {nullptr, nullptr};
    }
    return {parent, parent->route_of_worker(worker)};
}

const SupervisorView* TopologyView::supervisor(std::uint64_t pid) const {
    const Roles* found = roles(pid);
    return found == nullptr || found->supervisor == none ? nullptr
                                                         : &supervisors_[found->supervisor];
}

const PoolView* TopologyView::pool(std::uint64_t pid) const {
    const Roles* found = roles(pid);
    return found == nullptr || found->pool == none ? nullptr : &pools_[found->pool];
}

std::size_t TopologyView::live_workers(const PoolView& pool) const {
    const auto live = std::count_if(pool.workers.begin(), pool.workers.end(),
                                    [this](std::uint64_t worker) { return is_alive(worker); });
    RS_ASSERT(static_cast<std::size_t>(live) <= pool.workers.size());
    return static_cast<std::size_t>(live);
}

std::vector<const PendingCall*> TopologyView::pending_calls() const {
    std::vector<const PendingCall*> open;
    open.reserve(calls_.size());
    for (const PendingCall& call : calls_) {
        open.push_back(&call);
    }
    return open;
}

const PendingCall* TopologyView::pending_call(std::uint64_t caller, std::uint64_t ref) const {
    for (const PendingCall& call : calls_) {
        if (call.caller == caller && call.ref == ref) {
            return &call;
        }
    }
    return nullptr;
}

Ledger TopologyView::ledger_of(bool user_only) const {
    Ledger total;
    for (std::size_t what = 0; what < message_class_count; what++) {
        if (user_only && what != static_cast<std::size_t>(MessageClass::User)) {
            continue;
        }
        const Ledger& ends = ends_[what];
        total.sent += sent_[what];
        total.discarded += ends.discarded;
        total.route_failed += ends.route_failed;
        total.unhandled += ends.unhandled;
        total.dropped += ends.dropped;
        for (const auto& [reason, count] : ends.dropped_by_reason) {
            total.dropped_by_reason[reason] += count;
        }
        total.handled += where_count_[what][where_index(MessageWhere::Taken)];
        total.queued += where_count_[what][where_index(MessageWhere::Queued)] +
                        where_count_[what][where_index(MessageWhere::Kept)];
    }
    RS_ASSERT(total.dropped >= total.dropped_by_reason.size());
    return total;
}

// -- commands -------------------------------------------------------------------------------

bool TopologyView::watches(EventKind kind) {
    return kind != EventKind::Other && kind != EventKind::Response &&
           kind != EventKind::ResponseDropped && kind != EventKind::RouteKey;
}

void TopologyView::reset() {
    // Only the slots this run used (every slot set names an entry of one of the lists).
    const auto forget = [this](std::uint64_t pid) {
        if (pid < roles_dense_.size()) {
            roles_dense_[pid] = Roles{};
        }
    };
    for (const ProcessView& each : processes_) {
        forget(each.pid);
    }
    for (const RouterView& each : routers_) {
        forget(each.pid);
    }
    for (const SupervisorView& each : supervisors_) {
        forget(each.pid);
    }
    for (const PoolView& each : pools_) {
        forget(each.pid);
    }
    processes_.clear();
    roles_sparse_.clear();
    registered_.clear();
    routers_.clear();
    routers_low_ = UINT64_MAX;
    routers_high_ = 0;
    last_router_ = none;
    supervisors_.clear();
    pools_.clear();
    calls_.clear();
    last_call_change_ = CallChange::None;
    messages_.clear();
    std::fill(std::begin(sent_), std::end(sent_), 0);
    for (Ledger& ends : ends_) {
        ends = Ledger{};
    }
    for (auto& counts : where_count_) {
        std::fill(std::begin(counts), std::end(counts), 0);
    }
    last_fault_ = LedgerFault::None;
}

} // namespace routesim::properties

// -- processes ------------------------------------------------------------------------------

namespace routesim::properties {

RouterView& TopologyView::router_or_add(std::uint64_t pid) {
    Roles& slot = roles_of(pid);
    if (slot.router == none) {
        slot.router = static_cast<std::uint32_t>(routers_.size());
        routers_.push_back(RouterView{.pid = pid});
        routers_low_ = std::min(routers_low_, pid);
        routers_high_ = std::max(routers_high_, pid);
    }
    RS_ASSERT(routers_[slot.router].pid == pid);
    return routers_[slot.router];
}

SupervisorView& TopologyView::supervisor_or_add(std::uint64_t pid) {
    Roles& slot = roles_of(pid);
    if (slot.supervisor == none) {
        slot.supervisor = static_cast<std::uint32_t>(supervisors_.size());
        supervisors_.push_back(SupervisorView{.pid = pid});
    }
    RS_ASSERT(supervisors_[slot.supervisor].pid == pid);
    return supervisors_[slot.supervisor];
}

PoolView& TopologyView::pool_or_add(std::uint64_t pid) {
    Roles& slot = roles_of(pid);
    if (slot.pool == none) {
        slot.pool = static_cast<std::uint32_t>(pools_.size());
        pools_.push_back(PoolView{.pid = pid});
    }
    RS_ASSERT(pools_[slot.pool].pid == pid);
    return pools_[slot.pool];
}

void TopologyView::on_spawn_failed(const ev::SpawnFailed& failed, sim::Instant at) {
    const std::uint64_t pid = failed.pid;
    if (ProcessView* known = process_mut(pid); known != nullptr) {
        known->alive = false;
        known->exited = true;
        known->init_failed = true;
        known->ended = at;
        known->end_reason = failed.reason.text;
    }
    if (RouterView* router = router_mut(pid); router != nullptr) {
        router->alive = false; // R6: its Init failed
        router->died = at;
        router->died_reason = failed.reason.text;
    }
    if (RouterView* parent = router_mut(failed.parent);
        parent != nullptr && parent->fresh_spawn == pid) {
        parent->fresh_spawn = 0;
    }
}

void TopologyView::on_spawn(const ev::Spawn& spawn, sim::Instant at) {
    const std::uint64_t pid = spawn.pid;
    Roles& slot = roles_of(pid);
    RS_ASSERT(slot.process == none); // a pid is spawned once
    slot.process = static_cast<std::uint32_t>(processes_.size());
    ProcessView& made = processes_.emplace_back();
    made.pid = pid;
    made.parent = spawn.parent;
    made.name = spawn.name.text;
    made.behavior = spawn.behavior.text;
    made.kind = spawn.behavior_kind.text;
    made.spawned = at;
    if (made.kind == "Router") {
        router_or_add(pid);
    } else if (made.kind == "Supervisor") {
        supervisor_or_add(pid);
    } else if (made.kind == "Pool") {
        pool_or_add(pid);
    }
    const Roles* parent = roles(made.parent);
    if (parent == nullptr) {
        return;
    }
    if (parent->router != none) {
        routers_[parent->router].fresh_spawn = pid; // claimed by a route_admin or restart
    } else if (parent->pool != none) {
        pools_[parent->pool].workers.push_back(pid);
    } else if (parent->supervisor != none) {
        std::vector<SupervisorChild>& children = supervisors_[parent->supervisor].children;
        auto known = std::find_if(children.begin(), children.end(), [&](const auto& child) {
            return !made.name.empty() && child.name == made.name;
        });
        if (known == children.end()) {
            known = children.insert(children.end(), SupervisorChild{.name = made.name});
        }
        known->pid = pid;
        known->running = true;
    }
}

void TopologyView::on_exit(const ev::Exit& exit, sim::Instant at) {
    const std::uint64_t pid = exit.pid;
    ProcessView* ended = process_mut(pid);
    if (ended == nullptr) { // a hand-made trace may not spawn it
        roles_of(pid).process = static_cast<std::uint32_t>(processes_.size());
        ended = &processes_.emplace_back();
        ended->pid = pid;
        ended->spawned = at;
    }
    RS_ASSERT(!ended->exited); // a process exits once
    ended->alive = false;
    ended->exited = true;
    ended->ended = at;
    ended->end_reason = exit.reason.text;
    std::erase_if(registered_, [pid](const auto& entry) { return entry.second == pid; });
    const Roles& slot = *roles(pid);
    if (slot.router != none) {
        RouterView& router = routers_[slot.router];
        router.alive = false; // its table stays as it was
        router.died = at;
        router.died_reason = ended->end_reason;
    }
    if (slot.supervisor != none) {
        SupervisorView& sup = supervisors_[slot.supervisor];
        sup.terminated = true;
        sup.terminated_at = at;
        sup.terminated_reason = ended->end_reason;
    }
    if (const Roles* parent = roles(ended->parent);
        parent != nullptr && parent->supervisor != none) {
        for (SupervisorChild& child : supervisors_[parent->supervisor].children) {
            if (child.pid == pid) {
                child.running = false;
                child.last_exit = ended->end_reason;
            }
        }
    }
}

void TopologyView::on_kill(const ev::Kill& kill) {
    // §3.3: a killed process is a Zombee until its exit: no longer alive.
    if (ProcessView* killed = process_mut(kill.pid); killed != nullptr) {
        killed->killed = true;
        killed->alive = false;
    }
}

void TopologyView::on_register(std::uint64_t pid, std::string_view name, bool add) {
    std::erase_if(registered_, [name](const auto& entry) { return entry.first == name; });
    if (add) {
        registered_.emplace_back(std::string(name), pid);
    }
    RS_ASSERT(registered(name) == (add ? pid : 0));
}

// -- routers --------------------------------------------------------------------------------

namespace {

RouteView* find_route(RouterView& router, std::string_view name) {
    return const_cast<RouteView*>(router.route(name));
}

} // namespace

void TopologyView::note_worker(std::uint64_t worker, std::string_view route) {
    ProcessView* served = worker == 0 || route.empty() ? nullptr : process_mut(worker);
    if (served != nullptr && served->route.empty()) {
        served->route = route; // the first route a worker serves names it
    }
}

void TopologyView::erase_route(RouterView& router, std::size_t index, sim::Instant at) {
    RS_ASSERT(index < router.routes.size());
    const RouteView& leaving = router.routes[index];
    router.removals.push_back(RouteRemoval{leaving.name, at, leaving.restarts});
    router.routes.erase(router.routes.begin() + static_cast<std::ptrdiff_t>(index)); // R27
}

void TopologyView::on_route_init(const ev::RouteInit& init, std::uint64_t seq) {
    RouterView& router = router_or_add(init.router); // a hand-made trace may start here
    router.fresh_spawn = 0;
    if (router.route(init.name.text) != nullptr) {
        return; // R48: Init refuses a duplicate name
    }
    router.routes.push_back(RouteView{std::string(init.name.text), RouteState::Running, init.worker,
                                      0, seq}); // R5: declaration order
    note_worker(init.worker, init.name.text);
}

[[gnu::always_inline]] inline void TopologyView::on_route(const ev::Route& routed,
                                                          std::uint64_t seq) {
    RouterView* router = router_mut(routed.router.value);
    if (router == nullptr) {
        return;
    }
    switch (routed.resolution) {
    case ev::Resolution::Owned:
        router->forwarded_owned++;
        return;
    case ev::Resolution::Registry:
        router->forwarded_registry++;
        return;
    case ev::Resolution::Discard:
        router->discarded++;
        end_taken(routed.id, &Ledger::discarded);
        return;
    case ev::Resolution::Failed:
        router->failed++;
        end_taken(routed.id, &Ledger::route_failed);
        if (RouteView* route = find_route(*router, routed.name.text);
            route != nullptr && routed.worker == 0 && route->state == RouteState::Running) {
            route->state = RouteState::Dead; // R13: the lazy restart failed
            route->worker = 0;
            route->since_seq = seq;
        }
        return;
    }
}

void TopologyView::on_route_restart(const ev::RouteRestart& restart, std::uint64_t seq) {
    RouterView* router = router_mut(restart.router);
    if (router == nullptr) {
        return;
    }
    router->fresh_spawn = 0;
    RouteView* route = find_route(*router, restart.name.text);
    if (route == nullptr) {
        return;
    }
    route->state = RouteState::Running; // R13, R22, R45
    route->worker = restart.worker;
    note_worker(restart.worker, restart.name.text);
    route->restarts++;
    route->since_seq = seq;
}

void TopologyView::on_route_pending(const ev::RoutePending& pending, const sim::TraceEvent& event) {
    RouterView* router = router_mut(pending.router);
    if (router == nullptr) {
        return;
    }
    router->fresh_spawn = 0;
    RouteView* route = find_route(*router, pending.name.text);
    if (route == nullptr) {
        return;
    }
    if (pending.to_state == RouteState::Absent) {
        erase_route(*router, static_cast<std::size_t>(route - router->routes.data()), event.at);
        return;
    }
    route->state = pending.to_state; // R25, R27, R50
    route->worker = pending.worker;
    note_worker(pending.worker, pending.name.text);
    route->since_seq = event.seq;
}

void TopologyView::on_route_admin(const ev::RouteAdmin& admin, const sim::TraceEvent& event) {
    RouterView* router = router_mut(admin.router);
    const std::optional<RouteOp> op = parse_route_op(admin.op.text);
    const std::string_view name = admin.name.text;
    if (router == nullptr || !op || admin.result.text != "ok") {
        if (router != nullptr) {
            router->fresh_spawn = 0;
        }
        return; // a refused call changes nothing
    }
    const std::uint64_t spawned = router->fresh_spawn;
    router->fresh_spawn = 0;
    RouteView* route = find_route(*router, name);
    if (route != nullptr && is_pending(route->state)) {
        return; // this call's route_pending told the change (R25)
    }
    if (route == nullptr) {
        if (*op == RouteOp::Add) { // R30: appended at the end of the table
            router->routes.push_back(
                RouteView{std::string(name), RouteState::Running, spawned, 0, event.seq});
            note_worker(spawned, name);
        }
        return;
    }
    const auto index = static_cast<std::size_t>(route - router->routes.data());
    switch (*op) {
    case RouteOp::Remove:
        erase_route(*router, index, event.at); // R28, R29
        return;
    case RouteOp::Disable:
        route->state = RouteState::Disabled; // R29
        route->worker = 0;
        break;
    case RouteOp::Add:
        return;
    default: // enable, replace, respawn
        if (spawned == 0) {
            // An accepted call that spawned nothing changed nothing here: enabling a running
            // or dead route (R32), replacing a disabled route's spec (R29).
            return;
        }
        route->state = RouteState::Running; // a fresh worker (R32, R28, R50, R33)
        route->worker = spawned;
        note_worker(spawned, name);
        break;
    }
    route->since_seq = event.seq;
}

// -- supervisors, pools, calls --------------------------------------------------------------

void TopologyView::on_supervisor(EventKind kind, const SupFields& fields,
                                 const sim::TraceEvent& event) {
    SupervisorView& sup = supervisor_or_add(fields.sup);
    // An exit names the incarnation; a decision names the child spec.
    auto child =
        std::find_if(sup.children.begin(), sup.children.end(), [&](const SupervisorChild& each) {
            return kind == EventKind::SupChildExit ? each.pid == fields.pid
                                                   : each.name == fields.child;
        });
    if (kind == EventKind::SupChildExit || kind == EventKind::SupShutdown) {
        if (kind == EventKind::SupChildExit && child != sup.children.end()) {
            child->running = false;
            child->last_exit = fields.reason;
        }
        return;
    }
    if (kind == EventKind::SupIntensityExceeded) {
        slide_window(sup, event.at);
        sup.exceeded = KeptWitness(event);
        sup.exceeded_at = event.at;
        sup.exceeded_child = fields.child;
        sup.exceeded_pid = fields.pid;
        sup.exceeded_reason = fields.reason;
        return;
    }
    RS_ASSERT(sup.window.empty() || event.at >= sup.window.back().at);
    sup.intensity = fields.intensity;
    sup.period = sim::Duration::nanoseconds(fields.period_ns);
    sup.restarts++;
    if (child == sup.children.end()) {
        child = sup.children.insert(sup.children.end(),
                                    SupervisorChild{.name = std::string(fields.child)});
    }
    child->restarts++;
    sup.exceeded_before_last = sup.exceeded.has_value();
    if (sup.exceeded_before_last) {
        return; // a restart after the limit tripped is not a decision within the window
    }
    while (sup.window.size() > sup.intensity) {
        sup.window.pop_front(); // an earlier overrun (see SupervisorView::window)
    }
    slide_window(sup, event.at);
    sup.window.push_back(RestartDecision{event.at, KeptWitness(event)});
}

void TopologyView::slide_window(SupervisorView& sup, sim::Instant now) {
    // §6.4: entries older than Period drop out; one exactly Period old still counts.
    while (!sup.window.empty() && now - sup.window.front().at > sup.period) {
        sup.window.pop_front();
    }
    RS_ASSERT(sup.window.empty() || now - sup.window.front().at <= sup.period);
}

void TopologyView::on_pool_forward(const ev::PoolForward& forward) {
    const std::string_view outcome = forward.outcome.text;
    PoolView& pool = pool_or_add(forward.pool);
    if (outcome == "ok" || outcome == "respawned") {
        pool.forwarded++;
        pool.worker_restarts += outcome == "respawned" ? 1U : 0U;
    } else if (outcome == "unhandled") {
        pool.unhandled++;
        end_taken(forward.id, &Ledger::unhandled);
    }
}

void TopologyView::on_call(EventKind kind, std::uint64_t caller, std::uint64_t ref,
                           const sim::TraceEvent& event) {
    auto open = std::find_if(calls_.begin(), calls_.end(), [&](const PendingCall& call) {
        return call.caller == caller && call.ref == ref;
    });
    if (kind == EventKind::Call) {
        if (open != calls_.end()) {
            last_call_change_ = CallChange::StartedTwice;
            return;
        }
        const std::uint64_t target = caller == last_request_.first ? last_request_.second : 0;
        calls_.push_back(PendingCall{caller, target, ref, event.at, KeptWitness(event)});
        last_call_change_ = CallChange::Started;
        return;
    }
    if (open == calls_.end()) {
        last_call_change_ = CallChange::EndedUnopened;
        return;
    }
    calls_.erase(open); // keeps the others in start order
    last_call_change_ = CallChange::Ended;
}

// -- the ledger -----------------------------------------------------------------------------

MessageRecord& TopologyView::grow_to(std::uint64_t id) {
    RS_ASSERT(id >= messages_.size());
    messages_.resize(std::max<std::size_t>(id + 1, messages_.size() * 2));
    return messages_[id];
}

[[gnu::always_inline]] inline void TopologyView::move(MessageRecord& item, MessageWhere where) {
    std::uint64_t(&counts)[5] = where_count_[static_cast<std::size_t>(item.what)];
    RS_ASSERT(where != MessageWhere::Unknown);
    if (item.where != MessageWhere::Unknown) {
        RS_ASSERT(counts[where_index(item.where)] > 0); // counts never go negative
        counts[where_index(item.where)]--;
    }
    counts[where_index(where)]++;
    item.where = where;
}

[[gnu::always_inline]] inline void TopologyView::on_send(const ev::Send& send, std::uint64_t seq) {
    const MessageHop& hop = last_hop_ = hop_of(send);
    if (hop.id == no_message_id) {
        return;
    }
    last_fault_ = LedgerFault::None;
    if (send.type == runtime::MailboxType::Request) {
        last_request_ = {hop.by, hop.to}; // the call event that follows names its target
    }
    MessageRecord& item = record(hop.id);
    if (item.where != MessageWhere::Unknown) {
        last_fault_ = LedgerFault::SentTwice;
        return;
    }
    item.what = class_of_send(send.type, send.msg.text);
    move(item, MessageWhere::Queued);
    item.holder = hop.to;
    item.last_seq = seq;
    sent_[static_cast<std::size_t>(item.what)]++;
}

[[gnu::always_inline]] inline void TopologyView::on_forward(const ev::Forward& forward,
                                                            std::uint64_t seq) {
    const MessageHop& hop = last_hop_ = hop_of(forward);
    if (hop.id == no_message_id) {
        return;
    }
    MessageRecord& item = record(hop.id);
    last_fault_ = LedgerFault::None;
    // A behaviour forwards what it took; a supervisor hands over what it kept.
    if ((item.where != MessageWhere::Taken && item.where != MessageWhere::Kept) ||
        item.holder != hop.by) {
        last_fault_ = LedgerFault::ForwardNotHeld;
        return;
    }
    move(item, MessageWhere::Queued);
    item.holder = hop.to;
    item.last_seq = seq;
}

[[gnu::always_inline]] inline void TopologyView::on_take(const ev::Take& take, std::uint64_t seq) {
    const MessageHop& hop = last_hop_ = hop_of(take);
    // Most takes are workers' and clients': pids outside the range routers ever had.
    const Roles* taker = hop.by < routers_low_ || hop.by > routers_high_ ? nullptr : roles(hop.by);
    if (taker != nullptr && taker->router != none) {
        RouterView& router = routers_[taker->router];
        router.fresh_spawn = 0;
        if (take.type == runtime::MailboxType::Exit) { // R22, R23: a Running route's worker exited
            const std::uint64_t from = hop.from;
            RouteView* route =
                const_cast<RouteView*>(from == 0 ? nullptr : router.route_of_worker(from));
            if (route != nullptr && route->state == RouteState::Running) {
                route->state = RouteState::Dead;
                route->worker = 0;
                route->since_seq = seq;
            }
        }
    }
    last_fault_ = LedgerFault::None;
    if (hop.id == no_message_id) {
        return;
    }
    MessageRecord& item = record(hop.id);
    if (item.where != MessageWhere::Queued || item.holder != hop.by) {
        last_fault_ = LedgerFault::TakeNotQueued;
        return;
    }
    move(item, MessageWhere::Taken);
    item.last_seq = seq;
}

void TopologyView::on_drop(const ev::Drop& drop) {
    const MessageHop& hop = last_hop_ = hop_of(drop);
    if (hop.id == no_message_id) {
        return;
    }
    MessageRecord& item = record(hop.id);
    last_fault_ = LedgerFault::None;
    // A kept message is dropped under the pid of the dead child or of the incarnation the
    // hand-over failed to reach.
    if (item.where != MessageWhere::Kept &&
        (item.where != MessageWhere::Queued || item.holder != hop.by)) {
        last_fault_ = LedgerFault::DropNotQueued;
        return;
    }
    move(item, MessageWhere::Ended);
    Ledger& ends = ends_[static_cast<std::size_t>(item.what)];
    ends.dropped++;
    ends.dropped_by_reason[std::string(drop.reason.text)]++;
}

void TopologyView::on_preserve(const ev::Preserve& preserve, std::uint64_t seq) {
    const MessageHop& hop = last_hop_ = hop_of(preserve);
    if (hop.id == no_message_id) {
        return;
    }
    MessageRecord& item = record(hop.id);
    last_fault_ = LedgerFault::None;
    if (item.where != MessageWhere::Queued || item.holder != hop.by) {
        last_fault_ = LedgerFault::PreserveNotQueued;
        return;
    }
    move(item, MessageWhere::Kept); // held by the supervisor for the next incarnation
    item.holder = hop.to;
    item.last_seq = seq;
}

void TopologyView::end_taken(std::uint64_t id, std::uint64_t Ledger::*category) {
    last_fault_ = LedgerFault::None;
    if (id == 0 || id == no_message_id) {
        return;
    }
    MessageRecord& item = record(id);
    if (item.where != MessageWhere::Taken) {
        last_fault_ = LedgerFault::EndNotTaken;
        return;
    }
    move(item, MessageWhere::Ended);
    ends_[static_cast<std::size_t>(item.what)].*category += 1;
}

// -- dispatch -------------------------------------------------------------------------------

// The event of `kind` decoded as E and handed to `handle`; an event that does not decode (a
// hand-edited trace) is skipped. Returns whether it decoded.
template <class E, class Handle>
[[gnu::always_inline]] inline bool
TopologyView::with(EventDecodes& decodes, const sim::TraceEvent& event, Handle&& handle) {
    const E* decoded = decodes.get<E>(event);
    if (decoded != nullptr) {
        handle(*decoded);
    }
    return decoded != nullptr;
}

void TopologyView::apply(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes) {
    last_fault_ = LedgerFault::None;
    const std::uint64_t seq = event.seq;
    bool read = true;
    switch (kind) {
    case EventKind::Take:
        read = with<ev::Take>(decodes, event, [&](const ev::Take& take) { on_take(take, seq); });
        break;
    case EventKind::Send:
        read = with<ev::Send>(decodes, event, [&](const ev::Send& send) { on_send(send, seq); });
        break;
    case EventKind::Forward:
        read = with<ev::Forward>(decodes, event,
                                 [&](const ev::Forward& fwd) { on_forward(fwd, seq); });
        break;
    case EventKind::Route:
        with<ev::Route>(decodes, event, [&](const ev::Route& routed) { on_route(routed, seq); });
        return;
    case EventKind::Drop:
        read = with<ev::Drop>(decodes, event, [&](const ev::Drop& drop) { on_drop(drop); });
        break;
    case EventKind::Preserve:
        read = with<ev::Preserve>(decodes, event,
                                  [&](const ev::Preserve& kept) { on_preserve(kept, seq); });
        break;
    default:
        apply_rare(kind, event, decodes);
        return;
    }
    if (!read) [[unlikely]] {
        last_hop_ = MessageHop{.id = no_message_id}; // a reader of last_hop() skips it too
    }
}

void TopologyView::apply_rare(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes) {
    const sim::Instant at = event.at;
    switch (kind) {
    case EventKind::PoolForward:
        with<ev::PoolForward>(decodes, event,
                              [&](const ev::PoolForward& fwd) { on_pool_forward(fwd); });
        return;
    case EventKind::Spawn:
        with<ev::Spawn>(decodes, event, [&](const ev::Spawn& spawn) { on_spawn(spawn, at); });
        return;
    case EventKind::SpawnFailed:
        with<ev::SpawnFailed>(decodes, event,
                              [&](const ev::SpawnFailed& failed) { on_spawn_failed(failed, at); });
        return;
    case EventKind::Exit:
        with<ev::Exit>(decodes, event, [&](const ev::Exit& exit) { on_exit(exit, at); });
        return;
    case EventKind::Kill:
        with<ev::Kill>(decodes, event, [&](const ev::Kill& kill) { on_kill(kill); });
        return;
    case EventKind::Register:
        with<ev::Register>(decodes, event, [&](const ev::Register& reg) {
            on_register(reg.pid, reg.name.text, true);
        });
        return;
    case EventKind::Unregister:
        with<ev::Unregister>(decodes, event, [&](const ev::Unregister& unreg) {
            on_register(unreg.pid, unreg.name.text, false);
        });
        return;
    default:
        apply_route_or_tree(kind, event, decodes);
        return;
    }
}

void TopologyView::apply_route_or_tree(EventKind kind, const sim::TraceEvent& event,
                                       EventDecodes& decodes) {
    const std::uint64_t seq = event.seq;
    switch (kind) {
    case EventKind::RouteInit:
        with<ev::RouteInit>(decodes, event,
                            [&](const ev::RouteInit& init) { on_route_init(init, seq); });
        return;
    case EventKind::RouteRestart:
        with<ev::RouteRestart>(
            decodes, event, [&](const ev::RouteRestart& again) { on_route_restart(again, seq); });
        return;
    case EventKind::RoutePending:
        with<ev::RoutePending>(decodes, event, [&](const ev::RoutePending& pending) {
            on_route_pending(pending, event);
        });
        return;
    case EventKind::RouteAdmin:
        with<ev::RouteAdmin>(decodes, event,
                             [&](const ev::RouteAdmin& admin) { on_route_admin(admin, event); });
        return;
    case EventKind::SupRestart:
        with<ev::SupRestart>(decodes, event, [&](const ev::SupRestart& sup) {
            on_supervisor(kind,
                          SupFields{sup.sup, sup.child.text, sup.pid, sup.reason.text,
                                    sup.intensity, sup.period_ns},
                          event);
        });
        return;
    case EventKind::SupIntensityExceeded:
        with<ev::SupIntensityExceeded>(decodes, event, [&](const ev::SupIntensityExceeded& sup) {
            on_supervisor(kind, SupFields{sup.sup, sup.child.text, sup.pid, sup.reason.text},
                          event);
        });
        return;
    case EventKind::SupChildExit:
        with<ev::SupChildExit>(decodes, event, [&](const ev::SupChildExit& sup) {
            on_supervisor(kind, SupFields{sup.sup, sup.child.text, sup.pid, sup.reason.text},
                          event);
        });
        return;
    case EventKind::SupShutdown:
        with<ev::SupShutdown>(decodes, event, [&](const ev::SupShutdown& sup) {
            on_supervisor(kind, SupFields{.sup = sup.sup, .reason = sup.reason.text}, event);
        });
        return;
    case EventKind::Call:
        with<ev::Call>(decodes, event,
                       [&](const ev::Call& call) { on_call(kind, call.caller, call.ref, event); });
        return;
    case EventKind::CallResult:
        with<ev::CallResult>(decodes, event, [&](const ev::CallResult& result) {
            on_call(kind, result.caller, result.ref, event);
        });
        return;
    default:
        return;
    }
}

} // namespace routesim::properties
