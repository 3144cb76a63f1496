// act::Router: init, dispatch, resolution and forwarding, exit handling, inspection and the
// callback defaults (§8: R1–R24, R39–R54). Management is router_manage.cpp.
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/router.hpp"

#include <algorithm>
#include <cstdio>

#include "runtime/detail/mutation_hook.hpp"
#include "runtime/node_impl.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act {
namespace {

bool is_dead_target(Err err) {
    return err == Err::ProcessUnknown || err == Err::ProcessTerminated;
}

} // namespace

// The outcome of resolving and forwarding one message (R10–R18, R45).
struct Router::Routed {
    bool registry = false;
    PID worker;
    std::optional<Error> reason; // set when the routing failed
};

std::string route_pending_name(RoutePending pending) {
    switch (pending) {
    case RoutePending::None:
        return "none";
    case RoutePending::Disable:
        return "disable";
    case RoutePending::Replace:
        return "replace";
    case RoutePending::Remove:
        return "remove";
    }
    return "pending#" + std::to_string(static_cast<unsigned>(pending)); // R3
}

std::string go_quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(byte));
            out += escaped;
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

std::string MessageRouteFailed::describe() const {
    return "MessageRouteFailed{" + std::string(name.text()) + ", " + to_string(from) + ", " +
           message.describe() + ", " + reason.name() + "}";
}

// -- callback defaults (R2) ---------------------------------------------------------------

Status Router::handle_message(const PID& from, const Message&) {
    process().log("warning", "Router.HandleMessage: unhandled message from " + to_string(from));
    return ok();
}

CallReply Router::handle_call(const PID& from, const Ref&, const Message&) {
    // R2: (nil, nil): no reply, so an unanswered admin call times out.
    process().log("warning", "Router.HandleCall: unhandled request from " + to_string(from));
    return CallReply::later();
}

Status Router::handle_event(const PID& from, const Message&) {
    process().log("warning", "Router.HandleEvent: unhandled event from " + to_string(from));
    return ok();
}

Inspection Router::handle_inspect(const PID&, const std::vector<std::string>&) {
    return stats(); // R2: the built-in statistics, so merging them changes nothing (R41)
}

void Router::terminate(const Error&) {
}

// -- queries ------------------------------------------------------------------------------

std::vector<RouterRouteInfo> Router::routes() const {
    std::vector<RouterRouteInfo> infos;
    infos.reserve(table_.size());
    for (const Entry& entry : table_) {
        infos.push_back(RouterRouteInfo{entry.spec.name, entry.pid, entry.disabled, entry.pending});
    }
    return infos;
}

std::optional<RouterRouteInfo> Router::route(Atom name) const {
    const std::optional<std::size_t> index = find(name);
    if (!index) {
        return std::nullopt;
    }
    const Entry& entry = table_[*index];
    return RouterRouteInfo{entry.spec.name, entry.pid, entry.disabled, entry.pending};
}

Inspection Router::stats() const {
    // R40: decimal strings, every key under the reserved ergo: prefix.
    std::uint64_t active = 0;
    std::uint64_t disabled = 0;
    std::uint64_t pending = 0;
    Inspection map;
    for (const Entry& entry : table_) {
        active += entry.pid.empty() ? 0U : 1U;
        disabled += entry.disabled ? 1U : 0U;
        pending += entry.pending != RoutePending::None ? 1U : 0U;
        const std::string prefix = "ergo:route:" + std::string(entry.spec.name.text()) + ":";
        map[prefix + "pid"] = to_string(entry.pid);
        map[prefix + "disabled"] = entry.disabled ? "true" : "false";
        if (entry.pending != RoutePending::None) {
            map[prefix + "pending"] = route_pending_name(entry.pending); // absent otherwise (A14)
        }
    }
    map["ergo:type"] = "Router";
    map["ergo:routes_total"] = std::to_string(table_.size());
    map["ergo:routes_active"] = std::to_string(active);
    map["ergo:routes_disabled"] = std::to_string(disabled);
    map["ergo:routes_pending"] = std::to_string(pending);
    map["ergo:mailbox_size"] = std::to_string(mailbox_size_);
    map["ergo:forwarded"] = std::to_string(counters_.forwarded);
    map["ergo:discarded"] = std::to_string(counters_.discarded);
    map["ergo:failed"] = std::to_string(counters_.failed);
    map["ergo:restarts"] = std::to_string(counters_.restarts);
    return map;
}

