// Behavior: the process behaviour interface (gen.ProcessBehavior) that Actor, Pool,
// Supervisor and Router implement, plus the process API shortcuts they all share.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/gen.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/message.hpp"
#include "sim/assert.hpp"
#include "sim/time.hpp"

namespace routesim::runtime {

class Process;
class Behavior;

/// Spawn arguments (Go's `args ...any`).
using Args = std::vector<Message>;

/// Makes a fresh behaviour for each spawn (gen.ProcessFactory).
using Factory = std::function<std::unique_ptr<Behavior>()>;

/// The process behaviour interface. The runtime calls process_init once, then
/// process_message once per taken mailbox item, then process_terminate after teardown.
/// A callback may throw; the runtime turns any exception into TerminateReason::Panic.
class Behavior {
public:
    virtual ~Behavior() = default;

    /// Runs synchronously inside spawn (§2.8). An error makes the spawn fail.
    virtual Status process_init(const Args& args) = 0;
    /// Handles one item taken from `queue`. An error terminates the process with it.
    virtual Status process_message(Queue queue, MailboxMessage& message) = 0;
    /// Runs after the teardown, with the original (wrapped) reason (§3.2).
    virtual void process_terminate(const Error& reason) = 0;
    /// The inspect map, as node-level Inspect returns it (A19).
    virtual Inspection process_inspect(PID from, const std::vector<std::string>& items) = 0;
    /// The behaviour kind: "Actor", "Pool", "Supervisor" or "Router".
    virtual std::string_view kind_name() const = 0;
    /// The behaviour's name for reports and Pool inspect (never typeid: must be portable).
    virtual std::string_view behavior_name() const { return kind_name(); }
    /// Virtual time between being told to stop and the exit being observed (a scenario
    /// knob that widens pending windows); zero by default.
    virtual sim::Duration terminate_delay() const { return sim::Duration::zero(); }
    /// Runs in place of process_message when the process panics at a take (an injected
    /// crash: Node::watch_takes). Returns what the behaviour's loop makes of a recovered
    /// panic. The default is a callback panic's: log it and terminate with Panic (§3.2).
    virtual Status process_panic();

    /// The process this behaviour runs in. Precondition: set (the runtime does it before
    /// process_init).
    Process& process() const {
        RS_ASSERT(process_ != nullptr);
        return *process_;
    }
    bool has_process() const { return process_ != nullptr; }

private:
    friend class Node;
    Process* process_ = nullptr;
};

namespace detail {

/// Points a behaviour's current-message slot at the item being handled for one scope, so
/// that a process_message can return its handler's Status directly (built in the caller's
/// slot, not copied) and still clear the slot after it.
class CurrentMessage {
public:
    CurrentMessage(const MailboxMessage*& slot, const MailboxMessage& message) : slot_(slot) {
        slot_ = &message;
    }
    CurrentMessage(const CurrentMessage&) = delete;
    CurrentMessage& operator=(const CurrentMessage&) = delete;
    ~CurrentMessage() { slot_ = nullptr; }

private:
    const MailboxMessage*& slot_;
};

} // namespace detail

} // namespace routesim::runtime
