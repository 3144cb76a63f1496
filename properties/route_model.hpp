// The pure model of one Router's route table (§8): the state machine of a
// route, the result of every management call, the effect of a worker's exit and the outcome of
// routing, under both semantics profiles. No processes: facts about the world (is the worker
// still alive, does a spawn succeed) are inputs. Used by the Router's property tests, the
// invariant monitors and the fuzzer. Part of properties/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "runtime/err.hpp"
#include "runtime/gen.hpp"
#include "runtime/node.hpp"
#include "runtime/route_state.hpp"
#include "runtime/router.hpp"

namespace routesim::properties {

/// A route's state in the table: the Router's one type (runtime/route_state.hpp), Absent for
/// "no route with that name".
using RouteState = runtime::act::RouteState;

/// The trace spelling: "absent", "running", "dead", "disabled", "pending_disable", ...
using runtime::act::route_state_name;
/// The state with that trace spelling, if any.
inline std::optional<RouteState> parse_route_state(std::string_view name) {
    return runtime::act::route_state_from_name(name);
}
bool is_pending(RouteState state);
/// True for the states that record a worker PID (Running and the three pending ones).
bool has_worker(RouteState state);
/// The state a snapshot shows (the inverse of how a real route reads).
RouteState state_of(const runtime::act::RouterRouteInfo& info);

/// A management method.
enum class RouteOp : std::uint8_t { Add, Remove, Disable, Enable, Replace, Respawn };

/// "add", "remove", "disable", "enable", "replace", "respawn" (the route_admin trace op).
std::string_view route_op_name(RouteOp op);
/// The method with that trace spelling (route_admin's op), if any.
std::optional<RouteOp> parse_route_op(std::string_view text);

/// What a management call returns, as the model names it.
enum class CallOutcome : std::uint8_t {
    Ok,
    NotAllowed, ///< R36/R37, or the documented profile's "router not alive"
    NoRoute,
    Busy,
    Disabled,
    RouteDuplicate,
    RouteRunning,
    EmptyName,    ///< "route name can not be empty" (R30)
    NilFactory,   ///< `route "<n>" has nil Factory` (R30, R34)
    NameMismatch, ///< `ReplaceRoute name mismatch: ...` (R34)
    SpawnError,   ///< the spawn error, unchanged
};

std::string_view call_outcome_name(CallOutcome outcome);
/// The Err of a named outcome (NotAllowed, NoRoute, Busy, Disabled, RouteDuplicate,
/// RouteRunning); nothing for Ok, the ad-hoc texts and SpawnError.
std::optional<runtime::Err> outcome_err(CallOutcome outcome);
/// Classifies a real result: "ok" or the route_admin trace `result` text (an Ergo name such as
/// "gen.ErrBusy", an R48 text, or anything else, which is a spawn error).
CallOutcome classify_result(std::string_view result);
/// Classifies a management method's real return value.
CallOutcome classify_result(const runtime::act::RouteResult& result);

/// One route as the model sees it: its state and spec versions (which factory/args it
/// spawns from; the numbers are the caller's labels).
struct RouteSlot {
    RouteState state = RouteState::Absent;
    std::uint32_t spec = 0;
    std::uint32_t pending_spec = 0; ///< the new spec of a pending Replace
    bool operator==(const RouteSlot& other) const = default;
};

/// What happens to the route's recorded worker PID.
enum class WorkerChange : std::uint8_t {
    Keep,  ///< unchanged
    Clear, ///< no PID afterwards
    New,   ///< the PID of the worker the step spawned
};

/// World facts a management call depends on.
struct CallEnv {
    runtime::Semantics semantics = runtime::Semantics::Documented;
    /// The router accepts management calls now (see predict_allowed).
    bool allowed = true;
    /// The recorded worker is still alive, so an exit to it is delivered (R25, R50).
    bool worker_alive = true;
    /// A spawn made by the call succeeds.
    bool spawn_ok = true;
};

/// A management call's arguments, as far as validation looks at them.
struct CallArgs {
    RouteOp op = RouteOp::Add;
    /// Add, Replace: the label of the new spec.
    std::uint32_t spec = 0;
    /// Add: the route's name is empty.
    bool name_empty = false;
    /// Add, Replace: the factory is nil.
    bool factory_nil = false;
    /// Replace: a non-empty spec name differs from the key.
    bool name_mismatch = false;
};

/// The predicted effect of one management call.
struct CallPrediction {
    CallOutcome outcome = CallOutcome::Ok;
    RouteSlot after;
    WorkerChange worker = WorkerChange::Keep;
    bool spawns = false;       ///< a spawn is attempted
    bool sends_exit = false;   ///< an exit (Shutdown) is sent to the recorded worker
    bool drops_worker = false; ///< the old PID enters the pending-exit set (R50)
};

/// Whether management calls are accepted (R36, R37; documented: alive and not in Init).
bool predict_allowed(runtime::Semantics semantics, runtime::ProcessState router_state,
                     bool router_executing);

/// Predicts a management call on `slot` (Absent for an unknown name): the R-table, R26, R55
/// check orders and the profile points 1–3. Pure.
CallPrediction predict_call(const RouteSlot& slot, const CallArgs& args, const CallEnv& env);

/// The predicted effect of the router consuming the exit of the route's recorded worker.
struct ExitPrediction {
    RouteSlot after;
    WorkerChange worker = WorkerChange::Clear;
    bool spawns = false;
    bool counts_restart = false; ///< eager restarts only (R22)
};

/// Predicts R22/R23 (nothing pending) and R27 (pending). Precondition: has_worker(state).
ExitPrediction predict_exit(const RouteSlot& slot, bool spawn_ok);

/// World facts routing to an owned route depends on.
struct RouteEnv {
    runtime::Semantics semantics = runtime::Semantics::Documented;
    /// The recorded worker is alive, so a forward to it succeeds.
    bool worker_alive = true;
    /// What a forward to the dead recorded worker returns.
    runtime::Err dead_error = runtime::Err::ProcessUnknown;
    /// A lazy or retry spawn succeeds.
    bool spawn_ok = true;
};

/// The predicted outcome of routing one message to an owned route.
struct RoutePrediction {
    bool forwarded = false;
    /// The named failure reason; empty when forwarded or when the reason is a spawn error.
    std::optional<runtime::Err> reason;
    bool spawn_error = false; ///< the failure reason is a spawn error (R13, R45)
    RouteSlot after;
    WorkerChange worker = WorkerChange::Keep;
    bool spawns = false;
    bool counts_restart = false; ///< lazy (R13) or retry (R45)
    bool drops_worker = false;   ///< R45: the old PID enters the pending-exit set
};

/// Predicts R12–R16 and R45 (owned routes only). Precondition: state is not Absent.
RoutePrediction predict_route(const RouteSlot& slot, const RouteEnv& env);

/// The model of one router: the ordered table, recorded worker ids, the pending-exit set and
/// the counters. Predictions are const; commit applies one once the caller knows the PID of
/// any worker spawned (0 when none).
class RouteTable {
public:
    struct Entry {
        runtime::Atom name;
        RouteSlot slot;
        std::uint64_t worker = 0; ///< the recorded PID id; 0 when none
    };
    enum class ExitKind : std::uint8_t { Recorded, PendingExit, Stray };

