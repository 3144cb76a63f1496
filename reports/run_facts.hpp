// What a report needs from one run's trace: the processes (who spawned whom, when they ended),
// message counts per route, per registry target, per pool worker and per sender, and the
// marked moments (restarts, pending windows, faults), collected online by a trace sink.
// Part of reports/: uses scenarios/, properties/, runtime/ and sim/; knows nothing of how runs
// are made beyond the public scenarios/run/runner.hpp API.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/topology_view.hpp"
#include "scenarios/format/model.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::reports {

/// The pid id of the node's core process (the parent of the topology root and the clients).
inline constexpr std::uint64_t core_pid = 1;

/// True for the exit reasons of a tree working as designed: normal and shutdown, also when
/// an exit signal names its sender ("<pid>: shutdown"). Anything else is a fault.
bool is_normal_exit(std::string_view reason);

/// One process as the trace shows it.
struct ProcessFacts {
    std::uint64_t pid = 0;
    std::uint64_t parent = 0;
    /// Name registered at spawn ("" when none).
    std::string name;
    /// Behaviour name ("echo", "router", "client", ...).
    std::string behavior;
    sim::Instant spawned;
    /// When the process ended, if it did.
    std::optional<sim::Instant> ended;
    /// The exit reason (or the Init failure) when it ended.
    std::string end_reason;
    bool init_failed = false;
    /// Mailbox items taken (messages, calls, signals).
    std::uint64_t taken = 0;
    /// For a router's route worker: the route name, learned from the router's events.
    std::string route;

    bool is_alive() const { return !ended.has_value(); }
};

/// Routing outcomes of one route name of one router.
struct RouteTraffic {
    /// Forwarded to an owned route worker.
    std::uint64_t owned = 0;
    /// Forwarded to a process found in the registry.
    std::uint64_t registry = 0;
    std::uint64_t failed = 0;
    /// Failure reason -> count.
    std::map<std::string, std::uint64_t> failed_by_reason;

    std::uint64_t forwarded() const { return owned + registry; }
};

/// What a marker marks.
enum class MarkerKind : std::uint8_t { Restart, PendingBegin, PendingEnd, Fault };

/// A marked moment of the run, drawn in the timeline and the Chrome trace.
struct Marker {
    MarkerKind kind = MarkerKind::Fault;
    std::uint64_t seq = 0;
    sim::Instant at;
    /// The process whose track carries the marker (router, supervisor, victim).
    std::uint64_t pid = 0;
    /// Pairs a PendingBegin with its PendingEnd ("<router pid>/<route name>").
    std::string key;
    std::string text;
};

/// A (sender or router or pool, receiver) pair of pid ids.
using PidPair = std::pair<std::uint64_t, std::uint64_t>;

/// Everything the collector gathered.
struct RunFacts {
    /// Every process spawned, by pid id (spawn order).
    std::map<std::uint64_t, ProcessFacts> processes;
    /// (router pid, route name) -> outcomes. Discarded messages are not here.
    std::map<std::pair<std::uint64_t, std::string>, RouteTraffic> routes;
    /// Router pid -> messages it discarded (RouteDiscard).
    std::map<std::uint64_t, std::uint64_t> discarded;
    /// (router pid, target pid) -> messages forwarded through a registry resolution.
    std::map<PidPair, std::uint64_t> registry_hits;
    /// (pool pid, worker pid) -> messages forwarded.
    std::map<PidPair, std::uint64_t> pool_hits;
    /// (from pid, to pid) -> messages and calls sent (forwards not included).
    std::map<PidPair, std::uint64_t> sends;
    /// (router or supervisor pid, route or child name) -> restarts it counted.
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> restarts;
    /// Restarts, pending windows and faults, in trace order.
    std::vector<Marker> markers;
    /// The first `records_max` events, in trace order.
    std::vector<sim::TraceRecord> records;
    /// Every event seen (records may hold fewer).
    std::uint64_t events = 0;

    /// The process with this pid id, or nullptr.
    const ProcessFacts* process(std::uint64_t pid) const;
};

/// Limits of the collector.
struct CollectorOptions {
    /// Events kept as records for the timeline and the Chrome trace.
    std::size_t records_max = 200'000;
};

/// A trace sink that gathers RunFacts while a run goes; attach it through
/// RunSettings::extra_sinks. The processes, restarts and discards come from the run's
/// TopologyView (view()), which it feeds; it keeps only the report's own counts, markers and
/// records. Cost: one view step and O(log n) per event plus one record copy while under the cap.
class TraceCollector final : public sim::TraceSink {
public:
    explicit TraceCollector(CollectorOptions options = {}) : options_(options) {}
    void on_event(const sim::TraceEvent& event) override;
    /// The facts; processes, restarts and discarded are filled from the view on each call.
    const RunFacts& facts() const;
    /// The view of the run the collector feeds.
    const properties::TopologyView& view() const { return view_; }

private:
    void on_route(const runtime::ev::Route& routed);
    void on_route_pending(const runtime::ev::RoutePending& pending, const sim::TraceEvent& event);
    void on_ended(std::uint64_t pid, const sim::TraceEvent& event, bool init_failed);
    /// The kinds that only add a marker or a pool hit (restarts, pool forwards, kills).
    void on_marked(runtime::ev::Kind kind, const sim::TraceEvent& event);
    void mark(const sim::TraceEvent& event, MarkerKind kind, std::uint64_t pid, std::string text,
              std::string key = {});

    CollectorOptions options_;
    properties::TopologyView view_;
    mutable RunFacts facts_;
    /// Mailbox items taken, by pid id (the report's own count).
    std::map<std::uint64_t, std::uint64_t> taken_;
    /// The victim of the last injected kill, to name the `kill` that follows it.
    std::uint64_t injected_kill_ = 0;
};

/// The topology path of every process that ran a node of the scenario (or of a timeline
/// add_route/replace_route worker), by pid id. Clients and unknown processes are absent.
/// Paths come from the parent chain: the root is the topology root, a supervisor's child is
/// found by its registered name, a pool's child is its worker spec, and a router's child is
/// the route its events name.
std::map<std::uint64_t, std::string> process_paths(const scenarios::Scenario& scenario,
                                                   const RunFacts& facts);

/// A name for every process of the run, by pid id: its topology path, else its registered
/// name (clients), else its behaviour; the core process is "node".
std::map<std::uint64_t, std::string> process_labels(const scenarios::Scenario& scenario,
                                                    const RunFacts& facts);

/// The nodes of the scenario by path: the topology and every timeline worker, walked
/// without recursion.
std::map<std::string, const scenarios::Node*> nodes_by_path(const scenarios::Scenario& scenario);

} // namespace routesim::reports
