// Ring: a growable FIFO ring buffer that allocates nothing until the first push, so an idle
// process's four queues cost 16 bytes each.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "sim/assert.hpp"

namespace routesim::runtime::detail {

/// A FIFO queue of T. Capacity is a power of two and doubles when full.
template <class T>
class Ring {
public:
    Ring() = default;
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;
    ~Ring() { clear(); std::allocator<T>().deallocate(slots_, capacity_); }

    bool empty() const { return size_ == 0; }
    std::uint32_t size() const { return size_; }

    void push_back(T&& value) {
        if (size_ == capacity_) {
            grow();
        }
        ::new (static_cast<void*>(slots_ + ((head_ + size_) & (capacity_ - 1)))) T(std::move(value));
        size_++;
    }
    void push_back(const T& value) {
        if (size_ == capacity_) {
            push_back(T(value)); // copied before growing: `value` may live in this ring
            return;
        }
        ::new (static_cast<void*>(slots_ + ((head_ + size_) & (capacity_ - 1)))) T(value);
        size_++;
    }

    /// Builds an element in place from `args` (brace-initialized, so aggregates work).
    /// Precondition: no argument refers into this ring.
    template <class... Args>
    void emplace_back(Args&&... args) {
        if (size_ == capacity_) {
            grow();
        }
        ::new (static_cast<void*>(slots_ + ((head_ + size_) & (capacity_ - 1))))
            T{std::forward<Args>(args)...};
        size_++;
    }

    T& front() {
        RS_ASSERT(size_ > 0);
        return slots_[head_];
    }

    T pop_front() {
        RS_ASSERT(size_ > 0);
        T value = std::move(slots_[head_]);
        slots_[head_].~T();
        head_ = (head_ + 1) & (capacity_ - 1);
        size_--;
        return value;
    }

    /// Visits every element from front to back.
    template <class F>
    void for_each(F&& visit) const {
        for (std::uint32_t i = 0; i < size_; i++) {
            visit(slots_[(head_ + i) & (capacity_ - 1)]);
        }
    }

    void clear() {
        while (size_ > 0) {
            slots_[head_].~T();
            head_ = (head_ + 1) & (capacity_ - 1);
            size_--;
        }
        head_ = 0;
    }

private:
    [[gnu::noinline]] void grow() {
        const std::uint32_t capacity = capacity_ == 0 ? 4 : capacity_ * 2;
        RS_ASSERT(capacity > capacity_);
        T* slots = std::allocator<T>().allocate(capacity);
        for (std::uint32_t i = 0; i < size_; i++) {
            T& source = slots_[(head_ + i) & (capacity_ - 1)];
            ::new (static_cast<void*>(slots + i)) T(std::move(source));
            source.~T();
        }
        std::allocator<T>().deallocate(slots_, capacity_);
        slots_ = slots;
        capacity_ = capacity;
        head_ = 0;
    }

    T* slots_ = nullptr;
    std::uint32_t head_ = 0;
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 0;
};

} // namespace routesim::runtime::detail
