// Monitors of the Router invariants of DESIGN.md: route_stability, key_affinity,
// pending_exclusivity, atomic_init, counter_consistency and no_forward_to_disabled. They read
// the typed events of runtime/events.hpp, decoded once per event for the whole set
// (Monitor::decoded).
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "properties/event_text.hpp"
#include "properties/monitor.hpp"
#include "runtime/events.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/node.hpp"

namespace routesim::properties {

// Declared only: route_tracker.hpp brings the whole route model into every includer.
class RouteTracker;

/// The event a router whose rule hashes a message field emits right before the route event
/// of that message: `route_key router key name` (scenario routers emit it; key_affinity
/// reads it). `name` is the route the rule picked for the key.
inline constexpr sim::TraceKey route_key{"route_key"};
/// The route_key field holding the hashed field's value as compact JSON: the typed event's own
/// key object (runtime::ev::RouteKey), which hand-built traces emit under.
inline constexpr const sim::TraceKey& route_key_field = runtime::ev::key::key;

/// Base of the monitors that follow route tables: feeds a RouteTracker and reports the
/// findings of the checks the subclass owns.
/// In a MonitorSet the route-table monitors of one profile share a single tracker: the first
/// (the lead) feeds it every event with the union of their checks and hands each finding to
/// the monitor that owns its check; the others watch no events (one table rebuild per event
/// instead of three).
class RouteTableMonitor : public Monitor {
public:
    ~RouteTableMonitor() override;
    void on_event(const sim::TraceEvent& event) final;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) final;
    bool watches(const sim::TraceKey& kind) const final;
    void share_state_with(Monitor& earlier) final;
    /// Hands names() to the tracker, which renders the witnesses of its findings.
    void names_changed() final;
    void reset() final;
    /// The reconstructed tables (for tests and reports).
    const RouteTracker& tracker() const { return *tracker_; }

protected:
    /// `checks` is a RouteChecks bit set (route_tracker.hpp).
    RouteTableMonitor(runtime::Semantics semantics, std::uint32_t checks);

private:
    /// Reports each of the tracker's findings through the monitor that owns its check.
    void hand_over_findings();

    runtime::Semantics semantics_;
    std::uint32_t checks_;                      // the checks this monitor reports
    std::shared_ptr<RouteTracker> tracker_;     // possibly shared with earlier route-table monitors
    bool feeds_ = true;                         // this monitor applies events to tracker_
    std::vector<RouteTableMonitor*> followers_; // the lead's: monitors sharing its tracker
};

/// route_stability: a message routed to route N reaches the current incarnation of N's worker
/// (and the forward matches the route event); a restart keeps the route in its table slot and
/// a worker is only ever recorded under one name (R22, R45).
class RouteStability final : public RouteTableMonitor {
public:
    explicit RouteStability(runtime::Semantics semantics = runtime::Semantics::Documented);
    std::string_view name() const override { return "route_stability"; }
};

/// pending_exclusivity: a route has at most one pending operation; every management result
/// agrees with the route state model under the profile (on a pending route: Busy, or
/// RouteDuplicate for add under upstream, and no change); pending ends only after the
/// recorded worker's exit (R25–R27, R55).
class PendingExclusivity final : public RouteTableMonitor {
public:
    explicit PendingExclusivity(runtime::Semantics semantics = runtime::Semantics::Documented);
    std::string_view name() const override { return "pending_exclusivity"; }
};

/// no_forward_to_disabled: nothing is routed or forwarded to a route that is disabled or
/// pending disable/remove (R14, R15).
class NoForwardToDisabled final : public RouteTableMonitor {
public:
    explicit NoForwardToDisabled(runtime::Semantics semantics = runtime::Semantics::Documented);
    std::string_view name() const override { return "no_forward_to_disabled"; }
};

