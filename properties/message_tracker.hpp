// MessageTracker: follows every message id through send, forward, take, drop and preserve for
// the three message monitors (runtime_monitors.hpp), keeping each check's state side by side
// in one record per id, so that an event costs one decode and one lookup for all of them.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "properties/monitor.hpp"
#include "properties/runtime_monitors.hpp"
#include "properties/topology_view.hpp"

namespace routesim::properties {

/// Runs the enabled message checks over the trace; see the file comment. Cost per event: a
/// kind test, a few field reads and one indexed record; per send or forward also a pair lookup
/// (open addressing). Memory: one record per message id (ids are dense, from 1).
class MessageTracker {
public:
    /// One violation of a check, worded for people, with the events that show it.
    struct Finding {
        MessageCheck check;
        sim::Instant at;
        std::string explanation;
        std::vector<Witness> witnesses;
    };

    /// Only the checks in `checks` (MessageCheck bits) are run.
    explicit MessageTracker(std::uint32_t checks);

    // -- queries ----------------------------------------------------------------------------
    /// True when `kind` is read by an enabled check.
    bool watches(const sim::TraceKey& kind) const;
    bool watches(EventKind kind) const;

    // -- commands ---------------------------------------------------------------------------
    /// Enables more checks (before the first event).
    void add_checks(std::uint32_t checks) { checks_ |= checks; }
    /// Names processes in the findings' witnesses with `names` (the owning monitor's view, or
    /// nullptr for bare pids).
    void name_processes_with(const TopologyView* names) { names_ = names; }
    /// Forgets every event seen (the checks stay).
    void reset();
    /// The findings not yet taken; the caller clears them.
    std::vector<Finding>& findings() { return findings_; }
    /// message_conservation's end-of-run checks over the view's ledger: appends to `out` every
    /// message lost with its holder and an unbalanced ledger.
    static void finish_conservation(const TopologyView& view, sim::Instant end,
                                    std::vector<Finding>& out);

private:
    using Hop = HopKind;
    static constexpr std::uint64_t unlinked = ~std::uint64_t{0};
    struct PairKey {
        std::uint64_t sender;
        std::uint64_t receiver;
        std::uint64_t queue;
        bool operator==(const PairKey&) const = default;
        std::uint64_t hash() const {
            const std::uint64_t mixed =
                sender * 0x9e3779b97f4a7c15ULL ^ receiver * 0xbf58476d1ce4e5b9ULL ^ queue;
            // The table is indexed by the low bits: fold the high ones in, where the
            // multiplications spread nearby pids.
            return mixed ^ (mixed >> 32);
        }
    };
    // What the checks know of one message id (plain data, no allocation per message).
    struct Record {
        // pair_fifo: the message's last enqueue, a link of its pair's list while in a mailbox
        bool in_flight = false;
        bool forwarded = false;
        std::uint32_t pair_index = 0;  // into pairs_
        std::uint64_t prev = unlinked; // neighbours on the pair's list, by message id
        std::uint64_t next = unlinked;
        std::uint64_t flight_seq = 0;
        sim::Instant flight_at;
        // sender_preservation: the original send
        bool has_origin = false;
        std::uint64_t origin_from = 0;
        std::uint64_t origin_to = 0;
        std::uint64_t origin_seq = 0;
        sim::Instant origin_at;
    };
    // A send, forward, take, drop or preserve, as the view decoded it (TopologyView::last_hop).
    using HopEvent = MessageHop;
    // The live messages of one pair in enqueue order, as a list threaded through records_: a
    // take checks the head, and a message that leaves out of order (dropped, preserved, or
    // taken too early) is unlinked in place.
    struct Pair {
        PairKey key;
        std::uint64_t head = unlinked;
        std::uint64_t tail = unlinked;
    };
    struct Slot { // pair_index open addressing (by PairKey::hash)
        PairKey pair{};
        std::uint32_t index = 0;
        bool used = false;
    };

    friend class MessageMonitor; // feeds events through apply()

    /// Applies one event, after `view` applied it (message_conservation reads the view's
    /// ledger), reading it through `decodes` (begun for it); findings are appended to
    /// findings(). Inlined into MessageMonitor::on_kind_event.
    void apply(EventKind kind, const sim::TraceEvent& event, const TopologyView& view,
               EventDecodes& decodes);
    bool runs(MessageCheck check) const {
        return (checks_ & static_cast<std::uint32_t>(check)) != 0;
    }
    void add(MessageCheck check, const sim::TraceEvent& event, std::string explanation,
             std::vector<Witness> witnesses);
    Record& record(std::uint64_t id) { return id < records_.size() ? records_[id] : grow_to(id); }
    Record& grow_to(std::uint64_t id);
    void on_hop(const HopEvent& hop, const sim::TraceEvent& event, const TopologyView& view);
    void on_other(EventKind kind, const sim::TraceEvent& event, const TopologyView& view,
                  EventDecodes& decodes);

    // message_conservation: the view's ledger says what went wrong
    void conservation_violation(const sim::TraceEvent& event, std::uint64_t id, LedgerFault fault);
    // pair_fifo
    void fifo(const HopEvent& hop, const sim::TraceEvent& event, Record& item);
    void enqueue(const sim::TraceEvent& event, std::uint64_t id, Record& item, PairKey pair,
                 bool forwarded);
    void unlink(std::uint64_t id);
    std::uint32_t pair_index(const PairKey& pair);
    std::uint32_t add_pair(const PairKey& pair); // pair_index's probe past the home slot
    Witness flight_witness(std::uint64_t id) const;
    // sender_preservation
    void check_sender(const HopEvent& hop, const sim::TraceEvent& event, Record& item);
    void check_response(const sim::TraceEvent& event, std::uint64_t ref, std::uint64_t to);

    std::uint32_t checks_;
    const TopologyView* names_ = nullptr; // names processes in witnesses
    std::vector<Record> records_;         // by message id
    std::vector<Finding> findings_;
    // pair_fifo
    std::vector<Pair> pairs_;
    std::vector<Slot> slots_; // size a power of two, at most half full
    // sender_preservation
    std::unordered_map<std::uint64_t, std::uint64_t> caller_of_; // by ref id; lookups only
};

} // namespace routesim::properties
