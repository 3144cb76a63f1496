// The simple-one-for-one machine: specs are templates, every start_child spawns a new
// unregistered instance, restarts use the spec's stored args (§6.7, §6.8).
// Part of runtime/: uses sim/ and the standard library only.
#include <algorithm>
#include <map>

#include "runtime/detail/supervisor_strategy.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act::detail {
namespace {

class SupSimple final : public SupStrategy {
public:
    SupAction init(const SupervisorSpec& spec) override;
    sim::Result<SupAction, Error> child_add(SupervisorChildSpec spec) override;
    sim::Result<SupAction, Error> child_start(Atom name, const Args& args) override;
    SupAction child_started(const SupChildSpec& child, const PID& pid) override;
    SupAction child_terminated(const SupExit& exit) override;
    sim::Result<SupAction, Error> child_enable(Atom name) override;
    sim::Result<SupAction, Error> child_disable(Atom name) override;
    std::vector<SupervisorChild> children() const override;
    Inspection inspect() const override;

private:
    SupChildSpec* find(Atom name);
    SupAction start_action(std::size_t index, const PID& replaces) const;
    SupAction shutdown(Error children_reason, Error final_reason, SupDecision decision);

    SupervisorRestart restart_;
    std::vector<SupChildSpec> specs_;
    std::map<PID, std::size_t> instances_; // running instance → spec index (ordered by PID)
    std::vector<sim::Instant> restarts_;
    bool shutdown_ = false;
    Error shutdown_reason_ = Error::normal();
    std::set<PID> wait_;
};

Error shutting_down() {
    return Error::text("shutting down");
}

SupAction SupSimple::init(const SupervisorSpec& spec) {
    restart_ = spec.restart;
    for (const SupervisorChildSpec& child : spec.children) {
        specs_.push_back(SupChildSpec{child, specs_.size(), false, false, PID{}, PID{}});
    }
    return SupAction{}; // §6.7: Init starts nothing
}

SupChildSpec* SupSimple::find(Atom name) {
    auto found = std::find_if(specs_.begin(), specs_.end(),
                              [name](const SupChildSpec& spec) { return spec.spec.name == name; });
    return found == specs_.end() ? nullptr : &*found;
}

SupAction SupSimple::start_action(std::size_t index, const PID& replaces) const {
    RS_ASSERT(index < specs_.size());
    SupAction action;
    action.what = SupDo::StartChild;
    action.child = specs_[index];
    action.replaces = replaces;
    return action;
}

SupAction SupSimple::child_started(const SupChildSpec& child, const PID& pid) {
    RS_ASSERT(child.index < specs_.size());
    RS_ASSERT(instances_.count(pid) == 0);
    instances_.emplace(pid, child.index); // instance args are not persisted (§6.7)
    return SupAction{};
}

SupAction SupSimple::shutdown(Error children_reason, Error final_reason, SupDecision decision) {
    SupAction action;
    action.decision = decision;
    if (instances_.empty()) {
        action.what = SupDo::Terminate;
        action.reason = std::move(children_reason);
        return action;
    }
    shutdown_ = true;
    shutdown_reason_ = std::move(final_reason);
    action.what = SupDo::TerminateChildren;
    action.reason = std::move(children_reason);
    for (const auto& [pid, index] : instances_) {
        wait_.insert(pid);
        action.terminate.push_back(pid);
    }
    return action;
}

SupAction SupSimple::child_terminated(const SupExit& exit) {
    auto instance = instances_.find(exit.pid);
    const bool known = exit.is_child && instance != instances_.end();
    RS_ASSERT(!exit.is_child || known);
    const std::size_t index = known ? instance->second : specs_.size();
    if (known) {
        instances_.erase(instance);
    }
    if (shutdown_) {
        wait_.erase(exit.pid);
        SupAction action;
        action.decision = SupDecision::ShutdownWait;
        if (wait_.empty()) {
            action.what = SupDo::Terminate;
            action.reason = shutdown_reason_;
        }
        return action;
    }
    if (!known) {
        // §6.7: a non-child exit: every instance gets that reason, then we terminate.
        return shutdown(exit.reason, exit.reason, SupDecision::NotChild);
    }
    const SupChildSpec& spec = specs_[index];
    SupAction nothing;
    // §6.7: no auto-shutdown and no Significant handling; zero instances is fine.
    if (!restarts_on(restart_.strategy, exit.reason)) {
        nothing.decision = SupDecision::KeepStopped;
        return nothing;
    }
    if (spec.disabled) {
        nothing.decision = SupDecision::Disabled;
        return nothing;
    }
    if (restart_intensity_exceeded(restarts_, restart_, exit.now)) {
        // §6.4: SOFO terminates with ErrSupervisorRestartsExceeded in both cases.
        const Error exceeded(Err::SupervisorRestartsExceeded);
        return shutdown(exceeded, exceeded, SupDecision::Exceeded);
    }
    // §6.7: restarts use the spec's stored args, not the instance's.
    SupAction action = start_action(index, exit.pid);
    action.decision = SupDecision::Restart;
    return action;
}

sim::Result<SupAction, Error> SupSimple::child_add(SupervisorChildSpec spec) {
    if (shutdown_) {
        return sim::fail(shutting_down());
    }
    if (Status valid = validate_child_spec(spec); !valid) {
        return sim::fail(valid.error());
    }
    if (find(spec.name) != nullptr) {
        return sim::fail(Error(Err::SupervisorChildDuplicate));
    }
    // §6.7 (t009): stored, not started.
    specs_.push_back(SupChildSpec{std::move(spec), specs_.size(), false, false, PID{}, PID{}});
    return SupAction{};
}

sim::Result<SupAction, Error> SupSimple::child_start(Atom name, const Args& args) {
    if (shutdown_) {
        return SupAction{}; // §6.7: nil, and nothing is started
    }
    const SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    if (spec->disabled) {
        return sim::fail(Error(Err::SupervisorChildDisabled));
    }
    SupAction action = start_action(spec->index, PID{});
    if (!args.empty()) {
        action.child.spec.args = args; // this instance only
    }
    return action;
}

sim::Result<SupAction, Error> SupSimple::child_enable(Atom name) {
    if (shutdown_) {
        return sim::fail(shutting_down());
    }
    SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    spec->disabled = false; // clears the flag only; nothing starts
    return SupAction{};
}

sim::Result<SupAction, Error> SupSimple::child_disable(Atom name) {
    if (shutdown_) {
        return sim::fail(shutting_down());
    }
    SupChildSpec* spec = find(name);
    if (spec == nullptr) {
        return sim::fail(Error(Err::SupervisorChildUnknown));
    }
    spec->disabled = true;
    SupAction action;
    for (const auto& [pid, index] : instances_) {
        if (index == spec->index) {
            action.terminate.push_back(pid);
        }
    }
    // Ergo also adds these PIDs to its shutdown wait set and never removes them; we do not
    // (§6.7): a later shutdown waits only for the children really running.
    if (!action.terminate.empty()) {
        action.what = SupDo::TerminateChildren;
        action.reason = Error::shutdown();
    }
    return action;
}

std::vector<SupervisorChild> SupSimple::children() const {
    std::vector<std::pair<std::size_t, PID>> running;
    for (const auto& [pid, index] : instances_) {
        running.emplace_back(index, pid);
    }
    // §6.7: sorted by spec index, then PID id.
    std::sort(running.begin(), running.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.id < b.second.id;
    });
    std::vector<SupervisorChild> listing;
    for (const auto& [index, pid] : running) {
        const SupChildSpec& spec = specs_[index];
        listing.push_back(
            SupervisorChild{spec.spec.name, Atom(), pid, spec.spec.significant, spec.disabled});
    }
    return listing;
}

Inspection SupSimple::inspect() const {
    Inspection result =
        base_inspection(SupervisorType::SimpleOneForOne, restart_, restarts_.size());
    std::size_t disabled = 0;
    for (const SupChildSpec& spec : specs_) {
        disabled += spec.disabled ? 1U : 0U;
        const auto count =
            std::count_if(instances_.begin(), instances_.end(),
                          [&spec](const auto& entry) { return entry.second == spec.index; });
        result["child:" + std::string(spec.spec.name.text())] = std::to_string(count);
    }
    result["specs_total"] = std::to_string(specs_.size());
    result["specs_disabled"] = std::to_string(disabled);
    result["instances_total"] = std::to_string(instances_.size());
    return result;
}

} // namespace

std::unique_ptr<SupStrategy> make_simple_one_for_one() {
    return std::make_unique<SupSimple>();
}

} // namespace routesim::runtime::act::detail
