// Process: one actor's runtime state (four queues, state machine, call waiting, relations)
// and the process API that behaviours use from their callbacks (§1–3).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "runtime/behavior.hpp"
#include "runtime/detail/ring.hpp"
#include "runtime/error.hpp"
#include "runtime/gen.hpp"
#include "runtime/mailbox.hpp"
#include "sim/result.hpp"
#include "sim/time.hpp"
#include "sim/world.hpp"

namespace routesim::runtime {

class Node;

/// The outcome of a send-like operation: nothing, or an Ergo error.
using SendResult = sim::Result<void, Err>;

/// The result a call's continuation receives: the response, or the error (ErrTimeout,
/// ErrProcessTerminated, or whatever the responder sent with send_response_error).
using CallResult = sim::Result<Message, Error>;

/// Runs when a call ends; its Status decides whether the process keeps going (§2.4).
using CallContinuation = std::function<Status(CallResult)>;

/// Options of a spawn (gen.ProcessOptions, §2.8). Fallback and Env are not modelled.
struct ProcessOptions {
    /// Per-queue cap; 0 = unbounded (§1.4).
    std::int64_t mailbox_size = 0;
    /// Leader; empty = inherit from the parent.
    PID leader;
    /// The default priority of this process's sends.
    MessagePriority send_priority = MessagePriority::Normal;
    /// The child dies with the parent (child links parent).
    bool link_parent = false;
    /// The parent gets an exit signal when the child dies (parent links child).
    bool link_child = false;
    /// routesim extension (SupervisorChildSpec::preserve_mailbox; not in Ergo 3.1.0, §6.1):
    /// at teardown the queued user messages (types Regular, Request and Event, from the
    /// Urgent, System and Main queues, in order) are kept for the parent to hand to a
    /// successor through Node::take_preserved instead of being dropped. Exit signals,
    /// inspect requests and Log items are dropped as usual. Ignored unless the parent is a
    /// live process; the kept messages are dropped when the parent terminates.
    bool preserve_mailbox = false;
};

/// Options of a call.
struct CallOptions {
    /// Virtual time to wait for the response (Ergo's default: 5 seconds). Zero or less
    /// means the default (§2.4: t < 1 means the default).
    sim::Duration timeout = sim::Duration::seconds(5);
    /// The priority of the request; empty = the process's send priority.
    std::optional<MessagePriority> priority;
};

/// One relation where this process is the target: the consumer is told when it ends.
struct Relation {
    PID consumer;
    bool is_monitor = false;
};

/// A process. Created and owned by the Node; behaviours reach it through Behavior::process().
/// Not copyable; addresses are never used as keys or printed.
class Process {
public:
    Process(Node& node, PID pid, PID parent, PID leader, ProcessOptions options,
            std::unique_ptr<Behavior> behavior);
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;
    ~Process();

    // -- queries ------------------------------------------------------------------------
    const PID& pid() const { return pid_; }
    Atom name() const { return name_; }
    const PID& parent() const { return parent_; }
    const PID& leader() const { return leader_; }
    ProcessState state() const { return state_; }
    bool is_alive() const { return runtime::is_alive(state_); }
    Node& node() const { return node_; }
    Behavior& behavior() const { return *behavior_; }
    sim::Instant now() const;
    std::uint32_t queue_length(Queue queue) const {
        return queues_[static_cast<std::size_t>(queue)].size();
    }
    /// The per-queue cap (0 = unbounded).
    std::int64_t mailbox_size() const { return options_.mailbox_size; }
    MessagePriority send_priority() const { return options_.send_priority; }
    /// True while a call's response or timeout is awaited.
    bool is_waiting() const { return wait_ != nullptr; }
    /// Messages taken and handed to the behaviour so far (exit signals included).
    std::uint64_t messages_taken() const { return taken_; }
    /// True while one of this process's own callbacks (Init included) is executing.
    bool is_executing() const { return flags_.in_step; }

