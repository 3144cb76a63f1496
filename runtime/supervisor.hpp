// act::Supervisor: Ergo's supervisor with its four types (one-for-one, all-for-one,
// rest-for-one, simple-one-for-one), restart strategies, intensity in virtual time and the
// management API (§6), plus routesim's preserve_mailbox extension.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/behavior.hpp"
#include "runtime/node_impl.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::runtime {
namespace act {

/// Supervisor types (§6.1).
enum class SupervisorType : std::uint8_t {
    OneForOne = 0,
    AllForOne = 1,
    RestForOne = 2,
    SimpleOneForOne = 3,
};

/// Supervisor-wide restart strategies (§6.1); there is no per-child restart type.
enum class SupervisorStrategy : std::uint8_t {
    Transient = 0, ///< restart only on an abnormal reason (not Normal, not Shutdown)
    Temporary = 1, ///< never restart
    Permanent = 2, ///< always restart
};

/// Ergo's printed names: "One For One", ..., and "Transient", "Temporary", "Permanent".
std::string_view supervisor_type_name(SupervisorType type);
std::string_view supervisor_strategy_name(SupervisorStrategy strategy);

/// Restart settings (§6.1). Intensity 0 becomes 5 and a zero period becomes 5 s at init.
struct SupervisorRestart {
    SupervisorStrategy strategy = SupervisorStrategy::Transient;
    std::uint16_t intensity = 0;
    sim::Duration period = sim::Duration::zero();
    /// AFO/RFO only: stop the siblings one at a time, highest index first (§6.6).
    bool keep_order = false;
};

/// `restart` as a supervisor's Init applies it (§6.1): intensity 0 becomes 5 and a period of
/// zero or less becomes 5 s; the rest is kept.
SupervisorRestart applied_restart(SupervisorRestart restart);

/// One child spec (§6.1).
struct SupervisorChildSpec {
    Atom name;
    /// OFO/AFO/RFO: a clean stop of this child (or any stop under Temporary) shuts the
    /// supervisor down (§6.3 step 4). Ignored under Permanent and by SOFO.
    bool significant = false;
    Factory factory;
    /// Spawn options; link_child and link_parent are forced on.
    ProcessOptions options;
    Args args;
    /// routesim extension (Ergo 3.1.0 has no PreserveMailbox, §6.1): the user messages still
    /// queued in a dead incarnation's mailbox (Regular, Request and Event items of its
    /// Urgent, System and Main queues, in that order, FIFO in each) are handed to the next
    /// incarnation right after its spawn, ahead of anything sent to it later but behind what
    /// its own init sent itself. Exit signals, inspect requests and Log items are dropped.
    /// OFO/AFO/RFO: the next start of the same spec (restart, start_child or enable_child)
    /// receives them. SOFO: only the replacement of a restart; otherwise they are dropped
    /// when the exit is handled. Anything not handed over is dropped when the supervisor
    /// terminates. Trace: `preserve` at the child's teardown, then `forward` (by the
    /// supervisor) or `drop` for each message.
    bool preserve_mailbox = false;
};

/// What init returns (§6.1).
struct SupervisorSpec {
    std::vector<SupervisorChildSpec> children;
    SupervisorType type = SupervisorType::OneForOne;
    SupervisorRestart restart;
    /// Deliver handle_child_start / handle_child_terminate (queued to Main, §6.2).
    bool enable_handle_child = false;
    /// Stay alive when no child is left running (OFO/AFO/RFO, §6.3).
    bool disable_auto_shutdown = false;
};

/// One entry of children() (§6.1 SupervisorChild).
struct SupervisorChild {
    Atom spec;
    /// The registered name (OFO/AFO/RFO); empty for SOFO instances.
    Atom name;
    /// Empty when the child is not running.
    PID pid;
    bool significant = false;
    bool disabled = false;
    bool operator==(const SupervisorChild& other) const = default;
};

namespace detail {
class SupStrategy;
struct SupAction;
} // namespace detail

/// The Supervisor behaviour. Derive and implement init; the other callbacks keep Ergo's
/// defaults (handle_message/handle_call log a warning, handle_child_* log a warning,
/// handle_inspect returns the supervisor's statistics, terminate does nothing).
///
/// Unlike an Actor, an error from handle_message, handle_call, handle_child_* (or a throw
/// from them) starts a graceful shutdown: every running child is sent an exit with that
/// reason, and the supervisor terminates with it once they are gone (§6.2). A handle_call
/// value is replied even when an error is returned. There is no trap-exit.
class Supervisor : public Behavior {
public:
    Supervisor();
    ~Supervisor() override;

