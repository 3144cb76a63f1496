// What a run records as it goes, each table owned by one part: ClientRecords (what clients
// got back), Outcomes (results of timeline actions known after they were made) and
// RouterRecords (routers' last tables, route failures, ignored admin messages).
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "runtime/router.hpp"
#include "sim/assert.hpp"
#include "sim/time.hpp"

namespace routesim::scenarios {

/// What a client got back.
struct ClientRecord {
    std::uint64_t received = 0;
    std::map<std::string, std::uint64_t> types;
    std::map<std::string, std::uint64_t> errors;
};

/// The records of every client, by name. Written by the clients and the workload; read by
/// the expectations and the result.
class ClientRecords {
public:
    /// The record of client `name` (made on first use; the address is stable).
    ClientRecord& record(const std::string& name) { return clients_[name]; }
    /// Every client's record, by name.
    const std::map<std::string, ClientRecord>& all() const { return clients_; }

private:
    std::map<std::string, ClientRecord> clients_;
};

/// The outcome of a timeline action known after it was made ("ok" or an Ergo error name: an
/// admin-path management call's result, a timeline call's outcome) and when it arrived.
struct TimedOutcome {
    std::string result;
    sim::Instant at;
};

/// Outcomes of timeline actions by action index: admin-path management results (reported by
/// the router when it runs the operation) and timeline call outcomes (when the call returns).
class Outcomes {
public:
    /// Records the admin-path result of timeline action `action` at `at` (the first counts).
    void note_admin(std::int64_t action, std::string result, sim::Instant at) {
        note(admin_results_, action, std::move(result), at);
    }
    /// Records the outcome of timeline call `action` at `at` (the first counts).
    void note_call(std::int64_t action, std::string result, sim::Instant at) {
        note(call_results_, action, std::move(result), at);
    }
    const std::map<std::int64_t, TimedOutcome>& admin_results() const { return admin_results_; }
    const std::map<std::int64_t, TimedOutcome>& call_results() const { return call_results_; }
    /// Told of each outcome as it arrives (the timeline checks its `expect` then); empty when
    /// nobody listens.
    std::function<void(std::int64_t action, const TimedOutcome& outcome)> on_outcome;

private:
    void note(std::map<std::int64_t, TimedOutcome>& table, std::int64_t action, std::string result,
              sim::Instant at) {
        RS_ASSERT(action >= 0);
        RS_ASSERT(&table == &admin_results_ || &table == &call_results_);
        auto [entry, added] = table.try_emplace(action, TimedOutcome{std::move(result), at});
        if (added && on_outcome) {
            on_outcome(action, entry->second); // an action's outcome counts once, when it arrives
        }
    }

    std::map<std::int64_t, TimedOutcome> admin_results_;
    std::map<std::int64_t, TimedOutcome> call_results_;
};

/// A router's route table and counters as they were when it terminated, and why it did.
struct RouterLastTable {
    std::vector<runtime::act::RouterRouteInfo> routes;
    runtime::act::RouterCounters counters;
    sim::Instant at;
    std::string reason;
};

/// What the scenario's routers record about themselves: the last table of each router
/// process that terminated, MessageRouteFailed counts and ignored admin messages. Written by
/// the routers; read by the expectations and the summary.
class RouterRecords {
public:
    using FailedCounts = std::map<std::string, std::uint64_t>;
    /// Keeps the table of router process `pid_id` as it terminated.
    void note_last_table(std::uint64_t pid_id, RouterLastTable table) {
        last_tables_[pid_id] = std::move(table);
    }
    /// The last table of router process `pid_id`, or nullptr when it did not terminate.
    const RouterLastTable* last_table(std::uint64_t pid_id) const {
        auto found = last_tables_.find(pid_id);
        return found == last_tables_.end() ? nullptr : &found->second;
    }
    /// The MessageRouteFailed counts (error name -> count) of the router node at `path`, for
    /// the router to count into (made on first use; the address is stable).
    FailedCounts& failed_counts(const std::string& path) { return route_failed_[path]; }
    /// The same, read only: empty when that router counted none.
    const FailedCounts& route_failed(const std::string& path) const {
        static const FailedCounts none;
        auto found = route_failed_.find(path);
        return found == route_failed_.end() ? none : found->second;
    }
    /// Counts an admin-path message the router at `path` did not understand.
    void note_admin_ignored(const std::string& path) { admin_ignored_[path]++; }

private:
    std::map<std::uint64_t, RouterLastTable> last_tables_;
    std::map<std::string, FailedCounts> route_failed_;
    std::map<std::string, std::uint64_t> admin_ignored_;
};

} // namespace routesim::scenarios
