// Runner internals: the Runner: making a run's parts, building, running and checking.
// Part of scenarios/run/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/detail/runner.hpp"

#include "scenarios/run/detail/tree_summary.hpp"

#include "scenarios/run/behaviours.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {
namespace {

runtime::Semantics runtime_semantics(Semantics semantics) {
    return semantics == Semantics::Documented ? runtime::Semantics::Documented
                                              : runtime::Semantics::Upstream;
}

} // namespace

Runner::Runner(const Scenario& scenario, const RunSettings& settings)
    : scenario_(scenario), settings_(settings), world_(world_options(scenario, settings)),
      node_(world_, runtime::NodeOptions{.semantics = runtime_semantics(
                                             settings.semantics.value_or(scenario.run.semantics))}),
      step_clock_(world_, node_), specs_(scenario), targets_(node_, specs_),
      tally_(counts_taken(scenario)), checks_(world_),
      faults_(RunCore{world_, node_, scenario, step_clock_},
              Faults::Links{specs_, targets_, build_context_, fault_workers_, settings.cache}),
      build_context_{WorkerContext{specs_, faults_.draws(), targets_, settings.cache, scenario},
                     routers_, outcomes_},
      client_context_{node_, faults_.draws(), targets_, clients_, outcomes_},
      workload_(RunCore{world_, node_, scenario, step_clock_}, targets_, clients_, outcomes_,
                settings.cache),
      expectations_(RunCore{world_, node_, scenario, step_clock_},
                    Expectations::Links{targets_, specs_, clients_, routers_, tally_, checks_}),
      timeline_(RunCore{world_, node_, scenario, step_clock_},
                Timeline::Links{specs_, faults_.draws(), targets_, build_context_, workload_,
                                outcomes_, expectations_, checks_}) {
    RS_ASSERT(settings.cache == nullptr || &settings.cache->scenario() == &scenario);
    if (settings.trace_out != nullptr) {
        jsonl_ = std::make_unique<sim::JsonlSink>(*settings.trace_out);
        world_.trace().add_sink(*jsonl_);
    }
    for (sim::TraceSink* sink : settings.extra_sinks) {
        RS_ASSERT(sink != nullptr);
        world_.trace().add_sink(*sink);
    }
    if (settings.hash_only) {
        own_monitors_ = std::make_unique<Monitors>(); // none, and not on the trace bus
        monitors_ = own_monitors_.get();
    } else {
        install_monitors();
        if (!scenario.expect.sometimes.empty()) {
            probes_ = std::make_unique<Probes>(scenario, targets_, monitors_->set.view());
            world_.trace().add_sink(*probes_);
        }
    }
    world_.set_runner(step_clock_);
    faults_.attach(settings, tally_);
    // The race observer feeds the Tally when there is one: a sink costs a call per event.
    // A hash-only re-run needs no Tally; an instrument stays, since it aims faults.
    own_sink_attached_ = !settings.hash_only || faults_.observer() != nullptr;
    if (own_sink_attached_) {
        world_.trace().add_sink(own_sink());
    }
}

Runner::~Runner() {
    for (sim::TraceSink* sink : settings_.extra_sinks) {
        world_.trace().remove_sink(*sink);
    }
    if (!settings_.hash_only) {
        world_.trace().remove_sink(monitors_->set);
    }
    if (own_sink_attached_) {
        world_.trace().remove_sink(own_sink());
    }
    if (jsonl_) {
        world_.trace().remove_sink(*jsonl_);
    }
    if (probes_) {
        world_.trace().remove_sink(*probes_);
    }
}

