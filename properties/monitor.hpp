// Invariant monitors: trace sinks that check one invariant each, online, as events happen,
// and explain a violation with the few events that witness it.
// Part of properties/: uses runtime/ and sim/ only (no JSON, no CLI).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "properties/event_decodes.hpp"
#include "properties/event_kind.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"
#include "sim/world.hpp"

namespace routesim::properties {

class MonitorSet;
class TopologyView; // properties/topology_view.hpp

/// One event that witnesses a violation, rendered for people.
struct Witness {
    std::uint64_t seq = 0;
    sim::Instant at;
    std::string text;

    /// "#<seq> @<time> <text>": how the summary, the report and Violation::to_string print it.
    std::string line() const;
};

/// A broken invariant: which, when, what happened, and the events that show it.
struct Violation {
    std::string invariant;
    sim::Instant at;
    std::string explanation;
    std::vector<Witness> witnesses;

    /// A multi-line rendering: "<invariant> violated at <time>: <explanation>" then one
    /// indented line per witness.
    std::string to_string() const;
};

/// A monitor sees every trace event, keeps only the state its invariant needs, and records
/// violations. finish() runs the end-of-run checks.
class Monitor : public sim::TraceSink {
public:
    Monitor();
    ~Monitor() override;
    Monitor(const Monitor&) = delete;
    Monitor& operator=(const Monitor&) = delete;
    /// The invariant's stable name (DESIGN.md table).
    virtual std::string_view name() const = 0;
    /// End-of-run checks. `idle` is true when the run ended because nothing was left to do
    /// (so everything in flight must have settled).
    virtual void finish(sim::Instant end, bool idle) {
        (void)end;
        (void)idle;
    }
    /// Called by MonitorSet::add, before any event, once for each monitor added before this
    /// one: monitors that derive the same state from the trace may share it instead of each
    /// rebuilding it (the three route-table monitors share one RouteTracker).
    virtual void share_state_with(Monitor& earlier) { (void)earlier; }
    /// Forgets every event seen, as if just made, keeping allocated capacity where it can
    /// (MonitorSet::reset: a set reused for the next run of a campaign). State shared through
    /// share_state_with stays shared.
    virtual void reset() = 0;
    /// True when on_event reads events of `kind`. A MonitorSet passes a monitor only the
    /// events of the kinds it watches (asked once per kind); the default is every kind.
    virtual bool watches(const sim::TraceKey& kind) const {
        (void)kind;
        return true;
    }
    /// on_event with the event's kind already decoded: a MonitorSet decodes each kind once and
    /// calls this. The default forwards to on_event; a monitor that switches on the kind
    /// overrides this and lets its on_event decode the kind and call it.
    virtual void on_kind_event(EventKind kind, const sim::TraceEvent& event) {
        (void)kind;
        on_event(event);
    }
    /// Called when names() may have changed (the monitor joined a set, the set began feeding its
    /// view, the monitor fed singly made its own view): a monitor that hands names() to a part
    /// of its own (a tracker) does it here rather than on every event.
    virtual void names_changed() {}
    /// True when the monitor reads the run's TopologyView (view()). A MonitorSet then feeds its
    /// one view every event before its monitors; a monitor fed singly feeds its own view.
    virtual bool reads_view() const { return false; }
    const std::vector<Violation>& violations() const { return violations_; }
    bool holds() const { return violations_.empty(); }
    /// reset() and no violation recorded (and the monitor's own view, if any, reset).
    void start_over();

protected:
    /// The view of the run: the set's when the monitor is in a MonitorSet, else the monitor's
    /// own (fed by feed_own_view). Valid for a monitor that reads_view().
    const TopologyView& view() const; // inline, after MonitorSet
    /// For a monitor that reads_view(), first thing in on_event/on_kind_event: feeds the
    /// monitor's own view when it is fed singly; nothing in a MonitorSet (the set fed it).
    void feed_own_view(EventKind kind, const sim::TraceEvent& event) {
        if (set_ == nullptr) {
            feed_own_view_slow(kind, event);
        }
    }

    /// `event` as the event struct E, or nullptr when it does not decode (read_event). In a
    /// MonitorSet the decode is the set's, made once per event for the view and every monitor;
    /// fed singly, the monitor decodes it itself. Valid while `event` is dispatched.
    template <class E>
    const E* decoded(const sim::TraceEvent& event) {
        return decodes_for(event).template get<E>(event);
    }
    /// The decodes of `event` (the set's, already begun for it, or the monitor's own, begun
    /// here), for a part of the monitor that reads several kinds (RouteTracker).
    EventDecodes& decodes_for(const sim::TraceEvent& event); // inline, after MonitorSet

