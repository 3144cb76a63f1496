// The scenario runner: build, drive, run, check.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/runner.hpp"

#include <algorithm>
#include <memory>

#include "properties/monitors.hpp"
#include "runtime/trace_keys.hpp"
#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/run_state.hpp"
#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

bool RunResult::passed() const {
    if (outcome.reason == sim::StopReason::EventLimit ||
        outcome.reason == sim::StopReason::TimeLimit) {
        return false;
    }
    for (const Check& check : checks) {
        if (!check.ok) {
            return false;
        }
    }
    for (const InvariantResult& invariant : invariants) {
        if (invariant.verdict == "violated") {
            return false;
        }
    }
    return true;
}

std::string route_state_name(const runtime::act::RouterRouteInfo& info) {
    return std::string(runtime::act::route_state_name(info.state()));
}

namespace detail {

runtime::Semantics runtime_semantics(Semantics semantics) {
    return semantics == Semantics::Documented ? runtime::Semantics::Documented
                                              : runtime::Semantics::Upstream;
}

RunState::RunState(const Scenario& scenario, const RunSettings& settings)
    : scenario_(scenario), settings_(settings), world_(world_options(scenario, settings)),
      node_(world_, runtime::NodeOptions{.semantics = runtime_semantics(
                                             settings.semantics.value_or(scenario.run.semantics))}),
      step_clock_(world_, node_), specs_(scenario), draws_(node_, scenario, specs_),
      targets_(node_, specs_),
      cache_(settings.cache), build_context_{WorkerContext{specs_, draws_, targets_, cache_,
                                                           scenario},
                                             routers_, outcomes_},
      client_context_{node_, draws_, targets_, clients_, outcomes_},
      workload_prng_(world_.stream("workload")), kill_prng_(world_.stream("faults.kill")),
      admin_prng_(world_.stream("faults.admin")) {
    RS_ASSERT(settings.cache == nullptr || &settings.cache->scenario() == &scenario);
    if (settings.trace_out != nullptr) {
        jsonl_ = std::make_unique<sim::JsonlSink>(*settings.trace_out);
        world_.trace().add_sink(*jsonl_);
    }
    for (sim::TraceSink* sink : settings.extra_sinks) {
        RS_ASSERT(sink != nullptr);
        world_.trace().add_sink(*sink);
    }
    install_monitors();
    install_fault_hooks();
    // The race observer feeds the Tally when there is one: a sink costs a call per event.
    world_.trace().add_sink(own_sink());
}

RunState::~RunState() {
    for (sim::TraceSink* sink : settings_.extra_sinks) {
        world_.trace().remove_sink(*sink);
    }
    world_.trace().remove_sink(monitors_->set);
    if (monitors_->ledger_only) {
        world_.trace().remove_sink(*monitors_->ledger_only);
    }
    world_.trace().remove_sink(own_sink());
    if (jsonl_) {
        world_.trace().remove_sink(*jsonl_);
    }
}

sim::TraceSink& RunState::own_sink() {
    if (observer_) {
        return *observer_;
    }
    return tally_;
}

bool RunState::counts_taken(const Scenario& scenario) {
    if (!scenario.expect.processed.empty()) {
        return true;
    }
    for (const Action& action : scenario.timeline) {
        if (action.check.has_value() && !action.check->processed.empty()) {
            return true;
        }
    }
    return false;
}

sim::WorldOptions RunState::world_options(const Scenario& scenario, const RunSettings& settings) {
    sim::WorldOptions options;
    options.seed = settings.seed.value_or(scenario.run.seed);
    options.scheduler.policy = settings.scheduler.value_or(scenario.run.scheduler);
    options.scheduler.pct_depth = scenario.run.pct_depth;
    const std::vector<std::uint32_t>& schedule =
        settings.schedule.has_value() ? *settings.schedule : scenario.run.schedule;
    if (!schedule.empty()) {
        options.scheduler.policy = sim::Policy::Replay;
        options.scheduler.replay = schedule;
    }
    options.limits.events_max = scenario.run.max_events;
    return options;
}

void RunState::install_monitors() {
    const runtime::Semantics semantics =
        runtime_semantics(settings_.semantics.value_or(scenario_.run.semantics));
    const std::vector<Invariant>& invariants = scenario_.expect.invariants;
    if (MonitorKit* kit = settings_.monitors) {
        monitors_ = &kit->acquire(semantics, invariants);
    } else {
        own_monitors_ = make_monitors(semantics, invariants);
        monitors_ = own_monitors_.get();
    }
    if (monitors_->ledger_only) {
        world_.trace().add_sink(*monitors_->ledger_only);
    }
    if (settings_.stop_on_violation) {
        monitors_->set.stop_on_violation(world_);
    }
    world_.trace().add_sink(monitors_->set);
}

} // namespace detail

RunResult run_scenario(const Scenario& scenario, const RunSettings& settings) {
    detail::RunState state(scenario, settings);
    RunResult result = state.execute();
    const auto& wanted = scenario.expect.invariants;
    const bool wants_determinism =
        std::find(wanted.begin(), wanted.end(), Invariant::Determinism) != wanted.end();
    if (wants_determinism) {
        InvariantResult verdict{"determinism", "unchecked"};
        if (settings.check_determinism) {
            RunSettings again = settings;
            again.trace_out = nullptr;
            again.extra_sinks.clear();
            again.check_determinism = false;
            detail::RunState second(scenario, again);
            const RunResult replay = second.execute();
            const bool same = replay.trace_hash == result.trace_hash;
            verdict.verdict = same ? "holds" : "violated";
            if (!same) {
                result.violations.push_back(
                    properties::Violation{"determinism",
                                          result.outcome.end,
                                          "the same scenario and seed gave trace hash " +
                                              sim::format_hash(result.trace_hash) + " then " +
                                              sim::format_hash(replay.trace_hash),
                                          {}});
            }
        }
        result.invariants.push_back(verdict);
    }
    return result;
}

} // namespace routesim::scenarios
