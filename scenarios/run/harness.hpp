// Harness: the shared state of one scenario run that the behaviour library, the builder, the
// workload driver and the expectation checker all read: per-node statistics, client records,
// fault settings and their PRNG stream, and runtime target resolution.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/message.hpp"
#include "runtime/node.hpp"
#include "runtime/router.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"
#include "sim/prng.hpp"

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

/// What happened to the processes of one topology node (all its incarnations).
struct NodeStats {
    /// `fail_spawns`: this many further spawns fail in Init.
    std::uint64_t fail_next = 0;
    /// Messages and calls handed to the behaviour, summed over incarnations.
    std::uint64_t processed = 0;
    /// Every PID that ran this node's spec, in spawn order.
    std::vector<runtime::PID> incarnations;
};

/// What a client got back.
struct ClientRecord {
    std::uint64_t received = 0;
    std::map<std::string, std::uint64_t> types;
    std::map<std::string, std::uint64_t> errors;
};

/// The outcome of a timeline action known after it was made ("ok" or an Ergo error name: an
/// admin-path management call's result, a timeline call's outcome) and when it arrived.
struct TimedOutcome {
    std::string result;
    sim::Instant at;
};

/// A router's route table and counters as they were when it terminated, and why it did.
struct RouterLastTable {
    std::vector<runtime::act::RouterRouteInfo> routes;
    runtime::act::RouterCounters counters;
    sim::Instant at;
    std::string reason;
};

/// The classes of `faults.*.targets` a node belongs to.
struct FaultClasses {
    bool route_worker = false;
    bool pool_worker = false;
    bool worker = false;
    bool router = false;
    bool pool = false;
    bool supervisor = false;
    /// faults.crash can hit the node (its probability aside): set by the Harness from the
    /// classes above, so that a draw per message taken does not match the targets again.
    bool crash_hit = false;
    bool matches(const std::vector<FaultTarget>& targets) const;
};

/// `spec` copied under `path` (a random fault's worker at "<router>/<route>"), the paths of
/// its subtree moved with it.
std::unique_ptr<Node> spec_under(const Node& spec, const std::string& path);

/// Messages shared by the runs of one campaign (RunSettings::cache), so that a fuzz run does
/// not rebuild and free the same JSON thousands of times: the workload messages that do not
/// depend on the run (no {"uniform": ...} draw), made on first use, and the echo receipts
/// and call replies made for those messages (by worker identity, Receipts). Messages are immutable
/// shared payloads, so a run that takes one from here sends exactly the value it would have built:
/// results and traces are unchanged. It also keeps the worker specs of random add_route /
/// replace_route faults (fault_worker). One cache serves one scenario; one thread (a campaign
/// worker process). Bounded: past its caps it stores nothing more and callers build messages as
/// without a cache.
class MessageCache {
public:
    explicit MessageCache(const Scenario& scenario);
    MessageCache(const MessageCache&) = delete;
    MessageCache& operator=(const MessageCache&) = delete;

    const Scenario& scenario() const { return scenario_; }

    /// Workload message `repetition` of source `source`, made by `make` on first use; nullptr
    /// when this source's messages depend on the run or the cache is full (then the caller
    /// makes the message itself, drawing what it draws).
    template <class Make>
    const runtime::Message* workload(std::uint32_t source, std::uint64_t repetition, Make&& make) {
        RS_ASSERT(source < sources_.size());
        Source& entry = sources_[source];
        if (!entry.cacheable) {
            return nullptr;
        }
        if (repetition < entry.messages.size()) {
            return &entry.messages[repetition];
        }
        if (repetition != entry.messages.size() || stored_ >= stored_max) {
            return nullptr; // only in order, so that the vector stays dense
        }
        entry.messages.push_back(make());
        index_workload(entry.messages.back());
        stored_++;
        return &entry.messages.back();
    }

