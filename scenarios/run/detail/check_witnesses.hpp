// Runner internals: the witnesses of failed checks (scenarios::Check::witnesses). A failed
// check names a subject (core.hpp CheckSubject); the run is made again with a
// CheckWitnesses sink that keeps, per failed check, the last few events that decide it: the
// target's exits and lost exit signals for `alive`, the route's changes for a route state,
// the client's calls and how they ended for a client, the takes for `processed`. Private to
// scenarios/run/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "properties/event_text.hpp"
#include "properties/topology_view.hpp"
#include "scenarios/run/detail/core.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios::detail {

/// What to look for in a re-run for one failed check.
struct WitnessQuery {
    /// The index of the check in RunResult::checks.
    std::size_t check = 0;
    CheckSubject::Topic topic = CheckSubject::Topic::None;
    /// The pid ids of every process the subject's target named over the run (all
    /// incarnations), sorted.
    std::vector<std::uint64_t> pids;
    /// The subject's name (route, reason, error).
    std::string name;
};

/// Keeps, per query, the last `kept_max` deciding events of a run (and, for a topic with a
/// narrower primary match, the last `kept_max` of its wider fallback: the client's calls when
/// none ended with the error counted). Reads the trace only.
class CheckWitnesses final : public sim::TraceSink {
public:
    static constexpr std::size_t kept_max = 5;

    explicit CheckWitnesses(std::vector<WitnessQuery> queries);
    void on_event(const sim::TraceEvent& event) override;

    const std::vector<WitnessQuery>& queries() const { return queries_; }
    /// What one event says, for matching (defined in check_witnesses.cpp).
    struct Facts;
    /// The witnesses of query `index`, oldest first, naming processes with `names` (the first
    /// run's view: the re-run made the same processes).
    std::vector<properties::Witness> witnesses(std::size_t index,
                                               const properties::TopologyView& names) const;

private:
    /// The last few events kept, in a ring.
    struct Ring {
        std::array<properties::KeptWitness, kept_max> items;
        std::size_t count = 0; // events ever pushed
        void push(const sim::TraceEvent& event);
        std::vector<properties::Witness> list(const properties::TopologyView& names) const;
    };
    struct Kept {
        Ring primary;
        Ring fallback;
        /// Route topics: the workers the route has had (their exits decide it too); Inspect:
        /// the target's children. Sorted.
        std::vector<std::uint64_t> workers;
        /// Client topics: the ids of the messages the client sent (their forwards and takes
        /// say where they went), sorted.
        std::vector<std::uint64_t> messages;
    };
    void match(const WitnessQuery& query, const Facts& facts, const sim::TraceEvent& event,
               Kept& kept) const;

    std::vector<WitnessQuery> queries_;
    std::vector<Kept> kept_; // one per query
};

} // namespace routesim::scenarios::detail
