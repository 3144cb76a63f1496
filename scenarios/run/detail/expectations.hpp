// Runner internals: the expectation checker (scenarios/FORMAT.md `expect`): liveness, route
// states and restarts, clients, inspections, route failures and processed counts; the
// invariant verdicts; and the routers' end-of-run summary data. Every read of a route table
// or of restarts for a verdict or the summary is made here. Private to scenarios/run/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/format/resolve.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/detail/monitors.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/tally.hpp"
#include "scenarios/run/targets.hpp"

namespace routesim::scenarios::detail {

/// Judges the expectations of one run from what its parts recorded; its verdicts go to
/// `checks`. Reads the node registry, router records and Tally; the client records are
/// written only in that reading a client's record makes it (an expected client is listed in
/// the result even when it got nothing).
class Expectations {
public:
    /// What the checker reads.
    struct Links {
        const Targets& targets;
        const SpecIndex& specs;
        ClientRecords& clients;
        const RouterRecords& routers;
        const Tally& tally;
        Checks& checks;
    };
    Expectations(const RunCore& core, const Links& links);
    Expectations(const Expectations&) = delete;
    Expectations& operator=(const Expectations&) = delete;

    /// Checks every expectation of `expect` now.
    void evaluate(const Expect& expect);
    /// The verdicts of the scenario's invariants (determinism aside) from `monitors`, with
    /// their violations and the ledger, into `result`.
    void judge_invariants(const Monitors& monitors, RunResult& result) const;
    /// The routers of the topology in tree order, as the summary shows them.
    std::vector<RouterSummary> summarise() const;

    /// The PID `target` resolves to when that process is alive (a stale PID is dead).
    std::optional<runtime::PID> live(const std::string& target) const;
    bool is_live(const runtime::PID& pid) const;
    /// The pid ids of every process `target` named during the run, sorted: its live process,
    /// every incarnation of its node, and every process `view` names by that path or
    /// registered name (a route's or pool slot's restarted workers). For check witnesses.
    std::vector<std::uint64_t> pids_named(const std::string& target,
                                          const properties::TopologyView& view) const;
    /// Messages and calls the processes of `target` took (`processed`).
    std::uint64_t processed(const std::string& target) const;
    /// Restarts of route `name` of the router `router` names, over all its incarnations.
    std::uint64_t route_restarts(const std::string& router, std::string_view name) const;
    /// The same for the router node `router` of the topology.
    std::uint64_t route_restarts(const Node& router, std::string_view name) const;

private:
    /// evaluate()'s parts: `inspect`, `routes` and `clients`.
    void evaluate_inspect(const Expect& expect);
    void evaluate_routes(const Expect& expect);
    void evaluate_clients(const Expect& expect);
    RouterSummary summarise_router(const Node& spec) const;
    /// Adds summary rows "absent" for the routes that `expect.routes` names at `router` and
    /// its table lacks.
    void add_absent_rows(const Node& router, RouterSummary& summary) const;
    const Node* spec_of_target(const std::string& target) const;

    runtime::Node& node_;
    const Scenario& scenario_;
    Links links_;
    mutable std::optional<TargetResolver> static_targets_;
};

} // namespace routesim::scenarios::detail
