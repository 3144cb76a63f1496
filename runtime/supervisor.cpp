// act::Supervisor: init and validation, dispatch, exit handling, the action loop that spawns
// and stops children, the management API, handle-child notices and mailbox hand-over
// (§6.1, §6.2, §6.4, §6.8).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/supervisor.hpp"

#include <set>

#include "runtime/detail/mutation_hook.hpp"
#include "runtime/detail/supervisor_strategy.hpp"
#include "runtime/node_impl.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act {
namespace {

constexpr std::uint16_t intensity_default = 5;                      // §6.1
constexpr sim::Duration period_default = sim::Duration::seconds(5); // §6.1

// §6.2: the self-messages behind handle_child_start / handle_child_terminate (Main queue).
struct MessageChildStart {
    static constexpr std::string_view type_name = "SupervisorChildStart";
    Atom name;
    PID pid;
};

struct MessageChildTerminate {
    static constexpr std::string_view type_name = "SupervisorChildTerminate";
    Atom name;
    PID pid;
    Error reason;
};

} // namespace

SupervisorRestart applied_restart(SupervisorRestart restart) {
    if (restart.intensity == 0) {
        restart.intensity = intensity_default; // §6.1
    }
    if (restart.period <= sim::Duration::zero()) {
        restart.period = period_default; // §6.1
    }
    RS_ASSERT(restart.intensity > 0 && restart.period > sim::Duration::zero());
    return restart;
}

namespace {

Status validate_spec(SupervisorSpec& spec) {
    // §6.1, in Ergo's order: strategy, defaults, children, each child, then the type.
    if (static_cast<std::uint8_t>(spec.restart.strategy) >
        static_cast<std::uint8_t>(SupervisorStrategy::Permanent)) {
        return stop(Error::text("unknown supervisor restart strategy"));
    }
    spec.restart = applied_restart(spec.restart);
    if (spec.children.empty()) {
        return stop(Error::text("children list can not be empty")); // even for SOFO
    }
    std::set<Atom> names;
    for (const SupervisorChildSpec& child : spec.children) {
        if (Status valid = validate_child_spec(child); !valid) {
            return valid;
        }
        if (!names.insert(child.name).second) {
            return stop(Error(Err::SupervisorChildDuplicate));
        }
    }
    if (static_cast<std::uint8_t>(spec.type) >
        static_cast<std::uint8_t>(SupervisorType::SimpleOneForOne)) {
        return stop(Error::text("unknown supervisor type"));
    }
    return ok();
}

std::unique_ptr<detail::SupStrategy> make_strategy(SupervisorType type) {
    if (type == SupervisorType::SimpleOneForOne) {
        return detail::make_simple_one_for_one();
    }
    return std::make_unique<detail::SupNamed>(type);
}

} // namespace

// -- names and shared helpers -------------------------------------------------------------

std::string_view supervisor_type_name(SupervisorType type) {
    switch (type) {
    case SupervisorType::OneForOne:
        return "One For One";
    case SupervisorType::AllForOne:
        return "All For One";
    case SupervisorType::RestForOne:
        return "Rest For One";
    case SupervisorType::SimpleOneForOne:
        return "Simple One For One";
    }
    return "unknown";
}

std::string_view supervisor_strategy_name(SupervisorStrategy strategy) {
    switch (strategy) {
    case SupervisorStrategy::Transient:
        return "Transient";
    case SupervisorStrategy::Temporary:
        return "Temporary";
    case SupervisorStrategy::Permanent:
        return "Permanent";
    }
    return "unknown";
}

Status validate_child_spec(const SupervisorChildSpec& spec) {
    if (spec.name.empty()) {
        return stop(Error::text("invalid child spec Name"));
    }
    if (!spec.factory) {
        return stop(Error::text("child spec Factory is nil"));
    }
    return ok();
}

