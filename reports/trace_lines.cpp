// The trace view's lines and filters.
// Part of reports/: uses properties/, runtime/ and sim/.
#include "reports/trace_lines.hpp"

#include <algorithm>

#include "properties/monitor.hpp"
#include "properties/process_names.hpp"
#include "runtime/events.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

namespace ev = runtime::ev;
using properties::EventKind;
using properties::read_event;

std::string quoted(std::string_view text) {
    std::string out;
    sim::append_json_string(out, text);
    return out;
}

std::string pad_left(std::string text, std::size_t width) {
    if (text.size() < width) {
        text.insert(0, width - text.size(), ' ');
    }
    return text;
}

std::string_view queue_word(runtime::Queue queue) {
    static constexpr std::string_view names[] = {"urgent", "system", "main", "log"};
    const auto index = static_cast<std::size_t>(queue);
    return index < std::size(names) ? names[index] : "unknown";
}

std::string_view class_word(properties::MessageClass what) {
    switch (what) {
    case properties::MessageClass::User:
        return "user";
    case properties::MessageClass::ExitSignal:
        return "exit signal";
    case properties::MessageClass::Admin:
        return "admin";
    case properties::MessageClass::Internal:
        break;
    }
    return "internal";
}

// "user message", "admin request", "exit signal", ...
std::string what_word(properties::MessageClass what, runtime::MailboxType type) {
    if (what == properties::MessageClass::ExitSignal || type == runtime::MailboxType::Exit) {
        return "exit signal";
    }
    static constexpr std::string_view nouns[] = {"message", "request", "event", "exit signal",
                                                 "inspect request"};
    const auto index = static_cast<std::size_t>(type);
    return std::string(class_word(what)) + " " +
           std::string(index < std::size(nouns) ? nouns[index] : "message");
}

std::string duration(std::int64_t ns) {
    return ns < 0 ? "-" + sim::format_duration(sim::Duration::nanoseconds(-ns))
                  : sim::format_duration(sim::Duration::nanoseconds(ns));
}

// Calls `tell` with `event` decoded as E; nothing when it does not decode.
template <class E, class Tell>
std::optional<std::string> told(const sim::TraceEvent& event, Tell&& tell) {
    if (const std::optional<E> decoded = read_event<E>(event)) {
        return tell(*decoded);
    }
    return std::nullopt;
}

// The keys whose unsigned values are pid ids (runtime/EVENTS.md).
bool is_pid_key(std::string_view key) {
    static constexpr std::string_view keys[] = {"pid",    "parent", "from",     "to",
                                                "by",     "caller", "consumer", "router",
                                                "worker", "pool",   "sup"};
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

} // namespace

sim::Result<void, std::string> TraceLines::check(const sim::TraceEvent& event) const {
    if (applied_ > 0 && event.at < last_at_) {
        return sim::fail("/t: expected a time not before the previous event's (" +
                         std::to_string(last_at_.ns()) + "), got " + std::to_string(event.at.ns()));
    }
    const EventKind kind = properties::event_kind_of(event.kind);
    if (kind == EventKind::Other) {
        return {};
    }
    const std::uint64_t id_max = 64 * applied_ + (std::uint64_t{1} << 20);
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (field.key.name == "id" && field.value.as_uint() > id_max) {
            return sim::fail("/id: expected a message id of at most " + std::to_string(id_max) +
                             " this far into the trace, got " +
                             std::to_string(field.value.as_uint()));
        }
    }
    const auto state = [&](std::uint64_t pid) {
        const auto found = pid_states_.find(pid);
        return found == pid_states_.end() ? 0 : found->second;
    };
    if (const auto spawn = read_event<ev::Spawn>(event); spawn && state(spawn->pid) != 0) {
        return sim::fail("/pid: expected a pid not seen before, got " + std::to_string(spawn->pid) +
                         " (a pid is spawned once)");
    }
    if (const auto exit = read_event<ev::Exit>(event); exit && state(exit->pid) == 2) {
        return sim::fail("/pid: expected a pid that has not ended, got " +
                         std::to_string(exit->pid) + " (a process exits once)");
    }
    return {};
}

