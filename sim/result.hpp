// Result<T, E>: a small in-house subset of std::expected (to be replaced at C++23).
// Part of sim/: depends on the standard library only.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/assert.hpp"

namespace routesim::sim {

/// Wraps an error value so that Result can be built from it unambiguously.
template <class E>
struct Failure {
    E error;
};

/// Makes a Failure from an error value: `return fail(Err::Busy);`.
template <class E>
Failure<std::decay_t<E>> fail(E&& error) {
    return Failure<std::decay_t<E>>{std::forward<E>(error)};
}

/// Either a value or an error. Reading the wrong side is a bug (RS_ASSERT).
template <class T, class E>
class [[nodiscard]] Result {
public:
    Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
    template <class F>
    Result(Failure<F> failure) : storage_(std::in_place_index<1>, E(std::move(failure.error))) {}

    /// True when the result holds a value.
    bool has_value() const { return storage_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    /// The value; precondition: has_value().
    const T& value() const& {
        RS_ASSERT(has_value());
        return std::get<0>(storage_);
    }
    T& value() & {
        RS_ASSERT(has_value());
        return std::get<0>(storage_);
    }
    T&& value() && {
        RS_ASSERT(has_value());
        return std::get<0>(std::move(storage_));
    }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

    /// The error; precondition: !has_value().
    const E& error() const {
        RS_ASSERT(!has_value());
        return std::get<1>(storage_);
    }

private:
    std::variant<T, E> storage_;
};

/// A Result that carries no value: success or an error.
template <class E>
class [[nodiscard]] Result<void, E> {
public:
    // User-provided, so that `return {};` sets only the empty flag: a defaulted constructor
    // would zero the error's whole storage first (value-initialization), once per callback.
    Result() noexcept {}
    template <class F>
    Result(Failure<F> failure) : error_(E(std::move(failure.error))) {}

    bool has_value() const { return !error_.has_value(); }
    explicit operator bool() const { return has_value(); }

    /// The error; precondition: !has_value().
    const E& error() const {
        RS_ASSERT(error_.has_value());
        return *error_;
    }

private:
    std::optional<E> error_;
};

/// A Result that carries no value and whose error is a one-byte enum: one 16-bit word, zero
/// for success (so that success is returned by clearing a register).
template <class E>
requires(std::is_enum_v<E> && sizeof(E) == 1) class [[nodiscard]] Result<void, E> {
public:
    Result() noexcept {}
    template <class F>
    Result(Failure<F> failure)
        : word_(static_cast<std::uint16_t>(
              failed_bit | static_cast<std::uint8_t>(E(std::move(failure.error))))) {}

    bool has_value() const { return word_ == 0; }
    explicit operator bool() const { return has_value(); }

    /// The error; precondition: !has_value().
    E error() const {
        RS_ASSERT(!has_value());
        return static_cast<E>(static_cast<std::uint8_t>(word_));
    }

private:
    static constexpr std::uint16_t failed_bit = 0x100;
    std::uint16_t word_ = 0;
};

} // namespace routesim::sim