const MailboxMessage& Router::current() const {
    RS_ASSERT(current_ != nullptr);
    return *current_;
}

void Router::index_name(std::size_t index) {
    // Names are unique in the table; were one repeated, its first entry would win, as a scan
    // in table order finds it.
    std::size_t at = names_[index].hash() & name_mask_;
    while (name_slots_[at] != 0 && names_[name_slots_[at] - 1] != names_[index]) {
        at = (at + 1) & name_mask_;
    }
    if (name_slots_[at] == 0) {
        name_slots_[at] = static_cast<std::uint32_t>(index + 1);
    }
}

void Router::index_names() {
    // At most half full, so every probe ends at a free slot.
    std::size_t capacity = 8;
    while (capacity < 2 * names_.size()) {
        capacity *= 2;
    }
    name_slots_.assign(capacity, 0);
    name_mask_ = capacity - 1;
    for (std::size_t i = 0; i < names_.size(); i++) {
        index_name(i);
    }
}

void Router::append_entry(Entry entry) {
    names_.push_back(entry.spec.name);
    table_.push_back(std::move(entry));
    RS_ASSERT(names_.size() == table_.size());
    if (2 * names_.size() > name_slots_.size()) {
        index_names(); // grows; amortized constant per append
    } else {
        index_name(names_.size() - 1);
    }
    RS_ASSERT(names_.size() < name_slots_.size());
}

void Router::erase_entry(std::size_t index) {
    RS_ASSERT(index < table_.size());
    table_.erase(table_.begin() + static_cast<std::ptrdiff_t>(index));
    names_.erase(names_.begin() + static_cast<std::ptrdiff_t>(index));
    RS_ASSERT(names_.size() == table_.size());
    index_names(); // the entries behind `index` moved up by one
}

std::optional<std::size_t> Router::find(const PID& pid) const {
    // R44: a linear search in table order.
    for (std::size_t i = 0; i < table_.size(); i++) {
        if (table_[i].pid == pid) {
            return i;
        }
    }
    return std::nullopt;
}

RouteState Router::route_state(std::size_t index) const {
    RS_ASSERT(index < table_.size());
    const Entry& entry = table_[index];
    const RouteState state = route_state_of(entry.pending, entry.disabled, !entry.pid.empty());
    RS_ASSERT(state != RouteState::Absent); // a route in the table is never absent
    return state;
}

// -- Behavior -----------------------------------------------------------------------------

Status Router::process_init(const Args& args) {
    route_router_lane_ = sim::field_premix<&ev::Route::router>(self().id);
    sim::Result<RouterOptions, Error> options = init(args);
    if (!options) {
        return stop(options.error());
    }
    mailbox_size_ = options.value().mailbox_size; // A1: stored and reported, applied to nothing
    table_.reserve(options.value().routes.size());
    names_.reserve(options.value().routes.size());
    for (const Route& route : options.value().routes) {
        // R5, A2: validate, then spawn, one route at a time. On a failure the runtime stops
        // the workers already spawned through their LinkChild links (R6).
        if (RouteResult valid = validate_route(route); !valid) {
            return stop(valid.error());
        }
        if (find(route.name)) {
            return stop(Error::text("duplicate route name " + go_quote(route.name.text())));
        }
        sim::Result<PID, Error> spawned = spawn_worker(route);
        if (!spawned) {
            return stop(Error::wrap("spawn route " + go_quote(route.name.text()), spawned.error()));
        }
        append_entry(Entry{route, spawned.value(), false, RoutePending::None, Route{}});
        process().node().world().emit(
            ev::RouteInit{self().id, ev::text(route.name), spawned.value().id});
    }
    RS_ASSERT(table_.size() == options.value().routes.size());
    return ok();
}

