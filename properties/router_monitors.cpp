// Router invariant monitors: the three route-table monitors over RouteTracker, key_affinity,
// atomic_init and counter_consistency (§8).
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/router_monitors.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "properties/event_text.hpp"
#include "properties/route_tracker.hpp"
#include "runtime/router.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace ev = runtime::ev;
namespace {

constexpr std::uint64_t main_queue = static_cast<std::uint64_t>(runtime::Queue::Main);

std::string quoted(std::string_view name) {
    return "\"" + std::string(name) + "\"";
}

bool is_router_spawn(const ev::Spawn& spawn) {
    return spawn.behavior_kind.text == "Router";
}

} // namespace

// -- the route-table monitors -------------------------------------------------------------

RouteTableMonitor::RouteTableMonitor(runtime::Semantics semantics, std::uint32_t checks)
    : semantics_(semantics), checks_(checks),
      tracker_(std::make_shared<RouteTracker>(semantics, checks)) {
    read_followed_takes_only(); // RouteTracker reads routers' takes only
}

RouteTableMonitor::~RouteTableMonitor() = default;

void RouteTableMonitor::names_changed() {
    tracker_->name_processes_with(names());
}

void RouteTableMonitor::share_state_with(Monitor& earlier) {
    auto* lead = dynamic_cast<RouteTableMonitor*>(&earlier);
    if (lead == nullptr || !lead->feeds_ || !feeds_ || lead->semantics_ != semantics_) {
        return;
    }
    lead->tracker_->add_checks(checks_);
    lead->followers_.push_back(this);
    tracker_ = lead->tracker_;
    feeds_ = false;
}

void RouteTableMonitor::reset() {
    if (feeds_) {
        tracker_->reset(); // a follower's tracker is the lead's: reset once, by the lead
    }
}

bool RouteTableMonitor::watches(const sim::TraceKey& kind) const {
    // RouteTracker::on_event's kinds; a follower gets its findings from the lead.
    constexpr EventKinds tracked{
        EventKind::Take,         EventKind::Forward,   EventKind::Spawn,
        EventKind::SpawnFailed,  EventKind::Exit,      EventKind::Kill,
        EventKind::RouteInit,    EventKind::Route,     EventKind::RouteRestart,
        EventKind::RoutePending, EventKind::RouteAdmin};
    return feeds_ && tracked.has(event_kind_of(kind));
}

void RouteTableMonitor::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void RouteTableMonitor::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    if (!feeds_) {
        return; // the lead reports this monitor's findings (a MonitorSet sends it no events)
    }
    // Every router the tracker holds was made known by an event that returned it here, so
    // the set follows the takes of each.
    if (const std::uint64_t router = tracker_->on_event(kind, event, decodes_for(event))) {
        follow_takes_of(router);
    }
    if (!tracker_->findings().empty()) {
        hand_over_findings();
    }
}

// Out of line, so that the common path (no finding) saves no registers for it.
[[gnu::noinline]] void RouteTableMonitor::hand_over_findings() {
    std::vector<RouteTracker::Finding>& findings = tracker_->findings();
    for (RouteTracker::Finding& finding : findings) {
        RouteTableMonitor* owner = this;
        for (RouteTableMonitor* follower : followers_) {
            if ((follower->checks_ & check_bit(finding.check)) != 0) {
                owner = follower;
            }
        }
        RS_ASSERT((owner->checks_ & check_bit(finding.check)) != 0);
        owner->report(finding.at, std::move(finding.explanation), std::move(finding.witnesses));
    }
    findings.clear();
}

RouteStability::RouteStability(runtime::Semantics semantics)
    : RouteTableMonitor(
          semantics, check_bit(RouteCheck::StaleWorker) | check_bit(RouteCheck::ForwardMismatch) |
                         check_bit(RouteCheck::SlotMoved) | check_bit(RouteCheck::SharedWorker)) {
}

PendingExclusivity::PendingExclusivity(runtime::Semantics semantics)
    : RouteTableMonitor(semantics, check_bit(RouteCheck::SecondPending) |
                                       check_bit(RouteCheck::AdminResult) |
                                       check_bit(RouteCheck::PendingEndWithoutExit)) {
}

NoForwardToDisabled::NoForwardToDisabled(runtime::Semantics semantics)
    : RouteTableMonitor(semantics, check_bit(RouteCheck::ForwardToDisabled)) {
}

// -- key_affinity -------------------------------------------------------------------------

