// Monitors of the runtime-level invariants of DESIGN.md: message_conservation (with its
// ledger), pair_fifo, call_outcome and sender_preservation. They read the runtime's trace
// events (runtime/trace_keys.hpp) plus the routing and pool events that end a message.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "properties/monitor.hpp"

namespace routesim::properties {

/// Where every message ended, by category (the no-data-loss ledger).
struct Ledger {
    std::uint64_t sent = 0;        ///< distinct messages put into a mailbox
    std::uint64_t handled = 0;     ///< taken by a behaviour and not passed on
    std::uint64_t discarded = 0;   ///< RouteDiscard
    std::uint64_t route_failed = 0; ///< routing failed (MessageRouteFailed or an error reply)
    std::uint64_t unhandled = 0;   ///< a pool found no worker
    std::uint64_t dropped = 0;     ///< discarded with a dead mailbox
    std::map<std::string, std::uint64_t> dropped_by_reason;
    std::uint64_t queued = 0;      ///< still in a mailbox (or kept for a hand-over) at the end
    /// Every message is in exactly one category.
    bool balanced() const {
        return handled + discarded + route_failed + unhandled + dropped + queued == sent;
    }
    /// One line per category.
    std::string to_string() const;
};

/// Monitors indexed by message id reserve this many entries up front, so that a short run
/// does not regrow (and copy) its tables several times.
inline constexpr std::size_t message_ids_reserved = 512;

/// message_conservation: every message sent ends exactly once (handled, discarded, reported
/// failed, unhandled, dropped with a dead mailbox, or still queued); none is taken, forwarded
/// or dropped twice, and none vanishes from a mailbox whose process ended.
class MessageConservation final : public Monitor {
public:
    MessageConservation() { entries_.reserve(message_ids_reserved); }
    std::string_view name() const override { return "message_conservation"; }
    void on_event(const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void finish(sim::Instant end, bool idle) override;
    /// The ledger; complete after finish().
    const Ledger& ledger() const { return ledger_; }
    void reset() override {
        entries_.clear();
        exited_.clear();
        ledger_ = Ledger{};
    }

private:
    // Kept: preserved from a dead child's mailbox, held by its supervisor for hand-over.
    enum class Where : std::uint8_t { Unknown, Queued, Taken, Kept, Ended };
    struct Entry {
        Where where = Where::Unknown;
        std::uint64_t holder = 0;   // the pid whose mailbox holds it (Queued), took it or keeps it
        std::uint64_t last_seq = 0; // the event that put it there
    };
    Entry& entry(std::uint64_t id);
    void end_taken(const sim::TraceEvent& event, std::uint64_t id, std::uint64_t& category);
    void violation(const sim::TraceEvent& event, std::uint64_t id, const std::string& what);

    std::vector<Entry> entries_; // indexed by message id (ids are dense, from 1)
    std::vector<std::uint64_t> exited_; // sorted pids that have ended
    Ledger ledger_;
};

/// pair_fifo: messages from one sender to one receiver through one queue are taken in the
/// order they were enqueued (a forward is a hop from the forwarder).
class PairFifo final : public Monitor {
public:
    PairFifo() {
        in_flight_.reserve(message_ids_reserved);
        slots_.resize(64);
    }
    std::string_view name() const override { return "pair_fifo"; }
    void on_event(const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void reset() override {
        in_flight_.clear();
        pairs_.clear();
        std::fill(slots_.begin(), slots_.end(), Slot{}); // the table keeps its size
    }

private:
    struct PairKey {
        std::uint64_t sender;
        std::uint64_t receiver;
        std::uint64_t queue;
        bool operator==(const PairKey&) const = default;
        std::uint64_t hash() const {
            return sender * 0x9e3779b97f4a7c15ULL ^ receiver * 0xbf58476d1ce4e5b9ULL ^ queue;
        }
    };
    static constexpr std::uint64_t unlinked = ~std::uint64_t{0};
    // One message in a mailbox, kept as numbers: rendering text for every message sent would
    // cost more than the whole check (the text is made only for a violation). A live flight
    // is a link of its pair's list, in enqueue order.
    struct InFlight {
        PairKey pair;
        std::uint32_t pair_index = 0; // into pairs_
        std::uint64_t seq = 0;
        sim::Instant at;
        std::uint64_t prev = unlinked; // neighbours on the pair's list, by message id
        std::uint64_t next = unlinked;
        bool forwarded = false;
        bool live = false;
        Witness witness(std::uint64_t id) const;
    };
    // The live messages of one pair in enqueue order, as a list threaded through in_flight_:
    // a take checks the head, and a message that leaves out of order (dropped, preserved, or
    // taken too early) is unlinked in place. No allocation per message.
    struct Pair {
        std::uint64_t head = unlinked;
        std::uint64_t tail = unlinked;
    };
    struct Slot { // pair_index open addressing (by PairKey::hash)
        PairKey pair{};
        std::uint32_t index = 0;
        bool used = false;
    };
    void enqueue(const sim::TraceEvent& event, std::uint64_t id, PairKey pair);
    void unlink(std::uint64_t id);
    std::uint32_t pair_index(const PairKey& pair);
    InFlight* flight_of(std::uint64_t id);

    // By message id: ids are a dense per-run counter, so a vector (no allocation per message).
    std::vector<InFlight> in_flight_;
    std::vector<Pair> pairs_;
    std::vector<Slot> slots_; // size a power of two, at most half full
};

/// call_outcome: every call ends exactly once (a response, an error or a timeout); when the
/// run ends idle, none is left open. (Named apart from the route model's CallOutcome, the
/// result of a management call: one name for two types would break the one-definition rule.)
class CallOutcomeMonitor final : public Monitor {
public:
    std::string_view name() const override { return "call_outcome"; }
    void on_event(const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void finish(sim::Instant end, bool idle) override;
    void reset() override { open_.clear(); }

private:
    std::map<std::pair<std::uint64_t, std::uint64_t>, Witness> open_; // (caller, ref)
};

/// sender_preservation: a message reaching a worker through routers and pools still carries
/// the original From (and Ref for calls), and a response goes straight to the caller.
class SenderPreservation final : public Monitor {
public:
    SenderPreservation() { origin_.reserve(message_ids_reserved); }
    std::string_view name() const override { return "sender_preservation"; }
    void on_event(const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void reset() override {
        origin_.clear();
        caller_of_.clear();
    }

private:
    struct Origin {
        std::uint64_t from = 0;
        std::uint64_t to = 0;
        std::uint64_t seq = 0;
        sim::Instant at;
        bool live = false;
    };
    std::vector<Origin> origin_;                                 // by message id (dense)
    std::unordered_map<std::uint64_t, std::uint64_t> caller_of_;  // by ref id
};

} // namespace routesim::properties
