// TopologyView: the one picture of a run that every trace reader shares (processes, route
// tables with their history, supervisors, pools, calls still waiting, the message ledger),
// fed once per trace event. Readers query it; none keeps a private copy of these facts.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/event_decodes.hpp"
#include "properties/event_kind.hpp"
#include "properties/event_text.hpp"
#include "properties/route_model.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::properties {

/// Where every message ended, by category (the no-data-loss ledger).
struct Ledger {
    std::uint64_t sent = 0;         ///< distinct messages put into a mailbox
    std::uint64_t handled = 0;      ///< taken by a behaviour and not passed on
    std::uint64_t discarded = 0;    ///< RouteDiscard
    std::uint64_t route_failed = 0; ///< routing failed (MessageRouteFailed or an error reply)
    std::uint64_t unhandled = 0;    ///< a pool found no worker
    std::uint64_t dropped = 0;      ///< discarded with a dead mailbox
    std::map<std::string, std::uint64_t> dropped_by_reason;
    std::uint64_t queued = 0; ///< still in a mailbox (or kept for a hand-over) at the end
    /// Every message is in exactly one category.
    bool balanced() const {
        return handled + discarded + route_failed + unhandled + dropped + queued == sent;
    }
    /// One line per category.
    std::string to_string() const;
};

/// What a message is, from its send: a user message (Regular or Request from a behaviour) or
/// one the runtime makes (an exit signal, a router management request, anything internal).
enum class MessageClass : std::uint8_t { User, ExitSignal, Admin, Internal };
inline constexpr std::size_t message_class_count = 4;

/// Where a message is. Kept: preserved from a dead child's mailbox, held by its supervisor
/// for hand-over. Ended: discarded, failed, unhandled or dropped (a taken message that is not
/// passed on stays Taken: it was handled).
enum class MessageWhere : std::uint8_t { Unknown, Queued, Taken, Kept, Ended };

/// What the last send/forward/take/drop/preserve/end did to the ledger: Ok, or the rule it
/// broke (the transition was then not applied). message_conservation reports these.
enum class LedgerFault : std::uint8_t {
    None,
    SentTwice,         ///< a send of an id already known
    ForwardNotHeld,    ///< a forward by a process that does not hold the message
    TakeNotQueued,     ///< a take of a message not queued at the taker
    DropNotQueued,     ///< a drop of a message not queued (nor kept) there
    PreserveNotQueued, ///< a preserve of a message not queued there
    EndNotTaken,       ///< a routing end (discard, failed, unhandled) of a message not taken
};

/// The ledger's record of one message id.
struct MessageRecord {
    MessageWhere where = MessageWhere::Unknown;
    MessageClass what = MessageClass::User;
    std::uint64_t holder = 0;   ///< the process it is queued at, taken by or kept by
    std::uint64_t last_seq = 0; ///< the event that put it where it is
};

/// The kinds of message step (the events that move a message id).
enum class HopKind : std::uint8_t { Send, Forward, Take, Drop, Preserve };

/// One message step, decoded once by the view for every reader (TopologyView::last_hop).
struct MessageHop {
    HopKind kind = HopKind::Send;
    std::uint64_t id = 0;
    std::uint64_t by = 0;    ///< send: from; forward: by; take, drop, preserve: pid
    std::uint64_t to = 0;    ///< send, forward: the receiver; preserve: the keeper (parent)
    std::uint64_t from = 0;  ///< forward, take: the From the message carries
    std::uint64_t queue = 0; ///< send, forward
    std::uint64_t type = 0;  ///< send, take: the mailbox type
};

/// One process as the trace knows it.
struct ProcessView {
    std::uint64_t pid = 0;
    std::uint64_t parent = 0;
    std::string name;     ///< registered at spawn ("" when none)
    std::string behavior; ///< behaviour name ("echo", "router", ...)
    std::string kind;     ///< "Actor", "Router", "Supervisor", "Pool", ...
    sim::Instant spawned;
    bool alive = true;   ///< false once its exit (or failed Init) is seen, or once killed
    bool exited = false; ///< its exit event (or spawn_failed) was seen
    bool killed = false; ///< Node.Kill made it a Zombee (not alive; exit may follow)
    bool init_failed = false;
    sim::Instant ended;     ///< when it exited (valid when exited)
    std::string end_reason; ///< the exit reason or Init failure (when exited)
    std::string route;      ///< for a router's worker: the first route it served ("" else)
};

