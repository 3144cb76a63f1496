// TimerQueue: the world's timers. A binary min-heap of small entries ordered by (due, rank,
// sequence) over callbacks that stay in place in slots, so that a firing callback can
// schedule and cancel other timers while it runs.
// Part of sim/: depends on the standard library only. Never orders by address.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/assert.hpp"

namespace routesim::sim {

/// Identifies a scheduled timer for cancellation.
struct TimerId {
    std::uint32_t slot = 0;
    std::uint64_t generation = 0;
};

namespace detail {

/// A void() callable, kept in place when it fits inline_size bytes (the runtime's and the
/// harness's timers all do), else in one heap block. It is built where it lives and never
/// moves, so a capture needs no move operation and costs no manager call.
class TimerCallback {
public:
    static constexpr std::size_t inline_size = 56;

    TimerCallback() = default;
    TimerCallback(const TimerCallback&) = delete;
    TimerCallback& operator=(const TimerCallback&) = delete;
    ~TimerCallback() { reset(); }

    /// Stores `callable`; precondition: empty().
    template <class F>
    void emplace(F&& callable) {
        using Stored = std::decay_t<F>;
        RS_ASSERT(invoke_ == nullptr);
        if constexpr (sizeof(Stored) <= inline_size && alignof(Stored) <= alignof(void*)) {
            ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(callable));
            invoke_ = [](void* at) { (*static_cast<Stored*>(at))(); };
            if constexpr (!std::is_trivially_destructible_v<Stored>) {
                destroy_ = [](void* at) { static_cast<Stored*>(at)->~Stored(); };
            }
        } else {
            ::new (static_cast<void*>(storage_)) Stored*(new Stored(std::forward<F>(callable)));
            invoke_ = [](void* at) { (**static_cast<Stored**>(at))(); };
            destroy_ = [](void* at) { delete *static_cast<Stored**>(at); };
        }
    }
    bool empty() const { return invoke_ == nullptr; }
    /// Runs the callable; precondition: !empty().
    void operator()() {
        RS_ASSERT(invoke_ != nullptr);
        invoke_(storage_);
    }
    /// Destroys the callable (its captures go now), leaving the callback empty.
    void reset() {
        if (destroy_ != nullptr) {
            destroy_(storage_);
            destroy_ = nullptr;
        }
        invoke_ = nullptr;
    }

private:
    alignas(void*) std::byte storage_[inline_size];
    void (*invoke_)(void*) = nullptr;
    void (*destroy_)(void*) = nullptr; // nullptr for a trivially destructible callable
};

/// Timers keyed by (due, rank, sequence): at one due time the lower rank first, then the
/// earlier push. The sequence number doubles as the timer's generation, so a TimerId of a
/// fired or cancelled timer never matches a later timer in the same slot.
/// Cost: push and pop are O(log n) moves of 32-byte entries; cancel is O(1) (the entry stays
/// and is skipped when it comes up). A timer that schedules another as it fires (a workload's
/// chain) costs one sift: the new entry takes the fired one's place at the root.
class TimerQueue {
public:
    static constexpr std::int64_t never_ns = INT64_MAX;

    TimerQueue() = default;
    TimerQueue(const TimerQueue&) = delete;
    TimerQueue& operator=(const TimerQueue&) = delete;

    /// Queues `callback` at `due_ns` with `rank`.
    template <class F>
    TimerId push(std::int64_t due_ns, std::uint64_t rank, F&& callback) {
        const std::uint32_t slot = acquire_slot();
        Slot& held = slot_at(slot);
        held.callback.emplace(std::forward<F>(callback));
        const std::uint64_t generation = next_generation_++;
        held.generation = generation;
        push_entry(Entry{due_ns, rank, generation, slot});
        live_++;
        return TimerId{slot, generation};
    }

    /// Cancels a queued timer: its callback is destroyed now. False when it had already
    /// fired, was cancelled, or is running.
    bool cancel(TimerId timer) {
        if (timer.slot >= slot_count_ || timer.generation == 0) {
            return false;
        }
        Slot& held = slot_at(timer.slot);
        if (held.generation != timer.generation || held.callback.empty()) {
            return false;
        }
        held.callback.reset();
        live_--;
        return true;
    }

    /// The due time of the earliest entry, cancelled or not; never_ns when there is none.
    std::int64_t next_due_ns() const { return next_due_ns_; }
    bool empty() const { return heap_.empty(); }
    /// Timers neither fired nor cancelled.
    std::size_t live() const { return live_; }

    /// Drops cancelled entries from the front, so that next_due_ns() is a live timer's.
    void drop_cancelled_head() {
        while (!heap_.empty() && slot_at(heap_.front().slot).callback.empty()) {
            release_slot(pop_entry().slot);
        }
    }

