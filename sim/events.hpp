// The kernel's trace events (fault firings and run limits) as typed structs with their field
// tables (sim/event_codec.hpp); the runtime's events are runtime/events.hpp.
// Part of sim/: standard library only.
#pragma once

#include <cstdint>

#include "sim/event_codec.hpp"

namespace routesim::sim::ev {

/// Field keys of the kernel's events.
namespace key {
inline constexpr TraceKey site{"site"};
inline constexpr TraceKey occurrence{"occurrence"};
inline constexpr TraceKey tag{"tag"};
inline constexpr TraceKey detail{"detail"};
inline constexpr TraceKey what{"what"};
} // namespace key

/// A fault rule fired at a fault point (FaultPlan::should_fire): the site's name, the site's
/// occurrence count (1-based), the rule's tag and the caller's detail text.
struct Fault {
    static constexpr TraceKey kind{"fault"};
    TraceText site;
    std::uint64_t occurrence = 0;
    TraceText tag;
    TraceText detail;
    static constexpr auto fields() {
        return std::tuple{field(key::site, &Fault::site),
                          field(key::occurrence, &Fault::occurrence), field(key::tag, &Fault::tag),
                          field(key::detail, &Fault::detail)};
    }
};

/// The run stopped at a limit: `what` is stop_reason_name of the event or time limit.
struct Limit {
    static constexpr TraceKey kind{"limit"};
    TraceText what;
    static constexpr auto fields() { return std::tuple{field(key::what, &Limit::what)}; }
};

} // namespace routesim::sim::ev