/// One route of a router's table.
struct RouteView {
    std::string name;
    RouteState state = RouteState::Running;
    std::uint64_t worker = 0;    ///< the current worker pid id, 0 when none
    std::uint64_t restarts = 0;  ///< route_restart events (R42)
    std::uint64_t since_seq = 0; ///< the event that gave it its state or worker
};

/// A route that left a router's table (R27, R28).
struct RouteRemoval {
    std::string name;
    sim::Instant at;
    std::uint64_t restarts = 0;
};

/// One router: its table (kept as it was when the router died), history and counters.
struct RouterView {
    std::uint64_t pid = 0;
    std::vector<RouteView> routes; ///< table order (R5, R30, R27)
    std::vector<RouteRemoval> removals;
    std::uint64_t forwarded_owned = 0;
    std::uint64_t forwarded_registry = 0;
    std::uint64_t discarded = 0;
    std::uint64_t failed = 0;
    std::uint64_t fresh_spawn = 0; ///< the router's last spawn not yet claimed by a route
    bool alive = true;
    sim::Instant died;       ///< when it exited (when !alive)
    std::string died_reason; ///< its exit reason (when !alive)

    /// The route named `name`, or nullptr.
    const RouteView* route(std::string_view name) const;
    /// The route whose current worker is `worker` (not 0), or nullptr.
    const RouteView* route_of_worker(std::uint64_t worker) const;
    std::uint64_t forwarded() const { return forwarded_owned + forwarded_registry; }
};

/// One child of a supervisor: by the name its spawn registered, or by the child spec name a
/// restart decision gives (the two agree for named children).
struct SupervisorChild {
    std::string name;
    std::uint64_t pid = 0;      ///< the latest incarnation, 0 before its spawn is seen
    bool running = false;       ///< the latest incarnation is alive
    std::uint64_t restarts = 0; ///< sup_restart decisions for this child
    std::string last_exit;      ///< the reason of its last exit ("" when none)
};

/// A restart decision within a supervisor's current window.
struct RestartDecision {
    sim::Instant at;
    KeptWitness event; ///< the sup_restart, for witnesses
};

/// One supervisor: children in spawn order, the restart window and its termination.
struct SupervisorView {
    std::uint64_t pid = 0;
    std::vector<SupervisorChild> children;
    /// The decisions within one period of the latest (§6.4: both ends included), as
    /// restart_intensity counts them: none is added once the limit tripped, and a window that
    /// overran the intensity (a runtime bug, which restart_intensity reports) keeps only the
    /// latest `intensity` decisions from the next one on.
    std::deque<RestartDecision> window;
    std::uint64_t intensity = 0; ///< from the latest sup_restart (0: not known yet)
    sim::Duration period;
    std::uint64_t restarts = 0; ///< every sup_restart
    /// The sup_intensity_exceeded, if the limit tripped.
    std::optional<KeptWitness> exceeded;
    sim::Instant exceeded_at;
    /// The latest sup_restart came after the limit tripped (restart_intensity reports it).
    bool exceeded_before_last = false;
    std::string exceeded_child; ///< the child whose exit tripped the limit
    std::uint64_t exceeded_pid = 0;
    std::string exceeded_reason; ///< that exit's reason
    bool terminated = false;
    sim::Instant terminated_at;
    std::string terminated_reason;
};

/// One pool: its workers and counters.
struct PoolView {
    std::uint64_t pid = 0;
    std::vector<std::uint64_t> workers; ///< every worker it spawned, in order
    std::uint64_t forwarded = 0;        ///< pool_forward ok or respawned
    std::uint64_t unhandled = 0;
    std::uint64_t worker_restarts = 0; ///< respawned workers
};

/// A call not yet ended (call ... call_result).
struct PendingCall {
    std::uint64_t caller = 0;
    std::uint64_t target = 0;
    std::uint64_t ref = 0;
    sim::Instant since;
    KeptWitness event; ///< the call, for witnesses
};

/// What the last call or call_result did to the pending calls.
enum class CallChange : std::uint8_t { None, Started, StartedTwice, Ended, EndedUnopened };

/// See the file comment. Feed it every event (a MonitorSet feeds its one view before its
/// monitors); queries are const and cost a lookup. Cost per event: a kind switch and a few
/// field reads; per send, forward, take, drop or preserve one indexed record; per route event
/// a lookup of the router by pid (indexed) and of the route by name (linear, tables are
/// short). Memory: one record per process, per message id and per route.
class TopologyView final : public sim::TraceSink {
public:
    TopologyView();

