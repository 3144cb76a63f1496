// World: one simulated run. Owns the virtual clock, timers, the scheduler, the PRNG streams,
// the trace bus, the fault plan and the limits, and drives the step loop.
// Part of sim/: depends on the standard library only; runs tasks through StepRunner.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

#include "sim/detail/timer_queue.hpp"
#include "sim/event_codec.hpp"
#include "sim/fault.hpp"
#include "sim/prng.hpp"
#include "sim/scheduler.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::sim {

/// Hard limits of a run. Reaching one ends the run with a reported failure, never a hang.
struct Limits {
    /// Steps plus timer firings.
    std::uint64_t events_max = 10'000'000;
    /// Virtual time beyond which the run is stopped as a failure.
    Instant time_max = Instant::max();
};

/// Everything a run is a function of, besides the code under test.
struct WorldOptions {
    std::uint64_t seed = 1;
    SchedulerOptions scheduler;
    Limits limits;
};

class World;

/// Runs one unit of work of a task (the runtime delivers one message of a process).
class StepRunner {
public:
    virtual ~StepRunner() = default;
    virtual void run_step(TaskId task) = 0;
    /// Runs the picked task `first`, then the next picks, as long as nothing else needs the
    /// run loop: World::run_picked. The default steps through run_step; a runner overrides it
    /// to pass its step to run_picked, so that the step inlines into the loop (no call per
    /// step).
    virtual void run_steps(World& world, TaskId first);
};

/// Timer lanes: at one instant, due timers fire lane by lane (then by `order` inside a lane,
/// then first-in first-out), so a harness can put its actions before the runtime's timers.
enum class TimerLane : std::uint8_t {
    Actions = 0,  ///< scenario timeline actions (order = action index)
    Workload = 1, ///< scenario workload messages (order = source index)
    Runtime = 2,  ///< the runtime's own timers (send_after, call timeouts, costs)
    Faults = 3,   ///< timed faults
};

/// Why a run ended.
enum class StopReason : std::uint8_t {
    Idle,       ///< nothing runnable and no timer due
    Until,      ///< the requested end time was reached
    EventLimit, ///< Limits::events_max reached (failure)
    TimeLimit,  ///< Limits::time_max passed (failure)
    Requested,  ///< someone called request_stop (for example a monitor's violation)
};

/// The printable name of a stop reason.
std::string_view stop_reason_name(StopReason reason);

/// The result of World::run.
struct RunOutcome {
    StopReason reason = StopReason::Idle;
    Instant end;
    std::uint64_t events = 0;
    /// True for EventLimit, TimeLimit and Requested.
    bool failed() const {
        return reason == StopReason::EventLimit || reason == StopReason::TimeLimit ||
               reason == StopReason::Requested;
    }
};

/// The deterministic world of one run. Not copyable: the assert context points into it.
class World {
public:
    explicit World(WorldOptions options);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // -- queries ------------------------------------------------------------------------
    Instant now() const { return Instant::from_ns(now_ns_); }
    std::uint64_t seed() const { return seed_; }
    /// Steps plus timer firings so far.
    std::uint64_t events() const { return events_; }
    TraceBus& trace() { return trace_; }
    Scheduler& scheduler() { return scheduler_; }
    const Scheduler& scheduler() const { return scheduler_; }
    FaultPlan& faults() { return faults_; }
    /// A fresh child stream of the root seed, named by concern ("workload", "faults", ...).
    Prng stream(std::string_view name) const { return root_.fork(name); }
    /// Number of pending (not cancelled, not fired) timers.
    std::size_t timers_pending() const { return timers_.live(); }