void TraceLines::apply(const sim::TraceEvent& event) {
    RS_ASSERT(check(event).has_value());
    view_.on_event(event);
    applied_++;
    last_at_ = event.at;
    if (const auto spawn = read_event<ev::Spawn>(event)) {
        pid_states_[spawn->pid] = 1;
    } else if (const auto exit = read_event<ev::Exit>(event)) {
        pid_states_[exit->pid] = 2;
    } else if (const auto failed = read_event<ev::SpawnFailed>(event)) {
        if (auto known = pid_states_.find(failed->pid); known != pid_states_.end()) {
            known->second = 2; // the view marks a known process ended
        }
    }
    const std::optional<ev::Send> send = read_event<ev::Send>(event);
    if (!send.has_value()) {
        return;
    }
    auto known = type_index_.find(send->msg.text);
    if (known == type_index_.end()) {
        known = type_index_.emplace(std::string(send->msg.text), type_names_.size()).first;
        type_names_.emplace_back(send->msg.text);
    }
    const std::uint32_t slot = known->second + 1;
    if (send->id >= far_id) {
        type_of_far_id_[send->id] = slot;
        return;
    }
    if (send->id >= type_of_id_.size()) {
        type_of_id_.resize(std::max<std::size_t>(send->id + 1, 2 * type_of_id_.size()), 0);
    }
    type_of_id_[send->id] = slot;
    RS_ASSERT(type_names_.size() == type_index_.size());
}

std::string TraceLines::label(std::uint64_t pid) const {
    return properties::process_label(view_, pid);
}

std::string TraceLines::message(std::uint64_t id) const {
    std::uint32_t slot = 0;
    if (id < type_of_id_.size()) {
        slot = type_of_id_[id];
    } else if (const auto far = type_of_far_id_.find(id); far != type_of_far_id_.end()) {
        slot = far->second;
    }
    RS_ASSERT(slot <= type_names_.size());
    const std::string number = "#" + std::to_string(id);
    return slot == 0 ? number : number + " " + quoted(type_names_[slot - 1]);
}

std::string TraceLines::line(const sim::TraceEvent& event) const {
    return pad_left(sim::format_instant(event.at), 9) + "  " +
           pad_left(std::to_string(event.seq), 6) + "  " + describe(event);
}

bool TraceLines::names_process(const sim::TraceEvent& event, std::string_view path) const {
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (field.value.type() != sim::TraceValue::Type::Uint || !is_pid_key(field.key.name)) {
            continue;
        }
        const std::string named = properties::process_path(view_, field.value.as_uint());
        if (named == path ||
            (named.size() > path.size() && named.starts_with(path) && named[path.size()] == '/')) {
            return true;
        }
    }
    return false;
}

std::string TraceLines::describe(const sim::TraceEvent& event) const {
    const EventKind kind = properties::event_kind_of(event.kind);
    std::string text;
    switch (kind) {
    case EventKind::Spawn:
    case EventKind::SpawnFailed:
    case EventKind::Register:
    case EventKind::Unregister:
    case EventKind::Exit:
    case EventKind::Kill:
    case EventKind::Link:
    case EventKind::Timer:
    case EventKind::Log:
    case EventKind::Busy:
        text = process_event(kind, event);
        break;
    case EventKind::Send:
    case EventKind::SendFailed:
    case EventKind::Take:
    case EventKind::Forward:
    case EventKind::Drop:
    case EventKind::Preserve:
    case EventKind::SignalLost:
        text = message_event(kind, event);
        break;
    case EventKind::Call:
    case EventKind::CallResult:
    case EventKind::Response:
    case EventKind::ResponseDropped:
        text = call_event(kind, event);
        break;
    case EventKind::Route:
    case EventKind::RouteInit:
    case EventKind::RouteAdmin:
    case EventKind::RoutePending:
    case EventKind::RouteRestart:
    case EventKind::RouteKey:
        text = router_event(kind, event);
        break;
    case EventKind::PoolForward:
    case EventKind::PoolWorkers:
    case EventKind::SupChildExit:
    case EventKind::SupRestart:
    case EventKind::SupIntensityExceeded:
    case EventKind::SupShutdown:
        text = tree_event(kind, event);
        break;
    default:
        text = kernel_event(kind, event);
        break;
    }
    return text.empty() ? properties::describe_event(event) : text;
}