RunResult Runner::execute() {
    result_.seed = world_.seed();
    result_.scheduler = world_.scheduler().policy();
    result_.semantics = settings_.semantics.value_or(scenario_.run.semantics);
    // "via": "admin" results and timeline call outcomes are compared with `expect` at the
    // virtual time they arrive, not when the run ends.
    outcomes_.on_outcome = [this](std::int64_t index, const TimedOutcome& outcome) {
        timeline_.check_outcome(static_cast<std::uint32_t>(index), outcome.result);
    };
    build();
    workload_.schedule();
    timeline_.schedule();
    faults_.schedule();
    const std::optional<sim::Instant> until = settings_.until_idle          ? std::nullopt
                                              : settings_.until.has_value() ? settings_.until
                                                                            : scenario_.run.until;
    result_.outcome = world_.run(until);
    outcomes_.on_outcome = nullptr;
    if (settings_.hash_only) {
        result_.trace_hash = world_.trace().hash();
        result_.trace_events = world_.trace().count();
        return std::move(result_);
    }
    timeline_.report_unresolved_calls();
    timeline_.report_actions_not_reached(result_.outcome);
    timeline_.report_missed_pins();
    const bool idle = result_.outcome.reason == sim::StopReason::Idle;
    monitors_->set.finish(result_.outcome.end, idle);
    expectations_.evaluate(scenario_.expect);
    judge_probes();
    expectations_.judge_invariants(*monitors_, result_);
    result_.checks = checks_.take();
    if (settings_.explain_checks) {
        make_witness_queries();
    }
    result_.faults = faults_.take_fired();
    result_.trace_hash = world_.trace().hash();
    result_.trace_events = world_.trace().count();
    if (settings_.summarise_passing || !result_.passed() || !result_.violations.empty()) {
        summarise();
    }
    if (RunInstrument* observer = faults_.observer()) {
        result_.coverage = Coverage(observer->coverage());
    }
    return std::move(result_);
}

void Runner::make_witness_queries() {
    const std::vector<CheckSubject>& subjects = checks_.subjects();
    RS_ASSERT(subjects.size() == result_.checks.size());
    for (std::size_t i = 0; i < subjects.size(); i++) {
        if (result_.checks[i].ok || subjects[i].topic == CheckSubject::Topic::None) {
            continue;
        }
        witness_queries_.push_back(WitnessQuery{
            i, subjects[i].topic,
            expectations_.pids_named(std::string(subjects[i].target), monitors_->set.view()),
            std::string(subjects[i].name)});
    }
}

void Runner::judge_probes() {
    if (!probes_) {
        return;
    }
    result_.probes = probes_->results();
    if (!settings_.judge_probes) {
        return;
    }
    for (const ProbeResult& probe : result_.probes) {
        const std::string actual = probe.reached ? "reached at #" + std::to_string(probe.seq) +
                                                       " @" + sim::format_instant(probe.at)
                                                 : "never reached";
        checks_.add("sometimes." + probe.name, "reached", actual, probe.pointer, probe.reached);
    }
}

void Runner::summarise() {
    result_.routers = expectations_.summarise();
    summarise_tree(scenario_, specs_, node_, monitors_->set.view(), result_);
    result_.decisions = world_.scheduler().decisions();
    for (const auto& [index, outcome] : outcomes_.admin_results()) {
        result_.admin_results[index] = outcome.result;
    }
    result_.clients = clients_.all();
}

void Runner::build() {
    // The root first (it spawns its subtree as its kind does), then the clients (§ "How time
    // and order work"): both before time 0's first action.
    const Node& root = scenario_.topology;
    const runtime::Factory factory = factory_for(build_context_, root);
    const auto spawned = root.name.empty() ? node_.spawn(factory, options_for(root), {})
                                           : node_.spawn_register(runtime::Atom(root.name), factory,
                                                                  options_for(root), {});
    if (!spawned) {
        result_.root_failure = spawned.error().message();
    }
    for (const std::string& client : scenario_.clients) {
        const auto pid = node_.spawn_register(runtime::Atom(client),
                                              client_factory(client_context_, client), {}, {});
        RS_ASSERT(pid.has_value());
    }
}

sim::TraceSink& Runner::own_sink() {
    if (RunInstrument* observer = faults_.observer()) {
        return *observer;
    }
    return tally_;
}

bool Runner::counts_taken(const Scenario& scenario) {
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

sim::WorldOptions Runner::world_options(const Scenario& scenario, const RunSettings& settings) {
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

void Runner::install_monitors() {
    const runtime::Semantics semantics =
        runtime_semantics(settings_.semantics.value_or(scenario_.run.semantics));
    const std::vector<Invariant>& invariants = scenario_.expect.invariants;
    if (MonitorKit* kit = settings_.monitors) {
        monitors_ = &kit->acquire(semantics, invariants);
    } else {
        own_monitors_ = make_monitors(semantics, invariants);
        monitors_ = own_monitors_.get();
    }
    if (settings_.stop_on_violation) {
        monitors_->set.stop_on_violation(world_);
    }
    world_.trace().add_sink(monitors_->set);
}

} // namespace routesim::scenarios::detail
