// Node: the process table, the name registry, spawn, message delivery, links and monitors,
// exits and teardown, and the step that runs one process for one message
// (§1–3). One Node per simulated run.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "runtime/behavior.hpp"
#include "runtime/error.hpp"
#include "runtime/gen.hpp"
#include "runtime/mailbox.hpp"
#include "runtime/process.hpp"
#include "sim/world.hpp"

namespace routesim::runtime {

/// Which side the Router follows where its docs page and Ergo's code disagree (§8 opening).
enum class Semantics : std::uint8_t { Documented, Upstream };

std::string_view semantics_name(Semantics semantics);
sim::Result<Semantics, std::string> parse_semantics(std::string_view name);

/// A message kept from a dead process's mailbox (ProcessOptions::preserve_mailbox), with the
/// queue it waited in.
struct PreservedMessage {
    Queue queue = Queue::Main;
    MailboxMessage message;
};

/// Node configuration.
struct NodeOptions {
    std::string name = "routesim@localhost";
    std::int64_t creation = 1;
    Semantics semantics = Semantics::Documented;
};

/// The whole runtime of one run. Registers itself as the World's step runner.
class Node final : public sim::StepRunner {
public:
    /// The id of the first process spawned on a node (§1.1); ids then count up and are never
    /// reused in a run.
    static constexpr std::uint64_t first_pid_id = 1001;

    Node(sim::World& world, NodeOptions options);
    ~Node() override;
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    // -- queries ------------------------------------------------------------------------
    sim::World& world() const { return world_; }
    sim::Instant now() const { return world_.now(); }
    Atom name() const { return name_; }
    /// The node's core PID (ID 1): From of node-level sends.
    const PID& core_pid() const { return core_pid_; }
    Semantics semantics() const { return options_.semantics; }
    /// The live (or Zombee) process with this PID; nullptr when unknown or terminated.
    Process* find(const PID& pid) const {
        Process* process = slot(pid.id);
        if (process == nullptr || process->pid_ != pid ||
            process->state_ == ProcessState::Terminated) {
            return nullptr;
        }
        return process;
    }
    /// The process with this PID when it takes messages from anyone (takes_messages);
    /// nullptr otherwise, including for a PID that find() knows (the delivery slow path
    /// sorts those out). Inline: the delivery fast path.
    Process* find_open(const PID& pid) const {
        Process* process = slot(pid.id);
        // The table index is the id, so the id needs no compare.
        if (process == nullptr || process->pid_.node != pid.node ||
            process->pid_.creation != pid.creation || !takes_messages(process->state_)) {
            return nullptr;
        }
        return process;
    }
    /// The process registered under `name`; nullptr when none.
    Process* find(Atom name) const;
    /// Node.ProcessPID: the PID registered under `name` (R10), or ProcessUnknown.
    sim::Result<PID, Err> process_pid(Atom name) const;
    /// The registered names and their PIDs, sorted by name.
    std::vector<std::pair<Atom, PID>> registered() const;
    /// Processes in the table (alive or Zombee).
    std::size_t process_count() const { return live_count_; }
    /// PIDs of the processes in the table, ascending.
    std::vector<PID> processes() const;

    // -- commands -----------------------------------------------------------------------
    /// Node.Spawn: parent and leader are the core PID (§2.8).
    sim::Result<PID, Error> spawn(const Factory& factory, ProcessOptions options, const Args& args);
    sim::Result<PID, Error> spawn_register(Atom name, const Factory& factory,
                                           ProcessOptions options, const Args& args);
    /// Node.Send / SendWithPriority with From = core PID (§1.3).
    SendResult send(Address to, Message message,
                    MessagePriority priority = MessagePriority::Normal);
    /// Node.Send to a PID: the same, without building an Address.
    SendResult send(const PID& to, Message message,
                    MessagePriority priority = MessagePriority::Normal);
    /// Node.Send to a PID of a value not yet a Message: the same, with the Message built
    /// straight in the mailbox slot (node_impl.hpp).
    template <MessageValue T>
    SendResult send(const PID& to, T&& value, MessagePriority priority = MessagePriority::Normal);
    /// Node.SendExit with From = core PID (§3.3).
    SendResult send_exit(const PID& to, Error reason);
    /// Node.Kill (§3.3): Sleep → immediate teardown; Running/WaitResponse → Zombee.
    SendResult kill(const PID& pid);
    /// Node-level Inspect (A19): the behaviour's inspect map, read synchronously.
    /// Errors: ProcessUnknown, ProcessTerminated.
    sim::Result<Inspection, Err> inspect(const PID& pid,
                                         const std::vector<std::string>& items = {});
    /// Node.Stop (§3.6): every process gets a Shutdown exit from its parent.
    void stop();
    /// A fresh Ref.
    Ref make_ref();
    /// Installs a hook that runs whenever a process is torn down (after notifications, before
    /// its Terminate). Used by builders that track incarnations.
    void on_teardown(std::function<void(const Process&, const Error&)> hook) {
        teardown_hooks_.push_back(std::move(hook));
    }