std::string TraceLines::process_event(EventKind kind, const sim::TraceEvent& event) const {
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::Spawn:
        text = told<ev::Spawn>(event, [&](const ev::Spawn& e) {
            const bool rooted = view_.process(e.parent) == nullptr;
            return label(e.pid) + " spawned (" + std::string(e.behavior_kind.text) + " " +
                   quoted(e.behavior.text) + ") by " + (rooted ? "the node" : label(e.parent));
        });
        break;
    case EventKind::SpawnFailed:
        text = told<ev::SpawnFailed>(event, [&](const ev::SpawnFailed& e) {
            return label(e.pid) + " failed its Init: " + std::string(e.reason.text);
        });
        break;
    case EventKind::Register:
        text = told<ev::Register>(event, [&](const ev::Register& e) {
            return label(e.pid) + " registered the name " + quoted(e.name.text);
        });
        break;
    case EventKind::Unregister:
        text = told<ev::Unregister>(event, [&](const ev::Unregister& e) {
            return label(e.pid) + " released the name " + quoted(e.name.text);
        });
        break;
    case EventKind::Exit:
        text = told<ev::Exit>(event, [&](const ev::Exit& e) {
            return label(e.pid) + " exited: " + std::string(e.reason.text);
        });
        break;
    case EventKind::Kill:
        text = told<ev::Kill>(event, [&](const ev::Kill& e) {
            return label(e.pid) + " was killed (it was " + std::string(e.state.text) + ")";
        });
        break;
    case EventKind::Link:
        text = told<ev::Link>(event, [&](const ev::Link& e) {
            return label(e.consumer) + (e.monitor ? " monitors " : " linked to ") +
                   std::string(e.target.text);
        });
        break;
    case EventKind::Timer:
        text = told<ev::Timer>(event, [&](const ev::Timer& e) {
            return "a timer of " + label(e.from) + " fired: " + std::string(e.what.text);
        });
        break;
    case EventKind::Log:
        text = told<ev::Log>(event, [&](const ev::Log& e) {
            return label(e.pid) + " logged (" + std::string(e.level.text) + ") " +
                   std::string(e.text.text);
        });
        break;
    default:
        text = told<ev::Busy>(event, [&](const ev::Busy& e) {
            return label(e.pid) + " is busy for " + duration(e.cost_ns);
        });
        break;
    }
    return text.value_or("");
}

std::string TraceLines::message_event(EventKind kind, const sim::TraceEvent& event) const {
    const auto what = [&](std::uint64_t id, runtime::MailboxType type) {
        return what_word(view_.message(id).what, type) + " " + message(id);
    };
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::Send:
        text = told<ev::Send>(event, [&](const ev::Send& e) {
            const std::string queue = e.queue == runtime::Queue::Main
                                          ? ""
                                          : " (" + std::string(queue_word(e.queue)) + " queue)";
            return label(e.from.value) + " sent " + what(e.id, e.type) + " to " +
                   label(e.to.value) + queue;
        });
        break;
    case EventKind::SendFailed:
        text = told<ev::SendFailed>(event, [&](const ev::SendFailed& e) {
            const std::string to = e.to.is_text ? std::string(e.to.text.text) : label(e.to.id);
            return label(e.from) + " could not send " + std::string(e.type.text) + " " +
                   quoted(e.msg.text) + " to " + to + ": " + std::string(e.err.text);
        });
        break;
    case EventKind::Take:
        text = told<ev::Take>(event, [&](const ev::Take& e) {
            return label(e.pid.value) + " took " + what(e.id, e.type) + " from " + label(e.from);
        });
        break;
    case EventKind::Forward:
        text = told<ev::Forward>(event, [&](const ev::Forward& e) {
            return label(e.by.value) + " forwarded " + message(e.id) + " to " + label(e.to.value) +
                   " (sent by " + label(e.from) + ")";
        });
        break;
    case EventKind::Drop:
        text = told<ev::Drop>(event, [&](const ev::Drop& e) {
            return label(e.pid) + " dropped " + message(e.id) +
                   " from its mailbox: " + std::string(e.reason.text);
        });
        break;
    case EventKind::Preserve:
        text = told<ev::Preserve>(event, [&](const ev::Preserve& e) {
            return label(e.pid) + " kept " + message(e.id) + " for " + label(e.parent) +
                   " to hand on";
        });
        break;
    default:
        text = told<ev::SignalLost>(event, [&](const ev::SignalLost& e) {
            return "the exit signal from " + label(e.from) + " to " + label(e.to) +
                   " was lost (urgent queue full): " + std::string(e.reason.text);
        });
        break;
    }
    return text.value_or("");
}