/// key_affinity: under a hash rule with a fixed table one key maps to one route name for the
/// whole run (per router), and the message is routed to the name the key picked.
/// Memory: one entry per distinct (router, key).
class KeyAffinity final : public Monitor {
public:
    KeyAffinity() { read_followed_takes_only(); } // the takes of routers awaited only
    std::string_view name() const override { return "key_affinity"; }
    void on_event(const sim::TraceEvent& event) override;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void reset() override {
        std::fill(slots_.begin(), slots_.end(), Slot{}); // the table keeps its size
        chosen_.clear();
        texts_.clear();
        kept_names_.fill(KeptName{});
        awaiting_.clear();
    }

private:
    struct Text { // a text kept in texts_
        std::uint32_t offset = 0;
        std::uint32_t length = 0;
    };
    struct Chosen { // the first choice of one router for one key text (plain data)
        std::uint64_t router = 0;
        std::uint64_t key_hash = 0; // FNV-1a 64 of the key text (the trace value's hash word)
        Text key;
        Text name;
        std::uint64_t seq = 0;
        sim::Instant at;
    };
    struct Slot { // one slot of the (router, key) index: 16 bytes, so that probing stays cheap
        std::uint64_t key_hash = 0;
        std::uint32_t entry = 0; // 1 + the index into chosen_; 0: the slot is free
        std::uint32_t tag = 0;   // the high half of the home hash (mixes the router in)
    };
    struct Awaiting { // a route_key whose route event has not come yet (plain data)
        std::uint64_t router = 0;
        Text key;
        Text name;
        std::uint64_t seq = 0;
        sim::Instant at;
        std::uint64_t name_hash = 0; // the route_key's name text: its hash and address
        const char* name_data = nullptr;
    };
    struct KeptName { // a route name kept in texts_, by its event text's hash and address
        std::uint64_t hash = 0;
        const char* data = nullptr;
        Text text;
    };
    static Witness key_witness(std::uint64_t router, std::string_view key, std::string_view name,
                               std::uint64_t seq, sim::Instant at);
    std::string_view text(Text text) const {
        return std::string_view(texts_).substr(text.offset, text.length);
    }
    Text keep(std::string_view text);
    /// keep() for a route name: routers name routes with interned atoms, so a name arriving
    /// with the hash and address of one kept earlier is that text (is_kind's rule), kept once.
    Text keep_name(std::string_view name, std::uint64_t hash);
    /// The home slot of (router, key) before masking: every bit of both mixed in.
    static std::uint64_t home_slot(std::uint64_t router, std::uint64_t key_hash);
    /// Doubles the index (256 slots at first) and fills it again from chosen_.
    void grow_slots();
    /// The entry of (router, key): found, or a new one to fill (added is then true). The
    /// reference lasts until the next new entry.
    Chosen& slot_of(std::uint64_t router, std::uint64_t key_hash, std::string_view key,
                    bool& added);
    // on_event's branches, out of line so that the commonest call (a take while no key awaits
    // its route) returns after two comparisons.
    void on_route_key(const sim::TraceEvent& event);
    void on_awaited(EventKind kind, const sim::TraceEvent& event);
    /// A route event (`routed`, decoded from `event`) against the route_key it ends: reports a
    /// route other than the key's.
    void check_routed(const Awaiting& awaiting, std::uint64_t router,
                      const runtime::ev::Route& routed, const sim::TraceEvent& event);

    // The entries in the order their keys first came (appended: written in order), and an
    // index over them by open addressing on (router, key hash), probing linearly through
    // 16-byte slots; an entry is read only when its slot's hash and tag match, and then its
    // router and key text are compared, so keys whose hashes collide take separate entries.
    // Entries are plain data and their texts sit in one string: no allocation per key.
    // (A third of `run` on 2 M distinct keys went to reading 56-byte slots that held the
    // entries themselves.)
    std::vector<Chosen> chosen_;
    std::vector<Slot> slots_; // size a power of two, at most half full
    std::string texts_;
    std::array<KeptName, 8> kept_names_{}; // by hash: the route names of a few routes
    std::vector<Awaiting> awaiting_;       // at most one per router; few at a time, unordered
};