    /// The view that names processes in this monitor's witnesses: the set's when the set feeds
    /// it (every run does), the monitor's own when it reads one, else none (bare pids).
    const TopologyView* names() const; // inline, after MonitorSet
    /// witness_of(event, names()).
    Witness witness(const sim::TraceEvent& event) const; // inline, after witness_of

    /// Records a violation (at most `violations_max` are kept per monitor).
    void report(sim::Instant at, std::string explanation, std::vector<Witness> witnesses);
    /// Declares, before the monitor joins a set, that on_event reads a take only when its
    /// process is one the monitor named with follow_takes_of (the router monitors read only
    /// routers' takes): a MonitorSet then spares it the takes of every process no monitor of
    /// the set follows, which are most takes (workers' and clients'). Fed singly, a monitor
    /// still sees every take.
    void read_followed_takes_only() { followed_takes_only_ = true; }
    /// For a monitor that read_followed_takes_only(): the takes of process `pid` matter from
    /// now on. Call it before the first take that matters; cheap when `pid` is followed already
    /// (inline, after MonitorSet: key_affinity calls it for every key it sees routed).
    void follow_takes_of(std::uint64_t pid);
    /// For a monitor that read_followed_takes_only(): while `on`, every take matters, whoever
    /// takes (atomic_init while an Init is under way: the next take by anyone ends it). Cheap
    /// when nothing changes.
    void follow_every_take(bool on) {
        if (on != follows_every_take_) {
            change_every_take(on);
        }
    }

private:
    void change_every_take(bool on);
    void feed_own_view_slow(EventKind kind, const sim::TraceEvent& event);
    const TopologyView& own_view() const; // view() of a monitor fed singly

    friend class MonitorSet;
    static constexpr std::size_t violations_max = 16;
    std::vector<Violation> violations_;
    std::size_t* recorded_ = nullptr; // the owning set's count of recorded violations
    MonitorSet* set_ = nullptr;       // the owning set
    bool followed_takes_only_ = false;
    bool follows_every_take_ = false;                // follow_every_take(true) in force
    mutable std::unique_ptr<TopologyView> own_view_; // fed singly: the monitor's own view
    std::unique_ptr<EventDecodes> own_decodes_;      // fed singly: the monitor's own decodes
};

/// Fans events out to a set of monitors. Optionally asks the World to stop at the first
/// violation (the fuzzer does; a replay that wants the whole trace does not).
class MonitorSet final : public sim::TraceSink {
public:
    MonitorSet();
    ~MonitorSet() override;
    MonitorSet(const MonitorSet&) = delete; // monitors point at recorded_
    MonitorSet& operator=(const MonitorSet&) = delete;
    /// Adds a monitor (before the first event) and lets it share state with the earlier ones.
    void add(std::unique_ptr<Monitor> monitor);
    /// The decodes of the event being dispatched, shared by the view and every monitor.
    EventDecodes& decodes() { return decodes_; }
    /// The run's one TopologyView. The set feeds it every event (before the monitors) when
    /// some monitor reads_view() or after keep_view(); otherwise it stays empty.
    const TopologyView& view() const { return *view_; }
    /// Feeds the view even when no monitor reads it (for readers outside the set: summary,
    /// expectations). Call before the first event.
    void keep_view();
    /// Stops `world` as soon as some monitor reports a violation.
    void stop_on_violation(sim::World& world) { world_ = &world; }
    /// Readies the set for another run: every monitor reset, no violation, no World to stop,
    /// no process followed, no monitor following every take. The monitors, their sharing and
    /// the kind index stay (watches() depends on neither events nor violations).
    void reset();
    void on_event(const sim::TraceEvent& event) override;
    void finish(sim::Instant end, bool idle);
    const std::vector<std::unique_ptr<Monitor>>& monitors() const { return monitors_; }
    /// The monitors that watch events of `kind`, in set order.
    const std::vector<Monitor*>& watchers(const sim::TraceKey& kind) {
        return slot_of(kind).watchers;
    }
    /// The first violation of any monitor, in monitor order, or nullptr.
    const Violation* first_violation() const;
    /// The monitor with this name, or nullptr.
    Monitor* find(std::string_view name) const;

private:
    friend class Monitor; // follow_takes_of, follow_every_take