    // -- callbacks ----------------------------------------------------------------------
    /// Returns the spec; an error (or a spec that fails validation, §6.1) fails the spawn.
    virtual sim::Result<SupervisorSpec, Error> init(const Args& args) = 0;
    /// With enable_handle_child: a child (spec `name`) started; delivered later, in Main.
    virtual Status handle_child_start(Atom name, const PID& pid);
    /// With enable_handle_child: a child ended; `reason` is the propagated (unwrapped) one.
    virtual Status handle_child_terminate(Atom name, const PID& pid, const Error& reason);
    /// Any regular message, whatever its priority (the supervisor forwards nothing).
    virtual Status handle_message(const PID& from, const Message& message);
    /// A call; a value is replied even when a stop reason comes with it (§6.2).
    virtual CallReply handle_call(const PID& from, const Ref& ref, const Message& request);
    /// The inspect map; by default statistics().
    virtual Inspection handle_inspect(const PID& from, const std::vector<std::string>& items);
    /// Runs after the teardown with the reason the supervisor terminated with.
    virtual void terminate(const Error& reason);

    // -- queries ------------------------------------------------------------------------
    /// OFO/AFO/RFO: every spec in spec order, PID empty when stopped. SOFO: the running
    /// instances sorted by spec index, then PID id (§6.8).
    std::vector<SupervisorChild> children() const;
    /// type, strategy, intensity, period (s), restarts_count and child counts, as Ergo's
    /// supervisor inspect reports them.
    Inspection statistics() const;
    const PID& self() const { return process().pid(); }

    // -- management API (§6.8; only from the supervisor's own callbacks) -----------------
    /// Starts a stopped child (OFO/AFO/RFO; non-empty args replace and persist the spec's)
    /// or a new SOFO instance (args for this instance only). Errors: NotAllowed unless
    /// Running, SupervisorChildUnknown, SupervisorChildDisabled, SupervisorChildRunning,
    /// SupervisorStrategyActive (AFO/RFO cycling), or the spawn error.
    Status start_child(Atom name, const Args& args = {});
    /// Adds a spec and starts it now (SOFO: stores it only). Errors: NotAllowed,
    /// SupervisorStrategyActive, "invalid child spec Name", "child spec Factory is nil",
    /// SupervisorChildDuplicate, "shutting down" (SOFO), or the spawn error (the spec stays).
    Status add_child(SupervisorChildSpec spec);
    /// Clears the disabled flag and starts the child (SOFO: clears only). Errors: NotAllowed,
    /// SupervisorChildUnknown, SupervisorStrategyActive, "shutting down", the spawn error.
    Status enable_child(Atom name);
    /// Disables a running child and sends it an exit with Shutdown. A child that is not
    /// running is left enabled (an Ergo quirk we keep, §6.8). Errors: NotAllowed,
    /// SupervisorChildUnknown, SupervisorStrategyActive, "shutting down" (SOFO).
    Status disable_child(Atom name);

    // -- Behavior -----------------------------------------------------------------------
    Status process_init(const Args& args) final;
    Status process_message(Queue queue, MailboxMessage& message) final;
    void process_terminate(const Error& reason) final;
    Inspection process_inspect(PID from, const std::vector<std::string>& items) final;
    std::string_view kind_name() const override { return "Supervisor"; }
    /// §6.2: a panic in the supervisor's loop starts a graceful shutdown with Panic.
    Status process_panic() final;

private:
    Status guard(const std::function<Status()>& callback);
    Status handle_regular(const MailboxMessage& message);
    Status handle_request(const MailboxMessage& message);
    Status handle_exit(const MailboxMessage& message);
    Status begin_shutdown(const Error& reason);
    Status child_exited(const PID& pid, const Error& reason);
    Status handle_action(detail::SupAction action);
    sim::Result<PID, Error> start_child_action(const detail::SupAction& action);
    Status manage(const std::function<sim::Result<detail::SupAction, Error>()>& decide);
    void hand_over(const PID& dead, const PID& fresh);
    void drop_preserved(const PID& dead, std::string_view why);
    void trace_decision(const detail::SupAction& action, Atom name, const PID& pid,
                        const Error& reason);

    std::unique_ptr<detail::SupStrategy> strategy_;
    SupervisorType type_ = SupervisorType::OneForOne;
    SupervisorRestart restart_; // as validated (defaults applied)
    bool handle_child_ = false;
    std::map<PID, Atom> children_; // running children → spec name (ordered: determinism)
    std::set<PID> preserving_;     // running children whose spec preserves the mailbox
};

/// Checks a child spec as Ergo does: "invalid child spec Name", "child spec Factory is nil".
Status validate_child_spec(const SupervisorChildSpec& spec);

} // namespace act
} // namespace routesim::runtime
