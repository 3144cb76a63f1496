// The named-children machine shared by one-for-one, all-for-one and rest-for-one (spec list,
// starts, management calls, shutdown) and the one-for-one exit decision
// (§6.3, §6.5, §6.8).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/detail/supervisor_strategy.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act::detail {

SupNamed::SupNamed(SupervisorType type) : type_(type) {
    RS_ASSERT(type != SupervisorType::SimpleOneForOne);
}

// -- starts -------------------------------------------------------------------------------

SupAction SupNamed::init(const SupervisorSpec& spec) {
    RS_ASSERT(!spec.children.empty());
    RS_ASSERT(specs_.empty());
    restart_ = spec.restart;
    auto_shutdown_ = !spec.disable_auto_shutdown;
    for (const SupervisorChildSpec& child : spec.children) {
        specs_.push_back(SupChildSpec{child, specs_.size(), true, false, PID{}, PID{}});
    }
    // §6.5, §6.6: Init starts every child in spec order (mode "starting").
    mode_ = Mode::Starting;
    return start_action(0);
}

SupAction SupNamed::start_action(std::size_t index) const {
    RS_ASSERT(index < specs_.size());
    SupAction action;
    action.what = SupDo::StartChild;
    action.child = specs_[index];
    action.replaces = specs_[index].last_pid;
    return action;
}

SupAction SupNamed::child_started(const SupChildSpec& child, const PID& pid) {
    RS_ASSERT(child.index < specs_.size());
    SupChildSpec& spec = specs_[child.index];
    RS_ASSERT(spec.spec.name == child.spec.name);
    // §6.8: normally the spec is stopped here; but EnableChild right after DisableChild starts
    // a new instance while the old one is still on its way out. Ergo keeps the new PID (the
    // old one's exit is then matched by name, see child_terminated).
    // §6.5: the args a start used are persisted (StartChild args survive restarts).
    spec.spec.args = child.spec.args;
    spec.pid = pid;
    spec.last_pid = PID{};
    if (mode_ != Mode::Starting) {
        return SupAction{};
    }
    for (std::size_t next = child.index + 1; next < specs_.size(); next++) {
        if (specs_[next].pid.empty() && !specs_[next].disabled) {
            return start_action(next);
        }
    }
    // §6.6: back to normal when nothing is left to start (Ergo's stuck-mode quirk is not
    // copied).
    mode_ = Mode::Normal;
    return SupAction{};
}

// -- exits --------------------------------------------------------------------------------

std::vector<PID> SupNamed::running_except(std::size_t index) const {
    std::vector<PID> running;
    for (const SupChildSpec& spec : specs_) {
        if (spec.index != index && !spec.pid.empty()) {
            running.push_back(spec.pid);
        }
    }
    return running;
}

SupAction SupNamed::child_terminated(const SupExit& exit) {
    wait_.erase(exit.pid);
    if (shutdown_) {
        // §6.3 step 1: shutting down; terminate once the last awaited exit came.
        SupAction action;
        action.decision = SupDecision::ShutdownWait;
        if (wait_.empty()) {
            action.what = SupDo::Terminate;
            action.reason = shutdown_reason_;
        }
        return action;
    }
    std::size_t index = specs_.size();
    // §6.3: Ergo finds the spec by name or PID (the first in spec order); by name matters
    // when a newer instance of the spec started before this exit came (see child_started).
    for (const SupChildSpec& spec : specs_) {
        if (exit.is_child && (spec.pid == exit.pid || spec.spec.name == exit.name)) {
            index = spec.index;
            break;
        }
    }
    RS_ASSERT(!exit.is_child || index < specs_.size());
    if (index == specs_.size()) {
        // §6.2: anyone else's exit, or our own failure: graceful shutdown with its reason.
        return begin_shutdown(running_except(index), exit.reason, exit.reason,
                              SupDecision::NotChild);
    }
    specs_[index].pid = PID{};
    specs_[index].last_pid = exit.pid;
    std::vector<PID> running = running_except(index);
    if (is_one_for_one()) {
        return one_for_one_exit(index, exit, std::move(running));
    }
    return all_rest_exit(index, exit, std::move(running));
}

SupAction SupNamed::begin_shutdown(std::vector<PID> running, Error children_reason,
                                   Error final_reason, SupDecision decision) {
    SupAction action;
    action.decision = decision;
    if (running.empty()) {
        // Nobody to wait for: terminate now with what the children would have been sent.
        action.what = SupDo::Terminate;
        action.reason = std::move(children_reason);
        return action;
    }
    // §6.5, §6.6: exits to every running child in spec order, all at once.
    shutdown_ = true;
    shutdown_reason_ = std::move(final_reason);
    wait_ = std::set<PID>(running.begin(), running.end());
    action.what = SupDo::TerminateChildren;
    action.terminate = std::move(running);
    action.reason = std::move(children_reason);
    return action;
}

SupAction SupNamed::stopped_for_good(std::size_t index, const SupExit& exit,
                                     const std::vector<PID>& running) {
    const SupChildSpec& spec = specs_[index];
    SupAction action;
    // §6.3 step 3: a disabled spec is not restarted.
    if (spec.disabled) {
        action.decision = SupDecision::Disabled;
        if (running.empty() && auto_shutdown_) {
            action.decision = SupDecision::AutoShutdown;
            action.what = SupDo::Terminate;
            action.reason = exit.reason;
        }
        return action;
    }
    // §6.3 step 4: Temporary, or Transient with a clean reason.
    if (spec.spec.significant) {
        return begin_shutdown(running, exit.reason, exit.reason, SupDecision::Significant);
    }
    action.decision = SupDecision::KeepStopped;
    if (running.empty() && auto_shutdown_) {
        action.decision = SupDecision::AutoShutdown;
        action.what = SupDo::Terminate;
        action.reason = exit.reason;
    }
    return action;
}

