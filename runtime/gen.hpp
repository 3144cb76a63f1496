// gen types: Atom, PID, Ref, priorities, process states and the address of a send
// (§1).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "runtime/err.hpp"
#include "sim/prng.hpp"
#include "sim/result.hpp"

namespace routesim::runtime {

/// The longest Atom in bytes (§1.1: longer names fail with ErrAtomTooLong).
inline constexpr std::size_t atom_length_max = 255;

/// An interned name. Equality is a pointer compare; ordering compares the text, so nothing
/// ever depends on where the text was allocated. The empty Atom is `Atom{}`.
class Atom {
public:
    constexpr Atom() = default;
    /// Interns `text`. Precondition: at most atom_length_max bytes (use make_atom to check).
    explicit Atom(std::string_view text);

    std::string_view text() const;
    /// FNV-1a 64 of the text, computed once at interning.
    std::uint64_t hash() const;
    bool empty() const { return entry_ == nullptr; }

    bool operator==(const Atom& other) const { return entry_ == other.entry_; }
    std::strong_ordering operator<=>(const Atom& other) const {
        return text().compare(other.text()) <=> 0;
    }

    struct Entry;

private:
    const Entry* entry_ = nullptr;
};

/// An interned text with its hash; entries live in the atom table for the whole program.
struct Atom::Entry {
    std::string text;
    std::uint64_t hash;
};

// Inline: trace events and route lookups read them on every message.
inline std::string_view Atom::text() const {
    return entry_ == nullptr ? std::string_view() : std::string_view(entry_->text);
}

inline std::uint64_t Atom::hash() const {
    return entry_ == nullptr ? sim::fnv1a64("") : entry_->hash;
}

/// Interns `text`, or returns ErrAtomTooLong for names over 255 bytes.
sim::Result<Atom, Err> make_atom(std::string_view text);

/// A process identifier. IDs come from a node counter and are never reused in a run.
struct PID {
    Atom node;
    std::uint64_t id = 0;
    std::int64_t creation = 0;

    bool empty() const { return id == 0; }
    bool operator==(const PID& other) const = default;
    std::strong_ordering operator<=>(const PID& other) const {
        if (auto by_node = node <=> other.node; by_node != 0) {
            return by_node;
        }
        if (auto by_id = id <=> other.id; by_id != 0) {
            return by_id;
        }
        return creation <=> other.creation;
    }
};

/// Prints a PID as Ergo does: `<CRC32(node).hi32.lo32>` with the 64-bit ID split into two
/// signed 32-bit halves (§1.1). The empty PID prints as "".
std::string to_string(const PID& pid);

/// A name-based address (`<CRC32(node).name>`).
struct ProcessID {
    Atom name;
    Atom node;
    bool operator==(const ProcessID& other) const = default;
};

std::string to_string(const ProcessID& process_id);

/// Pairs a call with its response. Never reused in a run.
struct Ref {
    Atom node;
    std::uint64_t id = 0;
    std::int64_t creation = 0;

    bool empty() const { return id == 0; }
    bool operator==(const Ref& other) const = default;
};

std::string to_string(const Ref& ref);

/// Message priority (§1.3): Normal → Main queue, High → System, Max → Urgent.
enum class MessagePriority : std::uint8_t { Normal = 0, High = 1, Max = 2 };

std::string_view priority_name(MessagePriority priority);

/// Process states as bit flags (§1.2). The spelling "Zombee" is Ergo's.
enum class ProcessState : std::uint8_t {
    Init = 1,
    Sleep = 2,
    Running = 4,
    WaitResponse = 8,
    Terminated = 16,
    Zombee = 32,
};

std::string_view state_name(ProcessState state);

/// Alive means Init, Sleep, Running or WaitResponse (§1.2). One mask test: each state is
/// one bit (checked twice per send).
constexpr bool is_alive(ProcessState state) {
    constexpr unsigned alive_mask = static_cast<unsigned>(ProcessState::Init) |
                                    static_cast<unsigned>(ProcessState::Sleep) |
                                    static_cast<unsigned>(ProcessState::Running) |
                                    static_cast<unsigned>(ProcessState::WaitResponse);
    return (static_cast<unsigned>(state) & alive_mask) != 0;
}
static_assert(is_alive(ProcessState::Init) && is_alive(ProcessState::Sleep) &&
              is_alive(ProcessState::Running) && is_alive(ProcessState::WaitResponse));
static_assert(!is_alive(ProcessState::Terminated) && !is_alive(ProcessState::Zombee));

/// True in the states where a process takes messages from anyone: Sleep, Running and
/// WaitResponse (alive and past Init). One mask test: the delivery fast path's only state
/// check; Init (own sends only, §2.1) and the dead states take the slow path.
constexpr bool takes_messages(ProcessState state) {
    constexpr unsigned open_mask = static_cast<unsigned>(ProcessState::Sleep) |
                                   static_cast<unsigned>(ProcessState::Running) |
                                   static_cast<unsigned>(ProcessState::WaitResponse);
    return (static_cast<unsigned>(state) & open_mask) != 0;
}
static_assert(takes_messages(ProcessState::Sleep) && takes_messages(ProcessState::Running) &&
              takes_messages(ProcessState::WaitResponse));
static_assert(!takes_messages(ProcessState::Init) && !takes_messages(ProcessState::Terminated) &&
              !takes_messages(ProcessState::Zombee));

/// The four queues of a mailbox, in drain order (§1.4).
enum class Queue : std::uint8_t { Urgent = 0, System = 1, Main = 2, Log = 3 };

std::string_view queue_name(Queue queue);

/// The queue a priority selects (§1.3): Max → Urgent, High → System, Normal (and anything
/// unknown) → Main. Arithmetic, not a switch: once per send.
constexpr Queue queue_for(MessagePriority priority) {
    const auto level = static_cast<unsigned>(priority);
    return level <= 2 ? static_cast<Queue>(2 - level) : Queue::Main;
}
static_assert(queue_for(MessagePriority::Max) == Queue::Urgent);
static_assert(queue_for(MessagePriority::High) == Queue::System);
static_assert(queue_for(MessagePriority::Normal) == Queue::Main);
static_assert(queue_for(static_cast<MessagePriority>(7)) == Queue::Main);

/// How a send addressed its target: by PID or by registered name (local Atom).
class Address {
public:
    Address(PID pid) : pid_(pid) {}
    Address(Atom name) : name_(name) {}
    Address(const char* name) : name_(Atom(name)) {}

    bool is_name() const { return !name_.empty(); }
    const PID& pid() const { return pid_; }
    Atom name() const { return name_; }

private:
    PID pid_;
    Atom name_;
};

std::string to_string(const Address& address);

} // namespace routesim::runtime

template <>
struct std::hash<routesim::runtime::Atom> {
    std::size_t operator()(const routesim::runtime::Atom& atom) const noexcept {
        return static_cast<std::size_t>(atom.hash());
    }
};
