// Runner internals: the workload driver (scenarios/FORMAT.md `workload`): each source's
// messages and calls on their timers, the clients' sends and calls, and the workload PRNG.
// Private to scenarios/run/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/message.hpp"
#include "scenarios/run/detail/core.hpp"
#include "scenarios/run/json_message.hpp"
#include "scenarios/run/message_cache.hpp"
#include "scenarios/run/records.hpp"
#include "scenarios/run/targets.hpp"
#include "sim/prng.hpp"

namespace routesim::scenarios::detail {

/// Drives the workload of one run and sends for the timeline's `send` and `call` actions.
/// Writes the clients' records of what the driver itself saw fail (a stopped client, an
/// unknown target) and the outcome of a timeline call refused at once.
class Workload {
public:
    Workload(const RunCore& core, const Targets& targets, ClientRecords& clients,
             Outcomes& outcomes, MessageCache* cache);
    Workload(const Workload&) = delete;
    Workload& operator=(const Workload&) = delete;

    /// Schedules the first message of every source (call once, before the run).
    void schedule();
    /// Sends from a client; returns "ok" or the Ergo error name it recorded for the client.
    std::string send_from(const std::string& from, const std::string& to, runtime::Message message,
                          Priority priority);
    /// Has a client call; `action` is the timeline action index whose `expect` gets the
    /// outcome (Outcomes::call_results), or -1 for a workload call.
    void call_from(const std::string& from, const std::string& to, runtime::Message message,
                   Priority priority, sim::Duration timeout, std::int64_t action);

private:
    void schedule_source(std::uint32_t index, std::uint64_t repetition);
    Json instantiate(const Json& message, std::uint64_t index);
    /// Repetition `repetition` of workload source `source` (from the campaign's cache when
    /// there is one).
    runtime::Message workload_message(std::uint32_t source, std::uint64_t repetition);
    /// send_from for workload source `source` (its client's atom and record looked up once).
    void send_workload(std::uint32_t source, runtime::Message message);

    sim::World& world_;
    runtime::Node& node_;
    const Scenario& scenario_;
    const Targets& targets_;
    ClientRecords& clients_;
    Outcomes& outcomes_;
    MessageCache* cache_;
    sim::Prng prng_;
    /// Per source, when there is no cache: the template of its repetitions when its message
    /// draws nothing ({"uniform": ...}), so that a repetition is the template and its index
    /// (JsonMessage::from_template); null when it draws. The messages point to their template:
    /// the Workload outlives every read of them (declared after the Runner's node, it goes
    /// before the node destroys what is still queued, unread).
    std::vector<std::unique_ptr<const JsonMessage::Template>> templates_;
    /// Per workload source: its client's atom and record, looked up on its first message.
    struct SourceClient {
        runtime::Atom from;
        ClientRecord* record = nullptr;
        /// `to` when it is a single registered name (no path): looked up by this atom per
        /// message, as resolve_target would, without interning the text again.
        std::optional<runtime::Atom> to_name;
        /// The record's count of ProcessUnknown (a target that is gone: often many in a row).
        std::uint64_t* unknown_count = nullptr;
        /// The PIDs `from` and `to_name` were last registered to (empty until found): a live
        /// process that still bears the name is the one the registry holds, so a message
        /// costs a table index instead of two registry lookups.
        runtime::PID from_pid;
        runtime::PID to_pid;
    };
    std::vector<SourceClient> source_clients_;
};

} // namespace routesim::scenarios::detail
