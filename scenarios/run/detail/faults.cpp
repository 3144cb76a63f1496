// Runner internals: random faults (timed kills and admin calls, drawn crashes and spawn
// failures, faults aimed at racy moments) and the record of every fault that fired.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include <algorithm>
#include <array>

#include "runtime/events.hpp"
#include "runtime/pool.hpp"
#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/detail/faults.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {

namespace {

/// The longest gap between two timed faults: 2 x every (scenarios/FORMAT.md `faults`), held
/// at the largest duration so that an `every` above half of it cannot overflow.
std::int64_t fault_gap_ns_max(sim::Duration every) {
    const std::int64_t every_ns = every.count_ns();
    RS_ASSERT(every_ns > 0);
    return every_ns > INT64_MAX / 2 ? INT64_MAX : 2 * every_ns;
}

/// One segment of a fault's target: a route or child name (an atom's text, which lives as
/// long as the program), or a pool's "#k". Trivial, so that an array of them costs nothing
/// to declare.
struct Segment {
    const char* text;
    std::size_t size;
    std::uint64_t live;
    bool pool;
    std::string_view name() const { return {text, size}; }
};

/// The segment under `parent` that reaches `child` ("route", "child", "#k"), if any. Clears
/// `leads_back` when resolve_target, stepping from `parent` by that segment, would reach
/// another process (a name that an earlier route or child also bears).
std::optional<Segment> segment_to(const runtime::Node& node, SpecIndex& specs,
                                  const runtime::Process& parent, const runtime::PID& child,
                                  bool& leads_back) {
    runtime::Behavior& behaviour = parent.behavior();
    if (auto* router = as_router(behaviour)) {
        for (const auto& info : router->routes()) {
            if (info.pid == child) {
                const auto named = router->route(info.name);
                leads_back = leads_back && named.has_value() && named->pid == child;
                const std::string_view name = info.name.text();
                return Segment{name.data(), name.size(), 0, false};
            }
        }
        return std::nullopt;
    }
    if (auto* supervisor = dynamic_cast<runtime::act::Supervisor*>(&behaviour)) {
        const auto children = supervisor->children();
        for (const auto& entry : children) {
            if (entry.pid == child) {
                const std::string_view name = entry.spec.text();
                const auto named =
                    std::find_if(children.begin(), children.end(), [name](const auto& other) {
                        return other.spec.text() == name && !other.pid.empty();
                    });
                leads_back = leads_back && named != children.end() && named->pid == child;
                return Segment{name.data(), name.size(), 0, false};
            }
        }
        return std::nullopt;
    }
    if (dynamic_cast<runtime::act::Pool*>(&behaviour) != nullptr) {
        // "#k": k-th live worker of the pool in spawn order (as resolve_target counts, so it
        // leads back by construction).
        const Node* pool_spec = specs.spec_of(parent.pid());
        if (pool_spec == nullptr || pool_spec->children.empty()) {
            return std::nullopt;
        }
        std::uint64_t live = 0;
        for (const runtime::PID& pid : specs.stats(pool_spec->children[0]).incarnations) {
            const runtime::Process* worker = node.find(pid);
            if (worker == nullptr || worker->parent() != parent.pid() || !worker->is_alive()) {
                continue;
            }
            if (pid == child) {
                return Segment{nullptr, 0, live, true};
            }
            live++;
        }
    }
    return std::nullopt;
}

} // namespace

Faults::Faults(const RunCore& core, const Links& links)
    : world_(core.world), node_(core.node), scenario_(core.scenario), clock_(core.clock),
      links_(links), draws_(core.node, core.scenario, links.specs),
      kill_prng_(world_.stream("faults.kill")), admin_prng_(world_.stream("faults.admin")) {
    RS_ASSERT(&node_.world() == &world_);
    RS_ASSERT(links_.cache == nullptr || &links_.cache->scenario() == &scenario_);
}

// -- recording --------------------------------------------------------------------------------