    /// Pops the earliest entry and runs its callback unless it was cancelled; false for a
    /// cancelled one. `fired` counts the callbacks run, counted before each runs (the world's
    /// event count). Precondition: !empty(). The callback runs in its slot, which stays
    /// reserved (and its TimerId stale) until the callback returns.
    bool fire_next(std::uint64_t& fired) {
        RS_ASSERT(!heap_.empty());
        RS_ASSERT(!root_spent_); // not from inside a callback
        const std::uint32_t slot = heap_.front().slot;
        Slot& held = slot_at(slot);
        RS_ASSERT(held.generation == heap_.front().generation);
        if (held.callback.empty()) {
            (void)pop_entry();
            release_slot(slot);
            return false;
        }
        held.generation = 0; // cancel() of the running timer finds nothing
        live_--;
        fired++;
        // The entry stays at the root while its callback runs, spent: the first push takes
        // its place there (see push_entry).
        root_spent_ = true;
        held.callback();
        // The slot has not moved: slots live in fixed chunks.
        held.callback.reset();
        if (root_spent_) {
            root_spent_ = false;
            (void)pop_entry();
        }
        release_slot(slot);
        return true;
    }

private:
    struct Entry {
        std::int64_t due_ns;
        std::uint64_t rank;
        std::uint64_t generation;
        std::uint32_t slot;
    };
    struct Slot {
        TimerCallback callback;
        std::uint64_t generation = 0;
        std::uint32_t next_free = 0;
    };
    static constexpr std::size_t chunk_bits = 4;
    static constexpr std::size_t chunk_size = std::size_t{1} << chunk_bits;
    static constexpr std::uint32_t no_slot = UINT32_MAX;

    static bool before(const Entry& a, const Entry& b) {
        if (a.due_ns != b.due_ns) {
            return a.due_ns < b.due_ns;
        }
        if (a.rank != b.rank) {
            return a.rank < b.rank;
        }
        return a.generation < b.generation;
    }

    // Chunk 0 lives in the queue itself: a run seldom holds more than a few timers at once.
    Slot& slot_at(std::uint32_t slot) {
        if (slot < chunk_size) {
            return first_chunk_[slot];
        }
        return more_chunks_[(slot >> chunk_bits) - 1][slot & (chunk_size - 1)];
    }

    [[gnu::always_inline]] std::uint32_t acquire_slot() {
        if (free_head_ != no_slot) {
            const std::uint32_t slot = free_head_;
            free_head_ = slot_at(slot).next_free;
            return slot;
        }
        RS_ASSERT(slot_count_ < no_slot);
        if (slot_count_ >= chunk_size && (slot_count_ & (chunk_size - 1)) == 0) {
            more_chunks_.push_back(std::make_unique<Slot[]>(chunk_size));
        }
        return slot_count_++;
    }

    void release_slot(std::uint32_t slot) {
        Slot& held = slot_at(slot);
        RS_ASSERT(held.callback.empty());
        held.generation = 0;
        held.next_free = free_head_;
        free_head_ = slot;
    }

    [[gnu::always_inline]] void push_entry(const Entry& entry) {
        if (root_spent_) {
            // Replaces the fired entry: one sift down instead of its pop and this push.
            root_spent_ = false;
            sift_down(entry);
            return;
        }
        heap_.push_back(entry);
        // Sift up through a hole: parents move down, the new entry is written once.
        std::size_t at = heap_.size() - 1;
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!before(entry, heap_[parent])) {
                break;
            }
            heap_[at] = heap_[parent];
            at = parent;
        }
        heap_[at] = entry;
        next_due_ns_ = heap_.front().due_ns;
    }

    [[gnu::always_inline]] Entry pop_entry() {
        RS_ASSERT(!heap_.empty());
        const Entry top = heap_.front();
        const Entry last = heap_.back();
        heap_.pop_back();
        if (heap_.empty()) {
            next_due_ns_ = never_ns;
            return top;
        }
        sift_down(last);
        RS_ASSERT(next_due_ns_ >= top.due_ns);
        return top;
    }

    /// Puts `entry` in the root's place (which the caller has vacated) and sifts it down
    /// through a hole. Precondition: !heap_.empty().
    [[gnu::always_inline]] void sift_down(const Entry& entry) {
        const std::size_t size = heap_.size();
        std::size_t at = 0;
        while (true) {
            std::size_t child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap_[child + 1], heap_[child])) {
                child++;
            }
            if (!before(heap_[child], entry)) {
                break;
            }
            heap_[at] = heap_[child];
            at = child;
        }
        heap_[at] = entry;
        next_due_ns_ = heap_.front().due_ns;
    }

    std::vector<Entry> heap_;
    std::int64_t next_due_ns_ = never_ns;
    std::uint64_t next_generation_ = 1; // 0 marks a free or running slot
    std::size_t live_ = 0;
    std::uint32_t slot_count_ = 0;
    std::uint32_t free_head_ = no_slot;
    bool root_spent_ = false; // the root is the entry of the callback running now
    std::array<Slot, chunk_size> first_chunk_;
    std::vector<std::unique_ptr<Slot[]>> more_chunks_;
};

} // namespace detail
} // namespace routesim::sim
