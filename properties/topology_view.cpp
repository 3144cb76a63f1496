// TopologyView: the run's processes, route tables, supervisors, pools, pending calls and
// ledger, updated per trace event. Every field of an event is read in the decode section at
// the top of this file and nowhere else, so a typed event decode replaces only that section.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/topology_view.hpp"

#include <algorithm>

#include "properties/event_layout.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "runtime/trace_keys.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;
namespace {

// -- decode: the one place that reads events' fields ------------------------------------

constexpr std::uint64_t exit_type = static_cast<std::uint64_t>(runtime::MailboxType::Exit);
constexpr std::uint64_t request_type = static_cast<std::uint64_t>(runtime::MailboxType::Request);
constexpr std::uint64_t event_type = static_cast<std::uint64_t>(runtime::MailboxType::Event);
constexpr FieldAt id_second{trace::id, 1}; // take, drop and preserve put the id second
constexpr FieldAt router_first{trace::router, 0};
constexpr std::uint64_t no_message_id = ~std::uint64_t{0}; // no emitter hands it out

// field_uint with find_field's fast path inline (the ledger reads a few fields of most events).
[[gnu::always_inline]] inline std::uint64_t uint_at(const sim::TraceEvent& event,
                                                    const FieldAt& at) {
    if (at.position < event.field_count && &event.fields[at.position].key == &at.key &&
        event.fields[at.position].value.type() != sim::TraceValue::Type::Text) {
        return event.fields[at.position].value.as_uint();
    }
    return field_uint(event, at);
}

constexpr FieldAt send_type{trace::type, 4};
constexpr FieldAt send_msg{trace::msg, 5};

// Each message step is decoded here once, with every field a reader of it needs (the view's
// ledger, and through last_hop() the message monitors).
MessageHop decode_send(const sim::TraceEvent& event) {
    return MessageHop{.kind = HopKind::Send,
                      .id = uint_at(event, layout::send::id),
                      .by = uint_at(event, layout::send::from),
                      .to = uint_at(event, layout::send::to),
                      .queue = uint_at(event, layout::send::queue),
                      .type = uint_at(event, send_type)};
}
std::string_view decode_send_msg(const sim::TraceEvent& event) {
    return field_text(event, send_msg);
}
MessageHop decode_forward(const sim::TraceEvent& event) {
    return MessageHop{.kind = HopKind::Forward,
                      .id = uint_at(event, layout::forward::id),
                      .by = uint_at(event, layout::forward::by),
                      .to = uint_at(event, layout::forward::to),
                      .from = uint_at(event, layout::forward::from),
                      .queue = uint_at(event, layout::forward::queue)};
}
MessageHop decode_take(const sim::TraceEvent& event) {
    return MessageHop{.kind = HopKind::Take,
                      .id = uint_at(event, layout::take::id),
                      .by = uint_at(event, layout::take::pid),
                      .from = uint_at(event, layout::take::from),
                      .type = uint_at(event, layout::take::type)};
}
MessageHop decode_drop(const sim::TraceEvent& event) {
    return MessageHop{.kind = HopKind::Drop,
                      .id = uint_at(event, layout::drop::id),
                      .by = uint_at(event, layout::drop::pid)};
}
MessageHop decode_preserve(const sim::TraceEvent& event) {
    return MessageHop{.kind = HopKind::Preserve,
                      .id = uint_at(event, id_second),
                      .by = field_uint(event, trace::pid),
                      .to = field_uint(event, trace::parent)};
}

MessageClass class_of_send(std::uint64_t type, std::string_view msg) {
    if (type == exit_type) {
        return MessageClass::ExitSignal;
    }
    if (type >= event_type) {
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

struct RouteFields { // route, route_init, route_restart, route_pending, route_admin
    std::uint64_t router = 0;
    std::uint64_t id = 0;
    std::string_view name;
    std::string_view resolution; // route
    std::uint64_t worker = 0;
    std::string_view from_state; // route_pending
    std::string_view to_state;   // route_pending
    std::string_view op;         // route_admin
    std::string_view result;     // route_admin
};

RouteFields decode_route(EventKind kind, const sim::TraceEvent& event) {
    RouteFields fields;
    if (kind == EventKind::Route) {
        fields.router = uint_at(event, layout::route::router);
        fields.id = uint_at(event, layout::route::id);
        fields.name = field_text(event, layout::route::name);
        fields.resolution = field_text(event, layout::route::resolution);
        fields.worker = uint_at(event, layout::route::worker);
        return fields;
    }
    fields.router = uint_at(event, router_first);
    fields.name = field_text(event, trace::name);
    fields.worker = field_uint(event, trace::worker);
    if (kind == EventKind::RoutePending) {
        fields.from_state = field_text(event, trace::from_state);
        fields.to_state = field_text(event, trace::to_state);
    } else if (kind == EventKind::RouteAdmin) {
        fields.op = field_text(event, trace::op);
        fields.result = field_text(event, trace::result);
    }
    return fields;
}

struct SupFields { // sup_restart, sup_intensity_exceeded, sup_child_exit, sup_shutdown
    std::uint64_t sup = 0;
    std::string_view child;
    std::uint64_t pid = 0;
    std::string_view reason;
    std::uint64_t intensity = 0;
    std::int64_t period_ns = 0;
};

SupFields decode_sup(const sim::TraceEvent& event) {
    return SupFields{field_uint(event, trace::sup_key_sup),
                     field_text(event, trace::sup_key_child),
                     field_uint(event, trace::pid),
                     field_text(event, trace::reason),
                     field_uint(event, trace::sup_key_intensity),
                     static_cast<std::int64_t>(field_uint(event, trace::sup_key_period_ns))};
}

std::optional<RouteOp> parse_route_op(std::string_view text) {
    for (RouteOp op : {RouteOp::Add, RouteOp::Remove, RouteOp::Disable, RouteOp::Enable,
                       RouteOp::Replace, RouteOp::Respawn}) {
        if (route_op_name(op) == text) {
            return op;
        }
    }
    return std::nullopt;
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

void TopologyView::on_spawn(EventKind kind, const sim::TraceEvent& event) {
    const std::uint64_t pid = field_uint(event, trace::pid);
    if (kind == EventKind::SpawnFailed) {
        if (ProcessView* known = process_mut(pid); known != nullptr) {
            known->alive = false;
            known->exited = true;
            known->init_failed = true;
            known->ended = event.at;
            known->end_reason = field_text(event, trace::reason);
        }
        if (RouterView* failed = router_mut(pid); failed != nullptr) {
            failed->alive = false; // R6: its Init failed
            failed->died = event.at;
            failed->died_reason = field_text(event, trace::reason);
        }
        if (RouterView* parent = router_mut(field_uint(event, trace::parent));
            parent != nullptr && parent->fresh_spawn == pid) {
            parent->fresh_spawn = 0;
        }
        return;
    }
    Roles& slot = roles_of(pid);
    RS_ASSERT(slot.process == none); // a pid is spawned once
    slot.process = static_cast<std::uint32_t>(processes_.size());
    ProcessView& made = processes_.emplace_back();
    made.pid = pid;
    made.parent = field_uint(event, trace::parent);
    made.name = field_text(event, trace::name);
    made.behavior = field_text(event, trace::behavior);
    made.kind = field_text(event, trace::kind);
    made.spawned = event.at;
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

void TopologyView::on_exit(const sim::TraceEvent& event) {
    const std::uint64_t pid = field_uint(event, trace::pid);
    ProcessView* ended = process_mut(pid);
    if (ended == nullptr) { // a hand-made trace may not spawn it
        roles_of(pid).process = static_cast<std::uint32_t>(processes_.size());
        ended = &processes_.emplace_back();
        ended->pid = pid;
        ended->spawned = event.at;
    }
    RS_ASSERT(!ended->exited); // a process exits once
    ended->alive = false;
    ended->exited = true;
    ended->ended = event.at;
    ended->end_reason = field_text(event, trace::reason);
    std::erase_if(registered_, [pid](const auto& entry) { return entry.second == pid; });
    const Roles& slot = *roles(pid);
    if (slot.router != none) {
        RouterView& router = routers_[slot.router];
        router.alive = false; // its table stays as it was
        router.died = event.at;
        router.died_reason = ended->end_reason;
    }
    if (slot.supervisor != none) {
        SupervisorView& sup = supervisors_[slot.supervisor];
        sup.terminated = true;
        sup.terminated_at = event.at;
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

void TopologyView::on_kill(const sim::TraceEvent& event) {
    // §3.3: a killed process is a Zombee until its exit: no longer alive.
    if (ProcessView* killed = process_mut(field_uint(event, trace::pid)); killed != nullptr) {
        killed->killed = true;
        killed->alive = false;
    }
}

void TopologyView::on_register(const sim::TraceEvent& event, bool add) {
    const std::uint64_t pid = field_uint(event, trace::pid);
    const std::string_view name = field_text(event, trace::name);
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

void TopologyView::on_route_init(const sim::TraceEvent& event) {
    const RouteFields fields = decode_route(EventKind::RouteInit, event);
    RouterView& router = router_or_add(fields.router); // a hand-made trace may start here
    router.fresh_spawn = 0;
    if (router.route(fields.name) != nullptr) {
        return; // R48: Init refuses a duplicate name
    }
    router.routes.push_back(RouteView{std::string(fields.name), RouteState::Running, fields.worker,
                                      0, event.seq}); // R5: declaration order
    note_worker(fields.worker, fields.name);
}

[[gnu::always_inline]] inline void TopologyView::on_route(const sim::TraceEvent& event) {
    // The common resolutions count only: decoded apart, without the name.
    RouterView* router = router_mut(uint_at(event, layout::route::router));
    if (router == nullptr) {
        return;
    }
    const std::string_view resolution = field_text(event, layout::route::resolution);
    if (resolution == "owned") {
        router->forwarded_owned++;
        return;
    }
    if (resolution == "registry") {
        router->forwarded_registry++;
        return;
    }
    const RouteFields fields = decode_route(EventKind::Route, event);
    if (resolution == "discard") {
        router->discarded++;
        end_taken(fields.id, &Ledger::discarded);
    } else if (resolution == "failed") {
        router->failed++;
        end_taken(fields.id, &Ledger::route_failed);
        RouteView* route = find_route(*router, fields.name);
        if (route != nullptr && fields.worker == 0 && route->state == RouteState::Running) {
            route->state = RouteState::Dead; // R13: the lazy restart failed
            route->worker = 0;
            route->since_seq = event.seq;
        }
    }
}

void TopologyView::on_route_restart(const sim::TraceEvent& event) {
    const RouteFields fields = decode_route(EventKind::RouteRestart, event);
    RouterView* router = router_mut(fields.router);
    if (router == nullptr) {
        return;
    }
    router->fresh_spawn = 0;
    RouteView* route = find_route(*router, fields.name);
    if (route == nullptr) {
        return;
    }
    route->state = RouteState::Running; // R13, R22, R45
    route->worker = fields.worker;
    note_worker(fields.worker, fields.name);
    route->restarts++;
    route->since_seq = event.seq;
}

void TopologyView::on_route_pending(const sim::TraceEvent& event) {
    const RouteFields fields = decode_route(EventKind::RoutePending, event);
    RouterView* router = router_mut(fields.router);
    if (router == nullptr) {
        return;
    }
    router->fresh_spawn = 0;
    const std::optional<RouteState> to = parse_route_state(fields.to_state);
    RouteView* route = find_route(*router, fields.name);
    if (!to || route == nullptr) {
        return;
    }
    if (*to == RouteState::Absent) {
        erase_route(*router, static_cast<std::size_t>(route - router->routes.data()), event.at);
        return;
    }
    route->state = *to; // R25, R27, R50
    route->worker = fields.worker;
    note_worker(fields.worker, fields.name);
    route->since_seq = event.seq;
}

void TopologyView::on_route_admin(const sim::TraceEvent& event) {
    const RouteFields fields = decode_route(EventKind::RouteAdmin, event);
    RouterView* router = router_mut(fields.router);
    const std::optional<RouteOp> op = parse_route_op(fields.op);
    if (router == nullptr || !op || fields.result != "ok") {
        if (router != nullptr) {
            router->fresh_spawn = 0;
        }
        return; // a refused call changes nothing
    }
    const std::uint64_t spawned = router->fresh_spawn;
    router->fresh_spawn = 0;
    RouteView* route = find_route(*router, fields.name);
    if (route != nullptr && is_pending(route->state)) {
        return; // this call's route_pending told the change (R25)
    }
    if (route == nullptr) {
        if (*op == RouteOp::Add) { // R30: appended at the end of the table
            router->routes.push_back(
                RouteView{std::string(fields.name), RouteState::Running, spawned, 0, event.seq});
            note_worker(spawned, fields.name);
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
    default: // enable, replace, respawn: a fresh worker when one was spawned
        route->state = spawned != 0 ? RouteState::Running : RouteState::Dead;
        route->worker = spawned;
        note_worker(spawned, fields.name);
        break;
    }
    route->since_seq = event.seq;
}

// -- supervisors, pools, calls --------------------------------------------------------------

void TopologyView::on_supervisor(EventKind kind, const sim::TraceEvent& event) {
    const SupFields fields = decode_sup(event);
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

void TopologyView::on_pool_forward(const sim::TraceEvent& event) {
    const std::uint64_t pool_pid = field_uint(event, trace::pool_key_pool);
    const std::string_view outcome = field_text(event, trace::outcome);
    const std::uint64_t id = field_uint(event, trace::id);
    PoolView& pool = pool_or_add(pool_pid);
    if (outcome == "ok" || outcome == "respawned") {
        pool.forwarded++;
        pool.worker_restarts += outcome == "respawned" ? 1 : 0;
    } else if (outcome == "unhandled") {
        pool.unhandled++;
        end_taken(id, &Ledger::unhandled);
    }
}

void TopologyView::on_call(EventKind kind, const sim::TraceEvent& event) {
    const std::uint64_t caller = field_uint(event, trace::caller);
    const std::uint64_t ref = field_uint(event, trace::ref);
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

[[gnu::always_inline]] inline void TopologyView::on_send(const sim::TraceEvent& event) {
    const MessageHop& hop = last_hop_ = decode_send(event);
    if (hop.id == no_message_id) {
        return;
    }
    last_fault_ = LedgerFault::None;
    if (hop.type == request_type) {
        last_request_ = {hop.by, hop.to}; // the call event that follows names its target
    }
    MessageRecord& item = record(hop.id);
    if (item.where != MessageWhere::Unknown) {
        last_fault_ = LedgerFault::SentTwice;
        return;
    }
    item.what = class_of_send(hop.type, decode_send_msg(event));
    move(item, MessageWhere::Queued);
    item.holder = hop.to;
    item.last_seq = event.seq;
    sent_[static_cast<std::size_t>(item.what)]++;
}

[[gnu::always_inline]] inline void TopologyView::on_forward(const sim::TraceEvent& event) {
    const MessageHop& hop = last_hop_ = decode_forward(event);
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
    item.last_seq = event.seq;
}

[[gnu::always_inline]] inline void TopologyView::on_take(const sim::TraceEvent& event) {
    const MessageHop& hop = last_hop_ = decode_take(event);
    // Most takes are workers' and clients': pids outside the range routers ever had.
    const Roles* taker = hop.by < routers_low_ || hop.by > routers_high_ ? nullptr : roles(hop.by);
    if (taker != nullptr && taker->router != none) {
        RouterView& router = routers_[taker->router];
        router.fresh_spawn = 0;
        if (hop.type == exit_type) { // R22, R23: a Running route's worker exited
            const std::uint64_t from = hop.from;
            RouteView* route =
                const_cast<RouteView*>(from == 0 ? nullptr : router.route_of_worker(from));
            if (route != nullptr && route->state == RouteState::Running) {
                route->state = RouteState::Dead;
                route->worker = 0;
                route->since_seq = event.seq;
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
    item.last_seq = event.seq;
}

void TopologyView::on_drop(const sim::TraceEvent& event) {
    const MessageHop& hop = last_hop_ = decode_drop(event);
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
    ends.dropped_by_reason[std::string(field_text(event, layout::drop::reason))]++;
}

void TopologyView::on_preserve(const sim::TraceEvent& event) {
    const MessageHop& hop = last_hop_ = decode_preserve(event);
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
    item.last_seq = event.seq;
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

void TopologyView::apply(EventKind kind, const sim::TraceEvent& event) {
    last_fault_ = LedgerFault::None;
    switch (kind) {
    case EventKind::Take:
        on_take(event);
        return;
    case EventKind::Send:
        on_send(event);
        return;
    case EventKind::Forward:
        on_forward(event);
        return;
    case EventKind::Route:
        on_route(event);
        return;
    case EventKind::Drop:
        on_drop(event);
        return;
    case EventKind::Preserve:
        on_preserve(event);
        return;
    case EventKind::PoolForward:
        on_pool_forward(event);
        return;
    case EventKind::Spawn:
    case EventKind::SpawnFailed:
        on_spawn(kind, event);
        return;
    case EventKind::Exit:
        on_exit(event);
        return;
    case EventKind::Kill:
        on_kill(event);
        return;
    case EventKind::Register:
    case EventKind::Unregister:
        on_register(event, kind == EventKind::Register);
        return;
    case EventKind::RouteInit:
        on_route_init(event);
        return;
    case EventKind::RouteRestart:
        on_route_restart(event);
        return;
    case EventKind::RoutePending:
        on_route_pending(event);
        return;
    case EventKind::RouteAdmin:
        on_route_admin(event);
        return;
    case EventKind::SupRestart:
    case EventKind::SupIntensityExceeded:
    case EventKind::SupChildExit:
    case EventKind::SupShutdown:
        on_supervisor(kind, event);
        return;
    case EventKind::Call:
    case EventKind::CallResult:
        on_call(kind, event);
        return;
    default:
        return;
    }
}

} // namespace routesim::properties