/// atomic_init: a router whose Init fails leaves no live route worker behind: every worker it
/// spawned during that Init exits by the end of an idle run (R6).
class AtomicInit final : public Monitor {
public:
    // Takes matter only while an Init is under way, and then every take (follow_every_take).
    AtomicInit() { read_followed_takes_only(); }
    std::string_view name() const override { return "atomic_init"; }
    void on_event(const sim::TraceEvent& event) override;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void finish(sim::Instant end, bool idle) override;
    void reset() override {
        in_init_.clear();
        orphans_.clear();
    }

private:
    struct Child {
        std::uint64_t pid = 0;
        std::string route; // from route_init; empty until known
        KeptWitness spawned;
    };
    struct Orphan {
        std::uint64_t router = 0;
        std::string route;
        KeptWitness spawned;
        KeptWitness failed;
    };
    // on_kind_event past a take (out of line: most events are takes, which end every Init).
    void on_other(EventKind kind, const sim::TraceEvent& event);
    // on_other's spawn and spawn_failed, decoded; `event` is kept as a witness.
    void on_spawn(const runtime::ev::Spawn& spawn, const sim::TraceEvent& event);
    void on_spawn_failed(const runtime::ev::SpawnFailed& failed, const sim::TraceEvent& event);

    std::map<std::uint64_t, std::vector<Child>> in_init_; // routers inside their Init
    std::map<std::uint64_t, Orphan> orphans_;             // workers that must still exit
};

/// What the trace shows of one router's routing, to compare with its counters (R42).
struct RouterTally {
    std::uint64_t taken = 0;         ///< Normal-priority messages and calls taken (R8)
    std::uint64_t forwarded = 0;     ///< route events: owned or registry
    std::uint64_t discarded = 0;     ///< route events: discard
    std::uint64_t failed = 0;        ///< route events: failed
    std::uint64_t restarts = 0;      ///< route_restart events
    std::uint64_t lost_in_crash = 0; ///< taken, then the router ended before routing it
    bool operator==(const RouterTally& other) const = default;
};

/// counter_consistency: forwarded + discarded + failed equals the Normal-priority messages a
/// router took and finished routing; a taken message without a route event is allowed only
/// when the router ends before its next take (it crashed in that step). Inspect values can be
/// compared with the tally through check_inspection().
class CounterConsistency final : public Monitor {
public:
    CounterConsistency() { read_followed_takes_only(); } // the takes of routers only
    std::string_view name() const override { return "counter_consistency"; }
    void on_event(const sim::TraceEvent& event) override;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    void finish(sim::Instant end, bool idle) override;
    void reset() override {
        routers_.clear();
        last_ = 0;
    }
    /// The trace's tally for a router (zeros for an unknown pid).
    RouterTally counters(std::uint64_t router) const;
    /// Compares a router's Inspect map (ergo:forwarded, ergo:discarded, ergo:failed,
    /// ergo:restarts, R40) with the tally; on a mismatch records a violation at `at` and
    /// returns false. Call it between steps.
    bool check_inspection(std::uint64_t router, const runtime::Inspection& values, sim::Instant at);

private:
    struct Open { // the message being routed, rendered only for witnesses
        std::uint64_t seq = 0;
        sim::Instant at;
        std::uint64_t id = 0;
        std::uint64_t type = 0;
        std::uint64_t from = 0;
        Witness witness(std::uint64_t router, const TopologyView* names) const;
    };
    struct State {
        RouterTally tally;
        std::optional<Open> open;
        bool exited = false;
    };
    // The decoded take and route of router `pid`; `event` is theirs, for witnesses.
    void on_take(std::uint64_t pid, State& state, const runtime::ev::Take& take,
                 const sim::TraceEvent& event);
    void on_route(std::uint64_t pid, State& state, const runtime::ev::Route& route,
                  const sim::TraceEvent& event);
    // on_kind_event past a take (out of line: most events are takes by workers and clients).
    void on_other(EventKind kind, const sim::TraceEvent& event);
    /// The state of router `pid`, or nullptr. Most takes are a worker's or a client's: pids
    /// outside the range of the routers' are turned away without a search.
    /// A router's events come in runs (the take and the route event of one message): the
    /// router found last answers without a search.
    State* find_router(std::uint64_t pid) {
        if (last_ < routers_.size() && routers_[last_].first == pid) {
            return &routers_[last_].second;
        }
        return routers_.empty() || pid < routers_.front().first || pid > routers_.back().first
                   ? nullptr
                   : find_router_slow(pid);
    }
    State* find_router_slow(std::uint64_t pid);
    /// The state of router `pid`, added empty when new.
    State& router_state(std::uint64_t pid);

    std::vector<std::pair<std::uint64_t, State>> routers_; // by router pid id, sorted (few)
    std::size_t last_ = 0; // the index find_router_slow or router_state found last
};

} // namespace routesim::properties
