// Ring: a FIFO queue in a chain of fixed blocks, so that growth never moves an element nor holds
// two copies of the queue, and a drained block is given back. It allocates nothing until the
// first push, so an idle process's four queues cost 24 bytes each. The front element can be taken
// in place: it leaves the queue but stays in its slot until released, so a handler reads it
// without a move. Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "sim/assert.hpp"

namespace routesim::runtime::detail {

/// A FIFO queue of T in a chain of blocks: 4 slots for the first, then each new block twice
/// the last up to `block_capacity_max` (about 8 KiB of slots). A push that finds the back
/// block full moves on to the next; elements never move. A take that finds the front block
/// used up chains it after the back block as a spare, up to `spare_slots_max` spare slots,
/// and frees it beyond: a long queue gives its memory back as it drains, and a queue that
/// stays short or is refilled in bursts cycles through its blocks without allocating.
///
/// Taking in place: take_front() removes the front element from the queue (size() no longer
/// counts it) and leaves it in its slot; release_taken() destroys it. Slots are only ever
/// written past the back, so the slot of a taken element is never reused while it lives. One
/// element at a time is taken (the owner takes once per step and releases before the next).
template <class T>
class Ring {
public:
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    /// The slots of the largest block: a power of two with at most 8 KiB of slots (at least 4).
    static constexpr std::uint32_t block_capacity_max =
        sizeof(T) >= 2048 ? 4 : std::bit_floor(static_cast<std::uint32_t>(8192 / sizeof(T)));
    static_assert(block_capacity_max <= UINT16_MAX);
    /// The most slots a drained queue keeps in spare blocks (64 of the largest).
    static constexpr std::uint32_t spare_slots_max = 64 * block_capacity_max;

    Ring() = default;
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;
    ~Ring() {
        clear();
        free_chain(head_block_);
    }

    bool empty() const { return size_ == 0; }
    /// Queued elements; a taken element is not counted.
    std::uint32_t size() const { return size_; }

    /// `value` may be the taken element or a queued one (neither ever moves).
    void push_back(T&& value) {
        ::new (static_cast<void*>(back_slot())) T(std::move(value));
        pushed();
    }
    /// `value` may be the taken element or a queued one (neither ever moves).
    void push_back(const T& value) {
        ::new (static_cast<void*>(back_slot())) T(value);
        pushed();
    }
    /// Builds an element in place from `args` (brace-initialized, so aggregates work).
    template <class... Args>
    void emplace_back(Args&&... args) {
        ::new (static_cast<void*>(back_slot())) T{std::forward<Args>(args)...};
        pushed();
    }

    /// Builds an element at the back with `construct(slot)`, which must construct one T in
    /// the raw `slot` (so that its parts are built in place, not moved in).
    template <class Construct>
    void construct_back(Construct&& construct) {
        construct(back_slot());
        pushed();
    }

    /// Takes the front element in place; it stays valid until release_taken. One at a time
    /// (unchecked here: the runtime's hot path; the owner takes once per step).
    T& take_front() {
        RS_ASSERT(size_ > 0);
        if (head_ == head_block_->capacity) [[unlikely]] {
            next_head_block();
        }
        T& taken = *std::launder(head_block_->slot(head_));
        head_++;
        size_--;
        return taken;
    }
    /// Destroys the element `taken` that take_front returned. When the queue is empty then,
    /// the next push starts again at the front block's first slot.
    void release_taken(T& taken) {
        taken.~T();
        if (size_ == 0) { // an empty queue has its front and back in one block
            head_ = 0;
            tail_ = 0;
        }
    }

    /// Visits every queued element from front to back.
    template <class F>
    void for_each(F&& visit) const {
        walk(head_block_, head_, size_, [&visit](T* element) { visit(std::as_const(*element)); });
    }

    /// Destroys the queued elements (a taken one is left to release_taken) and frees every
    /// block but the front one, which a taken element may still live in.
    void clear() {
        walk(head_block_, head_, size_, [](T* element) { element->~T(); });
        size_ = 0;
        if (head_block_ != &no_block_) {
            free_chain(head_block_->next);
            head_block_->next = nullptr;
            head_block_->spare_slots = 0;
        }
        tail_block_ = head_block_;
        tail_ = head_; // past a taken element, if any
        RS_ASSERT(head_block_->next == nullptr);
    }