Status Router::process_message(Queue queue, MailboxMessage& message) {
    if (queue == Queue::Log) {
        // R9: a router cannot be a logger.
        process().log("error", "router process can not be a logger");
        return stop(Error::panic());
    }
    const detail::CurrentMessage current(current_, message);
    // R8, R9: Normal priority is routed (returned as built, no copy: the routing hot path).
    const bool routed = queue == Queue::Main && (message.type == MailboxType::Regular ||
                                                 message.type == MailboxType::Request);
    return routed ? route_one(message) : dispatch_other(queue, message);
}

Status Router::dispatch_other(Queue queue, const MailboxMessage& message) {
    switch (message.type) {
    case MailboxType::Regular:
        RS_ASSERT(queue != Queue::Main);
        return handle_message(message.from, message.message); // R46: the admin path
    case MailboxType::Request:
        RS_ASSERT(queue != Queue::Main);
        return admin_call(message);
    case MailboxType::Event:
        return handle_event(message.from, message.message); // A3: never routed
    case MailboxType::Exit:
        return handle_exit(message);
    case MailboxType::Inspect: {
        const auto* request = message.message.get<MessageInspect>();
        Inspection values = merged_inspect(
            message.from, request != nullptr ? request->items : std::vector<std::string>{});
        (void)process().send_response(message.from, message.ref,
                                      InspectionReply{std::move(values)});
        return ok();
    }
    }
    RS_ASSERT(false);
    return ok();
}

void Router::process_terminate(const Error& reason) {
    // R39: the workers die through their LinkParent links; nothing is stopped here.
    current_ = nullptr;
    terminate(reason);
}

Inspection Router::process_inspect(PID from, const std::vector<std::string>& items) {
    return merged_inspect(from, items);
}

Inspection Router::merged_inspect(const PID& from, const std::vector<std::string>& items) {
    // R41: every key of handle_inspect is copied on top of the built-in map.
    Inspection merged = stats();
    for (auto& [key, value] : handle_inspect(from, items)) {
        merged[key] = std::move(value);
    }
    return merged;
}

Status Router::admin_call(const MailboxMessage& message) {
    // R46: Actor conventions (§4.2).
    CallReply reply = handle_call(message.from, message.ref, message.message);
    const std::optional<Error>& reason = reply.stop_reason();
    if (!reason.has_value()) {
        if (!reply.reply().empty()) {
            (void)process().send_response(message.from, message.ref, reply.reply());
        }
        return ok();
    }
    if (reason->is(TerminateReason::Normal) && !reply.reply().empty()) {
        (void)process().send_response(message.from, message.ref, reply.reply());
    }
    return stop(*reason);
}

// -- routing ------------------------------------------------------------------------------

// Inline in process_message, its only caller: the routing hot path.
[[gnu::always_inline]] inline Status Router::route_one(MailboxMessage& message) {
    // R52: callback, spawns, forward, counters, then the failure delivery.
    const bool is_call = message.type == MailboxType::Request;
    const Atom name = is_call ? route_call(message.from, message.ref, message.message)
                              : route_message(message.from, message.message);
    if (name == RouteDiscard) {
        return route_discarded(message, name);
    }
    // The common case first: an owned route that is running, with nothing pending, takes the
    // message (R10, R45 step 1, R21). It is what resolve does for such a route, without
    // building a Routed; every other case, a failed forward included, goes through one.
    if (const std::optional<std::size_t> index = find(name)) {
        const Entry& entry = table_[*index];
        Process& self_process = process();
        if (!entry.disabled && entry.pending == RoutePending::None && !entry.pid.empty() &&
            !runtime::detail::mutation_active(Mutation::DropSender)) {
            const PID pid = entry.pid;
            const SendResult sent = self_process.forward(pid, message, MessagePriority::Normal);
            if (sent) {
                counters_.forwarded++; // R42
                self_process.node().world().emit(
                    ev::Route{sim::PremixedId(self_process.pid().id, route_router_lane_),
                              message.id,
                              ev::text(name),
                              ev::Resolution::Owned,
                              pid.id,
                              {}});
                return ok();
            }
            return finish_route(message, name, forward_failed(*index, message, sent.error()));
        }
    }
    return finish_route(message, name, resolve(name, message));
}

