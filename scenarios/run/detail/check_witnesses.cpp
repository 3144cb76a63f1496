// Runner internals: finding the events that decide a failed check, in a re-run.
// Part of scenarios/run/: uses properties/, runtime/ and sim/.
#include "scenarios/run/detail/check_witnesses.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "runtime/events.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {
namespace ev = runtime::ev;
using Topic = CheckSubject::Topic;

/// What one event says about the subjects a check can have.
struct CheckWitnesses::Facts {
    enum class Role : std::uint8_t {
        None,
        Life,        ///< spawn, spawn_failed, exit, kill, fault_kill; signal_lost (of `pid`)
        RouteChange, ///< route_init, route_admin, route_pending, route_restart of a router
        RouteFailed, ///< a route event whose resolution failed
        ClientSide,  ///< a call, its result, a response or reply to `pid`, a failed send of it
        Take,        ///< `pid` took message `message`
        Hop,         ///< `pid` forwarded message `message`
    };
    Role role = Role::None;
    /// The process the event is about (the router for the route roles).
    std::uint64_t pid = 0;
    /// ClientSide: the sender of a send (`pid` is the receiver); Life: a spawn's parent.
    std::uint64_t other = 0;
    /// Route roles: the route's worker named by the event (0 when none).
    std::uint64_t worker = 0;
    /// Route roles: the route's name.
    std::string_view name;
    /// A call's outcome, a failed send's error, a failed route's reason.
    std::string_view detail;
    bool restart = false;
    /// Life: a spawn (not an end).
    bool birth = false;
    /// Send, Take, Hop: the message id.
    std::uint64_t message = 0;
};

namespace {

using Facts = CheckWitnesses::Facts;
using Role = Facts::Role;

Facts life(std::uint64_t pid) {
    return Facts{Role::Life, pid, 0, 0, {}, {}, false};
}

Facts route_change(std::uint64_t router, const ev::Text& name, std::uint64_t worker) {
    return Facts{Role::RouteChange, router, 0, worker, name.text, {}, false};
}

Facts client_side(std::uint64_t pid, std::string_view detail) {
    return Facts{Role::ClientSide, pid, 0, 0, {}, detail, false};
}

/// The facts of `event` (Role::None for a kind no check is decided by).
Facts facts_of(const sim::TraceEvent& event) {
    Facts out;
    struct Reader {
        Facts& out;
        void operator()(const ev::Spawn& e) const {
            out = life(e.pid);
            out.birth = true;
            out.other = e.parent;
        }
        void operator()(const ev::SpawnFailed& e) const { out = life(e.pid); }
        void operator()(const ev::Exit& e) const { out = life(e.pid); }
        void operator()(const ev::Kill& e) const { out = life(e.pid); }
        void operator()(const ev::FaultKill& e) const { out = life(e.pid); }
        void operator()(const ev::SignalLost& e) const { out = life(e.from); }
        void operator()(const ev::RouteInit& e) const {
            out = route_change(e.router, e.name, e.worker);
        }
        void operator()(const ev::RouteAdmin& e) const { out = route_change(e.router, e.name, 0); }
        void operator()(const ev::RoutePending& e) const {
            out = route_change(e.router, e.name, e.worker);
        }
        void operator()(const ev::RouteRestart& e) const {
            out = route_change(e.router, e.name, e.worker);
            out.restart = true;
        }
        void operator()(const ev::Route& e) const {
            if (e.resolution == ev::Resolution::Failed) {
                out = Facts{Role::RouteFailed,
                            e.router.value,
                            0,
                            0,
                            e.name.text,
                            e.reason ? e.reason->text : std::string_view(),
                            false};
            }
        }
        void operator()(const ev::Call& e) const { out = client_side(e.caller, {}); }
        void operator()(const ev::CallResult& e) const {
            out = client_side(e.caller, e.outcome.text);
        }
        void operator()(const ev::Response& e) const { out = client_side(e.to, e.outcome.text); }
        void operator()(const ev::ResponseDropped& e) const { out = client_side(e.to, e.why.text); }
        void operator()(const ev::SendFailed& e) const { out = client_side(e.from, e.err.text); }
        void operator()(const ev::Send& e) const {
            out = client_side(e.to.value, {});
            out.other = e.from.value;
            out.message = e.id;
        }
        void operator()(const ev::Take& e) const {
            out = Facts{Role::Take, e.pid.value};
            out.message = e.id;
        }
        void operator()(const ev::Forward& e) const {
            out = Facts{Role::Hop, e.by.value};
            out.message = e.id;
        }
    };
    ev::visit(event, Reader{out});
    return out;
}

bool holds(const std::vector<std::uint64_t>& sorted, std::uint64_t pid) {
    return pid != 0 && std::binary_search(sorted.begin(), sorted.end(), pid);
}

// Adds `id` (not 0) to the sorted `ids` unless there. Ids are made in increasing order, so
// this nearly always appends.
void insert_sorted(std::vector<std::uint64_t>& ids, std::uint64_t id) {
    if (id == 0 || holds(ids, id)) {
        return;
    }
    ids.insert(std::lower_bound(ids.begin(), ids.end(), id), id);
}

} // namespace

