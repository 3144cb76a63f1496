// Scheduling policies and the decision log.
// Part of sim/: depends on the standard library only.
#include "sim/scheduler.hpp"

#include <algorithm>

#include "sim/assert.hpp"

namespace routesim::sim {
namespace {

constexpr std::size_t decisions_reserved = 256;

} // namespace

std::string_view policy_name(Policy policy) {
    switch (policy) {
    case Policy::Fifo:
        return "fifo";
    case Policy::Random:
        return "random";
    case Policy::Pct:
        return "pct";
    case Policy::Replay:
        return "replay";
    }
    RS_ASSERT(false);
    return {};
}

Result<Policy, std::string> parse_policy(std::string_view name) {
    for (Policy policy : {Policy::Fifo, Policy::Random, Policy::Pct, Policy::Replay}) {
        if (policy_name(policy) == name) {
            return policy;
        }
    }
    return fail("unknown scheduler \"" + std::string(name) +
                "\" (expected one of: fifo, random, pct, replay)");
}

Scheduler::Scheduler(SchedulerOptions options, Prng prng)
    : options_(std::move(options)), ordered_path_(uses_ordered_set()), prng_(prng) {
    if (options_.policy == Policy::Pct) {
        RS_ASSERT(options_.pct_depth >= 1);
        const std::uint64_t window = std::max<std::uint64_t>(options_.pct_steps_expected, 1);
        for (std::uint32_t i = 1; i < options_.pct_depth; i++) {
            pct_change_steps_.push_back(prng_.below(window));
        }
        std::sort(pct_change_steps_.begin(), pct_change_steps_.end());
    }
}

std::size_t Scheduler::runnable_count() const {
    return uses_ordered_set() ? ordered_.size() : fast_.size();
}

void Scheduler::make_runnable_ordered(TaskId task) {
    RS_ASSERT(uses_ordered_set());
    Runnable entry{task, next_ticket_++};
    if (options_.policy == Policy::Pct) {
        entry.priority = pct_priority(task);
    }
    auto at = std::lower_bound(ordered_.begin(), ordered_.end(), task,
                               [](const Runnable& r, TaskId id) { return r.task < id; });
    RS_ASSERT(at == ordered_.end() || at->task != task);
    ordered_.insert(at, entry);
    if (needs_fifo_queue()) {
        fifo_.push_back(entry);
        if (fifo_.size() > 2 * ordered_.size() + 64) {
            compact_fifo_queue();
        }
    }
}

bool Scheduler::needs_fifo_queue() const {
    return options_.policy == Policy::Fifo || options_.policy == Policy::Replay;
}

void Scheduler::compact_fifo_queue() {
    // Rebuild the canonical queue from the live entries, dropping stale ones.
    std::vector<Runnable> live(ordered_.begin(), ordered_.end());
    std::sort(live.begin(), live.end(),
              [](const Runnable& a, const Runnable& b) { return a.ticket < b.ticket; });
    fifo_.assign(live.begin(), live.end());
}

std::size_t Scheduler::find_index(TaskId task) const {
    auto at = std::lower_bound(ordered_.begin(), ordered_.end(), task,
                               [](const Runnable& r, TaskId id) { return r.task < id; });
    if (at == ordered_.end() || at->task != task) {
        return ordered_.size();
    }
    return static_cast<std::size_t>(at - ordered_.begin());
}

bool Scheduler::remove(TaskId task) {
    if (uses_ordered_set()) {
        const std::size_t index = find_index(task);
        if (index == ordered_.size()) {
            return false;
        }
        // The fifo_ entry goes stale and is skipped when it reaches the head.
        RS_ASSERT(ordered_[index].task == task);
        ordered_.erase(ordered_.begin() + static_cast<std::ptrdiff_t>(index));
        RS_ASSERT(find_index(task) == ordered_.size()); // a task is runnable at most once
        return true;
    }
    for (std::size_t i = 0; i < fast_.size(); i++) {
        if (fast_.at(i) == task) {
            const std::size_t before = fast_.size();
            fast_.erase_at(i);
            RS_ASSERT(fast_.size() + 1 == before);
            return true;
        }
    }
    return false;
}

std::size_t Scheduler::canonical_index() {
    // Drop stale heads: tasks picked out of order or removed since they were queued.
    while (true) {
        RS_ASSERT(!fifo_.empty());
        const Runnable head = fifo_.front();
        const std::size_t index = find_index(head.task);
        if (index < ordered_.size() && ordered_[index].ticket == head.ticket) {
            return index;
        }
        fifo_.pop_front();
    }
}

std::uint64_t Scheduler::pct_priority(TaskId task) {
    auto at = std::lower_bound(
        pct_priorities_.begin(), pct_priorities_.end(), task,
        [](const std::pair<TaskId, std::uint64_t>& p, TaskId id) { return p.first < id; });
    if (at != pct_priorities_.end() && at->first == task) {
        return at->second;
    }
    // A task seen for the first time gets a random priority above every change-point value.
    const std::uint64_t priority = options_.pct_depth + prng_.below(std::uint64_t{1} << 40);
    pct_priorities_.insert(at, {task, priority});
    return priority;
}

std::size_t Scheduler::pct_index() {
    std::size_t best = 0;
    std::uint64_t best_priority = 0;
    for (std::size_t i = 0; i < ordered_.size(); i++) {
        // Ties go to the lower task id (earlier in the ordered set).
        if (i == 0 || ordered_[i].priority > best_priority) {
            best = i;
            best_priority = ordered_[i].priority;
        }
    }
    if (pct_next_change_ < pct_change_steps_.size() &&
        pct_change_steps_[pct_next_change_] <= steps_) {
        // Change point i (1-based) lowers the chosen task below every initial priority.
        pct_next_change_++;
        const TaskId task = ordered_[best].task;
        auto at = std::lower_bound(
            pct_priorities_.begin(), pct_priorities_.end(), task,
            [](const std::pair<TaskId, std::uint64_t>& p, TaskId id) { return p.first < id; });
        RS_ASSERT(at != pct_priorities_.end() && at->first == task);
        at->second = pct_next_change_;
        ordered_[best].priority = pct_next_change_;
    }
    return best;
}

std::size_t Scheduler::choose_index() {
    switch (options_.policy) {
    case Policy::Fifo:
        return canonical_index();
    case Policy::Random:
        return static_cast<std::size_t>(prng_.below(ordered_.size()));
    case Policy::Pct:
        return pct_index();
    case Policy::Replay:
        if (replay_next_ < options_.replay.size()) {
            const std::uint32_t choice = options_.replay[replay_next_++];
            if (choice < ordered_.size()) {
                return choice;
            }
        }
        return canonical_index();
    }
    RS_ASSERT(false);
    return 0;
}

TaskId Scheduler::take(std::size_t index) {
    RS_ASSERT(index < ordered_.size());
    const TaskId task = ordered_[index].task;
    ordered_.erase(ordered_.begin() + static_cast<std::ptrdiff_t>(index));
    return task;
}

void Scheduler::add_pct_change_point() {
    if (options_.policy != Policy::Pct) {
        return;
    }
    // Due at the current step: pct_index() takes the change points in list order, each one
    // when its step has come, so an entry due now at the head is taken at the next pick.
    pct_change_steps_.insert(
        pct_change_steps_.begin() + static_cast<std::ptrdiff_t>(pct_next_change_), steps_);
    RS_ASSERT(pct_next_change_ < pct_change_steps_.size());
}

std::optional<TaskId> Scheduler::pick_ordered() {
    if (ordered_.empty()) {
        return std::nullopt;
    }
    std::size_t index = 0;
    if (ordered_.size() >= 2) {
        index = choose_index();
        if (decisions_.empty()) {
            decisions_.reserve(decisions_reserved); // not 1, 2, 4, ... for a short run
        }
        decisions_.push_back(static_cast<std::uint32_t>(index));
    }
    steps_++;
    const TaskId task = take(index);
    RS_ASSERT(find_index(task) == ordered_.size());
    return task;
}

} // namespace routesim::sim