Status Router::route_discarded(const MailboxMessage& message, Atom name) {
    // R11: discarded++, no resolution; a call gets ErrDiscarded at once.
    counters_.discarded++;
    if (runtime::detail::mutation_active(Mutation::DiscardCountedAsForwarded)) {
        counters_.discarded--; // R11, R42 (mutation: the discard is counted as forwarded)
        counters_.forwarded++;
    }
    process().node().world().emit(
        ev::Route{self().id, message.id, ev::text(name), ev::Resolution::Discard, 0, {}});
    if (message.type == MailboxType::Request) {
        (void)process().send_response_error(message.from, message.ref, Error(Err::Discarded));
    }
    return ok();
}

Status Router::finish_route(const MailboxMessage& message, Atom name, const Routed& routed) {
    RS_ASSERT(routed.reason.has_value() || !routed.worker.empty());
    sim::World& world = process().node().world();
    if (!routed.reason) {
        counters_.forwarded++; // R42
        world.emit(ev::Route{self().id,
                             message.id,
                             ev::text(name),
                             routed.registry ? ev::Resolution::Registry : ev::Resolution::Owned,
                             routed.worker.id,
                             {}});
        return ok();
    }
    counters_.failed++; // R18: exactly once per failed routing
    std::string scratch;
    const std::string_view reason_text = routed.reason->name(scratch);
    world.emit(ev::Route{self().id, message.id, ev::text(name), ev::Resolution::Failed,
                         routed.worker.id, ev::Text(reason_text)});
    return deliver_failure(message, name, *routed.reason);
}

Router::Routed Router::resolve(Atom name, const MailboxMessage& message) {
    // R10: owned routes first (they shadow registered names), then the registry.
    if (const std::optional<std::size_t> index = find(name)) {
        const Entry& entry = table_[*index];
        if (entry.pending == RoutePending::Disable &&
            runtime::detail::mutation_active(Mutation::ForwardToPendingDisable)) {
            return forward_owned(*index, message); // R14 (mutation: forwards to pending Disable)
        }
        if (entry.disabled || entry.pending == RoutePending::Disable) {
            return Routed{false, PID{}, Error(Err::Disabled)}; // R14, checked first
        }
        if (entry.pending == RoutePending::Remove &&
            runtime::detail::mutation_active(Mutation::ForwardToPendingRemove)) {
            return forward_owned(*index, message); // R15 (mutation: forwards to pending Remove)
        }
        if (entry.pending == RoutePending::Remove) {
            return Routed{false, PID{}, Error(Err::NoRoute)}; // R15
        }
        if (entry.pending == RoutePending::Replace) {
            return forward_replacing(*index, message); // R16
        }
        if (entry.pid.empty()) {
            // R13: a lazy restart; counted as soon as the spawn succeeds.
            sim::Result<PID, Error> spawned = spawn_worker(entry.spec);
            if (!spawned) {
                return Routed{false, PID{}, spawned.error()};
            }
            table_[*index].pid = spawned.value();
            counters_.restarts++;
            trace_restart(name, "lazy", spawned.value());
        }
        return forward_owned(*index, message);
    }
    // R17: a registry hit is forwarded with no retry; aliases are not consulted.
    const sim::Result<PID, Err> registered = process().node().process_pid(name);
    if (!registered) {
        return Routed{true, PID{}, Error(Err::ProcessUnknown)};
    }
    const SendResult sent = process().forward(registered.value(), message, MessagePriority::Normal);
    if (!sent) {
        return Routed{true, registered.value(), Error(sent.error())};
    }
    return Routed{true, registered.value(), std::nullopt};
}