std::string TraceLines::call_event(EventKind kind, const sim::TraceEvent& event) const {
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::Call:
        text = told<ev::Call>(event, [&](const ev::Call& e) {
            const properties::PendingCall* call = view_.pending_call(e.caller, e.ref);
            const std::string target =
                call != nullptr && call->target != 0 ? " " + label(call->target) : "";
            return label(e.caller) + " called" + target + " (ref " + std::to_string(e.ref) +
                   ", timeout " + duration(e.timeout_ns) + ")";
        });
        break;
    case EventKind::CallResult:
        text = told<ev::CallResult>(event, [&](const ev::CallResult& e) {
            return label(e.caller) + ": call ref " + std::to_string(e.ref) +
                   " ended: " + std::string(e.outcome.text);
        });
        break;
    case EventKind::Response:
        text = told<ev::Response>(event, [&](const ev::Response& e) {
            return label(e.from) + " answered " + label(e.to) + " (ref " + std::to_string(e.ref) +
                   "): " + std::string(e.outcome.text);
        });
        break;
    default:
        text = told<ev::ResponseDropped>(event, [&](const ev::ResponseDropped& e) {
            return "the response of " + label(e.from) + " to " + label(e.to) + " (ref " +
                   std::to_string(e.ref) + ") was dropped: " + std::string(e.why.text);
        });
        break;
    }
    return text.value_or("");
}

std::string TraceLines::router_event(EventKind kind, const sim::TraceEvent& event) const {
    const auto router = [&](std::uint64_t pid) { return "router " + label(pid) + ": "; };
    const auto worker = [&](std::uint64_t pid) {
        return pid == 0 ? std::string("none") : label(pid);
    };
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::Route:
        text = told<ev::Route>(event, [&](const ev::Route& e) {
            const std::string head = router(e.router.value) + message(e.id);
            switch (e.resolution) {
            case ev::Resolution::Owned:
                return head + " -> route " + std::string(e.name.text) + ", worker " +
                       worker(e.worker);
            case ev::Resolution::Registry:
                return head + " -> registered name " + std::string(e.name.text) + ", " +
                       worker(e.worker);
            case ev::Resolution::Discard:
                return head + " discarded";
            case ev::Resolution::Failed:
                break;
            }
            return head + " failed to route" +
                   (e.name.text.empty() ? "" : " to " + std::string(e.name.text)) + ": " +
                   std::string(e.reason.has_value() ? e.reason->text : "");
        });
        break;
    case EventKind::RouteInit:
        text = told<ev::RouteInit>(event, [&](const ev::RouteInit& e) {
            return router(e.router) + "route " + std::string(e.name.text) + " started, worker " +
                   worker(e.worker);
        });
        break;
    case EventKind::RouteAdmin:
        text = told<ev::RouteAdmin>(event, [&](const ev::RouteAdmin& e) {
            return router(e.router) + std::string(e.op.text) + " route " +
                   std::string(e.name.text) + ": " + std::string(e.result.text);
        });
        break;
    case EventKind::RoutePending:
        text = told<ev::RoutePending>(event, [&](const ev::RoutePending& e) {
            return router(e.router) + "route " + std::string(e.name.text) + " " +
                   std::string(runtime::act::route_state_name(e.from_state)) + " -> " +
                   std::string(runtime::act::route_state_name(e.to_state)) + ", worker " +
                   worker(e.worker);
        });
        break;
    case EventKind::RouteRestart:
        text = told<ev::RouteRestart>(event, [&](const ev::RouteRestart& e) {
            return router(e.router) + "route " + std::string(e.name.text) + " restarted (" +
                   std::string(e.restart.text) + "), worker " + worker(e.worker) + ", slot " +
                   std::to_string(e.slot);
        });
        break;
    default:
        text = told<ev::RouteKey>(event, [&](const ev::RouteKey& e) {
            return router(e.router) + "key " + std::string(e.key.text) + " -> route " +
                   std::string(e.name.text);
        });
        break;
    }
    return text.value_or("");
}