namespace detail {

std::string_view decision_name(SupDecision decision) {
    switch (decision) {
    case SupDecision::None:
        return "none";
    case SupDecision::Restart:
        return "restart";
    case SupDecision::Exceeded:
        return "exceeded";
    case SupDecision::Significant:
        return "significant";
    case SupDecision::AutoShutdown:
        return "auto_shutdown";
    case SupDecision::KeepStopped:
        return "keep_stopped";
    case SupDecision::Disabled:
        return "disabled";
    case SupDecision::Cycle:
        return "cycle";
    case SupDecision::ShutdownWait:
        return "shutdown_wait";
    case SupDecision::NotChild:
        return "not_child";
    }
    return "unknown";
}

bool restart_intensity_exceeded(std::vector<sim::Instant>& history,
                                const SupervisorRestart& restart, sim::Instant now) {
    RS_ASSERT(restart.intensity > 0);
    RS_ASSERT(history.empty() || history.back() <= now);
    // §6.4, in virtual time: one entry per triggering exit.
    history.push_back(now);
    if (history.size() <= restart.intensity) {
        return false;
    }
    std::size_t expired = 0;
    while (expired < history.size() && now - history[expired] > restart.period) {
        expired++;
    }
    history.erase(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(expired));
    return history.size() > restart.intensity;
}

bool restarts_on(SupervisorStrategy strategy, const Error& reason) {
    switch (strategy) {
    case SupervisorStrategy::Permanent:
        return true;
    case SupervisorStrategy::Temporary:
        return false;
    case SupervisorStrategy::Transient:
        // §6.3: identity with Normal/Shutdown of the propagated (once unwrapped) reason.
        return !reason.is(TerminateReason::Normal) && !reason.is(TerminateReason::Shutdown);
    }
    return false;
}

Inspection base_inspection(SupervisorType type, const SupervisorRestart& restart,
                           std::size_t restarts_count) {
    const std::int64_t period_s = restart.period.count_ns() / sim::Duration::seconds(1).count_ns();
    return Inspection{
        {"type", std::string(supervisor_type_name(type))},
        {"strategy", std::string(supervisor_strategy_name(restart.strategy))},
        {"intensity", std::to_string(restart.intensity)},
        {"period", std::to_string(period_s)},
        {"restarts_count", std::to_string(restarts_count)},
    };
}

} // namespace detail

// -- construction and defaults ------------------------------------------------------------

Supervisor::Supervisor() = default;
Supervisor::~Supervisor() = default;

Status Supervisor::handle_child_start(Atom, const PID&) {
    process().log("warning", "Supervisor.HandleChildStart: unhandled message");
    return ok();
}

Status Supervisor::handle_child_terminate(Atom, const PID&, const Error&) {
    process().log("warning", "Supervisor.HandleChildTerminate: unhandled message");
    return ok();
}

Status Supervisor::handle_message(const PID& from, const Message&) {
    process().log("warning", "Supervisor.HandleMessage: unhandled message from " + to_string(from));
    return ok();
}

CallReply Supervisor::handle_call(const PID& from, const Ref&, const Message&) {
    process().log("warning", "Supervisor.HandleCall: unhandled request from " + to_string(from));
    return CallReply::later();
}

Inspection Supervisor::handle_inspect(const PID&, const std::vector<std::string>&) {
    return statistics();
}

void Supervisor::terminate(const Error&) {
}

// -- queries ------------------------------------------------------------------------------

std::vector<SupervisorChild> Supervisor::children() const {
    return strategy_ != nullptr ? strategy_->children() : std::vector<SupervisorChild>{};
}

Inspection Supervisor::statistics() const {
    return strategy_ != nullptr ? strategy_->inspect() : Inspection{};
}

// -- management API (§6.8) ----------------------------------------------------------------

Status Supervisor::manage(const std::function<sim::Result<detail::SupAction, Error>()>& decide) {
    // §1.2, §6.2: only Running exactly, i.e. from the supervisor's own callbacks.
    if (!has_process() || process().state() != ProcessState::Running || strategy_ == nullptr) {
        return stop(Error(Err::NotAllowed));
    }
    sim::Result<detail::SupAction, Error> action = decide();
    if (!action) {
        return stop(action.error());
    }
    RS_ASSERT(action.value().what != detail::SupDo::Terminate);
    // A spawn error comes back to the caller; the supervisor keeps running.
    return handle_action(std::move(action).value());
}

Status Supervisor::start_child(Atom name, const Args& args) {
    return manage([&] { return strategy_->child_start(name, args); });
}

Status Supervisor::add_child(SupervisorChildSpec spec) {
    return manage([&] { return strategy_->child_add(std::move(spec)); });
}

Status Supervisor::enable_child(Atom name) {
    return manage([&] { return strategy_->child_enable(name); });
}

Status Supervisor::disable_child(Atom name) {
    return manage([&] { return strategy_->child_disable(name); });
}

// -- Behavior -----------------------------------------------------------------------------

Status Supervisor::process_init(const Args& args) {
    sim::Result<SupervisorSpec, Error> result = init(args);
    if (!result) {
        return stop(result.error());
    }
    SupervisorSpec spec = std::move(result).value();
    if (Status valid = validate_spec(spec); !valid) {
        return valid;
    }
    type_ = spec.type;
    restart_ = spec.restart;
    handle_child_ = spec.enable_handle_child;
    strategy_ = make_strategy(spec.type);
    if (runtime::detail::mutation_active(Mutation::RestartBeyondIntensity)) {
        spec.restart.intensity++; // §6.4 (mutation: the strategy allows one restart more)
    }
    // §6.2: children start synchronously, in spec order; a spawn error fails our spawn and
    // the runtime's init-failure cleanup stops the children already started.
    return handle_action(strategy_->init(spec));
}

