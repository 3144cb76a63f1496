// Node: the delivery hot path as templates (a send builds its mailbox item in the queue slot,
// so that a value sent as a payload becomes its Message there), for node.cpp and for the
// typed sends of Node and Process. Include it where a typed send is made (actor.hpp,
// router.hpp, pool.hpp and supervisor.hpp do): node.hpp and process.hpp only declare them, so
// that the three headers include each other in one direction (process <- node <- node_impl).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "runtime/events.hpp"
#include "runtime/node.hpp"

namespace routesim::runtime {

namespace detail {

template <class Item>
struct IsNewMessage : std::false_type {};
template <class Payload>
struct IsNewMessage<Node::NewMessage<Payload>> : std::true_type {};

/// The trace name of a payload and its hash, as the Message it is or becomes reports them.
template <class Payload>
[[gnu::always_inline]] inline ev::Text payload_name(const Payload& payload) {
    if constexpr (std::is_same_v<Payload, Message>) {
        return ev::Text(payload.type_name(), payload.type_name_hash());
    } else {
        return ev::Text(Message::type_name_of(payload), Message::type_name_hash_of(payload));
    }
}

/// Builds a mailbox item in `slot` from its members (MailboxMessage's constructors). They come
/// by reference: with constants in the braces GCC clears the whole item before storing them.
template <class... Parts>
[[gnu::always_inline]] inline void build_item(MailboxMessage* slot, Parts&&... parts) {
    ::new (static_cast<void*>(slot)) MailboxMessage{std::forward<Parts>(parts)...};
}

} // namespace detail

template <class Item>
[[gnu::always_inline]] inline SendResult
Node::deliver_item(Process& target, Queue queue, Item&& message, const Process* forwarder) {
    constexpr bool is_new = detail::IsNewMessage<std::remove_cvref_t<Item>>::value;
    auto& ring = target.queue(queue);
    if (ring.size() >= target.queue_len_max_) {
        // §1.4: each queue is capped separately.
        if constexpr (is_new) {
            return reject_full(target, message.from.id, message.type,
                               detail::payload_name(message.payload).text);
        } else {
            return reject_full(target, message.from.id, message.type, message.message.type_name());
        }
    }
    if (forwarder == nullptr) {
        if constexpr (is_new) {
            world_.emit(ev::Send{message.id, sim::PremixedId(message.from.id, message.from_lane),
                                 sim::PremixedId(target.pid_.id, target.id_lanes_.send_to), queue,
                                 message.type, detail::payload_name(message.payload)});
        } else {
            world_.emit(ev::Send{message.id, message.from.id,
                                 sim::PremixedId(target.pid_.id, target.id_lanes_.send_to), queue,
                                 message.type, detail::payload_name(message.message)});
        }
    } else {
        world_.emit(ev::Forward{
            message.id, sim::PremixedId(forwarder->pid_.id, forwarder->id_lanes_.forward_by),
            sim::PremixedId(target.pid_.id, target.id_lanes_.forward_to), message.from.id, queue});
    }
    // A queue never moves its elements, so `message` stays valid even when it is the message
    // being handled in this very queue (a forward to oneself).
    if constexpr (is_new) {
        ring.construct_back([&message](MailboxMessage* slot) {
            using Payload = decltype(message.payload);
            // The item with a nil Message, then the payload's Message built over it (a nil
            // Message owns nothing, so it needs no destructor call): moved once when it is a
            // Message, built in place otherwise.
            detail::build_item(slot, message.from, Ref{}, message.id, Atom(), message.type);
            ::new (static_cast<void*>(&slot->message))
                Message(std::forward<Payload>(message.payload));
        });
    } else {
        ring.push_back(std::forward<Item>(message));
    }
    target.queued_mask_ |= static_cast<std::uint8_t>(1U << static_cast<unsigned>(queue));
    poke(target);
    return {};
}

template <class Payload>
[[gnu::always_inline]] inline SendResult Node::deliver_new(Process& target, Queue queue,
                                                           const PID& from, std::uint64_t from_lane,
                                                           Payload&& payload) {
    // The id is taken before the mailbox check, as route() does for a built item.
    const NewMessage<Payload> item{from, from_lane, std::forward<Payload>(payload),
                                   next_message_id(), MailboxType::Regular};
    return deliver_item(target, queue, item, nullptr);
}

template <class Payload>
[[gnu::always_inline]] inline SendResult Node::send_regular(Process* from, const PID& from_pid,
                                                            const PID& to, Payload&& payload,
                                                            Queue queue) {
    // Init (§2.1: only the process's own sends) and the dead states go to route_any.
    if (Process* target = find_open(to)) {
        const std::uint64_t from_lane =
            from != nullptr ? from->id_lanes_.send_from : core_send_from_lane_;
        return deliver_new(*target, queue, from_pid, from_lane, std::forward<Payload>(payload));
    }
    return route_any(from, from_pid, Address(to),
                     MailboxMessage{from_pid, Ref{}, Message(std::forward<Payload>(payload)), 0,
                                    Atom(), MailboxType::Regular},
                     queue);
}

template <MessageValue T>
SendResult Node::send(const PID& to, T&& value, MessagePriority priority) {
    return send_regular(nullptr, core_pid_, to, std::forward<T>(value), queue_for(priority));
}

template <class To, class Payload>
[[gnu::always_inline]] inline SendResult Process::send_regular(const To& to, Payload&& payload,
                                                               Queue queue) {
    if (!is_alive()) {
        return sim::fail(Err::NotAllowed);
    }
    return node_.send_regular(this, pid_, to, std::forward<Payload>(payload), queue);
}

// The process's sends to a PID inline into their callers (behaviours' callbacks): their body
// is the delivery, so a send costs no call of its own. (Node::send stays a call: the harness
// and the tests call it from hundreds of places.)
template <MessageValue T>
[[gnu::always_inline]] inline SendResult Process::send(const PID& to, T&& value) {
    return send_regular(to, std::forward<T>(value), send_queue_);
}

[[gnu::always_inline]] inline SendResult Process::send(const PID& to, const Message& message) {
    return send_regular(to, message, send_queue_);
}

[[gnu::always_inline]] inline SendResult Process::send(const PID& to, Message&& message) {
    return send_regular(to, std::move(message), send_queue_);
}

// Inline for the same reason: a Router's forward is its routing hot path.
[[gnu::always_inline]] inline SendResult
Process::forward(const PID& to, const MailboxMessage& message, MessagePriority priority) {
    // §2.6: no fallback and no check of the forwarder's own state.
    Process* target = node_.find_open(to);
    if (target == nullptr) [[unlikely]] {
        target = node_.find(to);
        if (target == nullptr || target->state_ == ProcessState::Init) {
            return sim::fail(Err::ProcessUnknown);
        }
        if (!target->is_alive()) {
            return sim::fail(Err::ProcessTerminated);
        }
    }
    return node_.deliver_item(*target, queue_for(priority), message, this);
}

} // namespace routesim::runtime
