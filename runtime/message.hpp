// Message: a type-erased, immutable payload that is cheap for small values (stored inline),
// carries any C++ type (shared when large), and names and prints itself for traces.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sim/prng.hpp"

namespace routesim::runtime {

/// How a payload type names and prints itself. A type may provide
/// `static constexpr std::string_view type_name` (a fixed name) or a member
/// `std::string_view message_type() const` (a name that depends on the value, such as a JSON
/// message's "type" field), and optionally `std::string describe() const`. Without either the
/// name is "value". Names must not depend on the compiler (never typeid). A type with
/// message_type() may also give `std::uint64_t message_type_hash() const`, the FNV-1a 64 of
/// message_type() kept with the value, so that the trace does not hash the name per message.
template <class T>
struct MessageTraits {
    static std::string_view name(const T& value) {
        if constexpr (requires { value.message_type(); }) {
            return value.message_type();
        } else if constexpr (requires { T::type_name; }) {
            return T::type_name;
        } else {
            return "value";
        }
    }
    /// FNV-1a 64 of name(value).
    static std::uint64_t name_hash(const T& value) {
        if constexpr (requires { value.message_type_hash(); }) {
            return value.message_type_hash();
        } else {
            return sim::fnv1a64(name(value));
        }
    }
    static std::string describe(const T& value) {
        if constexpr (requires { value.describe(); }) {
            return value.describe();
        } else {
            return std::string(name(value));
        }
    }
};

/// A type-erased payload. Values up to `inline_size` bytes that are nothrow-movable live
/// inline; larger ones are held by a shared pointer (messages are immutable once sent, so
/// copies share them). The empty Message means "nil"; it has operations of its own (an
/// empty payload type), so that no operation tests for a missing payload.
class Message {
public:
    static constexpr std::size_t inline_size = 24;

    Message() = default;

    template <class T, class D = std::decay_t<T>>
    requires(!std::is_same_v<D, Message>) Message(T&& value) {
        if constexpr (fits_inline<D>()) {
            ::new (static_cast<void*>(storage_)) D(std::forward<T>(value));
            ops_ = &inline_ops<D>;
        } else {
            ::new (static_cast<void*>(storage_))
                std::shared_ptr<const D>(std::make_shared<const D>(std::forward<T>(value)));
            ops_ = &shared_ops<D>;
        }
    }

    Message(const Message& other) : ops_(other.ops_) { copy_from(other); }
    /// Moves the payload; the source becomes nil (a moved-from shared payload would
    /// otherwise be a null pointer that get/describe dereference).
    Message(Message&& other) noexcept : ops_(other.ops_) { move_from(other); }
    Message& operator=(const Message& other) {
        if (this != &other) {
            Message copy(other);
            *this = std::move(copy);
        }
        return *this;
    }
    Message& operator=(Message&& other) noexcept {
        if (this != &other) {
            reset();
            ops_ = other.ops_;
            move_from(other);
        }
        return *this;
    }
    ~Message() { reset(); }

    /// True for the nil message.
    bool empty() const { return ops_ == nil_ops(); }

    /// True when the payload is a T.
    template <class T>
    bool is() const {
        return ops_->tag == &type_tag<T>;
    }

    /// The payload as a T, or nullptr when it is something else.
    template <class T>
    const T* get() const {
        if (!is<T>()) {
            return nullptr;
        }
        // The storage kind follows from T alone, so no indirect call is needed.
        if constexpr (fits_inline<T>()) {
            return std::launder(reinterpret_cast<const T*>(storage_));
        } else {
            return std::launder(reinterpret_cast<const std::shared_ptr<const T>*>(storage_))->get();
        }
    }

    /// The payload's type name for traces ("nil" for the empty message).
    std::string_view type_name() const {
        return ops_->name_hash != 0 ? ops_->fixed_name : ops_->name(ops_->data(storage_));
    }

    /// FNV-1a 64 of type_name(), as the trace hashes it; free for fixed names.
    std::uint64_t type_name_hash() const {
        if (ops_->name_hash != 0) {
            return ops_->name_hash;
        }
        return ops_->value_name_hash(ops_->data(storage_));
    }

    /// A readable rendering of the payload.
    std::string describe() const { return ops_->describe(ops_->data(storage_)); }

    /// type_name() of a Message holding `value`, without building one.
    template <class T>
    static std::string_view type_name_of(const T& value) {
        using D = std::decay_t<T>;
        if constexpr (fixed_name_hash_of<D>() != 0) {
            return fixed_name_of<D>();
        } else {
            return MessageTraits<D>::name(value);
        }
    }
    /// type_name_hash() of a Message holding `value`, without building one; a constant for
    /// fixed names.
    template <class T>
    static std::uint64_t type_name_hash_of(const T& value) {
        using D = std::decay_t<T>;
        if constexpr (fixed_name_hash_of<D>() != 0) {
            return fixed_name_hash_of<D>();
        } else {
            return MessageTraits<D>::name_hash(value);
        }
    }

private:
    struct Ops {
        const void* tag;
        void (*copy)(std::byte* to, const std::byte* from);
        void (*move)(std::byte* to, std::byte* from);
        void (*destroy)(std::byte* at);
        const void* (*data)(const std::byte* at);
        std::string_view (*name)(const void* value);
        std::uint64_t (*value_name_hash)(const void* value); // MessageTraits::name_hash
        std::string (*describe)(const void* value);
        /// Inline and trivially copyable: copy and move are a memcpy, destroy does nothing
        /// (the hot path of small payloads makes no indirect call).
        bool trivial;
        /// The type name when it does not depend on the value, with its FNV-1a 64 hash;
        /// name_hash is 0 when the name depends on the value (message_type()).
        std::string_view fixed_name;
        std::uint64_t name_hash;
    };

