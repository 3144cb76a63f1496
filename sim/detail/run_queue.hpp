// RunQueue: the scheduler's FIFO of runnable entries, a growable ring buffer (cheaper per
// push and pop than std::deque, which the fifo fast path pays once per step).
// Part of sim/: depends on the standard library only. Private to the scheduler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "sim/assert.hpp"

namespace routesim::sim::detail {

/// A FIFO of trivially copyable T. Capacity is a power of two and doubles when full.
template <class T>
class RunQueue {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }

    void push_back(const T& value) {
        if (size_ == capacity_) {
            grow();
        }
        slots_[(head_ + size_) & mask_] = value;
        size_++;
    }
    const T& front() const {
        RS_ASSERT(size_ > 0);
        return slots_[head_];
    }
    void pop_front() {
        RS_ASSERT(size_ > 0);
        head_ = (head_ + 1) & mask_;
        size_--;
    }
    /// The element `index` places behind the front. Precondition: index < size().
    const T& at(std::size_t index) const {
        RS_ASSERT(index < size_);
        return slots_[(head_ + index) & mask_];
    }
    /// Removes the element `index` places behind the front, keeping the order of the others.
    /// Cost: linear in the elements behind it.
    void erase_at(std::size_t index) {
        RS_ASSERT(index < size_);
        for (std::size_t i = index; i + 1 < size_; i++) {
            slots_[(head_ + i) & mask_] = slots_[(head_ + i + 1) & mask_];
        }
        size_--;
    }
    /// Replaces the contents with [first, last), in order.
    template <class Iterator>
    void assign(Iterator first, Iterator last) {
        head_ = 0;
        size_ = 0;
        for (; first != last; ++first) {
            push_back(*first);
        }
    }

private:
    [[gnu::noinline]] void grow() {
        const std::size_t capacity = slots_.empty() ? 16 : slots_.size() * 2;
        std::vector<T> slots(capacity);
        for (std::size_t i = 0; i < size_; i++) {
            slots[i] = slots_[(head_ + i) & mask_];
        }
        slots_ = std::move(slots);
        head_ = 0;
        capacity_ = capacity;
        mask_ = capacity - 1;
        RS_ASSERT(size_ < slots_.size());
    }

    std::vector<T> slots_;
    std::size_t head_ = 0;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0; // slots_.size(), kept so that a push compares two words
    std::size_t mask_ = 0;
};

} // namespace routesim::sim::detail