    /// The receipts and call replies that one worker identity made, by workload message. An
    /// echo's answer is a function of its type, the message and the identity's "by" text, so
    /// a worker finds the table of its identity once and then each answer by the message's
    /// index (JsonMessage::shared_index): no search per message.
    class Receipts {
    public:
        explicit Receipts(MessageCache& cache) : cache_(cache) {}
        /// The answer stored for `of`, or nullptr (none yet, or `of` is not shared).
        const runtime::Message* find(const runtime::Message& of) const {
            const auto* json = of.get<JsonMessage>();
            if (json == nullptr || json->shared_index() >= by_message_.size()) {
                return nullptr; // unshared messages have the largest index
            }
            const runtime::Message& stored = by_message_[json->shared_index()];
            return stored.empty() ? nullptr : &stored;
        }
        /// Stores the answer made for `of` when `of` is a shared workload message (other
        /// messages die with their run). Precondition: none stored for `of` yet.
        void store(const runtime::Message& of, runtime::Message receipt);

    private:
        MessageCache& cache_;
        std::vector<runtime::Message> by_message_; // empty: none stored
    };
    /// The receipts of a worker identity, made on first use (the address is stable): a named
    /// node's `name`, else the process `pid` (which prints as its "by"); nullptr once the
    /// cache holds identities_max identities.
    Receipts* receipts_of(std::string_view name, const runtime::PID& pid);

    /// The worker spec of a random add_route / replace_route fault at `path` (a copy of
    /// `spec`, a node of this cache's scenario, under that path), made on first use; stable
    /// address. nullptr past fault_workers_max paths (the run then makes its own copy).
    const Node* fault_worker(const Node& spec, const std::string& path);

private:
    struct Source {
        bool cacheable = false;
        std::vector<runtime::Message> messages;
    };
    static constexpr std::size_t stored_max = std::size_t{1} << 16;
    static constexpr std::size_t identities_max = 1024;
    void index_workload(const runtime::Message& message);

    const Scenario& scenario_;
    std::vector<Source> sources_;
    /// Messages and receipts stored (at most stored_max), and workload messages shared.
    std::size_t stored_ = 0;
    std::uint32_t shared_ = 0;
    /// By identity (looked up once per worker incarnation; never iterated). Map nodes are
    /// stable: workers keep a pointer.
    std::map<std::string, Receipts, std::less<>> receipts_by_name_;
    /// PIDs by id first: a PID's own order compares the node name's text first, the same in
    /// every PID of a campaign.
    struct IdFirst {
        bool operator()(const runtime::PID& a, const runtime::PID& b) const {
            if (a.id != b.id) {
                return a.id < b.id;
            }
            if (a.creation != b.creation) {
                return a.creation < b.creation;
            }
            return a.node != b.node && a.node < b.node;
        }
    };
    std::map<runtime::PID, Receipts, IdFirst> receipts_by_pid_;
    /// fault_worker() copies by (path, spec); never iterated.
    std::map<std::pair<std::string, const Node*>, std::unique_ptr<Node>> fault_workers_;
    static constexpr std::size_t fault_workers_max = 1024;
};

/// Shared state of one run. Not copyable; behaviours keep a reference.
class Harness {
public:
    Harness(runtime::Node& node, const Scenario& scenario);
    ~Harness();
    Harness(const Harness&) = delete;
    Harness& operator=(const Harness&) = delete;

    runtime::Node& node() const { return node_; }
    const Scenario& scenario() const { return scenario_; }
    NodeStats& stats(const Node& spec) {
        SpecEntry& entry = entry_of(spec);
        if (entry.stats == nullptr) {
            entry.stats = &stats_[spec.path]; // std::map nodes are stable
        }
        return *entry.stats;
    }
    NodeStats& stats_by_path(const std::string& path) { return stats_[path]; }
    /// Counts one more Init of `spec` and returns the count so far (1 for the first). Counted
    /// per spec node, not per path: a worker spec given in an add_route / replace_route action
    /// or admin message shares its path with the spec it replaces but counts its own Inits
    /// from zero (scenarios/FORMAT.md, `init.fail_first`).
    std::uint64_t count_init(const Node& spec) { return ++entry_of(spec).inits; }
    const std::map<std::string, NodeStats>& all_stats() const { return stats_; }
    ClientRecord& client(const std::string& name) { return clients_[name]; }
    const std::map<std::string, ClientRecord>& clients() const { return clients_; }
    /// The fault classes of a node of the topology or of a timeline worker.
    const FaultClasses& classes(const Node& spec) const;
    /// Indexes a route worker made during the run (the worker of a random add_route or
    /// replace_route), as timeline workers are indexed.
    void index_route_worker(const Node& worker);

