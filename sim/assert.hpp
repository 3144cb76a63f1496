// RS_ASSERT and coverage marks: the bug lane of the error model (STYLE.md §3).
// Part of sim/: depends on the standard library only.
#pragma once

#include <cstdint>
#include <string_view>

namespace routesim::sim {

/// Where a failed assertion reads the run's seed, virtual time and event index from.
/// The pointers are owned by the running World; all three may be null outside a run.
struct AssertContext {
    const std::uint64_t* seed = nullptr;
    const std::int64_t* now_ns = nullptr;
    const std::uint64_t* event_index = nullptr;
};

/// Installs the context printed by failed assertions and returns the previous one.
/// The simulator is single-threaded by design; one context is active at a time.
AssertContext set_assert_context(AssertContext context);

/// Prints the failed condition with seed, virtual time and event index, then aborts.
[[noreturn]] void assert_fail(const char* condition, const char* file, int line);

/// Counts how often a rare branch was reached; a named test asserts each mark.
/// Marks live for the whole process and are listed in name order.
std::uint64_t mark_count(std::string_view name);

/// Records one hit of the mark `name`. Cost: one ordered-map lookup.
void mark_hit(std::string_view name);

/// Resets every mark counter to zero (tests only).
void marks_reset();

} // namespace routesim::sim

/// Compiled into every build type. One condition per assert.
#define RS_ASSERT(condition)                                                                       \
    ((condition) ? static_cast<void>(0)                                                            \
                 : ::routesim::sim::assert_fail(#condition, __FILE__, __LINE__))

/// Marks a rare branch as reached (see sim::mark_count).
#define RS_MARK(name) ::routesim::sim::mark_hit(name)
