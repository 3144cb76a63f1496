// Assertion failure reporting and coverage-mark counters.
// Part of sim/: depends on the standard library only.
#include "sim/assert.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace routesim::sim {
namespace {

AssertContext current_context;

std::map<std::string, std::uint64_t, std::less<>>& marks() {
    static std::map<std::string, std::uint64_t, std::less<>> table;
    return table;
}

} // namespace

AssertContext set_assert_context(AssertContext context) {
    AssertContext previous = current_context;
    current_context = context;
    return previous;
}

void assert_fail(const char* condition, const char* file, int line) {
    std::fprintf(stderr, "RS_ASSERT failed: %s\n  at %s:%d\n", condition, file, line);
    if (current_context.seed != nullptr) {
        std::fprintf(stderr, "  seed: %llu\n",
                     static_cast<unsigned long long>(*current_context.seed));
    }
    if (current_context.now_ns != nullptr) {
        std::fprintf(stderr, "  virtual time: %lldns\n",
                     static_cast<long long>(*current_context.now_ns));
    }
    if (current_context.event_index != nullptr) {
        std::fprintf(stderr, "  event index: %llu\n",
                     static_cast<unsigned long long>(*current_context.event_index));
    }
    std::fflush(stderr);
    std::abort();
}

std::uint64_t mark_count(std::string_view name) {
    auto found = marks().find(name);
    return found == marks().end() ? 0 : found->second;
}

void mark_hit(std::string_view name) {
    auto found = marks().find(name);
    if (found == marks().end()) {
        marks().emplace(std::string(name), 1);
        return;
    }
    found->second++;
}

void marks_reset() {
    marks().clear();
}

} // namespace routesim::sim