Witness KeyAffinity::key_witness(std::uint64_t router, std::string_view key, std::string_view name,
                                 std::uint64_t seq, sim::Instant at) {
    // As describe_event renders the route_key event.
    return Witness{seq, at,
                   "route_key router=" + std::to_string(router) + " key=" + std::string(key) +
                       " name=" + std::string(name)};
}

bool KeyAffinity::watches(const sim::TraceKey& kind) const {
    constexpr EventKinds read{EventKind::RouteKey, EventKind::Route, EventKind::Take};
    return read.has(event_kind_of(kind));
}

KeyAffinity::Text KeyAffinity::keep(std::string_view text) {
    const Text kept{static_cast<std::uint32_t>(texts_.size()),
                    static_cast<std::uint32_t>(text.size())};
    texts_.append(text);
    return kept;
}

KeyAffinity::Text KeyAffinity::keep_name(std::string_view name, std::uint64_t hash) {
    if (name.data() == nullptr) {
        return keep(""); // an empty view: kept as the empty text
    }
    KeptName& kept = kept_names_[hash & (kept_names_.size() - 1)];
    if (kept.data == name.data() && kept.hash == hash && kept.text.length == name.size()) {
        return kept.text;
    }
    kept = KeptName{hash, name.data(), keep(name)};
    return kept.text;
}

std::uint64_t KeyAffinity::home_slot(std::uint64_t router, std::uint64_t key_hash) {
    // The table is indexed by the low bits, and FNV-1a's low bits mix poorly (bit 0 is the XOR
    // of the bytes' bit 0): keys that differ in a few characters share a home and probe long
    // runs (a third of `run` on 2 M keys). A finaliser spreads every bit over the low ones.
    std::uint64_t mixed = (router * 0x9e3779b97f4a7c15ULL) ^ key_hash;
    mixed ^= mixed >> 33;
    mixed *= 0xff51afd7ed558ccdULL;
    mixed ^= mixed >> 29;
    return mixed;
}

void KeyAffinity::grow_slots() {
    // Rebuilt from the entries, read in order: no read of the old table, whose slots lie
    // anywhere in memory.
    slots_.assign(slots_.empty() ? 256 : 2 * slots_.size(), Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t index = 0; index < chosen_.size(); index++) {
        const Chosen& entry = chosen_[index];
        const std::uint64_t home = home_slot(entry.router, entry.key_hash);
        std::size_t at = static_cast<std::size_t>(home) & mask;
        while (slots_[at].entry != 0) {
            at = (at + 1) & mask;
        }
        slots_[at] = Slot{entry.key_hash, static_cast<std::uint32_t>(index + 1),
                          static_cast<std::uint32_t>(home >> 32)};
    }
    RS_ASSERT(2 * chosen_.size() <= slots_.size());
}

KeyAffinity::Chosen& KeyAffinity::slot_of(std::uint64_t router, std::uint64_t key_hash,
                                          std::string_view key, bool& added) {
    if (2 * (chosen_.size() + 1) > slots_.size()) {
        grow_slots();
    }
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t home = home_slot(router, key_hash);
    const auto tag = static_cast<std::uint32_t>(home >> 32);
    std::size_t at = static_cast<std::size_t>(home) & mask;
    for (; slots_[at].entry != 0; at = (at + 1) & mask) {
        const Slot& slot = slots_[at];
        if (slot.key_hash != key_hash || slot.tag != tag) {
            continue; // another key: its entry is not read
        }
        Chosen& entry = chosen_[slot.entry - 1];
        if (entry.router == router && text(entry.key) == key) {
            added = false;
            return entry;
        }
    }
    RS_ASSERT(chosen_.size() < UINT32_MAX);
    slots_[at] = Slot{key_hash, static_cast<std::uint32_t>(chosen_.size() + 1), tag};
    Chosen& entry = chosen_.emplace_back();
    entry.router = router;
    entry.key_hash = key_hash;
    added = true;
    return entry;
}

void KeyAffinity::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void KeyAffinity::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    if (kind == EventKind::RouteKey) {
        on_route_key(event);
    } else if (!awaiting_.empty()) {
        on_awaited(kind, event);
    }
}

