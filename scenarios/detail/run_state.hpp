// Runner internals: the state of one scenario run (world, node, harness, sinks) and the
// driver of its workload, timeline and random faults. Private to scenarios/.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "properties/monitor.hpp"
#include "properties/runtime_monitors.hpp"
#include "runtime/node.hpp"
#include "scenarios/harness.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/runner.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios::detail {

runtime::MessagePriority runtime_priority(Priority priority);

/// Counts what the summary and expectations need from the trace: restarts per route and
/// messages handed to behaviours per process.
class Tally final : public sim::TraceSink {
public:
    void on_event(const sim::TraceEvent& event) override;
    /// route_restart events by (router pid id, route name).
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> restarts;
    /// Regular and Request items taken, by pid id.
    std::map<std::uint64_t, std::uint64_t> taken;
};

/// One run of one scenario.
class RunState {
public:
    RunState(const Scenario& scenario, const RunSettings& settings);
    ~RunState();
    RunState(const RunState&) = delete;
    RunState& operator=(const RunState&) = delete;

    /// Builds, drives, runs and checks; call once.
    RunResult execute();

private:
    static sim::WorldOptions world_options(const Scenario& scenario, const RunSettings& settings);
    void install_monitors();
    void build();
    void schedule_workload();
    void schedule_source(std::uint32_t index, std::uint64_t repetition);
    void schedule_timeline();
    void schedule_faults();
    void schedule_kill_fault();
    void schedule_admin_fault();
    bool world_is_quiet() const;
    Json instantiate(const Json& message, std::uint64_t index);
    void send_from(const std::string& from, const std::string& to, const Json& message,
                   Priority priority);
    void call_from(const std::string& from, const std::string& to, const Json& message,
                   Priority priority, sim::Duration timeout);
    void perform(std::uint32_t index);
    std::string perform_management(std::uint32_t index, const Action& action);
    void check_outcome(const Action& action, const std::string& actual);
    void evaluate(const Expect& expect);
    void summarise();
    void add_check(std::string what, std::string expected, std::string actual,
                   std::string pointer);
    const Node* spec_of_target(const std::string& target) const;
    std::uint64_t processed(const std::string& target) const;
    std::optional<runtime::PID> live(const std::string& target) const;
    void judge_invariants();

    const Scenario& scenario_;
    const RunSettings& settings_;
    sim::World world_;
    runtime::Node node_;
    Harness harness_;
    TargetResolver static_targets_;
    sim::Prng workload_prng_;
    sim::Prng kill_prng_;
    sim::Prng admin_prng_;
    std::unique_ptr<sim::JsonlSink> jsonl_;
    Tally tally_;
    properties::MonitorSet monitors_;
    properties::MessageConservation* conservation_ = nullptr;
    std::unique_ptr<properties::MessageConservation> ledger_only_;
    std::uint64_t admin_fault_count_ = 0;
    RunResult result_;
};

} // namespace routesim::scenarios::detail