    struct KindSlot { // one event kind seen so far and the monitors that watch it
        std::uint64_t hash = 0;
        std::string name;
        EventKind code = EventKind::Other;
        // The text address this kind last arrived with: emitters name kinds with constant
        // keys, so a later event of the kind matches by hash and address without comparing
        // bytes (the rule is_kind follows). Only a fast path: a miss compares the text.
        const char* last_text = nullptr;
        std::vector<Monitor*> watchers;
        // Of a take: the watchers that read every take, for a take by a process no monitor
        // follows (the others read followed takes only).
        std::vector<Monitor*> watchers_of_unfollowed;
        bool used = false;
        bool feeds_view = false; // the view reads this kind and is fed
    };
    void index_kinds(std::size_t slots);
    /// The slot of `kind`, made (with its code and watchers) when the kind is new.
    const KindSlot& slot_of(const sim::TraceKey& kind);
    /// The fast match: a used slot whose kind has `kind`'s hash and arrived with the same text
    /// address and length (is_kind's rule); a miss says nothing.
    static bool same_kind_address(const KindSlot& slot, const sim::TraceKey& kind) {
        return slot.used && slot.hash == kind.hash && slot.last_text == kind.name.data() &&
               slot.name.size() == kind.name.size();
    }
    /// Asks the World to stop for the first violation (something new was recorded).
    void stop_world();
    /// Adds `pid` to the processes whose takes reach every monitor.
    void follow(std::uint64_t pid);
    bool is_followed(std::uint64_t pid) const {
        // Routers are few and their ids close: most pids fall outside the range.
        return pid >= followed_low_ && pid <= followed_high_ &&
               (followed_low_ == followed_high_ || is_followed_slow(pid));
    }
    bool is_followed_slow(std::uint64_t pid) const;

    std::vector<std::unique_ptr<Monitor>> monitors_;
    std::unique_ptr<TopologyView> view_;
    EventDecodes decodes_;        // of the event being dispatched (begun first thing in on_event)
    bool feeds_view_ = false;     // some monitor reads_view(), or keep_view()
    std::vector<KindSlot> kinds_; // open addressing by kind hash; size a power of two
    std::size_t kinds_mask_ = 0;  // kinds_.size() - 1 (when not empty)
    std::size_t kinds_used_ = 0;
    std::vector<std::uint64_t> followed_; // sorted: the processes whose takes reach every monitor
    std::uint64_t followed_low_ = UINT64_MAX; // followed_'s least and greatest, or an empty range
    std::uint64_t followed_high_ = 0;
    bool narrows_takes_ = false; // some monitor reads followed takes only
    std::size_t every_take_ = 0; // monitors following every take (Monitor::follow_every_take)
    bool narrowing_ = false;     // narrows_takes_ and no monitor follows every take
    sim::World* world_ = nullptr;
    std::size_t recorded_ = 0; // violations recorded by all monitors (Monitor::report counts)
    std::size_t stopped_ = 0;  // recorded_ when the World was last asked to stop
};

inline const TopologyView& Monitor::view() const {
    return set_ != nullptr ? set_->view() : own_view(); // every event of a view reader asks
}

inline const TopologyView* Monitor::names() const {
    if (set_ != nullptr) {
        return set_->feeds_view_ ? &set_->view() : nullptr;
    }
    return own_view_.get();
}

inline EventDecodes& Monitor::decodes_for(const sim::TraceEvent& event) {
    if (set_ != nullptr) [[likely]] {
        return set_->decodes();
    }
    if (own_decodes_ == nullptr) {
        own_decodes_ = std::make_unique<EventDecodes>();
    }
    own_decodes_->begin(event); // fed singly: each call decodes anew
    return *own_decodes_;
}

inline void Monitor::follow_takes_of(std::uint64_t pid) {
    if (set_ != nullptr && followed_takes_only_ && !set_->is_followed(pid)) {
        set_->follow(pid);
    }
}

// -- reading events ---------------------------------------------------------------------

// Fields are read typed, by member: read_event<ev::X> (properties/event_kind.hpp).

/// True when the event has kind `kind` (compares the precomputed hash, then the name unless
/// both are the same constant).
inline bool is_kind(const sim::TraceEvent& event, const sim::TraceKey& kind) {
    return event.kind.hash == kind.hash &&
           (event.kind.name.data() == kind.name.data() || event.kind.name == kind.name);
}
/// True when `kind` is one of `kinds` (for Monitor::watches).
inline bool kind_is_one_of(const sim::TraceKey& kind, std::initializer_list<sim::TraceKey> kinds) {
    for (const sim::TraceKey& candidate : kinds) {
        if (candidate.hash == kind.hash && candidate.name == kind.name) {
            return true;
        }
    }
    return false;
}
/// A one-line rendering of an event for witnesses: `kind field=value ...`.
/// With `names` (the run's view), a field that holds a pid (pid, parent, from, to, by, caller,
/// target, router, worker, pool, sup) names its process by path and PID (properties::
/// process_label: `pid=r/a <…1004>`); without, it is the bare number.
std::string describe_event(const sim::TraceEvent& event, const TopologyView* names = nullptr);
/// A witness made from an event.
Witness witness_of(const sim::TraceEvent& event, const TopologyView* names = nullptr);

inline Witness Monitor::witness(const sim::TraceEvent& event) const {
    return witness_of(event, names());
}

} // namespace routesim::properties