    /// The default per-message cost (`run.cost`).
    sim::Duration default_cost() const { return scenario_.run.cost; }
    /// Random crash for a message taken by `pid`, a process of `spec` (faults.crash).
    bool draw_crash(const Node& spec, const runtime::PID& pid) {
        return draw_crash(spec, classes(spec), pid);
    }
    /// The same, with the node's classes already looked up (a worker keeps them). Inline: a
    /// worker or router draws at every message it takes.
    bool draw_crash(const Node& spec, const FaultClasses& classes, const runtime::PID& pid) {
        // crash_hit is false without faults.crash (settle_crash_hit).
        return classes.crash_hit && crash_drawn(spec, pid);
    }
    /// Random Init failure for a spawn of `spec` (faults.spawn_fail).
    bool draw_spawn_failure(const Node& spec) { return draw_spawn_failure(spec, classes(spec)); }
    /// The same, with the node's classes already looked up.
    bool draw_spawn_failure(const Node& spec, const FaultClasses& classes);
    /// The injected Init failure of a spawn of a router, pool or supervisor `spec`: a pending
    /// timeline fail_spawns, else a faults.spawn_fail draw (when its targets include the
    /// node's class). Returns the reason text, or nullopt when the Init goes on. Workers make
    /// the same checks in their own Init.
    std::optional<std::string> injected_init_failure(const Node& spec);
    /// The stop delay of a process of `spec`: its terminate_cost knob, else a draw in
    /// [0, faults.terminate_cost.max] for workers.
    sim::Duration draw_terminate_delay(const Node& spec) {
        return draw_terminate_delay(spec, classes(spec));
    }
    /// The same, with the node's classes already looked up.
    sim::Duration draw_terminate_delay(const Node& spec, const FaultClasses& classes);

    /// Marks a PID to panic on its next message (timeline `crash`, a pinned or aimed crash).
    /// Workers, routers and clients look at the mark when they take a message; a pool or a
    /// supervisor, whose message loop is the runtime's, is watched by the Node instead and
    /// panics at its next message or call take (Node::watch_takes).
    void arm_crash(const runtime::PID& pid);
    /// True (once) when the PID was marked by arm_crash.
    bool take_armed_crash(const runtime::PID& pid) {
        return !crash_armed_.empty() && crash_armed_.erase(pid.id) > 0;
    }

    /// Records a new incarnation of `spec`.
    void note_spawn(const Node& spec, const runtime::PID& pid) {
        note_spawn(spec, classes(spec), stats(spec), pid);
    }
    /// The same, with the node's classes and stats already looked up (a worker keeps them).
    void note_spawn(const Node& spec, const FaultClasses& classes, NodeStats& stats,
                    const runtime::PID& pid);
    /// The node spec a PID ran, if it came from the topology.
    const Node* spec_of(const runtime::PID& pid) const;
    /// The fault classes of that spec (looked up once, at the spawn), or nullptr.
    const FaultClasses* classes_of(const runtime::PID& pid) const;

