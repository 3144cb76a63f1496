// Fault points: named sites inside the code under test that a fault plan can fire
// (with a probability, at the n-th occurrence, or from a virtual time on), each firing traced.
// Part of sim/: depends on the standard library only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/prng.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::sim {

/// Handle of an interned fault site; cheap to test on hot paths.
using FaultSiteId = std::uint32_t;

/// When a rule fires. Exactly one trigger applies per rule.
enum class FaultTrigger : std::uint8_t {
    Probability, ///< each occurrence fires with probability ppb / 1e9
    Nth,         ///< the nth occurrence (1-based) fires
    AtTime,      ///< the first occurrence at or after `at` fires
};

/// One rule of a fault plan.
struct FaultRule {
    std::string site;
    FaultTrigger trigger = FaultTrigger::Probability;
    /// Probability in parts per billion (Probability trigger).
    std::uint64_t probability_ppb = 0;
    /// Occurrence number, 1-based (Nth trigger).
    std::uint64_t nth = 0;
    /// Earliest time (AtTime trigger).
    Instant at;
    /// How many times the rule may fire; 0 means unlimited.
    std::uint64_t firings_max = 0;
    /// Free text copied into the trace when the rule fires (for example the target).
    std::string tag;
};

/// A set of rules over named sites. Sites are interned on first use; rules may be added
/// before or after a site is first seen. Draws come from the plan's own Prng stream.
class FaultPlan {
public:
    FaultPlan(Prng prng, TraceBus& trace) : prng_(prng), trace_(trace) {}

    /// The handle of site `name`, interning it on first use.
    FaultSiteId site(std::string_view name);
    /// Adds a rule. Precondition: the trigger's parameter is set (nth >= 1 for Nth).
    void add_rule(FaultRule rule);
    /// True when the plan has at least one rule for the site (a cheap hot-path test).
    bool is_armed(FaultSiteId site) const { return sites_[site].armed; }
    /// True when the plan has any rule: one load, for hot paths that check a site per step
    /// and look at the site itself only then.
    bool has_rules() const { return has_rules_; }

    /// Counts one occurrence of `site` at `now` and returns true when a rule fires.
    /// A firing emits a "fault" trace event with the site, occurrence number and tag.
    bool should_fire(FaultSiteId site, Instant now, std::string_view detail = {});

    /// Occurrences seen and firings made so far at a site.
    std::uint64_t occurrences(FaultSiteId site) const { return sites_[site].occurrences; }
    std::uint64_t firings(FaultSiteId site) const { return sites_[site].firings; }

private:
    struct Site {
        std::string name;
        std::uint64_t occurrences = 0;
        std::uint64_t firings = 0;
        bool armed = false;
    };
    struct ArmedRule {
        FaultRule rule;
        FaultSiteId site;
        std::uint64_t fired = 0;
    };
    bool rule_fires(ArmedRule& armed, std::uint64_t occurrence, Instant now);

    Prng prng_;
    TraceBus& trace_;
    std::vector<Site> sites_;      // indexed by FaultSiteId, in interning order
    std::vector<ArmedRule> rules_; // in the order added
    bool has_rules_ = false;       // !rules_.empty(), one byte to test
};

} // namespace routesim::sim