    // -- processes ------------------------------------------------------------------------
    /// The process with pid id `pid`, or nullptr when its spawn was not seen.
    const ProcessView* process(std::uint64_t pid) const;
    /// True when `pid` was spawned and has neither exited nor been killed (a stale pid of an
    /// earlier incarnation is dead).
    bool is_alive(std::uint64_t pid) const;
    /// Every process in spawn order.
    const std::vector<ProcessView>& processes() const { return processes_; }
    /// The pid currently registered under `name`, 0 when none.
    std::uint64_t registered(std::string_view name) const;

    // -- routers ----------------------------------------------------------------------------
    /// The router with pid id `pid` (alive or dead, its last table kept), or nullptr.
    const RouterView* router(std::uint64_t pid) const;
    /// Every router in spawn order.
    const std::vector<RouterView>& routers() const { return routers_; }
    /// The router and route whose current worker is `worker`, or {nullptr, nullptr}.
    std::pair<const RouterView*, const RouteView*> route_of_worker(std::uint64_t worker) const;

    // -- supervisors, pools, calls --------------------------------------------------------
    /// The supervisor with pid id `pid`, or nullptr.
    const SupervisorView* supervisor(std::uint64_t pid) const;
    const std::vector<SupervisorView>& supervisors() const { return supervisors_; }
    /// The pool with pid id `pid`, or nullptr.
    const PoolView* pool(std::uint64_t pid) const;
    const std::vector<PoolView>& pools() const { return pools_; }
    /// The workers of `pool` still alive.
    std::size_t live_workers(const PoolView& pool) const;
    /// Calls not yet ended, in the order they began.
    std::vector<const PendingCall*> pending_calls() const;
    /// The pending call (caller, ref), or nullptr.
    const PendingCall* pending_call(std::uint64_t caller, std::uint64_t ref) const;
    /// What the last call or call_result event did (for call_outcome).
    CallChange last_call_change() const { return last_call_change_; }

    // -- the message ledger ---------------------------------------------------------------
    /// The ledger of every message (handled and queued are counted as of now).
    Ledger ledger() const { return ledger_of(false); }
    /// The ledger of user messages only (MessageClass::User).
    Ledger user_ledger() const { return ledger_of(true); }
    /// Messages sent, by class.
    std::uint64_t sent(MessageClass what) const { return sent_[static_cast<std::size_t>(what)]; }
    /// The record of message `id` (Unknown for an id never sent).
    MessageRecord message(std::uint64_t id) const {
        return id < messages_.size() ? messages_[id] : MessageRecord{};
    }
    /// Every record, by id (index 0 unused).
    const std::vector<MessageRecord>& messages() const { return messages_; }
    /// The last message step applied (valid while that event is dispatched, when its kind is
    /// send, forward, take, drop or preserve).
    const MessageHop& last_hop() const { return last_hop_; }
    /// What the last ledger event did; None when it applied cleanly.
    LedgerFault last_ledger_fault() const { return last_fault_; }

    // -- commands ---------------------------------------------------------------------------
    /// True when apply() reads events of `kind` (a MonitorSet feeds it only those).
    static bool watches(EventKind kind);
    /// Applies one event (as a sink of its own, for a reader outside a MonitorSet).
    void on_event(const sim::TraceEvent& event) override {
        apply(event_kind_of(event.kind), event);
    }
    /// on_event with the event's kind decoded (the view decodes the event itself).
    void apply(EventKind kind, const sim::TraceEvent& event) {
        own_decodes_.begin(event);
        apply(kind, event, own_decodes_);
    }
    /// apply, reading the event through `decodes` (a MonitorSet's, begun for `event`: the
    /// monitors then read the same decodes).
    void apply(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes);
    /// Forgets every event seen, keeping allocated capacity.
    void reset();

private:
    static constexpr std::uint32_t none = ~std::uint32_t{0};
    struct Roles { // indexes into routers_/supervisors_/pools_, by pid slot
        std::uint32_t process = none;
        std::uint32_t router = none;
        std::uint32_t supervisor = none;
        std::uint32_t pool = none;
    };

    const Roles* roles(std::uint64_t pid) const;
    Roles& roles_of(std::uint64_t pid);
    ProcessView* process_mut(std::uint64_t pid);
    RouterView* router_mut(std::uint64_t pid);
    RouterView& router_or_add(std::uint64_t pid);
    SupervisorView& supervisor_or_add(std::uint64_t pid);
    PoolView& pool_or_add(std::uint64_t pid);
    Ledger ledger_of(bool user_only) const;