void Faults::attach(const RunSettings& settings, Tally& tally) {
    RS_ASSERT(observer_ == nullptr && fired_.empty()); // once, before the build
    // A run records a few faults (random ones every few hundred microseconds, drawn crashes):
    // room for them up front instead of regrowing a vector of strings.
    fired_.reserve(faults_reserved);
    draws_.on_fault_drawn = [this](Verb verb, const Node& spec, const runtime::PID* pid) {
        record_drawn_fault(verb, spec, pid);
    };
    const bool aim = settings.aim_faults || scenario_.faults.aim;
    if (aim || settings.coverage) {
        // The caller (tools/) supplies the instrument; the run layer has none of its own.
        RS_ASSERT(settings.instrument != nullptr);
        observer_ = settings.instrument;
        observer_->start(RunContext{.node = &node_,
                                    .specs = &links_.specs,
                                    .targets = &links_.targets,
                                    .scenario = &scenario_,
                                    .aim = aim,
                                    .coverage = settings.coverage,
                                    .check_fresh = settings.check_observer,
                                    .fire = [this](const FaultOrder& order) { fire_fault(order); },
                                    .tally = &tally});
    }
}

FiredFault Faults::placed(Verb verb, std::string origin) const {
    FiredFault fired;
    fired.at = world_.now();
    fired.step = clock_.steps_now();
    fired.verb = verb;
    fired.origin = std::move(origin);
    return fired;
}

std::optional<std::string> Faults::target_of(const runtime::PID& pid) const {
    // Walk up the parents to a registered ancestor, one path segment per level. The target is
    // the one resolve_target brings back to `pid`: each level checks that its segment leads
    // back down (segment_to), so that a plain target is not parsed and resolved again.
    static constexpr std::size_t depth_max = 64;
    std::array<Segment, depth_max> segments;
    std::size_t count = 0;
    bool leads_back = true;
    // False when a name has a '/' or is empty: resolve_target would split or skip it.
    bool plain = true;
    const auto is_plain = [](std::string_view name) {
        return !name.empty() && name.find('/') == std::string_view::npos;
    };
    runtime::PID at = pid;
    for (std::size_t depth = 0; depth < depth_max; depth++) {
        const runtime::Process* process = node_.find(at);
        if (process == nullptr) {
            return std::nullopt;
        }
        if (!process->name().empty()) {
            const runtime::Atom name = process->name();
            std::size_t length = name.text().size();
            for (std::size_t i = 0; i < count; i++) {
                length += 1 + (segments[i].pool ? 21 : segments[i].size);
            }
            std::string target;
            target.reserve(length);
            target.append(name.text());
            for (std::size_t i = count; i-- > 0;) {
                target += '/';
                if (segments[i].pool) {
                    target += '#';
                    target += std::to_string(segments[i].live);
                } else {
                    target.append(segments[i].name());
                }
            }
            if (!plain || !is_plain(name.text())) {
                const auto resolved = links_.targets.resolve(target);
                return resolved.has_value() && *resolved == pid ? std::optional(std::move(target))
                                                                : std::nullopt;
            }
            const auto registered = node_.process_pid(name);
            leads_back = leads_back && registered.has_value() && registered.value() == at;
            return leads_back ? std::optional(std::move(target)) : std::nullopt;
        }
        const runtime::Process* parent = node_.find(process->parent());
        if (parent == nullptr) {
            return std::nullopt;
        }
        const auto segment = segment_to(node_, links_.specs, *parent, at, leads_back);
        if (!segment.has_value()) {
            return std::nullopt;
        }
        plain = plain && (segment->pool || is_plain(segment->name()));
        segments[count++] = *segment;
        at = parent->pid();
    }
    return std::nullopt;
}