    /// Decides, when a watched process (watch_takes) takes a message or a call, whether it
    /// panics there instead of handling it. Called after the take is traced.
    using TakePanicHook = std::function<bool(const PID& pid)>;
    /// Installs the take-panic hook (one per node); an empty function removes it.
    void set_take_panic_hook(TakePanicHook hook) { take_panic_hook_ = std::move(hook); }
    /// Turns the take watch of `pid` on or off. While it is on, each take of a message or a
    /// call (a Regular or Request item, any queue) asks the take-panic hook first; a yes makes
    /// the process panic there: its behaviour's process_panic runs in place of the item (a
    /// Supervisor recovers it into a graceful shutdown, §6.2), and the item is lost. Exit
    /// signals, inspect requests and events are never asked about: they drive the runtime's
    /// own bookkeeping (a supervisor must see its children's exits). This is how a scenario
    /// injects a crash into a process whose message loop it does not own (Pool, Supervisor).
    /// Errors: ProcessUnknown (no such process, or terminated).
    SendResult watch_takes(const PID& pid, bool on);

    /// Takes the messages kept from the mailbox of the dead process `pid` (preserve_mailbox),
    /// in their original order (Urgent, System, then Main, each FIFO), and forgets them. Empty
    /// when nothing was kept or they were taken already. Cost: O(kept stashes) lookup.
    std::vector<PreservedMessage> take_preserved(const PID& pid);

    /// StepRunner: runs one step of the process with this id.
    void run_step(sim::TaskId task) override;
    /// StepRunner: runs steps from `first` on, each inlined into the world's loop.
    void run_steps(sim::World& world, sim::TaskId first) override;

private:
    friend class Process;
    struct NameEntry {
        PID pid;
        std::vector<Relation> consumers; // name links/monitors, in creation order
    };

