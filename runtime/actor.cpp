// act::Actor dispatch, defaults and trap-exit.
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/actor.hpp"

#include "sim/assert.hpp"

namespace routesim::runtime::act {

std::optional<std::pair<std::string, Error>> exit_origin(const Message& message) {
    if (const auto* exit = message.get<MessageExitPID>()) {
        return std::make_pair(to_string(exit->pid), exit->reason);
    }
    if (const auto* exit = message.get<MessageExitProcessID>()) {
        return std::make_pair(to_string(exit->process_id), exit->reason);
    }
    return std::nullopt;
}

Status Actor::init(const Args&) {
    return ok();
}

Status Actor::handle_message(const PID& from, const Message&) {
    process().log("warning", "Actor.HandleMessage: unhandled message from " + to_string(from));
    return ok();
}

CallReply Actor::handle_call(const PID& from, const Ref&, const Message&) {
    // §4.1: (nil, nil) means "reply later", so with the default the caller times out.
    process().log("warning", "Actor.HandleCall: unhandled request from " + to_string(from));
    return CallReply::later();
}

Inspection Actor::handle_inspect(const PID&, const std::vector<std::string>&) {
    return {};
}

void Actor::terminate(const Error&) {
}

const MailboxMessage& Actor::current() const {
    RS_ASSERT(current_ != nullptr);
    return *current_;
}

Status Actor::process_init(const Args& args) {
    return init(args);
}

Status Actor::process_message(Queue queue, MailboxMessage& message) {
    if (queue == Queue::Log) {
        return ok(); // loggers are not modelled; a log record is ignored
    }
    const detail::CurrentMessage current(current_, message);
    // Returned as built (no copy): the common case is one call and one return.
    return message.type == MailboxType::Regular || message.type == MailboxType::Event
               ? handle_message(message.from, message.message)
               : dispatch_other(message);
}

Status Actor::dispatch_other(const MailboxMessage& message) {
    switch (message.type) {
    case MailboxType::Regular:
    case MailboxType::Event:
        break;
    case MailboxType::Request:
        return handle_request(message);
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
    RS_ASSERT(false); // Regular and Event are dispatched by process_message
    return ok();
}

Status Actor::handle_request(const MailboxMessage& message) {
    CallReply reply = handle_call(message.from, message.ref, message.message);
    const std::optional<Error>& reason = reply.stop_reason();
    if (!reason.has_value()) {
        if (!reply.reply().empty()) {
            (void)process().send_response(message.from, message.ref, reply.reply());
        }
        return ok();
    }
    // §4.2: with Normal the value (if any) is replied first; with any other reason no reply
    // is sent even if a value was returned.
    if (reason->is(TerminateReason::Normal) && !reply.reply().empty()) {
        (void)process().send_response(message.from, message.ref, reply.reply());
    }
    return stop(*reason);
}

Status Actor::handle_exit(const MailboxMessage& message) {
    auto origin = exit_origin(message.message);
    RS_ASSERT(origin.has_value());
    // §4.3: an exit from the parent is never trapped, whatever the reason.
    const bool from_parent =
        message.message.is<MessageExitPID>() && message.from == process().parent();
    if (!trap_exit_ || from_parent) {
        return stop(Error::wrap(origin->first, origin->second));
    }
    return handle_message(message.from, message.message);
}

void Actor::process_terminate(const Error& reason) {
    terminate(reason);
}

Inspection Actor::process_inspect(PID from, const std::vector<std::string>& items) {
    return handle_inspect(from, items);
}

} // namespace routesim::runtime::act