void Faults::record_drawn_fault(Verb verb, const Node& spec, const runtime::PID* pid) {
    FiredFault fired = placed(verb, verb == Verb::Crash ? "faults.crash" : "faults.spawn_fail");
    if (verb == Verb::Crash) {
        RS_ASSERT(pid != nullptr);
        auto target = target_of(*pid);
        fired.pinnable = target.has_value();
        fired.target = target.has_value() ? std::move(*target) : runtime::to_string(*pid);
        if (observer_) {
            observer_->note_fault(Verb::Crash, *pid);
        }
    } else {
        fired.target = spec.path;
    }
    if (clock_.in_step()) {
        fired_.push_back(std::move(fired)); // pinned before the step it hit
    } else if (firing_fault_.has_value()) {
        RS_ASSERT(*firing_fault_ < fired_.size());
        // Inside a fault (a management call spawning): it must be armed before that fault.
        fired_.insert(fired_.begin() + static_cast<std::ptrdiff_t>(*firing_fault_),
                      std::move(fired));
        ++*firing_fault_;
    } else {
        fired.pinnable = false; // during the build or a timeline action
        fired_.push_back(std::move(fired));
    }
}

// -- firing -----------------------------------------------------------------------------------

const Node* FaultWorkers::at(const Node& spec, const std::string& router, const std::string& route,
                             MessageCache* cache, SpecIndex& specs) {
    // The worker a pinned timeline action would declare: the same spec under the path
    // "<router>/<route>", so that per-node statistics and pinned spawn failures (by path)
    // mean the same thing in the run and in its reproducer.
    const std::string path = router + "/" + route;
    auto found = by_path_.find(path);
    if (found != by_path_.end()) {
        return found->second;
    }
    // The campaign's copy when it keeps one (the same value), else this run's own.
    const Node* worker = cache != nullptr ? cache->fault_worker(spec, path) : nullptr;
    if (worker == nullptr) {
        own_.push_back(spec_under(spec, path));
        worker = own_.back().get();
    }
    RS_ASSERT(worker->path == path);
    specs.index_route_worker(*worker);
    return by_path_.emplace(path, worker).first->second;
}

void Faults::fire_fault(const FaultOrder& order) {
    // The worker spec the call gets: for add_route and replace_route, the one a pinned
    // action would declare (FaultWorkers::at).
    const Node* worker = order.worker;
    if (worker != nullptr && (order.verb == Verb::AddRoute || order.verb == Verb::ReplaceRoute)) {
        worker = links_.workers.at(*worker, order.router, order.route, links_.cache, links_.specs);
    }
    FiredFault fired = placed(order.verb, order.origin);
    if (is_management_verb(order.verb)) {
        fired.target = order.router;
        fired.route = order.route;
        fired.via = order.via;
        if (worker != nullptr) {
            fired.worker_pointer = worker->pointer;
        }
    } else {
        auto target = target_of(order.victim);
        fired.pinnable = target.has_value();
        fired.target = target.has_value() ? std::move(*target) : runtime::to_string(order.victim);
    }
    fired_.push_back(std::move(fired));
    firing_fault_ = fired_.size() - 1;
    perform_fault(order, worker);
    firing_fault_.reset();
}

void Faults::perform_fault(const FaultOrder& order, const Node* worker) {
    const bool aimed = order.origin.starts_with("aim:");
    if (!is_management_verb(order.verb)) {
        if (aimed) {
            world_.emit(
                runtime::ev::FaultAim{order.origin, spelling(order.verb), order.victim.id, {}});
        }
        if (observer_) {
            observer_->note_fault(order.verb, order.victim);
        }
        if (order.verb == Verb::Kill) {
            (void)node_.kill(order.victim);
        } else {
            draws_.arm_crash(order.victim);
        }
        return;
    }
    const auto pid = links_.targets.resolve(order.router);
    runtime::act::Router* router = pid ? router_of(node_, *pid) : nullptr;
    const Node* spec = pid ? links_.specs.spec_of(*pid) : nullptr;
    if (router == nullptr || spec == nullptr) {
        return;
    }
    if (aimed) {
        world_.emit(runtime::ev::FaultAim{order.origin, spelling(order.verb), pid->id,
                                          runtime::ev::Text(order.route)});
    }
    if (order.via == Via::Call) {
        (void)perform_admin(links_.build, *router, *spec, order.verb, order.route, worker);
        return;
    }
    (void)node_.send(*pid, AdminOrder{order.verb, order.route, worker, -1},
                     runtime::MessagePriority::High);
}