Router::Routed Router::forward_owned(std::size_t index, const MailboxMessage& message) {
    // R45 step 1; R21: the message goes on unchanged with Normal priority.
    const PID pid = table_[index].pid;
    RS_ASSERT(!pid.empty());
    if (runtime::detail::mutation_active(Mutation::DropSender)) {
        // R21 (mutation: From not preserved; the worker sees the router as the sender)
        const MailboxMessage changed = with_sender(message, self());
        const SendResult sent = process().forward(pid, changed, MessagePriority::Normal);
        return sent ? Routed{false, pid, std::nullopt} : Routed{false, pid, Error(sent.error())};
    }
    const SendResult sent = process().forward(pid, message, MessagePriority::Normal);
    if (sent) {
        return Routed{false, pid, std::nullopt};
    }
    return forward_failed(index, message, sent.error());
}

Router::Routed Router::forward_failed(std::size_t index, const MailboxMessage& message, Err err) {
    if (is_dead_target(err) && table_[index].pending == RoutePending::None) {
        return retry_forward(index, message);
    }
    return Routed{false, table_[index].pid, Error(err)}; // R45 step 3: no retry
}

Router::Routed Router::retry_forward(std::size_t index, const MailboxMessage& message) {
    // R45 step 2: the recorded worker is gone but its exit is not consumed yet.
    RS_MARK("router.forward_retry");
    RS_ASSERT(table_[index].pending == RoutePending::None);
    RS_ASSERT(!table_[index].pid.empty());
    pending_exit_.insert(table_[index].pid); // R50
    table_[index].pid = PID{};
    sim::Result<PID, Error> spawned = spawn_worker(table_[index].spec);
    if (!spawned) {
        const Atom name = table_[index].spec.name;
        process().log("error", "respawn route " + go_quote(name.text()) +
                                   " failed: " + spawned.error().message());
        return Routed{false, PID{}, spawned.error()};
    }
    const PID pid = spawned.value();
    table_[index].pid = pid;
    counters_.restarts++;
    trace_restart(table_[index].spec.name, "retry", pid);
    const SendResult sent = process().forward(pid, message, MessagePriority::Normal);
    if (!sent) {
        return Routed{false, pid, Error(sent.error())};
    }
    return Routed{false, pid, std::nullopt};
}

Router::Routed Router::forward_replacing(std::size_t index, const MailboxMessage& message) {
    // R16: the old worker gets the message while its PID is recorded; no respawn.
    RS_ASSERT(table_[index].pending == RoutePending::Replace);
    const PID pid = table_[index].pid;
    if (pid.empty()) {
        return Routed{false, PID{}, Error(Err::Busy)}; // defensive: R44 never creates this
    }
    const SendResult sent = process().forward(pid, message, MessagePriority::Normal);
    if (sent) {
        return Routed{false, pid, std::nullopt};
    }
    if (is_dead_target(sent.error()) && process().node().semantics() == Semantics::Documented) {
        // §8 documented profile (point 4): the old worker is gone, the new one not up yet.
        return Routed{false, pid, Error(Err::Busy)};
    }
    return Routed{false, pid, Error(sent.error())};
}

Status Router::deliver_failure(const MailboxMessage& message, Atom name, const Error& reason) {
    if (message.type == MailboxType::Request) {
        // R20: the caller gets the reason at once; handle_message is not involved.
        (void)process().send_response_error(message.from, message.ref, reason);
        return ok();
    }
    // R19: inline, with from = the router's own pid; an error terminates the router.
    return handle_message(self(), MessageRouteFailed{name, message.from, message.message, reason});
}

sim::Result<PID, Error> Router::spawn_worker(const Route& spec) {
    // R5: anonymous, LinkChild and LinkParent only, the route's args.
    return process().spawn(spec.factory, ProcessOptions{.link_parent = true, .link_child = true},
                           spec.args);
}

RouteResult Router::validate_route(const Route& route) const {
    // R48 texts.
    if (route.name.empty()) {
        return sim::fail(Error::text("route name can not be empty"));
    }
    if (!route.factory) {
        return sim::fail(Error::text("route " + go_quote(route.name.text()) + " has nil Factory"));
    }
    return {};
}