Status Supervisor::process_message(Queue queue, MailboxMessage& message) {
    if (queue == Queue::Log) {
        // Ergo panics ("supervisor process can not be a logger"); a panic in the loop is a
        // graceful shutdown with reason Panic (§6.2).
        process().log("error", "supervisor process can not be a logger");
        return begin_shutdown(Error::panic());
    }
    switch (message.type) {
    case MailboxType::Regular:
        return handle_regular(message);
    case MailboxType::Request:
        return handle_request(message);
    case MailboxType::Event:
        // §6.2: a HandleEvent error terminates at once, without stopping the children (a
        // panic is recovered into a graceful shutdown like any other).
        try {
            return handle_message(message.from, message.message);
        } catch (...) {
            process().log("error", "panic in supervisor callback");
            return begin_shutdown(Error::panic());
        }
    case MailboxType::Exit:
        return handle_exit(message);
    case MailboxType::Inspect: {
        const auto* request = message.message.get<MessageInspect>();
        Inspection values = handle_inspect(
            message.from, request != nullptr ? request->items : std::vector<std::string>{});
        (void)process().send_response(message.from, message.ref,
                                      InspectionReply{std::move(values)});
        return ok();
    }
    }
    RS_ASSERT(false);
    return ok();
}

Status Supervisor::process_panic() {
    process().log("error", "panic in supervisor callback");
    return begin_shutdown(Error::panic());
}

void Supervisor::process_terminate(const Error& reason) {
    terminate(reason);
}

Inspection Supervisor::process_inspect(PID from, const std::vector<std::string>& items) {
    return handle_inspect(from, items);
}

// -- internals: dispatch ------------------------------------------------------------------

Status Supervisor::guard(const std::function<Status()>& callback) {
    try {
        return callback();
    } catch (...) {
        // A panic inside the supervisor's loop is recovered by Ergo (§6.2).
        process().log("error", "panic in supervisor callback");
        return stop(Error::panic());
    }
}

Status Supervisor::handle_regular(const MailboxMessage& message) {
    const Status status = guard([&]() -> Status {
        if (handle_child_) {
            if (const auto* start = message.message.get<MessageChildStart>()) {
                return handle_child_start(start->name, start->pid);
            }
            if (const auto* end = message.message.get<MessageChildTerminate>()) {
                return handle_child_terminate(end->name, end->pid, end->reason);
            }
        }
        return handle_message(message.from, message.message);
    });
    if (!status) {
        return begin_shutdown(status.error());
    }
    return ok();
}

Status Supervisor::handle_request(const MailboxMessage& message) {
    std::optional<Error> reason;
    const Status status = guard([&]() -> Status {
        CallReply reply = handle_call(message.from, message.ref, message.message);
        // §4.2, §6.2: for a Supervisor a value is replied even when an error comes with it.
        if (!reply.reply().empty()) {
            (void)process().send_response(message.from, message.ref, reply.reply());
        }
        reason = reply.stop_reason();
        return ok();
    });
    if (!status) {
        reason = status.error();
    }
    if (reason.has_value()) {
        return begin_shutdown(*reason);
    }
    return ok();
}

Status Supervisor::handle_exit(const MailboxMessage& message) {
    if (const auto* exit = message.message.get<MessageExitPID>()) {
        if (children_.count(exit->pid) > 0) {
            return child_exited(exit->pid, exit->reason);
        }
        // §6.2: an exit from anyone else, the parent included: shutdown with the raw reason.
        return begin_shutdown(exit->reason);
    }
    // Name (and other origin) exits: shutdown with the wrapped "<origin>: <reason>".
    auto origin = exit_origin(message.message);
    RS_ASSERT(origin.has_value());
    return begin_shutdown(Error::wrap(origin->first, origin->second));
}

Status Supervisor::begin_shutdown(const Error& reason) {
    RS_ASSERT(strategy_ != nullptr);
    detail::SupAction action =
        strategy_->child_terminated(detail::SupExit{false, self(), reason, process().now()});
    if (action.decision == detail::SupDecision::NotChild) {
        const std::string text = action.reason.message();
        const std::uint64_t waiting = action.terminate.size();
        process().node().world().emit(ev::SupShutdown{self().id, text, waiting});
    }
    return handle_action(std::move(action));
}

