// SpecIndex: the registry of the topology a run built: each node spec's fault classes and
// statistics (incarnations, messages processed, Init attempts), and the spec of each PID.
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

/// What happened to the processes of one topology node (all its incarnations).
struct NodeStats {
    /// `fail_spawns`: this many further spawns fail in Init.
    std::uint64_t fail_next = 0;
    /// Messages and calls handed to the behaviour, summed over incarnations.
    std::uint64_t processed = 0;
    /// Every PID that ran this node's spec, in spawn order.
    std::vector<runtime::PID> incarnations;
};

/// The classes of `faults.*.targets` a node belongs to.
struct FaultClasses {
    bool route_worker = false;
    bool pool_worker = false;
    bool worker = false;
    bool router = false;
    bool pool = false;
    bool supervisor = false;
    /// faults.crash can hit the node (its probability aside): set by the SpecIndex from the
    /// classes above, so that a draw per message taken does not match the targets again.
    bool crash_hit = false;
    bool matches(const std::vector<FaultTarget>& targets) const;
};

/// `spec` copied under `path` (a random fault's worker at "<router>/<route>"), the paths of
/// its subtree moved with it.
std::unique_ptr<Node> spec_under(const Node& spec, const std::string& path);

/// The node registry of one run: fault classes by node path, statistics by node path, and the
/// spec each spawned PID ran. Written by the behaviours as processes start (note_spawn,
/// count_init) and by the timeline (fail_next); read by the faults, targets and expectations.
class SpecIndex {
public:
    /// Indexes the topology and the timeline's worker specs of `scenario`.
    explicit SpecIndex(const Scenario& scenario);
    SpecIndex(const SpecIndex&) = delete;
    SpecIndex& operator=(const SpecIndex&) = delete;

    /// The statistics of `spec`'s node (made on first use; the address is stable).
    NodeStats& stats(const Node& spec) {
        SpecEntry& entry = entry_of(spec);
        if (entry.stats == nullptr) {
            entry.stats = &stats_[spec.path]; // std::map nodes are stable
        }
        return *entry.stats;
    }
    /// The statistics of the node at `path` (made on first use).
    NodeStats& stats_by_path(const std::string& path) { return stats_[path]; }
    /// Every node's statistics, by node path.
    const std::map<std::string, NodeStats>& all_stats() const { return stats_; }
    /// Every PID the node at `path` ran, in spawn order (none when it never started).
    const std::vector<runtime::PID>& incarnations(const std::string& path) const {
        static const std::vector<runtime::PID> none;
        const auto found = stats_.find(path);
        return found == stats_.end() ? none : found->second.incarnations;
    }
    /// The node's latest PID, or nullptr when it never started.
    const runtime::PID* latest(const std::string& path) const {
        const std::vector<runtime::PID>& pids = incarnations(path);
        return pids.empty() ? nullptr : &pids.back();
    }
    /// Counts one more Init of `spec` and returns the count so far (1 for the first). Counted
    /// per spec node, not per path: a worker spec given in an add_route / replace_route action
    /// or admin message shares its path with the spec it replaces but counts its own Inits
    /// from zero (scenarios/FORMAT.md, `init.fail_first`).
    std::uint64_t count_init(const Node& spec) { return ++entry_of(spec).inits; }

    /// The fault classes of a node of the topology or of a timeline worker.
    const FaultClasses& classes(const Node& spec) const;
    /// Indexes a route worker made during the run (the worker of a random add_route or
    /// replace_route, or of a router.admin message), as timeline workers are indexed.
    void index_route_worker(const Node& worker);

    /// Records a new incarnation of `spec`.
    void note_spawn(const Node& spec, const runtime::PID& pid) {
        note_spawn(spec, classes(spec), stats(spec), pid);
    }
    /// The same, with the node's classes and stats already looked up (a worker keeps them).
    void note_spawn(const Node& spec, const FaultClasses& classes, NodeStats& stats,
                    const runtime::PID& pid);
    /// The node spec a PID ran, if it came from the topology.
    const Node* spec_of(const runtime::PID& pid) const {
        const Spawned* found = spawned(pid);
        return found == nullptr ? nullptr : found->spec;
    }
    /// The fault classes of that spec (looked up once, at the spawn), or nullptr.
    const FaultClasses* classes_of(const runtime::PID& pid) const {
        const Spawned* found = spawned(pid);
        return found == nullptr ? nullptr : found->classes;
    }

    /// The spec and fault classes of a spawned PID.
    struct Spawned {
        const Node* spec = nullptr;
        const FaultClasses* classes = nullptr;
    };
    /// The spec and classes `pid` ran with, or nullptr when it is not from the topology.
    const Spawned* spawned(const runtime::PID& pid) const {
        const std::uint64_t index =
            pid.id - runtime::Node::first_pid_id; // smaller ids wrap: no entry
        return index < spec_by_pid_.size() && spec_by_pid_[index].spec != nullptr
                   ? &spec_by_pid_[index]
                   : nullptr;
    }

private:
    void index_classes(const Node& root);
    /// Sets classes.crash_hit from the other classes and faults.crash.
    void settle_crash_hit(FaultClasses& classes) const;

    const Scenario& scenario_;
    std::map<std::string, NodeStats> stats_;
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
    /// By PID id - Node::first_pid_id: ids come from one node counter and are never reused,
    /// so the table is dense (no tree node per spawn). Missing ids are {nullptr, nullptr}.
    std::vector<Spawned> spec_by_pid_;
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
};

} // namespace routesim::scenarios
