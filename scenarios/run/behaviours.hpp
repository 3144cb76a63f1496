// The behaviour library of scenario files (scenarios/FORMAT.md "Behaviours"): echo, sink,
// keyed_state and forward workers with their knobs, and the recorder clients.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "runtime/actor.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/fault_draws.hpp"
#include "scenarios/run/message_cache.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/registry.hpp"
#include "scenarios/run/spec_index.hpp"
#include "scenarios/run/targets.hpp"

namespace routesim::scenarios {

/// The runtime priority of a scenario Priority (inline: every workload message converts one).
inline runtime::MessagePriority runtime_priority(Priority priority) {
    switch (priority) {
    case Priority::Normal:
        return runtime::MessagePriority::Normal;
    case Priority::High:
        return runtime::MessagePriority::High;
    case Priority::Max:
        return runtime::MessagePriority::Max;
    }
    return runtime::MessagePriority::Normal;
}

/// What a worker uses of its run: the node registry, the fault draws, target resolution and
/// the campaign's message cache (null: none). The run owns each part; this holds references.
struct WorkerContext {
    SpecIndex& specs;
    FaultDraws& draws;
    const Targets& targets;
    MessageCache* cache = nullptr;
    const Scenario& scenario;
};

/// What a client uses of its run: armed crashes, target resolution, its record, and the
/// outcomes table its timeline calls report to.
struct ClientContext {
    runtime::Node& node;
    FaultDraws& draws;
    const Targets& targets;
    ClientRecords& clients;
    Outcomes& outcomes;
};

/// A worker actor built from a `behavior` object. Knobs: cost, crash_on, init failures,
/// terminate_cost, ignore_calls (and the run's random crash and spawn-failure faults). A
/// registered behaviour (BehaviourType::Custom) gets each message and call after them.
class Worker final : public runtime::act::Actor {
public:
    Worker(const WorkerContext& context, const Node& spec);

    runtime::Status init(const runtime::Args& args) override;
    runtime::Status handle_message(const runtime::PID& from,
                                   const runtime::Message& message) override;
    runtime::act::CallReply handle_call(const runtime::PID& from, const runtime::Ref& ref,
                                        const runtime::Message& request) override;
    runtime::Inspection handle_inspect(const runtime::PID& from,
                                       const std::vector<std::string>& items) override;
    std::string_view behavior_name() const override;
    sim::Duration terminate_delay() const override { return terminate_delay_; }

private:
    /// Counts the message, applies crash and cost knobs; false means "panic now".
    bool take(const runtime::Message& message);
    /// What "by" says: the node's name, else the printed PID (made once, on first use).
    const Json& identity();
    /// An echo's answer to `of`: {"type": type, "of": <of's JSON>, "by": identity()}. A
    /// campaign's shared message gets the one this worker identity made for it in an earlier
    /// run (MessageCache): the same value.
    runtime::Message echo_reply(const runtime::Message& of, std::string_view type);
    /// The campaign's receipts of this worker's identity (looked up on first use), or null.
    MessageCache::Receipts* receipts();
    std::string key_of(const runtime::Message& message) const;
    /// Makes the registered behaviour (or records why its factory made none).
    void make_custom();
    /// What a registered behaviour does with a message or call.
    bool custom_message(const runtime::PID& from, const runtime::Message& message);
    runtime::act::CallReply custom_call(const runtime::PID& from, const runtime::Message& request);
    class Io;

    const WorkerContext& context_;
    FaultDraws& draws_; // (a reference of its own: every message taken draws)
    const Node& spec_;
    const FaultClasses& classes_; // this node's fault classes (std::map nodes are stable)
    std::uint64_t taken_ = 0;
    std::map<std::string, std::uint64_t> counts_; // keyed_state; lost on restart
    Json identity_;                               // null until identity() makes it
    MessageCache::Receipts* receipts_ = nullptr;
    bool receipts_found_ = false;
    NodeStats* stats_ = nullptr; // this node's stats in the SpecIndex, set at init
    sim::Duration terminate_delay_;
    std::unique_ptr<WorkerLogic> custom_; // a registered behaviour, made with the worker
    std::string custom_error_;            // why its factory made none (Init fails with it)
};

/// A factory for workers of `spec`.
runtime::Factory worker_factory(const WorkerContext& context, const Node& spec);

/// A client: a plain recorder registered under its name. It counts what it receives by
/// message type, and performs the calls the workload driver hands it (one at a time, as a
/// blocking caller would), recording their results and errors.
class Client final : public runtime::act::Actor {
public:
    Client(const ClientContext& context, std::string name)
        : context_(context), name_(std::move(name)) {}

    runtime::Status handle_message(const runtime::PID& from,
                                   const runtime::Message& message) override;
    std::string_view behavior_name() const override { return "client"; }

    /// The payload of call_order.
    struct CallOrder;

private:
    runtime::Status start_call(const CallOrder& order);
    ClientRecord& record();

    const ClientContext& context_;
    std::string name_;
    ClientRecord* record_ = nullptr;
    /// The counter of the last message type received (a client mostly gets one type).
    std::string last_type_;
    std::uint64_t* last_type_count_ = nullptr;
};

/// A factory for the client `name`.
runtime::Factory client_factory(const ClientContext& context, const std::string& name);

/// The control message the driver sends a client to make it call (Urgent queue): a typed
/// payload named "routesim.client.call" in traces. `request` is a JSON message. `action` is the
/// index of the timeline action that made the call (its outcome goes to
/// Outcomes::call_results), or -1 for a workload call.
runtime::Message call_order(const std::string& to, runtime::Message request, sim::Duration timeout,
                            Priority priority, std::int64_t action);

} // namespace routesim::scenarios
