// Race observer, aiming: at a racy moment, pick a fault from the scenario's budget (a kill, a
// crash, a management call) and fire it between this step and the next, from a zero-delay
// timer in the faults lane; under PCT, also make the next pick a priority change point.
// Part of tools/: uses scenarios/run/, runtime/ and sim/.
#include "runtime/supervisor.hpp"
#include "scenarios/run/builder.hpp"
#include "sim/assert.hpp"
#include "tools/fuzz/race_observer.hpp"

namespace routesim::tools::fuzz {

using namespace scenarios; // the run layer's model and hooks

bool RaceObserver::wants_aim() {
    RS_ASSERT(options_.aim);
    if (!still_aiming()) {
        return false; // the draws below would change nothing any more
    }
    if (prng_.below(aim_one_in_) != 0) {
        return false;
    }
    sim::Scheduler& scheduler = node_->world().scheduler();
    if (scheduler.policy() == sim::Policy::Pct && pct_changes_left_ > 0 && prng_.below(2) == 0) {
        pct_changes_left_--;
        scheduler.add_pct_change_point();
    }
    return aims_left_ > 0;
}

void RaceObserver::add_process_candidates(std::vector<Candidate>& out, std::uint64_t pid) const {
    if (pid == 0) {
        return;
    }
    const Node* spec = specs_->spec_of(pid_of(pid));
    if (spec == nullptr) {
        return; // clients and the core are never hit
    }
    const FaultClasses& classes = *specs_->classes_of(pid_of(pid));
    const Faults& faults = scenario_->faults;
    if (faults.kill.has_value() && classes.matches(faults.kill->targets)) {
        out.push_back(Candidate{Verb::Kill, pid, 0, {}});
    }
    // Every node kind honours an armed crash (pools and supervisors through the Node).
    if (faults.crash.has_value() && faults.crash->probability_ppb > 0) {
        const bool hit =
            faults.crash->targets.empty() ? classes.worker : classes.matches(faults.crash->targets);
        if (hit) {
            out.push_back(Candidate{Verb::Crash, pid, 0, {}});
        }
    }
}

const std::string& RaceObserver::admin_target(std::uint64_t router) const {
    static const std::string none;
    for (const auto& [id, target] : admin_targets_) {
        if (id == router) {
            return target;
        }
    }
    for (const std::string& target : scenario_->faults.admin->routers) {
        const auto pid = targets_->resolve(target);
        if (pid.has_value() && pid->id == router) {
            admin_targets_.emplace_back(router, target);
            return admin_targets_.back().second;
        }
    }
    return none; // not cached: the router may not be resolvable yet
}

void RaceObserver::add_admin_candidates(std::vector<Candidate>& out, std::uint64_t router,
                                        std::string_view route) const {
    if (!scenario_->faults.admin.has_value() || route.empty() || admin_target(router).empty()) {
        return;
    }
    out.push_back(Candidate{Verb::DisableRoute, 0, router, std::string(route)});
}

void RaceObserver::aim(std::string_view window, std::vector<Candidate> candidates) {
    if (candidates.empty()) {
        return;
    }
    RS_ASSERT(aims_left_ > 0);
    aims_left_--;
    Candidate chosen = candidates[prng_.below(candidates.size())];
    if (chosen.verb == Verb::DisableRoute) {
        // Any management verb; add_route reuses the name (a pending route answers Busy or
        // RouteDuplicate, R26).
        static constexpr std::array<Verb, 6> ops = {Verb::DisableRoute, Verb::ReplaceRoute,
                                                    Verb::RemoveRoute,  Verb::RespawnRoute,
                                                    Verb::EnableRoute,  Verb::AddRoute};
        chosen.verb = ops[prng_.below(ops.size())];
    }
    std::string origin = "aim:" + std::string(window);
    node_->world().schedule_after(
        sim::Duration::zero(),
        [this, chosen = std::move(chosen), origin = std::move(origin)] {
            fire_candidate(chosen, origin);
        },
        sim::TimerLane::Faults, 2);
}

void RaceObserver::fire_candidate(const Candidate& candidate, const std::string& origin) {
    FaultOrder order;
    order.verb = candidate.verb;
    order.origin = origin;
    if (is_management_verb(candidate.verb)) {
        order.router = admin_target(candidate.router);
        const Node* spec = specs_->spec_of(pid_of(candidate.router));
        if (order.router.empty() || spec == nullptr) {
            return; // the router is gone
        }
        order.route = candidate.route;
        const bool needs_worker =
            candidate.verb == Verb::AddRoute || candidate.verb == Verb::ReplaceRoute;
        order.worker = spec->children.empty() ? nullptr : &spec->children.front();
        if (needs_worker && order.worker == nullptr) {
            order.verb = Verb::DisableRoute; // a free router has no worker spec to reuse
        }
        order.via = node_->semantics() == runtime::Semantics::Documented ? Via::Call : Via::Admin;
        fire_(order);
        return;
    }
    runtime::PID victim = pid_of(candidate.victim);
    if (candidate.victim == 0) {
        // A supervisor's restarted child, looked up now that the restart has happened.
        runtime::Process* supervisor = node_->find(pid_of(candidate.router));
        auto* behaviour = supervisor == nullptr
                              ? nullptr
                              : dynamic_cast<runtime::act::Supervisor*>(&supervisor->behavior());
        if (behaviour == nullptr) {
            return;
        }
        for (const auto& child : behaviour->children()) {
            if (child.spec.text() == candidate.route && !child.pid.empty()) {
                victim = child.pid;
            }
        }
        const FaultClasses* classes = specs_->classes_of(victim);
        if (victim.id == 0 || classes == nullptr ||
            !classes->matches(scenario_->faults.kill->targets)) {
            return;
        }
    }
    if (node_->find(victim) == nullptr) {
        return; // died meanwhile
    }
    order.victim = victim;
    fire_(order);
}

} // namespace routesim::tools::fuzz
