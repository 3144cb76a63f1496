// Fault plan evaluation.
// Part of sim/: depends on the standard library only.
#include "sim/fault.hpp"

#include "sim/assert.hpp"
#include "sim/events.hpp"

namespace routesim::sim {
namespace {

constexpr std::uint64_t billion = 1'000'000'000;

} // namespace

FaultSiteId FaultPlan::site(std::string_view name) {
    for (std::size_t i = 0; i < sites_.size(); i++) {
        if (sites_[i].name == name) {
            return static_cast<FaultSiteId>(i);
        }
    }
    sites_.push_back(Site{std::string(name)});
    return static_cast<FaultSiteId>(sites_.size() - 1);
}

void FaultPlan::add_rule(FaultRule rule) {
    RS_ASSERT(rule.trigger != FaultTrigger::Nth || rule.nth >= 1);
    RS_ASSERT(rule.probability_ppb <= billion);
    const FaultSiteId id = site(rule.site);
    sites_[id].armed = true;
    has_rules_ = true;
    rules_.push_back(ArmedRule{std::move(rule), id});
}

bool FaultPlan::rule_fires(ArmedRule& armed, std::uint64_t occurrence, Instant now) {
    const FaultRule& rule = armed.rule;
    if (rule.firings_max != 0 && armed.fired >= rule.firings_max) {
        return false;
    }
    switch (rule.trigger) {
    case FaultTrigger::Probability:
        return prng_.chance(rule.probability_ppb, billion);
    case FaultTrigger::Nth:
        return occurrence == rule.nth;
    case FaultTrigger::AtTime:
        return now >= rule.at;
    }
    RS_ASSERT(false);
    return false;
}

bool FaultPlan::should_fire(FaultSiteId site, Instant now, std::string_view detail) {
    RS_ASSERT(site < sites_.size());
    Site& entry = sites_[site];
    const std::uint64_t occurrence = ++entry.occurrences;
    if (!entry.armed) {
        return false;
    }
    for (ArmedRule& armed : rules_) {
        if (armed.site != site || !rule_fires(armed, occurrence, now)) {
            continue;
        }
        armed.fired++;
        entry.firings++;
        emit_event(trace_, now, ev::Fault{entry.name, occurrence, armed.rule.tag, detail});
        return true;
    }
    return false;
}

} // namespace routesim::sim
