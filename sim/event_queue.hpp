// EventQueue: a priority queue with a total order, due time first, then insertion sequence.
// Part of sim/: depends on the standard library only. Never orders by address.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/assert.hpp"
#include "sim/time.hpp"

namespace routesim::sim {

/// A min-heap of payloads keyed by (due, rank, seq). Events due at the same instant come out
/// by rank (a caller-chosen class, lower first), then in the order they were pushed.
/// Cost: push and pop are O(log n).
template <class Payload>
class EventQueue {
public:
    struct Entry {
        Instant due;
        std::uint64_t rank;
        std::uint64_t seq;
        Payload payload;
    };

    /// Adds a payload due at `due` and returns its sequence number (unique, increasing).
    std::uint64_t push(Instant due, Payload payload, std::uint64_t rank = 0) {
        const std::uint64_t seq = next_seq_++;
        heap_.push_back(Entry{due, rank, seq, std::move(payload)});
        std::push_heap(heap_.begin(), heap_.end(), later);
        return seq;
    }

    /// True when nothing is queued.
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }

    /// The earliest entry; precondition: !empty().
    const Entry& top() const {
        RS_ASSERT(!heap_.empty());
        return heap_.front();
    }

    /// Removes and returns the earliest entry; precondition: !empty().
    Entry pop() {
        RS_ASSERT(!heap_.empty());
        std::pop_heap(heap_.begin(), heap_.end(), later);
        Entry entry = std::move(heap_.back());
        heap_.pop_back();
        RS_ASSERT(heap_.empty() || heap_.front().due >= entry.due);
        return entry;
    }

private:
    // std heap functions build a max-heap; "later" as less-than puts the earliest on top.
    static bool later(const Entry& a, const Entry& b) {
        if (a.due != b.due) {
            return a.due > b.due;
        }
        if (a.rank != b.rank) {
            return a.rank > b.rank;
        }
        return a.seq > b.seq;
    }

    std::vector<Entry> heap_;
    std::uint64_t next_seq_ = 0;
};

} // namespace routesim::sim
