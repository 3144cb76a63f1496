// Ring: a growable FIFO ring buffer that allocates nothing until the first push, so an idle
// process's four queues cost 24 bytes each. The front element can be taken in place: it leaves
// the queue but stays in its slot until released, so a handler reads it without a move.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "sim/assert.hpp"

namespace routesim::runtime::detail {

/// A FIFO queue of T. Capacity is a power of two and doubles when only one slot is free: that
/// slot is kept for a taken element, so a push tests the length alone (no taken flag).
///
/// Taking in place: take_front() removes the front element from the queue (size() no longer
/// counts it) and leaves it in its slot; release_taken() destroys it. Meanwhile the slot is
/// never reused, and a growth leaves the taken element where it is: its buffer is handed to the
/// caller (see push_back) instead of being freed, and freed with free_buffer after the release.
template <class T>
class Ring {
public:
    /// A buffer given up by a growth while the taken element still lived in it.
    struct Buffer {
        T* slots = nullptr;
        std::uint32_t capacity = 0;
    };

    Ring() = default;
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;
    ~Ring() {
        RS_ASSERT(held_ == 0);
        clear();
        std::allocator<T>().deallocate(slots_, capacity());
    }

    bool empty() const { return size_ == 0; }
    /// Queued elements; a taken element is not counted.
    std::uint32_t size() const { return size_; }

    // Every push takes `retired`: a growth moves the queued elements but never the taken one;
    // when it still lives in the old buffer, that buffer goes to `retired` (which must be
    // empty) instead of being freed, for the caller to free after release_taken.

    void push_back(Buffer& retired, T&& value) {
        make_room(retired);
        ::new (static_cast<void*>(slot_at(size_))) T(std::move(value));
        size_++;
    }
    /// `value` may be the taken element (never moved), not a queued one.
    void push_back(Buffer& retired, const T& value) {
        make_room(retired);
        ::new (static_cast<void*>(slot_at(size_))) T(value);
        size_++;
    }
    /// Builds an element in place from `args` (brace-initialized, so aggregates work).
    /// Precondition: no argument refers to a queued element (the taken one is fine).
    template <class... Args>
    void emplace_back(Buffer& retired, Args&&... args) {
        make_room(retired);
        ::new (static_cast<void*>(slot_at(size_))) T{std::forward<Args>(args)...};
        size_++;
    }

    /// Builds an element at the back with `construct(slot)`, which must construct one T in
    /// the raw `slot` (so that its parts are built in place, not moved in). Same precondition
    /// as emplace_back.
    template <class Construct>
    void construct_back(Buffer& retired, Construct&& construct) {
        make_room(retired);
        construct(slot_at(size_));
        size_++;
    }

    /// Takes the front element in place; it stays valid until release_taken. One at a time
    /// (unchecked here: the runtime's hot path; the owner takes once per step).
    T& take_front() {
        RS_ASSERT(size_ > 0);
        T& taken = slots_[head_];
        head_ = (head_ + 1) & mask_;
        size_--;
        held_ = 1;
        return taken;
    }
    /// Destroys the element `taken` that take_front returned, wherever it lives now.
    void release_taken(T& taken) {
        taken.~T();
        held_ = 0;
    }

    /// Visits every queued element from front to back.
    template <class F>
    void for_each(F&& visit) const {
        for (std::uint32_t i = 0; i < size_; i++) {
            visit(slots_[(head_ + i) & mask_]);
        }
    }

    /// Destroys the queued elements (a taken one is left to release_taken).
    void clear() {
        while (size_ > 0) {
            slots_[head_].~T();
            head_ = (head_ + 1) & mask_;
            size_--;
        }
    }

    static void free_buffer(Buffer& buffer) {
        std::allocator<T>().deallocate(buffer.slots, buffer.capacity);
        buffer = Buffer{};
    }

private:
    std::uint32_t capacity() const { return slots_ == nullptr ? 0 : mask_ + 1; }
    // Grows when a push would fill the last free slot (the one a taken element may hold);
    // with no buffer yet, mask_ is 0 and the first push grows.
    void make_room(Buffer& retired) {
        if (size_ == mask_) {
            grow(retired);
        }
    }
    T* slot_at(std::uint32_t offset) { return slots_ + ((head_ + offset) & mask_); }

    [[gnu::noinline]] void grow(Buffer& retired) {
        const std::uint32_t old_capacity = capacity();
        const std::uint32_t capacity = old_capacity == 0 ? 4 : old_capacity * 2;
        RS_ASSERT(capacity > old_capacity);
        RS_ASSERT(size_ + held_ < capacity);
        T* slots = std::allocator<T>().allocate(capacity);
        for (std::uint32_t i = 0; i < size_; i++) {
            T& source = slots_[(head_ + i) & mask_];
            ::new (static_cast<void*>(slots + i)) T(std::move(source));
            source.~T();
        }
        if (held_ != 0) {
            // The taken element stays in the old buffer; it takes no slot of the new one.
            RS_ASSERT(retired.slots == nullptr);
            retired = Buffer{slots_, old_capacity};
            held_ = 0;
        } else {
            std::allocator<T>().deallocate(slots_, old_capacity);
        }
        slots_ = slots;
        mask_ = capacity - 1;
        head_ = 0;
    }

    T* slots_ = nullptr;
    std::uint32_t head_ = 0;
    std::uint32_t size_ = 0;
    std::uint32_t mask_ = 0; // capacity - 1 (0 with no buffer)
    std::uint32_t held_ = 0; // 1 while a taken element occupies the slot before head_
};

} // namespace routesim::runtime::detail
