// Scheduler: the runnable set and the policies that pick from it (fifo, random, pct, replay),
// with the decision log that makes every run replayable.
// Part of sim/: depends on the standard library only; knows tasks only by id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/detail/run_queue.hpp"
#include "sim/prng.hpp"
#include "sim/result.hpp"

namespace routesim::sim {

/// A schedulable unit; the runtime uses the process id, so "ordered by task id" is
/// "ordered by PID".
using TaskId = std::uint64_t;

/// How the scheduler picks among runnable tasks.
enum class Policy : std::uint8_t {
    Fifo,   ///< the canonical order: served in the order they became runnable
    Random, ///< uniform among the runnable set
    Pct,    ///< probabilistic concurrency testing (Burckhardt et al. 2010)
    Replay, ///< choices read from a list; canonical once the list runs out
};

/// The policy's name as used on the CLI and in scenario files.
std::string_view policy_name(Policy policy);

/// Parses "fifo", "random", "pct" or "replay".
Result<Policy, std::string> parse_policy(std::string_view name);

/// Scheduler configuration, built with designated initializers at the call site.
struct SchedulerOptions {
    Policy policy = Policy::Fifo;
    /// PCT bug depth d: d-1 priority change points.
    std::uint32_t pct_depth = 3;
    /// PCT: the change points are drawn uniformly among this many steps.
    std::uint64_t pct_steps_expected = 10'000;
    /// Replay: the recorded choices (index into the runnable set ordered by task id).
    std::vector<std::uint32_t> replay;
    /// Record the decision log even under Fifo (it costs an ordered runnable set).
    bool record_fifo = false;
};

/// The runnable set and the policy. A decision is recorded only when two or more tasks are
/// runnable, as the index of the chosen task in the runnable set ordered by task id; replay
/// consumes a decision under the same condition, so the log is exactly the set of real
/// choices. A decision out of range, or one past the end of the log, takes the canonical
/// (fifo) task instead.
class Scheduler {
public:
    /// `prng` is the scheduler's own stream (forked from the root seed as "scheduler").
    Scheduler(SchedulerOptions options, Prng prng);

    // -- queries ----------------------------------------------------------------------
    /// Number of runnable tasks.
    std::size_t runnable_count() const;
    bool has_runnable() const { return runnable_count() > 0; }
    /// The decisions made so far (see class comment).
    const std::vector<std::uint32_t>& decisions() const { return decisions_; }
    Policy policy() const { return options_.policy; }
    /// How many replay decisions were taken from the list (the rest fell back).
    std::size_t replay_consumed() const { return replay_next_; }

    // -- commands ---------------------------------------------------------------------
    /// Adds a task to the runnable set. Precondition: the task is not runnable already.
    /// Inline: under fifo without a log this is one push of the id on the fast queue (no
    /// ticket: the queue's order is the canonical order, and only the ordered path reads
    /// tickets).
    void make_runnable(TaskId task) {
        if (!ordered_path_) {
            fast_.push_back(task);
            return;
        }
        make_runnable_ordered(task);
    }
    /// Removes a runnable task without running it (its process died). Returns false when it
    /// was not runnable.
    bool remove(TaskId task);
    /// Picks the next task per the policy, removes it from the runnable set and returns it.
    /// Returns nothing when no task is runnable.
    /// Inline: the fifo fast path then stays in registers in the run loop.
    std::optional<TaskId> pick() {
        TaskId task = 0;
        if (!pick(task)) {
            return std::nullopt;
        }
        return task;
    }
    /// pick() for a step loop: the picked task goes to `task`; false when none is runnable.
    /// (The loop's task stays in a register, where an optional's flag and value went through
    /// memory.)
    bool pick(TaskId& task) {
        if (!ordered_path_) {
            if (fast_.empty()) {
                return false;
            }
            // Not counted in steps_: only PCT (the ordered path) reads it.
            task = fast_.front();
            fast_.pop_front();
            return true;
        }
        const std::optional<TaskId> picked = pick_ordered();
        if (!picked) {
            return false;
        }
        task = *picked;
        return true;
    }
    /// PCT: makes the next pick a priority change point, on top of the drawn ones (the fuzzer
    /// puts them at racy moments). No effect under the other policies.
    void add_pct_change_point();

private:
    struct Runnable {
        TaskId task;
        std::uint64_t ticket;       // when it became runnable: the canonical order
        std::uint64_t priority = 0; // PCT only: the task's current priority
    };
    bool uses_ordered_set() const {
        return options_.policy != Policy::Fifo || options_.record_fifo;
    }
    void make_runnable_ordered(TaskId task);
    std::optional<TaskId> pick_ordered();
    bool needs_fifo_queue() const;
    void compact_fifo_queue();
    std::size_t canonical_index();
    std::size_t choose_index();
    std::size_t pct_index();
    std::uint64_t pct_priority(TaskId task);
    std::size_t find_index(TaskId task) const;
    TaskId take(std::size_t index);

    SchedulerOptions options_;
    bool ordered_path_; // uses_ordered_set(), fixed at construction
    Prng prng_;
    std::uint64_t next_ticket_ = 0;
    std::uint64_t steps_ = 0; // picks on the ordered path (PCT change points)
    // Fast path (fifo, no log): `fast_`, the FIFO of task ids alone.
    // Ordered path: `ordered_` sorted by task id, `fifo_` as a lazily cleaned canonical queue.
    detail::RunQueue<TaskId> fast_;
    std::vector<Runnable> ordered_;
    detail::RunQueue<Runnable> fifo_;
    std::vector<std::uint32_t> decisions_;
    std::size_t replay_next_ = 0;
    // PCT state: priority per task id (sorted vector of pairs), change points (sorted steps).
    std::vector<std::pair<TaskId, std::uint64_t>> pct_priorities_;
    std::vector<std::uint64_t> pct_change_steps_;
    std::size_t pct_next_change_ = 0;
};

} // namespace routesim::sim