    // -- queries ------------------------------------------------------------------------
    const std::vector<Entry>& entries() const { return entries_; }
    RouteSlot slot(runtime::Atom name) const;
    std::uint64_t worker(runtime::Atom name) const;
    const std::set<std::uint64_t>& pending_exit() const { return pending_exit_; }
    const runtime::act::RouterCounters& counters() const { return counters_; }
    /// How the router will treat an exit from `pid` (R44).
    ExitKind classify_exit(std::uint64_t pid) const;
    /// The name of the route whose recorded worker is `pid`; empty when none.
    runtime::Atom route_of(std::uint64_t pid) const;

    // -- commands -----------------------------------------------------------------------
    /// A route spawned by Init (R5): Running with `worker`.
    void add_initial(runtime::Atom name, std::uint32_t spec, std::uint64_t worker);
    CallPrediction predict_call(runtime::Atom name, const CallArgs& args, const CallEnv& env) const;
    void commit_call(runtime::Atom name, const CallPrediction& prediction,
                     std::uint64_t new_worker);
    RoutePrediction predict_route(runtime::Atom name, const RouteEnv& env) const;
    void commit_route(runtime::Atom name, const RoutePrediction& prediction,
                      std::uint64_t new_worker);
    /// A registry forward (R17) or a registry miss.
    void commit_unowned(bool forwarded);
    /// A RouteDiscard (R11).
    void commit_discard();
    ExitPrediction predict_exit(std::uint64_t pid, bool spawn_ok) const;
    /// Applies an exit: R22/R23/R27 for a recorded worker, R50 for the pending-exit set.
    /// Precondition: not Stray.
    void commit_exit(std::uint64_t pid, const ExitPrediction& prediction, std::uint64_t new_worker);

private:
    std::optional<std::size_t> index_of(runtime::Atom name) const;
    void apply(std::size_t index, const RouteSlot& after, WorkerChange change,
               std::uint64_t new_worker, bool drops_worker);

    std::vector<Entry> entries_;
    std::set<std::uint64_t> pending_exit_;
    runtime::act::RouterCounters counters_;
};

} // namespace routesim::properties