    // -- the process API (callable from this process's callbacks) ------------------------
    /// Sends with the process's priority (§2.1). Errors: ProcessUnknown, ProcessTerminated,
    /// ProcessMailboxFull, NotAllowed (sender not alive).
    SendResult send(Address to, Message message);
    /// send to a PID: the same, without building an Address (the hot path of most sends).
    /// A Message given by reference is copied straight into the mailbox slot.
    SendResult send(const PID& to, const Message& message);
    SendResult send(const PID& to, Message&& message);
    /// send to a PID of a value not yet a Message: the same, with the Message built straight
    /// in the mailbox slot (node_impl.hpp).
    template <MessageValue T>
    SendResult send(const PID& to, T&& value);
    SendResult send_with_priority(Address to, Message message, MessagePriority priority);
    /// Sends after `delay` with From = this process, even if it has died by then (§2.7).
    /// Errors at fire time are dropped. Returns a timer that cancel_send_after stops.
    sim::Result<sim::TimerId, Err> send_after(Address to, Message message, sim::Duration delay);
    bool cancel_send_after(sim::TimerId timer);
    /// Starts a call (§2.4). Immediate routing errors come back at once and the continuation
    /// is dropped; otherwise, once this callback returns, the process takes no other message
    /// until the response or the timeout, then runs `then`. One call at a time: a second
    /// call before the first ended gives NotAllowed. Calling one's own PID gives NotAllowed.
    SendResult call(Address to, Message request, CallOptions options, CallContinuation then);
    /// Answers the call (to, ref) (§2.5). Errors: ProcessUnknown, ResponseIgnored, NotAllowed.
    SendResult send_response(const PID& to, const Ref& ref, Message value);
    SendResult send_response_error(const PID& to, const Ref& ref, Error error);
    /// Re-queues `message` unchanged into `to` (§2.6). Errors: ProcessUnknown,
    /// ProcessTerminated, ProcessMailboxFull.
    SendResult forward(const PID& to, const MailboxMessage& message, MessagePriority priority);
    /// Spawns a child: parent = this process, leader = this process's leader unless set.
    sim::Result<PID, Error> spawn(const Factory& factory, ProcessOptions options, const Args& args);
    sim::Result<PID, Error> spawn_register(Atom name, const Factory& factory,
                                           ProcessOptions options, const Args& args);
    /// Names (§2.2). register_name: Taken, NotAllowed (during Init). unregister_name:
    /// NameUnknown.
    SendResult register_name(Atom name);
    SendResult unregister_name();
    /// One-way links and monitors (§3.4), by PID or by name.
    SendResult link(Address target);
    SendResult unlink(Address target);
    SendResult monitor(Address target);
    SendResult demonitor(Address target);
    /// Sends an exit signal (§3.3). NotAllowed for oneself, one's parent or leader.
    SendResult send_exit(const PID& to, Error reason);
    void set_send_priority(MessagePriority priority) {
        options_.send_priority = priority;
        send_queue_ = queue_for(priority);
    }
    /// Declares that handling the current message takes `cost` of virtual time: the process
    /// takes nothing else until then (scenario `cost`).
    void busy_for(sim::Duration cost);
    /// Records a log line in the trace (level: "warning", "error", "info").
    void log(std::string_view level, std::string_view text);
    /// Runs `operation` on this process's behalf from outside its own steps (the documented
    /// Router profile lets callers use management methods between steps, §8). A sleeping
    /// process counts as Running meanwhile, so the process API works, and goes back to sleep
    /// afterwards unless something made it runnable. Precondition: alive, not executing.
    void run_outside(const std::function<void()>& operation);

private:
    friend class Node;
    struct Wait {
        Ref ref;
        sim::TimerId timer;
        CallContinuation then;
        std::optional<CallResult> result;
    };

    /// What keeps a process out of a new step besides its state and a call wait.
    struct StepFlags {
        bool runnable = false; // in the scheduler's runnable set
        bool in_step = false;  // a callback of this process is executing
        bool busy = false;     // inside a declared cost
        bool stopping = false; // terminate delay running
    };
    static_assert(sizeof(StepFlags) == sizeof(std::uint32_t));
    static_assert(std::is_trivially_copyable_v<StepFlags>);
    /// This process's id premixed (sim::TraceValue::premixed) for its place in each event of
    /// the delivery hot path; Node fills it at spawn (Node::id_lanes, in node.cpp).
    struct IdLanes {
        std::uint64_t send_from = 0;
        std::uint64_t send_to = 0;
        std::uint64_t forward_by = 0;
        std::uint64_t forward_to = 0;
        std::uint64_t take_pid = 0;
    };

    /// True when any step flag is set; one load for the four (poke runs once per send).
    bool has_step_flags() const {
        std::uint32_t word = 0;
        std::memcpy(&word, &flags_, sizeof word);
        return word != 0;
    }

    bool can_call_state() const {
        return state_ == ProcessState::Running || state_ == ProcessState::WaitResponse;
    }
    detail::Ring<MailboxMessage>& queue(Queue which) {
        return queues_[static_cast<std::size_t>(which)];
    }
    bool has_messages() const { return queued_mask_ != 0; }
    template <class To, class Payload>
    SendResult send_regular(const To& to, Payload&& payload, Queue queue);

    Node& node_;
    PID pid_;
    PID parent_;
    PID leader_;
    Atom name_;
    ProcessState state_ = ProcessState::Init;
    StepFlags flags_;
    std::uint8_t stale_responses_ = 0;
    std::uint8_t queued_mask_ = 0; // bit q set while queues_[q] is not empty (Node keeps it)
    bool take_watched_ = false;    // each take asks Node's take-panic hook (watch_takes)
    Queue send_queue_;             // queue_for(options_.send_priority), read once per send
    // options_.mailbox_size as a queue length limit, UINT32_MAX when unbounded: one compare
    // per delivery (a ring never holds that many).
    std::uint32_t queue_len_max_;
    ProcessOptions options_;
    std::unique_ptr<Behavior> behavior_;
    detail::Ring<MailboxMessage> queues_[4];
    std::unique_ptr<Wait> wait_;
    std::vector<Relation> consumers_; // who is told when this process ends, in creation order
    std::vector<PID> links_out_;      // PIDs this process links to as consumer
    sim::Duration pending_cost_;
    std::uint64_t taken_ = 0;
    IdLanes id_lanes_;
};

} // namespace routesim::runtime