    /// The slots of every block allocated now, queued ones and the spare (tests and
    /// measurements; walks the chain).
    std::uint32_t allocated_slots() const {
        std::uint32_t slots = 0;
        for (const Block* block = head_block_; block != nullptr; block = block->next) {
            slots += block->capacity; // the no-block has none
        }
        return slots;
    }

private:
    struct alignas(alignof(T) > alignof(void*) ? alignof(T) : alignof(void*)) Block {
        Block* next = nullptr;
        std::uint32_t capacity = 0;
        /// In the back block: the slots of the spare blocks chained after it.
        std::uint32_t spare_slots = 0;
        // The slots follow the header.
        T* slot(std::uint32_t index) { return reinterpret_cast<T*>(this + 1) + index; }
    };

    // Calls visit(T*) on the `count` elements from slot `index` of `block` on.
    template <class F>
    static void walk(Block* block, std::uint32_t index, std::uint32_t count, F&& visit) {
        for (std::uint32_t i = 0; i < count; i++) {
            if (index == block->capacity) {
                block = block->next;
                index = 0;
            }
            visit(std::launder(block->slot(index)));
            index++;
        }
    }

    T* back_slot() {
        if (tail_ == tail_block_->capacity) [[unlikely]] {
            next_tail_block();
        }
        return tail_block_->slot(tail_);
    }
    void pushed() {
        tail_++;
        size_++;
    }

    static Block* allocate(std::uint32_t capacity) {
        RS_ASSERT(capacity > 0 && capacity <= block_capacity_max);
        void* memory = ::operator new (sizeof(Block) + std::size_t{capacity} * sizeof(T));
        return ::new (memory) Block{nullptr, capacity};
    }
    static void free_block(Block* block) {
        RS_ASSERT(block != &no_block_);
        block->~Block();
        // Unsized: clang 14 declares the sized operator delete only with -fsized-deallocation.
        ::operator delete(static_cast<void*>(block));
    }
    static void free_chain(Block* block) {
        while (block != nullptr && block != &no_block_) {
            Block* next = block->next;
            free_block(block);
            block = next;
        }
    }

    // The back block is full: moves on to a spare block, or links a new one.
    [[gnu::noinline]] void next_tail_block() {
        RS_ASSERT(tail_ == tail_block_->capacity);
        if (tail_block_ == &no_block_) {
            RS_ASSERT(size_ == 0);
            head_block_ = tail_block_ = allocate(4);
            head_ = tail_ = 0;
            return;
        }
        Block* next = tail_block_->next;
        if (next == nullptr) {
            RS_ASSERT(tail_block_->spare_slots == 0);
            const std::uint32_t capacity = tail_block_->capacity * 2;
            next = allocate(capacity < block_capacity_max ? capacity : block_capacity_max);
            tail_block_->next = next;
        } else {
            RS_ASSERT(tail_block_->spare_slots >= next->capacity);
            next->spare_slots = tail_block_->spare_slots - next->capacity;
        }
        tail_block_->spare_slots = 0;
        tail_block_ = next;
        tail_ = 0;
    }

    // The front block is used up (and holds no taken element: one take at a time): moves on
    // to the next block, and chains the used one after the back block as a spare while the
    // spares hold fewer than spare_slots_max slots (a queue refilled in bursts reuses its
    // blocks), else frees it (a long queue gives its memory back as it drains).
    [[gnu::noinline]] void next_head_block() {
        RS_ASSERT(head_block_ != tail_block_);
        Block* used = head_block_;
        head_block_ = used->next;
        head_ = 0;
        RS_ASSERT(head_block_ != nullptr);
        if (tail_block_->spare_slots + used->capacity <= spare_slots_max) {
            used->next = tail_block_->next;
            used->spare_slots = 0;
            tail_block_->next = used;
            tail_block_->spare_slots += used->capacity;
        } else {
            free_block(used);
        }
    }

    // The block of a ring that has allocated nothing: no slots, so the first push links one.
    // Never written nor freed.
    static inline Block no_block_{};

    Block* head_block_ = &no_block_;
    Block* tail_block_ = &no_block_;
    std::uint32_t size_ = 0;
    std::uint16_t head_ = 0; // the front element's slot in head_block_
    std::uint16_t tail_ = 0; // the next free slot in tail_block_
};

} // namespace routesim::runtime::detail
