// The step loop of one run.
// Part of sim/: depends on the standard library only.
#include "sim/world.hpp"

#include <algorithm>

#include "sim/assert.hpp"
#include "sim/events.hpp"

namespace routesim::sim {

std::string_view stop_reason_name(StopReason reason) {
    switch (reason) {
    case StopReason::Idle:
        return "idle";
    case StopReason::Until:
        return "until";
    case StopReason::EventLimit:
        return "event-limit";
    case StopReason::TimeLimit:
        return "time-limit";
    case StopReason::Requested:
        return "requested";
    }
    RS_ASSERT(false);
    return {};
}

World::World(WorldOptions options)
    : seed_(options.seed), limits_(options.limits), events_stop_(options.limits.events_max),
      root_(options.seed), scheduler_(std::move(options.scheduler), root_.fork("scheduler")),
      faults_(root_.fork("faults"), trace_) {
    previous_context_ = set_assert_context(AssertContext{&seed_, &now_ns_, &events_});
}

World::~World() {
    set_assert_context(previous_context_);
}

TimerId World::schedule_at(Instant due, std::function<void()> callback, TimerLane lane,
                           std::uint32_t order) {
    RS_ASSERT(callback != nullptr);
    RS_ASSERT(due >= now());
    return timers_.push(due.ns(), rank_of(lane, order), std::move(callback));
}

TimerId World::schedule_after(Duration delay, std::function<void()> callback, TimerLane lane,
                              std::uint32_t order) {
    RS_ASSERT(delay >= Duration::zero());
    return schedule_at(now() + delay, std::move(callback), lane, order);
}

void World::request_stop(std::string why) {
    if (!stop_requested_) {
        stop_requested_ = true;
        events_stop_ = 0;
        stop_request_ = std::move(why);
    }
}

void World::fire_due_timers() {
    // The empty test only matters at Instant::max(), next_due_ns() of an empty queue.
    while (timers_.next_due_ns() <= now_ns_ && !timers_.empty()) {
        if (timers_.fire_next(events_) && events_ >= events_stop_) {
            return; // a stop request or the event limit
        }
    }
}

void StepRunner::run_steps(World& world, TaskId first) {
    world.run_picked(first, [this](TaskId task) { run_step(task); });
}

bool World::run_steps() {
    const std::optional<TaskId> task = scheduler_.pick();
    if (!task) {
        return false;
    }
    runner_->run_steps(*this, *task);
    return true;
}

bool World::limits_reached(RunOutcome& outcome) const {
    if (stop_requested_) {
        outcome.reason = StopReason::Requested;
        return true;
    }
    if (events_ >= limits_.events_max) {
        outcome.reason = StopReason::EventLimit;
        return true;
    }
    return false;
}

RunOutcome World::run(std::optional<Instant> until) {
    RS_ASSERT(runner_ != nullptr);
    RunOutcome outcome;
    const Instant end = until.value_or(Instant::max());
    while (true) {
        if (limits_reached(outcome)) {
            break;
        }
        fire_due_timers();
        if (limits_reached(outcome)) {
            break;
        }
        if (run_steps()) {
            continue;
        }
        // Nothing runnable at this instant: jump to the next due timer, if any.
        timers_.drop_cancelled_head();
        if (timers_.empty()) {
            if (until.has_value()) {
                now_ns_ = std::max(now_ns_, end.ns());
                outcome.reason = StopReason::Until;
            } else {
                outcome.reason = StopReason::Idle;
            }
            break;
        }
        const Instant next = Instant::from_ns(timers_.next_due_ns());
        if (next > end) {
            now_ns_ = end.ns();
            outcome.reason = StopReason::Until;
            break;
        }
        if (next > limits_.time_max) {
            now_ns_ = limits_.time_max.ns();
            outcome.reason = StopReason::TimeLimit;
            break;
        }
        RS_ASSERT(next.ns() >= now_ns_);
        now_ns_ = next.ns();
    }
    if (outcome.reason == StopReason::EventLimit || outcome.reason == StopReason::TimeLimit) {
        emit(ev::Limit{stop_reason_name(outcome.reason)});
    }
    outcome.end = now();
    outcome.events = events_;
    return outcome;
}

} // namespace routesim::sim
