// Parsing and printing of virtual durations.
// Part of sim/: depends on the standard library only.
#include "sim/time.hpp"

#include <array>

namespace routesim::sim {
namespace {

struct Unit {
    std::string_view suffix;
    std::int64_t ns;
};

// Largest first, so that printing picks the largest exact unit.
constexpr std::array<Unit, 4> units = {{
    {"s", 1'000'000'000},
    {"ms", 1'000'000},
    {"us", 1'000},
    {"ns", 1},
}};

} // namespace

Result<Duration, std::string> parse_duration(std::string_view text) {
    if (text.empty()) {
        return fail(std::string("empty duration (expected \"<int><unit>\", unit ns|us|ms|s)"));
    }
    std::size_t digits_end = 0;
    while (digits_end < text.size() && text[digits_end] >= '0' && text[digits_end] <= '9') {
        digits_end++;
    }
    if (digits_end == 0) {
        return fail("duration \"" + std::string(text) +
                    "\" must start with a non-negative integer (expected \"<int><unit>\")");
    }
    RS_ASSERT(digits_end <= text.size());
    std::string_view suffix = text.substr(digits_end);
    const Unit* unit = nullptr;
    for (const Unit& candidate : units) {
        if (candidate.suffix == suffix) {
            unit = &candidate;
        }
    }
    if (unit == nullptr) {
        return fail("duration \"" + std::string(text) + "\" has unknown unit \"" +
                    std::string(suffix) + "\" (expected one of: ns, us, ms, s)");
    }
    std::int64_t value = 0;
    for (std::size_t i = 0; i < digits_end; i++) {
        const auto digit = static_cast<std::int64_t>(text[i] - '0');
        if (value > (INT64_MAX - digit) / 10) {
            return fail("duration \"" + std::string(text) + "\" overflows 64-bit nanoseconds");
        }
        value = value * 10 + digit;
    }
    if (value > INT64_MAX / unit->ns) {
        return fail("duration \"" + std::string(text) + "\" overflows 64-bit nanoseconds");
    }
    RS_ASSERT(value >= 0 && unit->ns > 0); // digits only, and a unit from the table
    return Duration::nanoseconds(value * unit->ns);
}

std::string format_duration(Duration span) {
    const std::int64_t ns = span.count_ns();
    if (ns == 0) {
        return "0ns";
    }
    for (const Unit& unit : units) {
        if (ns % unit.ns == 0) {
            return std::to_string(ns / unit.ns) + std::string(unit.suffix);
        }
    }
    RS_ASSERT(false);
    return {};
}

std::string format_instant(Instant at) {
    return format_duration(at - Instant::zero());
}

} // namespace routesim::sim