    // -- commands -----------------------------------------------------------------------
    /// The runner that executes a picked task. Must be set before run().
    void set_runner(StepRunner& runner) { runner_ = &runner; }
    /// Runs `callback` at `due` (not before now). Timers due at one instant fire before any
    /// task steps at that instant: by lane, then by `order`, then in the order scheduled.
    TimerId schedule_at(Instant due, std::function<void()> callback,
                        TimerLane lane = TimerLane::Runtime, std::uint32_t order = 0);
    TimerId schedule_after(Duration delay, std::function<void()> callback,
                           TimerLane lane = TimerLane::Runtime, std::uint32_t order = 0);
    /// The same for any other callable (a lambda): kept in the timer's slot as it is, with no
    /// std::function around it (no allocation when its captures fit 56 bytes).
    template <class Callback>
    requires(std::is_invocable_r_v<void, std::decay_t<Callback>&> &&
             !std::is_same_v<std::decay_t<Callback>, std::function<void()>>) TimerId
        schedule_at(Instant due, Callback&& callback, TimerLane lane = TimerLane::Runtime,
                    std::uint32_t order = 0) {
        RS_ASSERT(due.ns() >= now_ns_);
        return timers_.push(due.ns(), rank_of(lane, order), std::forward<Callback>(callback));
    }
    template <class Callback>
    requires(std::is_invocable_r_v<void, std::decay_t<Callback>&> &&
             !std::is_same_v<std::decay_t<Callback>, std::function<void()>>) TimerId
        schedule_after(Duration delay, Callback&& callback, TimerLane lane = TimerLane::Runtime,
                       std::uint32_t order = 0) {
        RS_ASSERT(delay >= Duration::zero());
        return schedule_at(now() + delay, std::forward<Callback>(callback), lane, order);
    }
    /// Cancels a timer. Returns true when it had not fired yet.
    bool cancel(TimerId timer) { return timers_.cancel(timer); }
    /// Emits a trace event at the current time.
    [[gnu::always_inline]] void emit(TraceKey kind, std::initializer_list<TraceField> fields) {
        trace_.emit(now(), kind, fields);
    }
    /// Emits a typed event (sim/event_codec.hpp) at the current time.
    template <TraceEventType Event>
    [[gnu::always_inline]] void emit(const Event& event) {
        emit_event(trace_, now(), event);
    }
    /// Asks the loop to stop after the current step (reported as StopReason::Requested).
    void request_stop(std::string why);
    const std::string& stop_request() const { return stop_request_; }

    /// Runs until idle, until `until` (when given), or until a limit or stop request.
    RunOutcome run(std::optional<Instant> until = std::nullopt);

    /// For StepRunner::run_steps only: runs `step(task)` for the picked `task`, then picks
    /// again and steps while nothing else needs the run loop (no stop request, no limit
    /// reached, no timer due: the checks the loop would make before its next pick).
    template <class Step>
    [[gnu::always_inline]] void run_picked(TaskId task, Step&& step) {
        while (true) {
            events_++;
            step(task);
            if (events_ >= events_stop_ || timers_.next_due_ns() <= now_ns_) {
                return;
            }
            if (!scheduler_.pick(task)) {
                return;
            }
        }
    }

private:
    /// A timer's rank in its instant: lane, then order.
    static std::uint64_t rank_of(TimerLane lane, std::uint32_t order) {
        return (static_cast<std::uint64_t>(lane) << 32) | order;
    }
    void fire_due_timers();
    /// Runs picked tasks until something needs the run loop; false when none was runnable.
    bool run_steps();
    bool limits_reached(RunOutcome& outcome) const;

    std::uint64_t seed_;
    std::int64_t now_ns_ = 0;
    std::uint64_t events_ = 0;
    Limits limits_;
    // limits_.events_max, or 0 once a stop is requested: the step loop's one test for both.
    std::uint64_t events_stop_ = 0;
    Prng root_;
    TraceBus trace_;
    Scheduler scheduler_;
    FaultPlan faults_;
    StepRunner* runner_ = nullptr;
    detail::TimerQueue timers_;
    std::string stop_request_;
    bool stop_requested_ = false;
    AssertContext previous_context_;
};

} // namespace routesim::sim