// -- timed faults -----------------------------------------------------------------------------

bool Faults::world_is_quiet() const {
    // Quiet: nothing runnable and no timer but the other random-fault timers (the kill and
    // admin streams must not keep each other going once the run has nothing else to do).
    return world_.timers_pending() == fault_timers_pending_ && !world_.scheduler().has_runnable();
}

void Faults::schedule() {
    if (scenario_.faults.kill.has_value()) {
        schedule_kill_fault();
    }
    if (scenario_.faults.admin.has_value()) {
        schedule_admin_fault();
    }
}

void Faults::schedule_kill_fault() {
    const KillFaults& kill = *scenario_.faults.kill;
    const auto gap =
        sim::Duration::nanoseconds(kill_prng_.between(0, fault_gap_ns_max(kill.every)));
    fault_timers_pending_++;
    world_.schedule_after(
        gap,
        [this] {
            fault_timers_pending_--;
            // Random faults come only while something else is going on (judged before this one
            // acts, since its own effects would keep it going), so that a run that stops when
            // idle still stops.
            if (world_is_quiet()) {
                return;
            }
            std::vector<runtime::PID> candidates = node_.processes(); // filtered in place
            std::erase_if(candidates, [this](const runtime::PID& pid) {
                const FaultClasses* classes = links_.specs.classes_of(pid);
                return classes == nullptr || !classes->matches(scenario_.faults.kill->targets);
            });
            if (!candidates.empty()) {
                const runtime::PID victim = candidates[kill_prng_.below(candidates.size())];
                node_.world().emit(runtime::ev::FaultKill{victim.id});
                FaultOrder order;
                order.verb = Verb::Kill;
                order.victim = victim;
                order.origin = "faults.kill";
                fire_fault(order);
            }
            schedule_kill_fault();
        },
        sim::TimerLane::Faults, 0);
}

void Faults::schedule_admin_fault() {
    const AdminFaults& admin = *scenario_.faults.admin;
    const auto gap =
        sim::Duration::nanoseconds(admin_prng_.between(0, fault_gap_ns_max(admin.every)));
    fault_timers_pending_++;
    world_.schedule_after(
        gap,
        [this] {
            fault_timers_pending_--;
            if (world_is_quiet()) {
                return; // as for kills: only while something else is going on
            }
            const AdminFaults& faults = *scenario_.faults.admin;
            const std::string& target = faults.routers[admin_prng_.below(faults.routers.size())];
            static constexpr Verb ops[] = {Verb::AddRoute,     Verb::RemoveRoute,
                                           Verb::DisableRoute, Verb::EnableRoute,
                                           Verb::ReplaceRoute, Verb::RespawnRoute};
            const Verb op = ops[admin_prng_.below(std::size(ops))];
            const auto pid = links_.targets.resolve(target);
            runtime::act::Router* router = pid ? router_of(node_, *pid) : nullptr;
            const Node* spec = pid ? links_.specs.spec_of(*pid) : nullptr;
            if (router != nullptr && spec != nullptr) {
                const auto routes = router->routes();
                std::string name = "fault:" + std::to_string(admin_fault_count_++);
                if (op != Verb::AddRoute && !routes.empty()) {
                    name = std::string(routes[admin_prng_.below(routes.size())].name.text());
                }
                FaultOrder order;
                order.verb = op;
                order.router = target;
                order.route = std::move(name);
                order.worker = spec->children.empty() ? nullptr : &spec->children.front();
                order.via = Via::Admin;
                order.origin = "faults.admin";
                fire_fault(order);
            }
            schedule_admin_fault();
        },
        sim::TimerLane::Faults, 1);
}

} // namespace routesim::scenarios::detail
