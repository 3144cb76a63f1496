// Runner internals: timeline actions, pinned actions and their verdicts; the step clock.
// Part of scenarios/run/: uses runtime/, sim/ and nlohmann_json.
#include "scenarios/run/detail/timeline.hpp"

#include <algorithm>

#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {

Timeline::Timeline(const RunCore& core, const Links& links)
    : world_(core.world), node_(core.node), scenario_(core.scenario), clock_(core.clock),
      links_(links) {
    RS_ASSERT(&node_.world() == &world_);
    RS_ASSERT(&links_.build.worker.specs == &links_.specs);
}

void Timeline::schedule() {
    RS_ASSERT(performed_.empty()); // once per run
    performed_.assign(scenario_.timeline.size(), false);
    for (std::uint32_t index = 0; index < scenario_.timeline.size(); index++) {
        if (scenario_.timeline[index].step.has_value()) {
            schedule_pinned(index); // between two process steps
            continue;
        }
        world_.schedule_at(
            sim::Instant::zero() + scenario_.timeline[index].at, [this, index] { perform(index); },
            sim::TimerLane::Actions, index);
    }
}

void Timeline::check_outcome(std::uint32_t index, const std::string& actual) {
    RS_ASSERT(index < scenario_.timeline.size());
    const Action& action = scenario_.timeline[index];
    if (!action.expect.has_value()) {
        return;
    }
    // "(due T)": the summary adds the time the outcome was checked ("at T2").
    links_.checks.add("timeline " + std::string(spelling(action.verb)) + " (due " +
                          sim::format_duration(action.at) + ")",
                      *action.expect, actual, action.pointer + "/expect", actual == *action.expect,
                      action.router.empty()
                          ? CheckSubject{}
                          : CheckSubject{CheckSubject::Topic::Route, action.router, action.route});
}

void Timeline::report_unresolved_calls() {
    // scenarios/FORMAT.md `timeline`: `expect` is "the outcome the call must return; a mismatch
    // fails the run". A call still waiting when the run stops (or whose order died with its
    // client) returned nothing, which is not the outcome expected.
    for (const std::uint32_t index : calls_made_) {
        const Action& action = scenario_.timeline[index];
        if (action.expect.has_value() && !links_.outcomes.call_results().contains(index)) {
            check_outcome(index, "no result by the end of the run");
        }
    }
}

void Timeline::report_actions_not_reached(const sim::RunOutcome& outcome) {
    RS_ASSERT(performed_.size() == scenario_.timeline.size());
    if (outcome.reason != sim::StopReason::Until) {
        return; // an idle run performs every timed action; other stops already fail the run
    }
    for (std::uint32_t index = 0; index < scenario_.timeline.size(); index++) {
        const Action& action = scenario_.timeline[index];
        if (performed_[index] || action.step.has_value() ||
            (!action.expect.has_value() && !action.check.has_value())) {
            continue; // pinned actions: report_missed_pins
        }
        links_.checks.add("timeline " + std::string(spelling(action.verb)) + " (due " +
                              sim::format_duration(action.at) + ")",
                          action.expect.value_or("evaluated"),
                          "not reached: the run stopped at run.until (" +
                              sim::format_instant(outcome.end) + ")",
                          action.pointer + "/at");
    }
}

std::string Timeline::perform_management(std::uint32_t index, const Action& action) {
    const auto router_pid = links_.targets.resolve(action.router);
    if (!router_pid.has_value()) {
        return std::string(runtime::ergo_name(runtime::Err::ProcessUnknown));
    }
    runtime::act::Router* router = router_of(node_, *router_pid);
    const Node* router_spec = links_.specs.spec_of(*router_pid);
    if (router == nullptr || router_spec == nullptr) {
        return std::string(runtime::ergo_name(runtime::Err::ProcessUnknown));
    }
    const Node* worker = action.worker.has_value() ? &*action.worker : nullptr;
    if (action.via == Via::Call) {
        return perform_admin(links_.build, *router, *router_spec, action.verb, action.route,
                             worker);
    }
    AdminOrder order{action.verb, action.route, worker, static_cast<std::int64_t>(index)};
    const runtime::SendResult sent = node_.send(*router_pid, order, runtime::MessagePriority::High);
    return sent ? std::string() : std::string(runtime::ergo_name(sent.error()));
}