void KeyAffinity::on_route_key(const sim::TraceEvent& event) {
    const ev::RouteKey* picked = decoded<ev::RouteKey>(event);
    if (!picked) {
        return;
    }
    const std::uint64_t router = picked->router;
    const std::string_view key = picked->key.text;
    const std::uint64_t key_hash = picked->key.hash;
    const std::string_view name = picked->name.text;
    const std::uint64_t name_hash = picked->name.hash;
    bool added = false;
    Chosen& slot = slot_of(router, key_hash, key, added);
    if (added) {
        slot.key = keep(key);
        slot.name = keep_name(name, name_hash);
        slot.seq = event.seq;
        slot.at = event.at;
    }
    // The wait refers to kept texts: the slot's, or a new one for a name that differs (a slot
    // just added holds this very name).
    const bool same_route = added || text(slot.name) == name;
    const Awaiting wait{router,     slot.key, same_route ? slot.name : keep(name),
                        event.seq,  event.at, name_hash,
                        name.data()};
    if (!same_route) {
        report(event.at,
               "router " + pid_text(router, names()) + " sent key " + std::string(key) +
                   " to route " + quoted(name) + ", but earlier sent the same key to route " +
                   quoted(text(slot.name)) + " (one key maps to one route for the run)",
               {key_witness(router, key, text(slot.name), slot.seq, slot.at),
                key_witness(router, key, name, event.seq, event.at)});
    }
    auto waiting = std::find_if(awaiting_.begin(), awaiting_.end(),
                                [&](const Awaiting& entry) { return entry.router == router; });
    if (waiting == awaiting_.end()) {
        awaiting_.push_back(wait);
        follow_takes_of(router); // its next take ends the wait
    } else {
        *waiting = wait;
    }
}

void KeyAffinity::on_awaited(EventKind kind, const sim::TraceEvent& event) {
    // A route event ends its router's wait; a take by the router means the routing of the
    // awaited key never ended.
    const ev::Route* routed = nullptr;
    std::uint64_t router = 0;
    if (kind == EventKind::Route) {
        routed = decoded<ev::Route>(event);
        if (routed == nullptr) {
            return;
        }
        router = routed->router.value;
    } else if (kind == EventKind::Take) {
        const ev::Take* take = decoded<ev::Take>(event);
        if (take == nullptr) {
            return;
        }
        router = take->pid.value;
    } else {
        return;
    }
    auto found = std::find_if(awaiting_.begin(), awaiting_.end(),
                              [&](const Awaiting& entry) { return entry.router == router; });
    if (found == awaiting_.end()) {
        return;
    }
    if (routed != nullptr) {
        check_routed(*found, router, *routed, event);
    }
    *found = awaiting_.back(); // the wait ends
    awaiting_.pop_back();
}

void KeyAffinity::check_routed(const Awaiting& awaiting, std::uint64_t router,
                               const ev::Route& routed, const sim::TraceEvent& event) {
    const std::string_view name = routed.name.text;
    // The hash, address and length of the route_key's name: the same text (is_kind's rule).
    const bool same_text = name.data() != nullptr && name.data() == awaiting.name_data &&
                           routed.name.hash == awaiting.name_hash &&
                           name.size() == awaiting.name.length;
    if (!same_text && name != text(awaiting.name)) {
        report(event.at,
               "router " + pid_text(router, names()) + " picked route " +
                   quoted(text(awaiting.name)) + " for key " + std::string(text(awaiting.key)) +
                   " but routed message " + std::to_string(routed.id) + " to " + quoted(name),
               {key_witness(router, text(awaiting.key), text(awaiting.name), awaiting.seq,
                            awaiting.at),
                witness(event)});
    }
}

// -- atomic_init --------------------------------------------------------------------------

bool AtomicInit::watches(const sim::TraceKey& kind) const {
    constexpr EventKinds read{EventKind::Take, EventKind::Spawn, EventKind::RouteInit,
                              EventKind::SpawnFailed, EventKind::Exit};
    return read.has(event_kind_of(kind));
}

void AtomicInit::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void AtomicInit::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    if (kind == EventKind::Take) {
        // Init runs synchronously inside the spawn (§2.8): once any process takes a message,
        // every Init under way has ended, and the routers still listed succeeded.
        if (!in_init_.empty()) {
            in_init_.clear();
        }
        follow_every_take(false);
        return;
    }
    on_other(kind, event);
}

void AtomicInit::on_other(EventKind kind, const sim::TraceEvent& event) {
    if (kind == EventKind::Spawn) {
        if (const ev::Spawn* spawn = decoded<ev::Spawn>(event)) {
            on_spawn(*spawn, event);
        }
    } else if (kind == EventKind::RouteInit) {
        const ev::RouteInit* init = decoded<ev::RouteInit>(event);
        if (!init) {
            return;
        }
        auto found = in_init_.find(init->router);
        if (found != in_init_.end() && !found->second.empty() &&
            found->second.back().pid == init->worker) {
            found->second.back().route = std::string(init->name.text);
        }
    } else if (kind == EventKind::SpawnFailed) {
        if (const ev::SpawnFailed* failed = decoded<ev::SpawnFailed>(event)) {
            on_spawn_failed(*failed, event);
        }
    } else if (kind == EventKind::Exit) {
        if (const ev::Exit* exit = decoded<ev::Exit>(event)) {
            orphans_.erase(exit->pid);
        }
    }
}

