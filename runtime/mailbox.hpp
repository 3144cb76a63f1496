// Mailbox messages and the runtime's own message payloads: exit signals, down notices,
// inspect requests and replies (§1.4, §3.4).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/gen.hpp"
#include "runtime/message.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime {

/// The kind of a mailbox item (§1.4).
enum class MailboxType : std::uint8_t {
    Regular = 0,
    Request = 1,
    Event = 2,
    Exit = 3,
    Inspect = 4
};

std::string_view mailbox_type_name(MailboxType type);

/// One queued item. Forwarding hands it on unchanged: From, Ref, Type, Target and the
/// message id all stay (§2.6). 96 bytes: the type and the id share one word, the type in its
/// low byte (a queue of millions of messages is mostly these items).
struct MailboxMessage {
    /// Message ids are below 2^56: a run counts its sends from 1, one by one.
    static constexpr std::uint64_t id_limit = std::uint64_t{1} << 56;

    MailboxMessage() = default;
    /// The members in the order the runtime names them; `payload` is a Message or what
    /// makes one.
    template <class Payload>
    MailboxMessage(const PID& sender, const Ref& reference, Payload&& payload,
                   std::uint64_t message_id, Atom target, MailboxType kind)
        : from(sender), ref(reference), message(std::forward<Payload>(payload)),
          target_name(target), type(kind), id(message_id & (id_limit - 1)) {
        RS_ASSERT(message_id < id_limit);
    }
    /// The same with the nil message, for the delivery path to build the payload's Message
    /// over it in place. Unchecked id (the hot path): the node's counter is far below 2^56.
    MailboxMessage(const PID& sender, const Ref& reference, std::uint64_t message_id, Atom target,
                   MailboxType kind)
        : from(sender), ref(reference), target_name(target), type(kind),
          id(message_id & (id_limit - 1)) {}
    /// Sets the id (the mask only tells the compiler the value fits; the assert checks it).
    void set_id(std::uint64_t message_id) {
        RS_ASSERT(message_id < id_limit);
        id = message_id & (id_limit - 1);
    }

    PID from;
    Ref ref;
    Message message;
    /// The name the sender used, or empty when it addressed a PID (§1.4 Target).
    Atom target_name;
    MailboxType type : 8 = MailboxType::Regular;
    /// Unique per send in a run; kept by forwards, so a trace can follow one message.
    std::uint64_t id : 56 = 0;
};
static_assert(sizeof(MailboxMessage) == 96);

/// An inspect result: key → value, ordered by key.
using Inspection = std::map<std::string, std::string>;

/// Exit signal for a PID link (§3.4).
struct MessageExitPID {
    static constexpr std::string_view type_name = "MessageExitPID";
    PID pid;
    Error reason;
    std::string describe() const {
        return "MessageExitPID{" + to_string(pid) + ", " + reason.message() + "}";
    }
};

/// Exit signal for a name link (§3.4).
struct MessageExitProcessID {
    static constexpr std::string_view type_name = "MessageExitProcessID";
    ProcessID process_id;
    Error reason;
    std::string describe() const {
        return "MessageExitProcessID{" + to_string(process_id) + ", " + reason.message() + "}";
    }
};

/// Down notice for a PID monitor (§3.4), delivered as a regular High-priority message.
struct MessageDownPID {
    static constexpr std::string_view type_name = "MessageDownPID";
    PID pid;
    Error reason;
    std::string describe() const {
        return "MessageDownPID{" + to_string(pid) + ", " + reason.message() + "}";
    }
};

/// Down notice for a name monitor (§3.4).
struct MessageDownProcessID {
    static constexpr std::string_view type_name = "MessageDownProcessID";
    ProcessID process_id;
    Error reason;
    std::string describe() const {
        return "MessageDownProcessID{" + to_string(process_id) + ", " + reason.message() + "}";
    }
};

/// The payload of an Inspect request (§2.9).
struct MessageInspect {
    static constexpr std::string_view type_name = "MessageInspect";
    std::vector<std::string> items;
};

/// The payload of an Inspect reply.
struct InspectionReply {
    static constexpr std::string_view type_name = "Inspection";
    Inspection values;
};

} // namespace routesim::runtime