    /// Runtime target resolution, installed by the builder (it knows routers and pools).
    std::function<std::optional<runtime::PID>(std::string_view)> resolve;
    /// Results of admin-path management calls by timeline action index, with the time the
    /// router reported them.
    std::map<std::int64_t, TimedOutcome> admin_results;
    /// Outcomes of timeline calls by action index, known once they return.
    std::map<std::int64_t, TimedOutcome> call_results;
    /// Told of each of the two above as it arrives (the runner checks its `expect` then).
    std::function<void(std::int64_t action, const TimedOutcome& outcome)> on_outcome;
    /// Records an admin-path result or a call outcome of timeline action `action` at `at`.
    void note_outcome(std::map<std::int64_t, TimedOutcome>& table, std::int64_t action,
                      std::string result, sim::Instant at);
    /// The last route table of each router process that terminated, by PID id.
    std::map<std::uint64_t, RouterLastTable> router_last_tables;
    /// MessageRouteFailed counts: router node path -> error name -> count.
    std::map<std::string, std::map<std::string, std::uint64_t>> route_failed;
    /// Admin-path messages a router did not understand, by router node path.
    std::map<std::string, std::uint64_t> admin_ignored;
    /// Messages shared across the runs of a campaign; null when the run has none.
    MessageCache* cache = nullptr;
    /// Told of every random crash (Verb::Crash, with the victim) and spawn failure
    /// (Verb::FailSpawns, no pid) that a draw fires, so the runner can record it.
    std::function<void(Verb verb, const Node& spec, const runtime::PID* pid)> on_fault_drawn;

private:
    /// draw_crash for a node faults.crash can hit: the draw, and its record when it hits.
    bool crash_drawn(const Node& spec, const runtime::PID& pid);
    void index_classes(const Node& root);
    /// Sets classes.crash_hit from the other classes and faults.crash.
    void settle_crash_hit(FaultClasses& classes) const;
    /// The Node's take-panic hook: an armed crash, else a faults.crash draw for a pool or a
    /// supervisor, at a message or call take.
    bool take_panics(const runtime::PID& pid);
    /// True when `spec` is a pool or a supervisor: a kind whose crashes the Node injects.
    static bool is_watched_kind(const Node& spec);

    runtime::Node& node_;
    const Scenario& scenario_;
    // One stream per kind of draw, so that a reproducer that pins crashes and spawn failures
    // as timeline actions keeps the terminate-cost draws of the run it came from.
    sim::Prng crash_prng_;
    sim::Prng spawn_prng_;
    sim::Prng terminate_prng_;
    std::map<std::string, NodeStats> stats_;
    std::map<std::string, ClientRecord> clients_;
    std::map<std::string, FaultClasses, std::less<>> classes_; // by node path
    /// A spec's entries in classes_ and stats_ (by path), found once per spec: a run spawns
    /// the same few specs again and again. Few, searched linearly; only for lookups.
    struct SpecEntry {
        const Node* spec = nullptr;
        const FaultClasses* classes = nullptr;
        NodeStats* stats = nullptr;
        /// Init attempts of this spec node (count_init).
        std::uint64_t inits = 0;
    };
    mutable std::vector<SpecEntry> spec_entries_;
    SpecEntry& entry_of(const Node& spec) const {
        for (SpecEntry& entry : spec_entries_) {
            if (entry.spec == &spec) {
                return entry;
            }
        }
        spec_entries_.push_back(SpecEntry{&spec, nullptr, nullptr, 0});
        return spec_entries_.back();
    }
    struct Spawned {
        const Node* spec = nullptr;
        const FaultClasses* classes = nullptr;
    };
    /// By PID id - Node::first_pid_id: ids come from one node counter and are never reused,
    /// so the table is dense (no tree node per spawn). Missing ids are {nullptr, nullptr}.
    std::vector<Spawned> spec_by_pid_;
    const Spawned* spawned(const runtime::PID& pid) const {
        const std::uint64_t index =
            pid.id - runtime::Node::first_pid_id; // smaller ids wrap: no entry
        return index < spec_by_pid_.size() && spec_by_pid_[index].spec != nullptr
                   ? &spec_by_pid_[index]
                   : nullptr;
    }
    std::set<std::uint64_t> crash_armed_;
};

} // namespace routesim::scenarios