std::string TraceLines::tree_event(EventKind kind, const sim::TraceEvent& event) const {
    const auto sup = [&](std::uint64_t pid) { return "supervisor " + label(pid) + ": "; };
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::PoolForward:
        text = told<ev::PoolForward>(event, [&](const ev::PoolForward& e) {
            const std::string head = "pool " + label(e.pool) + ": " + message(e.id);
            return e.worker == 0
                       ? head + " " + std::string(e.outcome.text)
                       : head + " to " + label(e.worker) + ": " + std::string(e.outcome.text);
        });
        break;
    case EventKind::PoolWorkers:
        text = told<ev::PoolWorkers>(event, [&](const ev::PoolWorkers& e) {
            return "pool " + label(e.pool) + ": worker " + label(e.worker) + " " +
                   std::string(e.what.text) + ", " + std::to_string(e.size) + " queued";
        });
        break;
    case EventKind::SupChildExit:
        text = told<ev::SupChildExit>(event, [&](const ev::SupChildExit& e) {
            return sup(e.sup) + "child " + std::string(e.child.text) + " " + label(e.pid) +
                   " exited (" + std::string(e.reason.text) + "): " + std::string(e.decision.text);
        });
        break;
    case EventKind::SupRestart:
        text = told<ev::SupRestart>(event, [&](const ev::SupRestart& e) {
            return sup(e.sup) + "restarts child " + std::string(e.child.text) + " after " +
                   label(e.pid) + " exited (" + std::string(e.reason.text) + "); intensity " +
                   std::to_string(e.intensity) + " per " + duration(e.period_ns);
        });
        break;
    case EventKind::SupIntensityExceeded:
        text = told<ev::SupIntensityExceeded>(event, [&](const ev::SupIntensityExceeded& e) {
            return sup(e.sup) + "restart intensity exceeded by child " + std::string(e.child.text) +
                   " " + label(e.pid) + " (" + std::string(e.reason.text) + ")";
        });
        break;
    default:
        text = told<ev::SupShutdown>(event, [&](const ev::SupShutdown& e) {
            return sup(e.sup) + "shuts down (" + std::string(e.reason.text) + "), waiting for " +
                   std::to_string(e.waiting) + " exits";
        });
        break;
    }
    return text.value_or("");
}

std::string TraceLines::kernel_event(EventKind kind, const sim::TraceEvent& event) const {
    std::optional<std::string> text;
    switch (kind) {
    case EventKind::Fault:
        text = told<ev::Fault>(event, [&](const ev::Fault& e) {
            return "fault " + quoted(e.tag.text) + " at " + std::string(e.site.text) +
                   " (occurrence " + std::to_string(e.occurrence) +
                   "): " + std::string(e.detail.text);
        });
        break;
    case EventKind::Limit:
        text = told<ev::Limit>(event, [&](const ev::Limit& e) {
            return "the run stopped at its " + std::string(e.what.text);
        });
        break;
    case EventKind::FaultAim:
        text = told<ev::FaultAim>(event, [&](const ev::FaultAim& e) {
            const std::string route =
                e.name.has_value() ? " route " + std::string(e.name->text) : "";
            return "fault aimed (" + std::string(e.origin.text) + "): " + std::string(e.what.text) +
                   " " + label(e.pid) + route;
        });
        break;
    case EventKind::FaultKill:
        text = told<ev::FaultKill>(event, [&](const ev::FaultKill& e) {
            return "a random kill fault picked " + label(e.pid);
        });
        break;
    default:
        break;
    }
    return text.value_or("");
}

bool TraceFilter::keeps(const TraceLines& lines, const sim::TraceEvent& event) const {
    if (around.has_value()) {
        const sim::Duration off = event.at >= *around ? event.at - *around : *around - event.at;
        if (off > window) {
            return false;
        }
    }
    if (!kinds.empty() && std::find(kinds.begin(), kinds.end(),
                                    properties::event_kind_of(event.kind)) == kinds.end()) {
        return false;
    }
    return process.empty() || lines.names_process(event, process);
}

sim::Result<std::vector<EventKind>, std::string> parse_kinds(std::string_view list) {
    std::vector<EventKind> kinds;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view name = list.substr(start, comma - start);
        const EventKind kind = properties::event_kind_of(sim::TraceKey(name));
        if (kind == EventKind::Other) {
            std::string known;
            for (std::size_t code = 1; code <= ev::kind_count; code++) {
                known += (known.empty() ? "" : ", ") +
                         std::string(ev::kind_name(static_cast<EventKind>(code)));
            }
            return sim::fail("unknown event kind " + quoted(name) + "; kinds are: " + known);
        }
        kinds.push_back(kind);
        start = comma + 1;
    }
    RS_ASSERT(!kinds.empty());
    return kinds;
}

} // namespace routesim::reports