    // apply's cases: the hot kinds inline, the others out of line
    template <class E, class Handle>
    static bool with(EventDecodes& decodes, const sim::TraceEvent& event, Handle&& handle);
    void apply_rare(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes);
    void apply_route_or_tree(EventKind kind, const sim::TraceEvent& event, EventDecodes& decodes);
    void on_spawn(const runtime::ev::Spawn& spawn, sim::Instant at);
    void on_spawn_failed(const runtime::ev::SpawnFailed& failed, sim::Instant at);
    void on_exit(const runtime::ev::Exit& exit, sim::Instant at);
    void on_kill(const runtime::ev::Kill& kill);
    void on_register(std::uint64_t pid, std::string_view name, bool add);
    void on_take(const runtime::ev::Take& take, std::uint64_t seq);
    void on_route(const runtime::ev::Route& routed, std::uint64_t seq);
    void on_route_init(const runtime::ev::RouteInit& init, std::uint64_t seq);
    void on_route_restart(const runtime::ev::RouteRestart& restart, std::uint64_t seq);
    void on_route_pending(const runtime::ev::RoutePending& pending, const sim::TraceEvent& event);
    void on_route_admin(const runtime::ev::RouteAdmin& admin, const sim::TraceEvent& event);
    void erase_route(RouterView& router, std::size_t index, sim::Instant at);
    /// Names `worker` after `route` unless it has a route name already.
    void note_worker(std::uint64_t worker, std::string_view route);
    // The fields the four supervisor events share (those an event lacks stay empty).
    struct SupFields {
        std::uint64_t sup = 0;
        std::string_view child;
        std::uint64_t pid = 0;
        std::string_view reason;
        std::uint64_t intensity = 0;
        std::int64_t period_ns = 0;
    };
    void on_supervisor(EventKind kind, const SupFields& fields, const sim::TraceEvent& event);
    static void slide_window(SupervisorView& sup, sim::Instant now);
    void on_pool_forward(const runtime::ev::PoolForward& forward);
    void on_call(EventKind kind, std::uint64_t caller, std::uint64_t ref,
                 const sim::TraceEvent& event);
    // the ledger
    MessageRecord& record(std::uint64_t id) {
        return id < messages_.size() ? messages_[id] : grow_to(id);
    }
    MessageRecord& grow_to(std::uint64_t id);
    void move(MessageRecord& item, MessageWhere where);
    void on_send(const runtime::ev::Send& send, std::uint64_t seq);
    void on_forward(const runtime::ev::Forward& forward, std::uint64_t seq);
    void on_drop(const runtime::ev::Drop& drop);
    void on_preserve(const runtime::ev::Preserve& preserve, std::uint64_t seq);
    void end_taken(std::uint64_t id, std::uint64_t Ledger::*category);

    std::vector<ProcessView> processes_;
    std::vector<Roles> roles_dense_;              // by pid id below dense_max
    std::map<std::uint64_t, Roles> roles_sparse_; // pid ids from dense_max
    static constexpr std::uint64_t dense_max = std::uint64_t{1} << 20;
    std::vector<std::pair<std::string, std::uint64_t>> registered_;
    std::vector<RouterView> routers_;
    std::uint32_t last_router_ = none;       // the router the last route event named
    std::uint64_t routers_low_ = UINT64_MAX; // every router pid lies in [low, high]
    std::uint64_t routers_high_ = 0;
    std::vector<SupervisorView> supervisors_;
    std::vector<PoolView> pools_;
    std::vector<PendingCall> calls_; // open calls in start order (ended ones erased)
    CallChange last_call_change_ = CallChange::None;
    std::pair<std::uint64_t, std::uint64_t> last_request_{0, 0}; // the last Request send: from, to
    std::vector<MessageRecord> messages_;                        // by id
    // Ledger counts by class: the ending categories, and how many records are in each place.
    std::uint64_t sent_[message_class_count] = {};
    Ledger ends_[message_class_count];
    std::uint64_t where_count_[message_class_count][5] = {};
    LedgerFault last_fault_ = LedgerFault::None;
    MessageHop last_hop_;
    EventDecodes own_decodes_; // apply without a MonitorSet's decodes
};

/// The trace spelling of a message class: "user", "exit_signal", "admin", "internal".
std::string_view message_class_name(MessageClass what);

} // namespace routesim::properties