// -- exits (R22, R23, R27, R43, R44) ------------------------------------------------------

Status Router::handle_exit(const MailboxMessage& message) {
    if (const auto* exit = message.message.get<MessageExitPID>()) {
        if (const std::optional<std::size_t> index = find(exit->pid)) {
            worker_exited(*index); // never terminates the router
            return ok();
        }
        if (pending_exit_.erase(exit->pid) > 0) {
            RS_MARK("router.pending_exit_ignored");
            return ok(); // R50: ignored once
        }
    }
    // R44: any other exit terminates the router; there is no trap-exit (R39).
    const std::optional<std::pair<std::string, Error>> origin = exit_origin(message.message);
    RS_ASSERT(origin.has_value());
    return stop(Error::wrap(origin->first, origin->second));
}

void Router::worker_exited(std::size_t index) {
    RS_ASSERT(index < table_.size());
    RS_ASSERT(!table_[index].pid.empty());
    const RouteState before = route_state(index);
    const Atom name = table_[index].spec.name;
    table_[index].pid = PID{}; // R27: cleared first
    switch (table_[index].pending) {
    case RoutePending::None:
        if (!table_[index].disabled) {
            respawn_eager(index);
        }
        return;
    case RoutePending::Disable:
        table_[index].disabled = true;
        table_[index].pending = RoutePending::None;
        trace_pending(name, before, route_state(index), PID{});
        return;
    case RoutePending::Replace:
        finish_replace(index, before);
        return;
    case RoutePending::Remove:
        erase_entry(index); // later ones move up
        trace_pending(name, before, RouteState::Absent, PID{});
        return;
    }
    RS_ASSERT(false);
}

void Router::respawn_eager(std::size_t index) {
    // R22: any reason, no intensity limit; R23: a failure leaves the route Dead.
    RS_ASSERT(table_[index].pid.empty());
    RS_ASSERT(table_[index].pending == RoutePending::None);
    sim::Result<PID, Error> spawned = spawn_worker(table_[index].spec);
    const Atom name = table_[index].spec.name;
    if (!spawned) {
        process().log("error", "eager respawn route " + go_quote(name.text()) +
                                   " failed: " + spawned.error().message());
        return;
    }
    table_[index].pid = spawned.value();
    counters_.restarts++;
    trace_restart(name, "eager", spawned.value());
}

void Router::finish_replace(std::size_t index, RouteState before) {
    // R27: the new spec, then a spawn unless disabled; not a restart.
    Entry& entry = table_[index];
    RS_ASSERT(entry.pending == RoutePending::Replace);
    RS_ASSERT(entry.pending_spec.factory != nullptr);
    entry.spec.factory = std::move(entry.pending_spec.factory);
    entry.spec.args = std::move(entry.pending_spec.args);
    entry.pending_spec = Route{};
    entry.pending = RoutePending::None;
    const Atom name = entry.spec.name;
    if (!entry.disabled) {
        sim::Result<PID, Error> spawned = spawn_worker(entry.spec);
        if (spawned) {
            table_[index].pid = spawned.value();
        } else {
            process().log("error", "respawn after replace route " + go_quote(name.text()) +
                                       " failed: " + spawned.error().message()); // A8
        }
    }
    trace_pending(name, before, route_state(index), table_[index].pid);
}

// -- tracing ------------------------------------------------------------------------------

void Router::trace_pending(Atom name, RouteState from, RouteState to, const PID& worker) {
    RS_ASSERT(from != RouteState::Absent);
    RS_ASSERT(from != to);
    process().node().world().emit(ev::RoutePending{self().id, ev::text(name), from, to, worker.id});
}

void Router::trace_restart(Atom name, std::string_view kind, const PID& worker) {
    const std::optional<std::size_t> index = find(name);
    RS_ASSERT(index.has_value());
    const auto slot = static_cast<std::uint64_t>(*index);
    process().node().world().emit(
        ev::RouteRestart{self().id, ev::text(name), kind, worker.id, slot});
}

} // namespace routesim::runtime::act