void AtomicInit::on_spawn(const ev::Spawn& spawn, const sim::TraceEvent& event) {
    auto parent = in_init_.find(spawn.parent);
    if (parent != in_init_.end()) {
        parent->second.push_back(Child{spawn.pid, {}, KeptWitness(event)}); // R5: a route's worker
    }
    if (is_router_spawn(spawn)) {
        in_init_.try_emplace(spawn.pid);
        follow_every_take(true); // the next take, by anyone, ends this Init
    }
}

void AtomicInit::on_spawn_failed(const ev::SpawnFailed& failed, const sim::TraceEvent& event) {
    const std::uint64_t pid = failed.pid;
    auto parent = in_init_.find(failed.parent);
    if (parent != in_init_.end()) {
        std::erase_if(parent->second, [pid](const Child& child) { return child.pid == pid; });
    }
    auto ended = in_init_.find(pid);
    if (ended == in_init_.end()) {
        return;
    }
    // R6: every worker this Init spawned must now stop.
    const KeptWitness failure(event);
    for (Child& child : ended->second) {
        orphans_.emplace(child.pid,
                         Orphan{pid, std::move(child.route), std::move(child.spawned), failure});
    }
    in_init_.erase(ended);
}

void AtomicInit::finish(sim::Instant end, bool idle) {
    if (!idle) {
        return; // the workers stop asynchronously; a run cut short may not have let them
    }
    for (const auto& [pid, orphan] : orphans_) {
        const std::string route = orphan.route.empty()
                                      ? "a route worker "
                                      : "the worker of route " + quoted(orphan.route) + " ";
        report(end,
               "router " + pid_text(orphan.router, names()) + " failed its Init, but " + route +
                   pid_text(pid, names()) +
                   " it spawned during that Init is still alive at the end of the run",
               {orphan.spawned.witness(names()), orphan.failed.witness(names())});
    }
}

// -- counter_consistency ------------------------------------------------------------------

Witness CounterConsistency::Open::witness(std::uint64_t router, const TopologyView* names) const {
    // As describe_event renders the take event.
    return Witness{seq, at,
                   "take pid=" + pid_field_text(router, names) + " id=" + std::to_string(id) +
                       " queue=" + std::to_string(main_queue) + " type=" + std::to_string(type) +
                       " from=" + pid_field_text(from, names)};
}

bool CounterConsistency::watches(const sim::TraceKey& kind) const {
    constexpr EventKinds read{EventKind::Take, EventKind::Route, EventKind::RouteRestart,
                              EventKind::Spawn, EventKind::Exit};
    return read.has(event_kind_of(kind));
}

CounterConsistency::State* CounterConsistency::find_router_slow(std::uint64_t pid) {
    auto found =
        std::lower_bound(routers_.begin(), routers_.end(), pid,
                         [](const auto& entry, std::uint64_t id) { return entry.first < id; });
    if (found == routers_.end() || found->first != pid) {
        return nullptr;
    }
    last_ = static_cast<std::size_t>(found - routers_.begin());
    return &found->second;
}

CounterConsistency::State& CounterConsistency::router_state(std::uint64_t pid) {
    if (State* known = find_router(pid)) {
        return *known;
    }
    auto found =
        std::lower_bound(routers_.begin(), routers_.end(), pid,
                         [](const auto& entry, std::uint64_t id) { return entry.first < id; });
    found = routers_.emplace(found, pid, State{});
    RS_ASSERT(found->first == pid);
    follow_takes_of(pid);
    last_ = static_cast<std::size_t>(found - routers_.begin());
    return found->second;
}

void CounterConsistency::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void CounterConsistency::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    if (kind == EventKind::Take) {
        const ev::Take* take = decoded<ev::Take>(event);
        if (take == nullptr) {
            return;
        }
        if (State* state = find_router(take->pid.value)) {
            on_take(take->pid.value, *state, *take, event);
        }
        return;
    }
    on_other(kind, event);
}

