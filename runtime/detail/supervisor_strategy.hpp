// The supervisor's type-specific decision machines (Ergo's supBehavior): pure state machines
// that turn starts, exits and management calls into actions the Supervisor carries out
// (§6.3–6.8). Private to supervisor*.cpp.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include "runtime/supervisor.hpp"

namespace routesim::runtime::act::detail {

/// One child spec as a strategy keeps it.
struct SupChildSpec {
    SupervisorChildSpec spec;
    std::size_t index = 0;      // position in spec order
    bool register_name = false; // OFO/AFO/RFO children are registered under spec.name
    bool disabled = false;
    PID pid;      // the running incarnation, or empty
    PID last_pid; // the last incarnation that exited (its kept mailbox, if any)
};

/// What the Supervisor must do next (Ergo's supActionType).
enum class SupDo : std::uint8_t { Nothing, StartChild, TerminateChildren, Terminate };

/// Why, for the trace (sup_child_exit's decision).
enum class SupDecision : std::uint8_t {
    None,
    Restart,
    Exceeded,
    Significant,
    AutoShutdown,
    KeepStopped,
    Disabled,
    Cycle,
    ShutdownWait,
    NotChild,
};

std::string_view decision_name(SupDecision decision);

/// An action. StartChild: spawn `child` (its args as given) and hand it the kept mailbox of
/// `replaces`; TerminateChildren: send each of `terminate` an exit with `reason` (never
/// empty); Terminate: the supervisor terminates with `reason`.
struct SupAction {
    SupDo what = SupDo::Nothing;
    SupDecision decision = SupDecision::None;
    SupChildSpec child;
    PID replaces;
    std::vector<PID> terminate;
    Error reason = Error::normal();
};

/// A child exit (or, with is_child false, a non-child exit or the supervisor's own failure,
/// which both start a graceful shutdown, §6.2).
struct SupExit {
    bool is_child = false;
    PID pid;
    Error reason;
    sim::Instant now;
    /// The child's spec name (children only).
    Atom name{};
};

/// The interface of a type's machine. Management calls return the Ergo error to give back.
class SupStrategy {
public:
    virtual ~SupStrategy() = default;
    /// Precondition: `spec` passed validation and has defaults applied.
    virtual SupAction init(const SupervisorSpec& spec) = 0;
    virtual sim::Result<SupAction, Error> child_add(SupervisorChildSpec spec) = 0;
    virtual sim::Result<SupAction, Error> child_start(Atom name, const Args& args) = 0;
    virtual SupAction child_started(const SupChildSpec& child, const PID& pid) = 0;
    virtual SupAction child_terminated(const SupExit& exit) = 0;
    virtual sim::Result<SupAction, Error> child_enable(Atom name) = 0;
    virtual sim::Result<SupAction, Error> child_disable(Atom name) = 0;
    virtual std::vector<SupervisorChild> children() const = 0;
    virtual Inspection inspect() const = 0;
};

/// §6.4: appends `now` to `history` and tells whether the limit is exceeded: at most
/// `intensity` restarts fit in any window of `period` (entries older than the period are
/// dropped only once the list is longer than the intensity).
bool restart_intensity_exceeded(std::vector<sim::Instant>& history,
                                const SupervisorRestart& restart, sim::Instant now);

/// True when `strategy` restarts a child that exited with `reason` (§6.1: Transient restarts
/// only on a reason that is not exactly Normal or Shutdown).
bool restarts_on(SupervisorStrategy strategy, const Error& reason);

/// The common part of Ergo's inspect map: type, strategy, intensity, period, restarts_count.
Inspection base_inspection(SupervisorType type, const SupervisorRestart& restart,
                           std::size_t restarts_count);

/// The machine of one-for-one, all-for-one and rest-for-one (they share the named-children
/// bookkeeping; the exit decisions live in supervisor_ofo.cpp and supervisor_arfo.cpp).
class SupNamed final : public SupStrategy {
public:
    explicit SupNamed(SupervisorType type);

    SupAction init(const SupervisorSpec& spec) override;
    sim::Result<SupAction, Error> child_add(SupervisorChildSpec spec) override;
    sim::Result<SupAction, Error> child_start(Atom name, const Args& args) override;
    SupAction child_started(const SupChildSpec& child, const PID& pid) override;
    SupAction child_terminated(const SupExit& exit) override;
    sim::Result<SupAction, Error> child_enable(Atom name) override;
    sim::Result<SupAction, Error> child_disable(Atom name) override;
    std::vector<SupervisorChild> children() const override;
    Inspection inspect() const override;

private:
    enum class Mode : std::uint8_t { Normal, Starting, Stopping };

    bool is_one_for_one() const { return type_ == SupervisorType::OneForOne; }
    bool add_or_start_blocked() const;
    bool enable_or_disable_blocked() const;
    SupChildSpec* find(Atom name);
    SupAction start_action(std::size_t index) const;
    std::vector<PID> running_except(std::size_t index) const;
    SupAction begin_shutdown(std::vector<PID> running, Error children_reason, Error final_reason,
                             SupDecision decision);
    SupAction stopped_for_good(std::size_t index, const SupExit& exit,
                               const std::vector<PID>& running);
    SupAction exceeded(const SupExit& exit, std::vector<PID> running);
    // supervisor_ofo.cpp
    SupAction one_for_one_exit(std::size_t index, const SupExit& exit, std::vector<PID> running);
    // supervisor_arfo.cpp
    SupAction all_rest_exit(std::size_t index, const SupExit& exit, std::vector<PID> running);
    SupAction cycle_exit(std::size_t index, const SupExit& exit);
    std::vector<PID> cycle_targets();
    SupAction cycle_start();

    SupervisorType type_;
    SupervisorRestart restart_;
    bool auto_shutdown_ = true;
    std::vector<SupChildSpec> specs_;
    Mode mode_ = Mode::Normal;
    bool shutdown_ = false;
    Error shutdown_reason_ = Error::normal();
    std::set<PID> wait_;            // exits awaited (shutdown, or an AFO/RFO stopping phase)
    std::size_t restart_index_ = 0; // AFO/RFO: first spec of the current cycle
    std::vector<sim::Instant> restarts_;
};

/// The simple-one-for-one machine (supervisor_sofo.cpp).
std::unique_ptr<SupStrategy> make_simple_one_for_one();

} // namespace routesim::runtime::act::detail
