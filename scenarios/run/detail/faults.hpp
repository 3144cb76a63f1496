// Runner internals: random faults (scenarios/FORMAT.md `faults`): timed kills and admin
// calls, drawn crashes and spawn failures (FaultDraws), faults an instrument aims at racy
// moments, and the record of every fault that fired, placed so that a timeline action can
// pin it. Private to scenarios/run/.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/instrument.hpp"
#include "scenarios/run/message_cache.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/targets.hpp"

namespace routesim::scenarios::detail {

/// Worker specs of random add_route / replace_route faults, one per "<router>/<route>" path
/// (as a timeline action that pins the fault would declare it): the campaign's
/// (MessageCache::fault_worker) or this run's own. The Runner declares it before the node:
/// processes refer to these specs.
class FaultWorkers {
public:
    /// The worker spec at "<router>/<route>" for `spec`, made on first use; stable address.
    /// Indexes it in `specs` as a route worker when it is made.
    const Node* at(const Node& spec, const std::string& router, const std::string& route,
                   MessageCache* cache, SpecIndex& specs);

private:
    std::vector<std::unique_ptr<Node>> own_;
    std::map<std::string, const Node*> by_path_;
};

/// The random faults of one run. Owns the fault draws that behaviours take (draws()) and the
/// list of fired faults (RunResult::faults).
class Faults {
public:
    /// What faults act on besides the world. `build` may be a member of the caller not yet
    /// made (it is first used when a fault fires).
    struct Links {
        SpecIndex& specs;
        const Targets& targets;
        const BuildContext& build;
        FaultWorkers& workers;
        MessageCache* cache = nullptr;
    };
    Faults(const RunCore& core, const Links& links);
    Faults(const Faults&) = delete;
    Faults& operator=(const Faults&) = delete;

    /// The draws the run's behaviours take (BuildContext).
    FaultDraws& draws() { return draws_; }
    /// Records drawn faults from now on and, when the run aims faults or counts coverage,
    /// starts `settings.instrument` on this run (fed `tally`). Call once, before the build.
    void attach(const RunSettings& settings, Tally& tally);
    /// The instrument attach() started, or null.
    RunInstrument* observer() const { return observer_; }
    /// Schedules the timed faults (faults.kill, faults.admin); call once, before the run.
    void schedule();
    /// Hands over every fault that fired, in firing order.
    std::vector<FiredFault> take_fired() { return std::move(fired_); }

private:
    void schedule_kill_fault();
    void schedule_admin_fault();
    void fire_fault(const FaultOrder& order);
    /// Performs `order` on `worker` (order.worker, or its FaultWorkers copy).
    void perform_fault(const FaultOrder& order, const Node* worker);
    void record_drawn_fault(Verb verb, const Node& spec, const runtime::PID* pid);
    FiredFault placed(Verb verb, std::string origin) const;
    std::optional<std::string> target_of(const runtime::PID& pid) const;
    bool world_is_quiet() const;

    sim::World& world_;
    runtime::Node& node_;
    const Scenario& scenario_;
    StepClock& clock_;
    Links links_;
    FaultDraws draws_;
    sim::Prng kill_prng_;
    sim::Prng admin_prng_;
    std::uint64_t admin_fault_count_ = 0;
    /// Timed random-fault timers not yet fired (faults.kill, faults.admin).
    std::size_t fault_timers_pending_ = 0;
    /// Aimed faults and coverage (RunSettings::instrument); null unless asked for.
    RunInstrument* observer_ = nullptr;
    /// Every fault that fired, in firing order (RunResult::faults).
    std::vector<FiredFault> fired_;
    /// While a fault runs: its index in fired_ (spawn failures it causes go before it).
    std::optional<std::size_t> firing_fault_;
    /// fired_ reserves room for this many (more regrow the vector).
    static constexpr std::size_t faults_reserved = 32;
};

} // namespace routesim::scenarios::detail