    template <class T>
    static constexpr std::string_view fixed_name_of() {
        if constexpr (requires(const T& value) { value.message_type(); }) {
            return {};
        } else if constexpr (requires { T::type_name; }) {
            return T::type_name;
        } else {
            return "value";
        }
    }
    template <class T>
    static constexpr std::uint64_t fixed_name_hash_of() {
        if constexpr (requires(const T& value) { value.message_type(); }) {
            return 0;
        } else {
            return sim::fnv1a64(fixed_name_of<T>());
        }
    }

    template <class T>
    static constexpr bool fits_inline() {
        return sizeof(T) <= inline_size && alignof(T) <= alignof(void*) &&
               std::is_nothrow_move_constructible_v<T> && std::is_copy_constructible_v<T>;
    }

    // One distinct address per type; used for equality only, never ordered or printed.
    template <class T>
    static constexpr char type_tag = 0;

    template <class T>
    static constexpr Ops inline_ops = {
        &type_tag<T>,
        [](std::byte* to, const std::byte* from) {
            ::new (static_cast<void*>(to)) T(*std::launder(reinterpret_cast<const T*>(from)));
        },
        [](std::byte* to, std::byte* from) {
            T* source = std::launder(reinterpret_cast<T*>(from));
            ::new (static_cast<void*>(to)) T(std::move(*source));
        },
        [](std::byte* at) { std::launder(reinterpret_cast<T*>(at))->~T(); },
        [](const std::byte* at) -> const void* {
            return std::launder(reinterpret_cast<const T*>(at));
        },
        [](const void* value) { return MessageTraits<T>::name(*static_cast<const T*>(value)); },
        [](const void* value) {
            return MessageTraits<T>::name_hash(*static_cast<const T*>(value));
        },
        [](const void* value) { return MessageTraits<T>::describe(*static_cast<const T*>(value)); },
        std::is_trivially_copyable_v<T>&& std::is_trivially_destructible_v<T>,
        fixed_name_of<T>(),
        fixed_name_hash_of<T>(),
    };

    template <class T>
    static constexpr Ops shared_ops = {
        &type_tag<T>,
        [](std::byte* to, const std::byte* from) {
            using Ptr = std::shared_ptr<const T>;
            ::new (static_cast<void*>(to)) Ptr(*std::launder(reinterpret_cast<const Ptr*>(from)));
        },
        [](std::byte* to, std::byte* from) {
            using Ptr = std::shared_ptr<const T>;
            Ptr* source = std::launder(reinterpret_cast<Ptr*>(from));
            ::new (static_cast<void*>(to)) Ptr(std::move(*source));
        },
        [](std::byte* at) {
            using Ptr = std::shared_ptr<const T>;
            std::launder(reinterpret_cast<Ptr*>(at))->~Ptr();
        },
        [](const std::byte* at) -> const void* {
            using Ptr = std::shared_ptr<const T>;
            return std::launder(reinterpret_cast<const Ptr*>(at))->get();
        },
        [](const void* value) { return MessageTraits<T>::name(*static_cast<const T*>(value)); },
        [](const void* value) {
            return MessageTraits<T>::name_hash(*static_cast<const T*>(value));
        },
        [](const void* value) { return MessageTraits<T>::describe(*static_cast<const T*>(value)); },
        false,
        fixed_name_of<T>(),
        fixed_name_hash_of<T>(),
    };

    /// The payload of the nil message: nothing, named "nil".
    struct Nil {
        static constexpr std::string_view type_name = "nil";
    };
    static constexpr const Ops* nil_ops() { return &inline_ops<Nil>; }

    // Precondition of both: ops_ == other.ops_.
    void copy_from(const Message& other) {
        if (ops_->trivial) {
            std::memcpy(storage_, other.storage_, inline_size);
        } else {
            ops_->copy(storage_, other.storage_);
        }
    }
    void move_from(Message& other) {
        if (ops_->trivial) {
            std::memcpy(storage_, other.storage_, inline_size);
            other.ops_ = nil_ops();
        } else {
            ops_->move(storage_, other.storage_);
            other.reset();
        }
    }

    void reset() {
        if (!ops_->trivial) {
            ops_->destroy(storage_);
        }
        ops_ = nil_ops();
    }

    const Ops* ops_ = nil_ops();
    alignas(void*) std::byte storage_[inline_size];
};

/// A value that becomes a Message when sent (anything a Message is built from, except a
/// Message): sends of one build the Message straight in the mailbox slot.
template <class T>
concept MessageValue =
    !std::is_same_v<std::remove_cvref_t<T>, Message> && std::is_constructible_v<Message, T&&>;

} // namespace routesim::runtime