void CounterConsistency::on_other(EventKind kind, const sim::TraceEvent& event) {
    if (kind == EventKind::Route) {
        if (const ev::Route* route = decoded<ev::Route>(event)) {
            const std::uint64_t router = route->router.value;
            on_route(router, router_state(router), *route, event);
        }
    } else if (kind == EventKind::RouteRestart) {
        if (const ev::RouteRestart* restart = decoded<ev::RouteRestart>(event)) {
            router_state(restart->router).tally.restarts++; // R42
        }
    } else if (kind == EventKind::Spawn) {
        const ev::Spawn* spawn = decoded<ev::Spawn>(event);
        if (spawn && is_router_spawn(*spawn)) {
            router_state(spawn->pid);
        }
    } else if (kind == EventKind::Exit) {
        const ev::Exit* exit = decoded<ev::Exit>(event);
        State* found = exit ? find_router(exit->pid) : nullptr;
        if (found != nullptr && !found->exited) {
            State& state = *found;
            if (state.open.has_value()) {
                state.tally.lost_in_crash++; // the router crashed while routing it
                state.open.reset();
            }
            state.exited = true;
        }
    }
}

// Out of line: most takes are not a router's, and on_kind_event then returns without saving
// the registers this needs.
[[gnu::noinline]] void CounterConsistency::on_take(std::uint64_t pid, State& state,
                                                   const ev::Take& take,
                                                   const sim::TraceEvent& event) {
    if (state.open.has_value()) {
        report(event.at,
               "router " + pid_text(pid, names()) + " took message " +
                   std::to_string(state.open->id) +
                   " for routing but never finished routing it (no route event) and did not "
                   "crash before taking message " +
                   std::to_string(take.id),
               {state.open->witness(pid, names()), witness(event)});
        state.open.reset();
    }
    if (take.queue != runtime::Queue::Main || (take.type != runtime::MailboxType::Regular &&
                                               take.type != runtime::MailboxType::Request)) {
        return; // R9: the admin path, exits, events and inspections are not routed
    }
    state.tally.taken++; // R8
    state.open =
        Open{event.seq, event.at, take.id, static_cast<std::uint64_t>(take.type), take.from};
}

void CounterConsistency::on_route(std::uint64_t pid, State& state, const ev::Route& route,
                                  const sim::TraceEvent& event) {
    if (route.resolution == ev::Resolution::Discard) {
        state.tally.discarded++; // R11
    } else if (route.resolution == ev::Resolution::Failed) {
        state.tally.failed++; // R18
    } else {
        state.tally.forwarded++; // R42: owned or registry
    }
    const std::uint64_t id = route.id;
    if (!state.open.has_value()) {
        report(event.at,
               "router " + pid_text(pid, names()) + " reported routing message " +
                   std::to_string(id) + ", which it had not taken for routing",
               {witness(event)});
        return;
    }
    if (state.open->id != id) {
        report(event.at,
               "router " + pid_text(pid, names()) + " reported routing message " +
                   std::to_string(id) + " while it was routing message " +
                   std::to_string(state.open->id),
               {state.open->witness(pid, names()), witness(event)});
    }
    state.open.reset();
}

void CounterConsistency::finish(sim::Instant end, bool idle) {
    if (!idle) {
        return;
    }
    for (const auto& [pid, state] : routers_) {
        if (state.open.has_value()) {
            report(end,
                   "router " + pid_text(pid, names()) + " took message " +
                       std::to_string(state.open->id) +
                       " for routing and never finished routing it",
                   {state.open->witness(pid, names())});
        }
    }
}

RouterTally CounterConsistency::counters(std::uint64_t router) const {
    auto found =
        std::lower_bound(routers_.begin(), routers_.end(), router,
                         [](const auto& entry, std::uint64_t id) { return entry.first < id; });
    return found == routers_.end() || found->first != router ? RouterTally{} : found->second.tally;
}

bool CounterConsistency::check_inspection(std::uint64_t router, const runtime::Inspection& values,
                                          sim::Instant at) {
    const RouterTally tally = counters(router);
    const std::array<std::pair<std::string_view, std::uint64_t>, 4> expected = {{
        {"ergo:forwarded", tally.forwarded},
        {"ergo:discarded", tally.discarded},
        {"ergo:failed", tally.failed},
        {"ergo:restarts", tally.restarts},
    }};
    std::string mismatches;
    for (const auto& [key, value] : expected) {
        auto found = values.find(std::string(key));
        const std::string shown = found == values.end() ? "absent" : found->second;
        if (shown != std::to_string(value)) {
            mismatches += (mismatches.empty() ? "" : ", ") + std::string(key) + " is " + shown +
                          " but the trace shows " + std::to_string(value);
        }
    }
    if (mismatches.empty()) {
        return true;
    }
    report(at,
           "router " + pid_text(router, names()) +
               "'s Inspect counters disagree with its trace: " + mismatches,
           {});
    return false;
}

} // namespace routesim::properties
