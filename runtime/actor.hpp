// act::Actor: Ergo's general-purpose behaviour with its callbacks and defaults, trap-exit and
// the HandleCall return conventions (§4).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/behavior.hpp"
#include "runtime/node_impl.hpp"

namespace routesim::runtime::act {

/// What HandleCall returns (§4.2): a value to reply now, nothing (reply later), or a reason
/// to terminate (with a value that is replied first only when the reason is Normal).
class CallReply {
public:
    /// (v, nil): reply v now.
    static CallReply value(Message reply) { return CallReply(std::move(reply), std::nullopt); }
    /// (nil, nil): no reply now; someone may send_response later.
    static CallReply later() { return CallReply(Message(), std::nullopt); }
    /// (v, reason): terminate; v is replied first only when reason is Normal.
    static CallReply stop(Error reason, Message reply = Message()) {
        return CallReply(std::move(reply), std::move(reason));
    }

    const Message& reply() const { return reply_; }
    const std::optional<Error>& stop_reason() const { return stop_; }

private:
    CallReply(Message reply, std::optional<Error> stop)
        : reply_(std::move(reply)), stop_(std::move(stop)) {}
    Message reply_;
    std::optional<Error> stop_;
};

/// The Actor behaviour. Derive and override the callbacks; every default follows Ergo (§4.1):
/// handle_message logs a warning, handle_call logs a warning and replies nothing (so callers
/// time out), handle_inspect returns an empty map, terminate does nothing.
class Actor : public Behavior {
public:
    // -- callbacks ----------------------------------------------------------------------
    virtual Status init(const Args& args);
    virtual Status handle_message(const PID& from, const Message& message);
    virtual CallReply handle_call(const PID& from, const Ref& ref, const Message& request);
    virtual Inspection handle_inspect(const PID& from, const std::vector<std::string>& items);
    virtual void terminate(const Error& reason);

    // -- helpers ------------------------------------------------------------------------
    /// Trap-exit (§4.3): off by default. Exits from the parent are never trapped.
    void set_trap_exit(bool trap) { trap_exit_ = trap; }
    bool trap_exit() const { return trap_exit_; }
    const PID& self() const { return process().pid(); }
    /// The mailbox item being handled (for forward); precondition: inside a callback.
    const MailboxMessage& current() const;

    // -- Behavior -----------------------------------------------------------------------
    Status process_init(const Args& args) final;
    Status process_message(Queue queue, MailboxMessage& message) final;
    void process_terminate(const Error& reason) final;
    Inspection process_inspect(PID from, const std::vector<std::string>& items) final;
    std::string_view kind_name() const override { return "Actor"; }

private:
    Status dispatch_other(const MailboxMessage& message);
    Status handle_exit(const MailboxMessage& message);
    Status handle_request(const MailboxMessage& message);

    const MailboxMessage* current_ = nullptr;
    bool trap_exit_ = false;
};

/// The origin text and propagated reason of an exit signal, or nothing when `message` is not
/// an exit payload. Used by every behaviour that turns an exit into a wrapped reason.
std::optional<std::pair<std::string, Error>> exit_origin(const Message& message);

} // namespace routesim::runtime::act