    sim::Result<PID, Error> spawn_process(Process* parent, Atom name, const Factory& factory,
                                          ProcessOptions options, const Args& args);
    Status run_init(Process& process, const Args& args);
    void finish_failed_init(Process& process, const Error& reason);
    /// Routes a message to `to`; sender is `from` (a process or null for the node). Inline
    /// for the common case, a PID of a live process; everything else takes route_any.
    SendResult route(Process* from, const PID& from_pid, const Address& to,
                     MailboxMessage&& message, Queue queue) {
        if (!to.is_name()) {
            // Init (§2.1: only the process's own sends) and the dead states go to route_any.
            if (Process* target = find_open(to.pid())) {
                message.set_id(next_message_id());
                return deliver(*target, queue, std::move(message));
            }
        }
        return route_any(from, from_pid, to, std::move(message), queue);
    }
    SendResult route_any(Process* from, const PID& from_pid, const Address& to,
                         MailboxMessage&& message, Queue queue);
    /// route() for a regular send (Process::send, Node::send): the mailbox item is built in
    /// its queue slot, so a Message payload is moved once and any other value becomes its
    /// Message there. Defined in node_impl.hpp, so that the whole delivery inlines into the
    /// send.
    SendResult send_regular(Process* from, const PID& from_pid, const Address& to,
                            Message&& message, Queue queue);
    template <class Payload>
    SendResult send_regular(Process* from, const PID& from_pid, const PID& to, Payload&& payload,
                            Queue queue);
    /// The IdLanes of the process with id `id` (premixes of its trace fields).
    static Process::IdLanes id_lanes(std::uint64_t id);
    /// The parts of a regular mailbox item, for deliver_item to build it in place; the
    /// payload is a Message or a MessageValue.
    template <class Payload>
    struct NewMessage {
        const PID& from;
        std::uint64_t from_lane; // from.id premixed as the send's From (IdLanes::send_from)
        Payload&& payload;
        std::uint64_t id;
        MailboxType type;
    };
    template <class Payload>
    SendResult deliver_new(Process& target, Queue queue, const PID& from, std::uint64_t from_lane,
                           Payload&& payload);
    /// Pushes into a process's queue; pokes a sleeping process. Forwards (Process::forward)
    /// call deliver_item with the item itself, which copies it straight into the queue.
    SendResult deliver(Process& target, Queue queue, MailboxMessage&& message);
    /// `forwarder` is the forwarding process, or null for a send.
    template <class Item>
    SendResult deliver_item(Process& target, Queue queue, Item&& message, const Process* forwarder);
    SendResult reject_full(Process& target, std::uint64_t from_id, MailboxType type,
                           std::string_view message_name);
    void deliver_exit(const PID& from, const PID& to, Message signal);
    void deliver_down(const PID& from, const PID& to, Message notice);
    /// Wakes a sleeping process and makes it runnable when it can step. Inline: once per send.
    void poke(Process& process) {
        if (process.state_ == ProcessState::Sleep) {
            // A process sleeps only with no step flag and no call wait (the places that put
            // it to sleep check both), so it can step: the common case, tested first.
            process.state_ = ProcessState::Running;
            process.flags_.runnable = true;
            world_.scheduler().make_runnable(process.pid_.id);
            return;
        }
        const bool can_step =
            process.state_ == ProcessState::Running || process.state_ == ProcessState::Zombee;
        if (can_step && !process.has_step_flags() && process.wait_ == nullptr) {
            process.flags_.runnable = true;
            world_.scheduler().make_runnable(process.pid_.id);
        }
    }
    /// The step of the process with id `task` (run_step, inlined into run_steps).
    void run_task(sim::TaskId task);
    void step(Process& process);
    void take_one(Process& process);
    /// The panics injected at a take (the fault plan's take site, a watched process's hook):
    /// true when one fired and ended the step.
    bool take_panics(Process& process, const MailboxMessage& message);
    /// Ends the take of `message` from `ring` (take_one).
    void release_taken(detail::Ring<MailboxMessage>& ring, MailboxMessage& message);
    void resume_call(Process& process);
    void after_callback(Process& process, const Status& status);
    void begin_termination(Process& process, Error reason);
    void teardown(Process& process, const Error& reason);
    void notify_consumers(Process& process, const Error& propagated);
    void release_name(Atom name, const Error& propagated, bool unregistered);
    void call_timed_out(const PID& caller, const Ref& ref);
    void abandon_call(Process& process);
    void drop_queued(Process& process, std::string_view why);
    void preserve_queued(Process& process);
    void drop_preserved_of(const PID& parent);
    /// Runs one callback of `process`; any exception becomes a panic (§4.2). A template, so
    /// that the hot path builds no std::function.
    template <class Callback>
    Status invoke(Process& process, Callback&& callback) {
        try {
            return callback();
        } catch (...) {
            return panicked(process);
        }
    }
    Status panicked(Process& process);
    SendResult add_relation(Process& consumer, Address target, bool is_monitor);
    SendResult remove_relation(Process& consumer, Address target, bool is_monitor);
    SendResult respond(const PID& from, const PID& to, const Ref& ref, CallResult result);
    std::uint64_t next_message_id() { return ++message_ids_; }
    /// The table entry of process id `id` (any state), or nullptr. Inline: the hot path.
    Process* slot(std::uint64_t id) const {
        // One unsigned compare: an id below the first wraps around to a huge index.
        if (id - first_pid_id >= table_size_) {
            return nullptr;
        }
        return table_[id - first_pid_id].get();
    }
    void schedule_unbusy(Process& process, sim::Duration cost);

    sim::World& world_;
    sim::FaultSiteId take_site_;
    sim::FaultSiteId init_site_;
    NodeOptions options_;
    Atom name_;
    PID core_pid_;
    std::uint64_t core_send_from_lane_ = 0; // IdLanes::send_from of the core PID
    std::uint64_t next_pid_id_ = 1000;      // the first user process gets 1001 (§1.1)
    std::uint64_t next_ref_id_ = 0;
    std::uint64_t message_ids_ = 0;
    std::vector<std::unique_ptr<Process>> table_; // index = pid.id - first id
    std::size_t table_size_ = 0;                  // table_.size(), one load for slot()
    std::size_t live_count_ = 0;
    std::unordered_map<Atom, NameEntry> names_;       // lookups only; listings are sorted
    std::vector<std::unique_ptr<Process>> graveyard_; // torn down, freed after the step
    bool has_graveyard_ = false; // !graveyard_.empty(), one byte for run_step to test
    std::vector<std::function<void(const Process&, const Error&)>> teardown_hooks_;
    TakePanicHook take_panic_hook_;
    struct Stash {
        PID pid;
        PID parent;
        std::vector<PreservedMessage> messages;
    };
    std::vector<Stash> preserved_; // kept mailboxes, in teardown order (few at a time)
};

} // namespace routesim::runtime