void Timeline::perform(std::uint32_t index) {
    RS_ASSERT(index < performed_.size());
    RS_ASSERT(!performed_[index]); // each action is scheduled once
    performed_[index] = true;
    const Action& action = scenario_.timeline[index];
    std::string outcome = "ok";
    if (is_management_verb(action.verb)) {
        outcome = perform_management(index, action);
        if (outcome.empty()) {
            return; // via admin: the router reports the result when it runs the operation
        }
        check_outcome(index, outcome);
        return;
    }
    const auto target =
        action.target.empty() ? std::nullopt : links_.targets.resolve(action.target);
    const std::string unknown(runtime::ergo_name(runtime::Err::ProcessUnknown));
    switch (action.verb) {
    case Verb::Kill:
        outcome = !target ? unknown : [&] {
            const auto killed = node_.kill(*target);
            return killed ? std::string("ok") : std::string(runtime::ergo_name(killed.error()));
        }();
        break;
    case Verb::Exit:
        outcome = !target ? unknown : [&] {
            const auto sent = node_.send_exit(*target, runtime::parse_reason(action.reason));
            return sent ? std::string("ok") : std::string(runtime::ergo_name(sent.error()));
        }();
        break;
    case Verb::Crash:
        if (target) {
            links_.draws.arm_crash(*target);
        } else {
            outcome = unknown;
        }
        break;
    case Verb::FailSpawns:
        links_.specs.stats_by_path(action.node).fail_next += action.count;
        break;
    case Verb::Send:
        // scenarios/FORMAT.md `timeline`: `expect` is the outcome the send returns.
        outcome = links_.workload.send_from(action.from, action.to, json_message(action.message),
                                            action.priority);
        break;
    case Verb::Call:
        // The call's outcome is known when its response or error arrives; execute() compares
        // it with `expect` then, as for admin-path management calls.
        links_.workload.call_from(action.from, action.to, json_message(action.message),
                                  action.priority, action.timeout,
                                  static_cast<std::int64_t>(index));
        calls_made_.insert(index);
        return;
    case Verb::Check:
        if (action.check.has_value()) {
            links_.expectations.evaluate(*action.check);
        }
        break;
    default:
        break;
    }
    check_outcome(index, outcome);
}

void StepClock::run_step(sim::TaskId task) {
    const std::int64_t now = world_.now().ns();
    if (now != instant_ns_) {
        instant_ns_ = now;
        steps_ = 0;
    }
    in_step_ = true;
    inner_.run_step(task);
    in_step_ = false;
    steps_++;
    if (after_step) {
        after_step();
    }
}

void Timeline::schedule_pinned(std::uint32_t index) {
    const Action& action = scenario_.timeline[index];
    RS_ASSERT(action.step.has_value());
    const sim::Instant at = sim::Instant::zero() + action.at;
    if (*action.step == 0) {
        // After every timer due at `at` (the faults lane is last), before the first step.
        world_.schedule_at(
            at, [this, index] { perform(index); }, sim::TimerLane::Faults, 0);
        return;
    }
    const Pin pin{at.ns(), *action.step, index};
    auto later = std::upper_bound(pins_.begin(), pins_.end(), pin, [](const Pin& a, const Pin& b) {
        return a.at_ns != b.at_ns ? a.at_ns < b.at_ns
               : a.step != b.step ? a.step < b.step
                                  : a.index < b.index;
    });
    pins_.insert(later, pin);
    if (!clock_.after_step) {
        clock_.after_step = [this] { fire_due_pins(); };
    }
}

void Timeline::fire_due_pins() {
    const std::int64_t now = world_.now().ns();
    const std::uint64_t steps = clock_.steps_now();
    RS_ASSERT(next_pin_ <= pins_.size());
    while (next_pin_ < pins_.size()) {
        const Pin& pin = pins_[next_pin_];
        if (pin.at_ns > now || (pin.at_ns == now && pin.step > steps)) {
            return; // still to come
        }
        if (pin.at_ns == now && pin.step == steps) {
            const std::uint32_t index = pin.index;
            world_.schedule_after(
                sim::Duration::zero(), [this, index] { perform(index); }, sim::TimerLane::Faults,
                0);
        } else {
            report_missed_pin(pin); // its instant ended with fewer steps
        }
        next_pin_++;
    }
}

void Timeline::report_missed_pins() {
    for (; next_pin_ < pins_.size(); next_pin_++) {
        report_missed_pin(pins_[next_pin_]);
    }
}

void Timeline::report_missed_pin(const Pin& pin) {
    // A pinned action that never fires says so, as a failed check.
    const Action& action = scenario_.timeline[pin.index];
    links_.checks.add("timeline " + std::string(spelling(action.verb)) + " (due " +
                          sim::format_duration(action.at) + ", step " + std::to_string(pin.step) +
                          ")",
                      "fired", "not reached (the run had fewer process steps at that instant)",
                      action.pointer + "/step");
}

} // namespace routesim::scenarios::detail