void CheckWitnesses::Ring::push(const sim::TraceEvent& event) {
    items[count % kept_max] = properties::KeptWitness(event);
    count++;
}

std::vector<properties::Witness>
CheckWitnesses::Ring::list(const properties::TopologyView& names) const {
    std::vector<properties::Witness> out;
    const std::size_t first = count > kept_max ? count - kept_max : 0;
    for (std::size_t i = first; i < count; i++) {
        out.push_back(items[i % kept_max].witness(&names));
    }
    RS_ASSERT(out.size() <= kept_max);
    return out;
}

CheckWitnesses::CheckWitnesses(std::vector<WitnessQuery> queries)
    : queries_(std::move(queries)), kept_(queries_.size()) {
    for (const WitnessQuery& query : queries_) {
        RS_ASSERT(std::is_sorted(query.pids.begin(), query.pids.end()));
        RS_ASSERT(query.topic != Topic::None);
    }
}

void CheckWitnesses::on_event(const sim::TraceEvent& event) {
    const Facts facts = facts_of(event);
    if (facts.role == Role::None) {
        return;
    }
    for (std::size_t i = 0; i < queries_.size(); i++) {
        match(queries_[i], facts, event, kept_[i]);
    }
}

void CheckWitnesses::match(const WitnessQuery& query, const Facts& facts,
                           const sim::TraceEvent& event, Kept& kept) const {
    const bool mine = holds(query.pids, facts.pid);
    switch (query.topic) {
    case Topic::None:
        return;
    case Topic::Process:
        if (facts.role == Role::Life && mine) {
            kept.primary.push(event);
        }
        return;
    case Topic::Route:
    case Topic::Restarts: {
        if (facts.role == Role::RouteChange && mine && facts.name == query.name) {
            insert_sorted(kept.workers, facts.worker);
            if (query.topic == Topic::Route || facts.restart) {
                kept.primary.push(event);
            }
        } else if (facts.role == Role::Life &&
                   (holds(kept.workers, facts.pid) || (mine && !facts.birth))) {
            kept.primary.push(event); // its worker exited (or lost its exit signal), or the router
        }
        return;
    }
    case Topic::RouteFailed:
        if (facts.role == Role::RouteFailed && mine) {
            (facts.detail == query.name ? kept.primary : kept.fallback).push(event);
        }
        return;
    case Topic::Client:
    case Topic::ClientError: {
        const bool sent = facts.role == Role::ClientSide && holds(query.pids, facts.other);
        if (sent) {
            insert_sorted(kept.messages, facts.message);
        }
        const bool hop = (facts.role == Role::Hop || facts.role == Role::Take) &&
                         holds(kept.messages, facts.message);
        if ((facts.role == Role::ClientSide && mine) || sent || hop) {
            // Its calls and sends, where they went (forwards, takes), and how they ended.
            const bool counted = query.topic == Topic::Client || facts.detail == query.name;
            (counted ? kept.primary : kept.fallback).push(event);
        }
        return;
    }
    case Topic::Takes:
    case Topic::Inspect: {
        if (query.topic == Topic::Inspect && facts.role == Role::Life && facts.birth &&
            holds(query.pids, facts.other)) {
            insert_sorted(kept.workers, facts.pid); // a child of the target
        }
        const bool child = query.topic == Topic::Inspect && facts.role == Role::Life &&
                           holds(kept.workers, facts.pid);
        if (query.topic == Topic::Takes && (facts.role == Role::Take || facts.role == Role::Life) &&
            mine) {
            kept.primary.push(event); // its takes and its life
        } else if (query.topic == Topic::Inspect &&
                   ((facts.role == Role::Life && mine && !facts.birth) || child)) {
            kept.primary.push(event); // its end and its children's lives (a router's, a pool's)
        } else if (query.topic == Topic::Inspect && facts.role == Role::Take && mine) {
            kept.fallback.push(event); // a process without children: what it took
        }
        return;
    }
    }
}

std::vector<properties::Witness>
CheckWitnesses::witnesses(std::size_t index, const properties::TopologyView& names) const {
    RS_ASSERT(index < kept_.size());
    const Kept& kept = kept_[index];
    return kept.primary.count > 0 ? kept.primary.list(names) : kept.fallback.list(names);
}

} // namespace routesim::scenarios::detail