Status Supervisor::child_exited(const PID& pid, const Error& reason) {
    auto found = children_.find(pid);
    RS_ASSERT(found != children_.end());
    const Atom name = found->second;
    children_.erase(found);
    const bool preserving = preserving_.erase(pid) > 0;
    if (handle_child_) {
        // §6.2: queued to Main and handled later, before any restart's start notice.
        (void)process().send(self(), MessageChildTerminate{name, pid, reason});
    }
    detail::SupAction action =
        strategy_->child_terminated(detail::SupExit{true, pid, reason, process().now(), name});
    trace_decision(action, name, pid, reason);
    const Status status = handle_action(std::move(action));
    if (preserving && type_ == SupervisorType::SimpleOneForOne) {
        // SOFO hands a kept mailbox only to the replacement of a restart.
        drop_preserved(pid, "not_restarted");
    }
    return status;
}

void Supervisor::trace_decision(const detail::SupAction& action, Atom name, const PID& pid,
                                const Error& reason) {
    sim::World& world = process().node().world();
    const std::string text = reason.message();
    world.emit(
        ev::SupChildExit{self().id, ev::text(name), pid.id, text, decision_name(action.decision)});
    if (action.decision == detail::SupDecision::Restart) {
        world.emit(ev::SupRestart{self().id, ev::text(name), pid.id, text,
                                  std::uint64_t{restart_.intensity}, restart_.period.count_ns()});
        return;
    }
    if (action.decision == detail::SupDecision::Exceeded) {
        world.emit(ev::SupIntensityExceeded{self().id, ev::text(name), pid.id, text});
    }
    const bool shutdown_begins = action.decision == detail::SupDecision::Exceeded ||
                                 action.decision == detail::SupDecision::Significant;
    if (shutdown_begins && action.what == detail::SupDo::TerminateChildren) {
        const std::string sent = action.reason.message();
        world.emit(ev::SupShutdown{self().id, sent, std::uint64_t{action.terminate.size()}});
    }
}

// -- internals: actions -------------------------------------------------------------------

Status Supervisor::handle_action(detail::SupAction action) {
    for (;;) {
        switch (action.what) {
        case detail::SupDo::Nothing:
            return ok();
        case detail::SupDo::StartChild: {
            sim::Result<PID, Error> started = start_child_action(action);
            if (!started) {
                // §6.2: a spawn failure during a restart terminates the supervisor; from
                // the management API it is returned to the caller.
                return stop(started.error());
            }
            action = strategy_->child_started(action.child, started.value());
            continue;
        }
        case detail::SupDo::TerminateChildren:
            RS_ASSERT(!action.terminate.empty());
            for (const PID& child : action.terminate) {
                // A child that is already gone answers with an error; Ergo ignores it.
                (void)process().send_exit(child, action.reason);
            }
            return ok();
        case detail::SupDo::Terminate:
            return stop(action.reason);
        }
        RS_ASSERT(false);
    }
}

sim::Result<PID, Error> Supervisor::start_child_action(const detail::SupAction& action) {
    const SupervisorChildSpec& spec = action.child.spec;
    ProcessOptions options = spec.options;
    // §6.2: LinkChild and LinkParent are forced on.
    options.link_child = true;
    options.link_parent = true;
    options.preserve_mailbox = spec.preserve_mailbox;
    sim::Result<PID, Error> spawned =
        action.child.register_name
            ? process().spawn_register(spec.name, spec.factory, options, spec.args)
            : process().spawn(spec.factory, options, spec.args);
    if (!spawned) {
        return spawned;
    }
    const PID pid = spawned.value();
    if (handle_child_) {
        (void)process().send(self(), MessageChildStart{spec.name, pid});
    }
    children_.emplace(pid, spec.name);
    if (spec.preserve_mailbox) {
        preserving_.insert(pid);
        if (!action.replaces.empty()) {
            hand_over(action.replaces, pid);
        }
    }
    return pid;
}

void Supervisor::hand_over(const PID& dead, const PID& fresh) {
    // Our preserve_mailbox extension: the kept messages go to the new incarnation in their
    // original order, each into the queue it waited in; ids, From and Ref are kept.
    for (const PreservedMessage& item : process().node().take_preserved(dead)) {
        MessagePriority priority = MessagePriority::Normal;
        if (item.queue == Queue::Urgent) {
            priority = MessagePriority::Max;
        } else if (item.queue == Queue::System) {
            priority = MessagePriority::High;
        }
        if (!process().forward(fresh, item.message, priority)) {
            process().node().world().emit(
                ev::Drop{fresh.id, item.message.id, item.queue, "preserve_failed"});
        }
    }
}

void Supervisor::drop_preserved(const PID& dead, std::string_view why) {
    for (const PreservedMessage& item : process().node().take_preserved(dead)) {
        process().node().world().emit(ev::Drop{dead.id, item.message.id, item.queue, why});
    }
}

} // namespace routesim::runtime::act