SupAction SupNamed::exceeded(const SupExit& exit, std::vector<PID> running) {
    // §6.4: the children get ErrSupervisorRestartsExceeded; with nobody else running the
    // supervisor terminates with it at once, otherwise (quirk, reproduced) it terminates
    // with the reason of the exit that tripped the limit once they are gone.
    return begin_shutdown(std::move(running), Error(Err::SupervisorRestartsExceeded), exit.reason,
                          SupDecision::Exceeded);
}

SupAction SupNamed::one_for_one_exit(std::size_t index, const SupExit& exit,
                                     std::vector<PID> running) {
    if (specs_[index].disabled || !restarts_on(restart_.strategy, exit.reason)) {
        return stopped_for_good(index, exit, running);
    }
    // §6.3 step 5, §6.4: one history entry per triggering exit.
    if (restart_intensity_exceeded(restarts_, restart_, exit.now)) {
        return exceeded(exit, std::move(running));
    }
    // §6.5: only the dead child is restarted, with the stored args.
    SupAction action = start_action(index);
    action.decision = SupDecision::Restart;
    return action;
}

// -- management (§6.8) --------------------------------------------------------------------

bool SupNamed::add_or_start_blocked() const {
    // OFO is "active" only during its own Init; AFO/RFO also while cycling or shutting down.
    if (is_one_for_one()) {
        return mode_ != Mode::Normal;
    }
    return mode_ != Mode::Normal || shutdown_;
}

bool SupNamed::enable_or_disable_blocked() const {
    return !is_one_for_one() && (mode_ != Mode::Normal || shutdown_);
}

SupChildSpec* SupNamed::find(Atom name) {
    for (SupChildSpec& spec : specs_) {
        if (spec.spec.name == name) {
            return &spec;
        }
    }
    return nullptr;
}

sim::Result<SupAction, Error> SupNamed::child_add(SupervisorChildSpec spec) {
    if (add_or_start_blocked()) {
        return sim::fail(Error(Err::SupervisorStrategyActive));
    }
    if (Status valid = validate_child_spec(spec); !valid) {
        return sim::fail(valid.error());
    }
    if (find(spec.name) != nullptr) {
        return sim::fail(Error(Err::SupervisorChildDuplicate));
    }
    // Appended and started now; a spawn error leaves the spec registered (§6.8).
    specs_.push_back(SupChildSpec{std::move(spec), specs_.size(), true, false, PID{}, PID{}});
    return start_action(specs_.size() - 1);
}

sim::Result<SupAction, Error> SupNamed::child_start(Atom name, const Args& args) {
    if (add_or_start_blocked()) {
        return sim::fail(Error(Err::SupervisorStrategyActive));
    }
    const SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    if (spec->disabled) {
        return sim::fail(Error(Err::SupervisorChildDisabled));
    }
    if (!spec->pid.empty()) {
        return sim::fail(Error(Err::SupervisorChildRunning));
    }
    SupAction action = start_action(spec->index);
    if (!args.empty()) {
        action.child.spec.args = args; // persisted by child_started
    }
    return action;
}

sim::Result<SupAction, Error> SupNamed::child_enable(Atom name) {
    if (enable_or_disable_blocked()) {
        return sim::fail(Error(Err::SupervisorStrategyActive));
    }
    SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    if (!spec->disabled) {
        return SupAction{}; // not disabled: nothing, not even a start
    }
    // Cleared first: a spawn error is returned and the flag stays cleared (§6.8).
    spec->disabled = false;
    return start_action(spec->index);
}

sim::Result<SupAction, Error> SupNamed::child_disable(Atom name) {
    if (enable_or_disable_blocked()) {
        return sim::fail(Error(Err::SupervisorStrategyActive));
    }
    SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    if (spec->disabled || spec->pid.empty()) {
        // §6.8 quirk, reproduced: a stopped child is not disabled at all.
        return SupAction{};
    }
    spec->disabled = true;
    if (!is_one_for_one()) {
        wait_.insert(spec->pid); // AFO/RFO also wait for it before a cycle goes on
    }
    SupAction action;
    action.what = SupDo::TerminateChildren;
    action.terminate = {spec->pid};
    action.reason = Error::shutdown();
    return action;
}

// -- queries ------------------------------------------------------------------------------

std::vector<SupervisorChild> SupNamed::children() const {
    std::vector<SupervisorChild> listing;
    listing.reserve(specs_.size());
    for (const SupChildSpec& spec : specs_) {
        listing.push_back(SupervisorChild{spec.spec.name, spec.spec.name, spec.pid,
                                          spec.spec.significant, spec.disabled});
    }
    return listing;
}

Inspection SupNamed::inspect() const {
    Inspection result = base_inspection(type_, restart_, restarts_.size());
    std::size_t running = 0;
    std::size_t disabled = 0;
    for (const SupChildSpec& spec : specs_) {
        running += spec.pid.empty() ? 0U : 1U;
        disabled += spec.disabled ? 1U : 0U;
    }
    if (!is_one_for_one()) {
        result["keep_order"] = restart_.keep_order ? "true" : "false";
    }
    result["auto_shutdown"] = auto_shutdown_ ? "true" : "false";
    result["children_total"] = std::to_string(specs_.size());
    result["children_running"] = std::to_string(running);
    result["children_disabled"] = std::to_string(disabled);
    return result;
}

} // namespace routesim::runtime::act::detail
