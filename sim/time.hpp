// Virtual time: strong integer-nanosecond Instant and Duration, their parsing and printing.
// Part of sim/: depends on the standard library only. No floating point anywhere.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/result.hpp"

namespace routesim::sim {

/// A span of virtual time in integer nanoseconds. May be negative only as a difference.
class Duration {
public:
    constexpr Duration() = default;

    static constexpr Duration nanoseconds(std::int64_t count) { return Duration(count); }
    static constexpr Duration microseconds(std::int64_t count) { return Duration(count * 1000); }
    static constexpr Duration milliseconds(std::int64_t count) {
        return Duration(count * 1000 * 1000);
    }
    static constexpr Duration seconds(std::int64_t count) {
        return Duration(count * 1000 * 1000 * 1000);
    }
    static constexpr Duration zero() { return Duration(0); }

    /// The length in nanoseconds.
    constexpr std::int64_t count_ns() const { return ns_; }

    constexpr auto operator<=>(const Duration&) const = default;
    constexpr Duration operator+(Duration other) const { return Duration(ns_ + other.ns_); }
    constexpr Duration operator-(Duration other) const { return Duration(ns_ - other.ns_); }
    constexpr Duration operator*(std::int64_t factor) const { return Duration(ns_ * factor); }
    constexpr Duration& operator+=(Duration other) {
        ns_ += other.ns_;
        return *this;
    }

private:
    constexpr explicit Duration(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

/// A point of virtual time: nanoseconds since the run's time 0 (when the tree was built).
class Instant {
public:
    constexpr Instant() = default;

    static constexpr Instant from_ns(std::int64_t ns) { return Instant(ns); }
    static constexpr Instant zero() { return Instant(0); }
    /// The latest representable instant; used as "no limit".
    static constexpr Instant max() { return Instant(INT64_MAX); }

    /// Nanoseconds since time 0.
    constexpr std::int64_t ns() const { return ns_; }

    constexpr auto operator<=>(const Instant&) const = default;
    /// Adds a duration, saturating at Instant::max() instead of overflowing.
    constexpr Instant operator+(Duration span) const {
        if (span.count_ns() > 0 && ns_ > INT64_MAX - span.count_ns()) {
            return max();
        }
        return Instant(ns_ + span.count_ns());
    }
    constexpr Duration operator-(Instant earlier) const {
        return Duration::nanoseconds(ns_ - earlier.ns_);
    }

private:
    constexpr explicit Instant(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

/// Parses `"<int><unit>"` with unit ns, us, ms or s (`"250us"`, `"5s"`).
/// Errors (as text): empty input, missing digits, unknown unit, negative value, overflow.
Result<Duration, std::string> parse_duration(std::string_view text);

/// Prints a duration with the largest unit that divides it exactly: `5s`, `250us`, `1500ms`.
std::string format_duration(Duration span);

/// Prints an instant as the duration since time 0 (`"1500us"`).
std::string format_instant(Instant at);

} // namespace routesim::sim
