// Runner internals: making the invariant monitors of a run, and a campaign's MonitorKit.
// Part of scenarios/run/: uses properties/, runtime/ and sim/.
#include "scenarios/run/detail/monitors.hpp"

#include "scenarios/run/monitor_kit.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {
namespace detail {

std::unique_ptr<Monitors> make_monitors(runtime::Semantics semantics,
                                        const std::vector<Invariant>& invariants) {
    const properties::MonitorOptions options{.semantics = semantics};
    // Every invariant the scenario asks for, by its stable name (properties/monitors.hpp);
    // `determinism` has no monitor (run_scenario runs twice for it).
    auto made = std::make_unique<Monitors>();
    made->semantics = options.semantics;
    made->invariants = invariants;
    for (Invariant invariant : invariants) {
        auto monitor = properties::make_monitor(spelling(invariant), options);
        if (monitor == nullptr) {
            continue;
        }
        made->set.add(std::move(monitor));
    }
    // The ledger and the tree are always reported, even when no required invariant reads them.
    made->set.keep_view();
    for (Invariant invariant : invariants) {
        std::string name(spelling(invariant));
        properties::Monitor* monitor =
            invariant == Invariant::Determinism ? nullptr : made->set.find(name);
        made->judges.emplace_back(std::move(name), monitor);
    }
    return made;
}

} // namespace detail

MonitorKit::MonitorKit() = default;
MonitorKit::~MonitorKit() = default;

detail::Monitors& MonitorKit::acquire(runtime::Semantics semantics,
                                      const std::vector<Invariant>& invariants) {
    if (monitors_ != nullptr && monitors_->semantics == semantics &&
        monitors_->invariants == invariants) {
        monitors_->set.reset();
        reuses_++;
    } else {
        monitors_ = detail::make_monitors(semantics, invariants);
    }
    RS_ASSERT(monitors_->judges.size() == invariants.size());
    return *monitors_;
}

} // namespace routesim::scenarios
