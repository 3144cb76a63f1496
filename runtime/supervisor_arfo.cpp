// The all-for-one / rest-for-one exit decision and restart cycle: stop the affected siblings
// in reverse spec order (one at a time with keep_order), then start the range in spec order
// (§6.3, §6.6).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/detail/supervisor_strategy.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act::detail {

SupAction SupNamed::all_rest_exit(std::size_t index, const SupExit& exit,
                                  std::vector<PID> running) {
    RS_ASSERT(!is_one_for_one());
    // §6.3 step 2: a cycle is in progress.
    if (mode_ == Mode::Stopping) {
        return cycle_exit(index, exit);
    }
    if (specs_[index].disabled || !restarts_on(restart_.strategy, exit.reason)) {
        return stopped_for_good(index, exit, running);
    }
    // §6.4: one history entry per triggering exit, however many children the cycle restarts.
    if (restart_intensity_exceeded(restarts_, restart_, exit.now)) {
        return exceeded(exit, std::move(running));
    }
    // §6.6: the cycle covers every spec from restart_index_ on (all of them for AFO).
    restart_index_ = type_ == SupervisorType::RestForOne ? index : 0;
    std::vector<PID> targets = cycle_targets();
    if (targets.empty()) {
        SupAction action = cycle_start();
        action.decision = SupDecision::Restart;
        return action;
    }
    // The siblings are stopped with the dead child's reason, not Shutdown (t011).
    mode_ = Mode::Stopping;
    SupAction action;
    action.what = SupDo::TerminateChildren;
    action.decision = SupDecision::Restart;
    action.terminate = std::move(targets);
    action.reason = exit.reason;
    return action;
}

SupAction SupNamed::cycle_exit(std::size_t index, const SupExit& exit) {
    SupAction waiting;
    waiting.decision = SupDecision::Cycle;
    if (!restart_.keep_order) {
        // All at once: wait for every exit, then start. A child below the range that dies
        // meanwhile stays stopped, as in Ergo.
        if (!wait_.empty()) {
            return waiting;
        }
        SupAction action = cycle_start();
        action.decision = SupDecision::Cycle;
        return action;
    }
    // §6.6 keep_order: a child outside the set that dies moves the range down to it. Ergo
    // hits an internal panic when that exit arrives while it still waits for a sibling; we
    // keep waiting instead and widen the range.
    if (index < restart_index_) {
        restart_index_ = index;
    }
    if (!wait_.empty()) {
        return waiting;
    }
    std::vector<PID> targets = cycle_targets();
    if (!targets.empty()) {
        SupAction action;
        action.what = SupDo::TerminateChildren;
        action.decision = SupDecision::Cycle;
        action.terminate = std::move(targets);
        action.reason = exit.reason;
        return action;
    }
    SupAction action = cycle_start();
    action.decision = SupDecision::Cycle;
    return action;
}

std::vector<PID> SupNamed::cycle_targets() {
    // §6.6: running, non-disabled children of the range, highest index first; with
    // keep_order only the highest one.
    std::vector<PID> targets;
    for (std::size_t k = specs_.size(); k > restart_index_; k--) {
        const SupChildSpec& spec = specs_[k - 1];
        if (spec.disabled || spec.pid.empty()) {
            continue;
        }
        wait_.insert(spec.pid);
        targets.push_back(spec.pid);
        if (restart_.keep_order) {
            break;
        }
    }
    return targets;
}

SupAction SupNamed::cycle_start() {
    // §6.6 starting phase: the first enabled spec of the range; child_started then starts
    // every later spec that is neither running nor disabled, in spec order.
    const std::size_t from = restart_index_;
    restart_index_ = 0;
    for (std::size_t index = from; index < specs_.size(); index++) {
        if (specs_[index].disabled) {
            continue;
        }
        RS_ASSERT(specs_[index].pid.empty());
        mode_ = Mode::Starting;
        return start_action(index);
    }
    mode_ = Mode::Normal;
    return SupAction{};
}

} // namespace routesim::runtime::act::detail
