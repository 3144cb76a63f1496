// Node: spawn, delivery, the step loop, kills and teardown (§1.4, §2, §3).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/node_impl.hpp"

#include <algorithm>
#include <type_traits>

#include "runtime/detail/mutation_hook.hpp"
#include "runtime/events.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime {
std::string_view semantics_name(Semantics semantics) {
    return semantics == Semantics::Documented ? "documented" : "upstream";
}

sim::Result<Semantics, std::string> parse_semantics(std::string_view name) {
    if (name == "documented") {
        return Semantics::Documented;
    }
    if (name == "upstream") {
        return Semantics::Upstream;
    }
    return sim::fail("unknown semantics \"" + std::string(name) +
                     "\" (expected one of: documented, upstream)");
}

Node::Node(sim::World& world, NodeOptions options)
    : world_(world), take_site_(world.faults().site("take.panic")),
      init_site_(world.faults().site("spawn.init_fail")), options_(std::move(options)),
      name_(Atom(options_.name)) {
    core_pid_ = PID{name_, 1, options_.creation};
    core_send_from_lane_ = id_lanes(core_pid_.id).send_from;
    world_.set_runner(*this);
}

Node::~Node() = default;

// -- queries ------------------------------------------------------------------------------

Process* Node::find(Atom name) const {
    auto entry = names_.find(name);
    if (entry == names_.end() || entry->second.pid.empty()) {
        return nullptr;
    }
    return find(entry->second.pid);
}

sim::Result<PID, Err> Node::process_pid(Atom name) const {
    auto entry = names_.find(name);
    if (entry == names_.end() || entry->second.pid.empty()) {
        return sim::fail(Err::ProcessUnknown);
    }
    return entry->second.pid;
}

std::vector<std::pair<Atom, PID>> Node::registered() const {
    std::vector<std::pair<Atom, PID>> listing;
    for (const auto& [name, entry] : names_) {
        if (!entry.pid.empty()) {
            listing.emplace_back(name, entry.pid);
        }
    }
    std::sort(listing.begin(), listing.end());
    return listing;
}

std::vector<PID> Node::processes() const {
    std::vector<PID> pids;
    pids.reserve(live_count_);
    for (const auto& process : table_) {
        if (process != nullptr && process->state_ != ProcessState::Terminated) {
            pids.push_back(process->pid_);
        }
    }
    return pids;
}

Ref Node::make_ref() {
    return Ref{name_, ++next_ref_id_, options_.creation};
}

// -- spawn --------------------------------------------------------------------------------

sim::Result<PID, Error> Node::spawn(const Factory& factory, ProcessOptions options,
                                    const Args& args) {
    return spawn_process(nullptr, Atom(), factory, options, args);
}

sim::Result<PID, Error> Node::spawn_register(Atom name, const Factory& factory,
                                             ProcessOptions options, const Args& args) {
    RS_ASSERT(!name.empty());
    return spawn_process(nullptr, name, factory, options, args);
}

sim::Result<PID, Error> Node::spawn_process(Process* parent, Atom name, const Factory& factory,
                                            ProcessOptions options, const Args& args) {
    // §2.8 step 1: a nil factory, then the name reservation.
    if (!factory) {
        return sim::fail(Error(Err::Incorrect));
    }
    if (!name.empty() && find(name) != nullptr) {
        return sim::fail(Error(Err::Taken));
    }
    const PID pid{name_, ++next_pid_id_, options_.creation};
    std::unique_ptr<Behavior> behavior = factory();
    if (behavior == nullptr) {
        // §2.8 steps 2-3: the PID was allocated before the factory ran; keep its table slot
        // (empty) so that IDs stay dense and are never reused.
        RS_ASSERT(pid.id - first_pid_id == table_.size());
        table_.push_back(nullptr);
        table_size_ = table_.size();
        return sim::fail(Error::text("factory function must return non nil value"));
    }
    const PID parent_pid = parent != nullptr ? parent->pid_ : core_pid_;
    PID leader = options.leader;
    if (leader.empty()) {
        leader = parent != nullptr ? parent->leader_ : core_pid_;
    }
    auto owned =
        std::make_unique<Process>(*this, pid, parent_pid, leader, options, std::move(behavior));
    Process& process = *owned;
    process.id_lanes_ = id_lanes(pid.id);
    process.behavior_->process_ = &process;
    RS_ASSERT(pid.id - first_pid_id == table_.size());
    table_.push_back(std::move(owned));
    table_size_ = table_.size();
    live_count_++;
    world_.emit(ev::Spawn{pid.id, parent_pid.id, ev::text(name), process.behavior_->behavior_name(),
                          process.behavior_->kind_name()});
    if (!name.empty()) {
        names_[name].pid = pid;
        process.name_ = name;
        world_.emit(ev::Register{pid.id, ev::text(name)});
    }
    const Status status = run_init(process, args);
    if (!status) {
        finish_failed_init(process, status.error());
        return sim::fail(status.error());
    }
    // §2.8 step 5: LinkParent (child consumes parent), then Sleep and a wake-up.
    if (options.link_parent && parent != nullptr) {
        parent->consumers_.push_back(Relation{pid, false});
        process.links_out_.push_back(parent_pid);
    }
    RS_ASSERT(!process.has_step_flags());
    process.state_ = ProcessState::Sleep;
    if (process.has_messages()) {
        poke(process);
    }
    // §2.8 step 6: LinkChild (parent consumes child).
    if (options.link_child && parent != nullptr) {
        process.consumers_.push_back(Relation{parent_pid, false});
        parent->links_out_.push_back(pid);
    }
    return pid;
}

Status Node::run_init(Process& process, const Args& args) {
    process.flags_.in_step = true;
    // Fault point: Init fails (an injected spawn failure), before the behaviour's Init runs.
    sim::FaultPlan& faults = world_.faults();
    if (faults.is_armed(init_site_) &&
        faults.should_fire(init_site_, now(), process.behavior_->behavior_name())) {
        process.flags_.in_step = false;
        return runtime::stop(Error::text("injected spawn failure"));
    }
    const Status status =
        invoke(process, [&process, &args] { return process.behavior_->process_init(args); });
    process.flags_.in_step = false;
    return status;
}

void Node::finish_failed_init(Process& process, const Error& reason) {
    world_.emit(ev::SpawnFailed{process.pid_.id, process.parent_.id, ev::text(process.name_),
                                reason.message()});
    process.state_ = ProcessState::Terminated;
    live_count_--;
    if (!process.name_.empty()) {
        release_name(process.name_, reason.unwrap(), false);
        process.name_ = Atom();
    }
    // §2.8 step 4 / R6: everything the failing process linked to as consumer (its children
    // spawned with LinkChild during Init) gets MessageExitPID{failing pid, err} from it.
    for (const PID& target : process.links_out_) {
        if (runtime::detail::mutation_active(Mutation::KeepChildrenOfFailedInit)) {
            break; // R6 (mutation: the children spawned during Init are left running)
        }
        deliver_exit(process.pid_, target, MessageExitPID{process.pid_, reason});
    }
    drop_queued(process, "init_failed");
    graveyard_.push_back(std::move(table_[process.pid_.id - first_pid_id]));
    has_graveyard_ = true;
}

SendResult Node::watch_takes(const PID& pid, bool on) {
    Process* process = find(pid);
    if (process == nullptr) {
        return sim::fail(Err::ProcessUnknown);
    }
    process->take_watched_ = on;
    return {};
}

Status Behavior::process_panic() {
    // The same trace as a callback that throws (Node::panicked).
    process().log("error", "panic in callback");
    return runtime::stop(Error::panic());
}

Status Node::panicked(Process& process) {
    // A callback that throws is a panic (§4.2); nothing reaches the scheduler.
    world_.emit(ev::Log{process.pid_.id, "error", "panic in callback"});
    return runtime::stop(Error::panic());
}

// -- delivery -----------------------------------------------------------------------------

SendResult Node::route_any(Process* from, const PID& from_pid, const Address& to,
                           MailboxMessage&& message, Queue queue) {
    Process* target = nullptr;
    if (to.is_name()) {
        // A by-name lookup happens at send time (§2.2) and reaches a process still in Init.
        auto entry = names_.find(to.name());
        if (entry != names_.end() && !entry->second.pid.empty()) {
            target = slot(entry->second.pid.id);
        }
        message.target_name = to.name();
    } else {
        target = find(to.pid());
        // During Init the PID is not routable, except for the process's own sends (§2.1).
        if (target != nullptr && target->state_ == ProcessState::Init && target != from) {
            target = nullptr;
        }
    }
    Err failure = Err::ProcessUnknown;
    bool failed = target == nullptr;
    if (!failed && !target->is_alive()) {
        failure = Err::ProcessTerminated;
        failed = true;
    }
    if (!failed) {
        // Mailbox-full is traced by deliver itself.
        message.set_id(next_message_id());
        return deliver(*target, queue, std::move(message));
    }
    const std::string target_text = to_string(to);
    world_.emit(ev::SendFailed{from_pid.id, target_text, mailbox_type_name(message.type),
                               message.message.type_name(), ergo_name(failure)});
    return sim::fail(failure);
}

SendResult Node::reject_full(Process& target, std::uint64_t from_id, MailboxType type,
                             std::string_view message_name) {
    world_.emit(ev::SendFailed{from_id, target.pid_.id, mailbox_type_name(type), message_name,
                               ergo_name(Err::ProcessMailboxFull)});
    return sim::fail(Err::ProcessMailboxFull);
}

// The positions of a process's id in the events of the delivery hot path (deliver_item in
// node_impl.hpp, take_one in node_step.cpp); the bus checks each premix whenever sinks listen.
Process::IdLanes Node::id_lanes(std::uint64_t id) {
    return Process::IdLanes{
        .send_from = sim::field_premix<&ev::Send::from>(id),
        .send_to = sim::field_premix<&ev::Send::to>(id),
        .forward_by = sim::field_premix<&ev::Forward::by>(id),
        .forward_to = sim::field_premix<&ev::Forward::to>(id),
        .take_pid = sim::field_premix<&ev::Take::pid>(id),
    };
}

SendResult Node::deliver(Process& target, Queue queue, MailboxMessage&& message) {
    return deliver_item(target, queue, std::move(message), nullptr);
}

[[gnu::always_inline]] inline SendResult Node::send_regular(Process* from, const PID& from_pid,
                                                            const Address& to, Message&& message,
                                                            Queue queue) {
    if (!to.is_name()) {
        return send_regular(from, from_pid, to.pid(), std::move(message), queue);
    }
    return route_any(
        from, from_pid, to,
        MailboxMessage{from_pid, Ref{}, std::move(message), 0, Atom(), MailboxType::Regular},
        queue);
}

// The process API's sends: each is one call with the delivery inlined (node_impl.hpp).
SendResult Process::send(Address to, Message message) {
    return send_regular(to, std::move(message), send_queue_);
}

SendResult Process::send_with_priority(Address to, Message message, MessagePriority priority) {
    return send_regular(to, std::move(message), queue_for(priority));
}

void Node::deliver_exit(const PID& from, const PID& to, Message signal) {
    Process* target = find(to);
    if (target == nullptr || !target->is_alive()) {
        return;
    }
    MailboxMessage message{
        from, Ref{}, std::move(signal), next_message_id(), Atom(), MailboxType::Exit};
    if (!deliver(*target, Queue::Urgent, std::move(message))) {
        // §1.4: an exit into a full Urgent queue is dropped; the link never fires.
        world_.emit(ev::SignalLost{from.id, to.id, "urgent queue full"});
    }
}

void Node::deliver_down(const PID& from, const PID& to, Message notice) {
    Process* target = find(to);
    if (target == nullptr || !target->is_alive()) {
        return;
    }
    // §1.3: a down notice is a regular message sent with High priority (System queue).
    MailboxMessage message{
        from, Ref{}, std::move(notice), next_message_id(), Atom(), MailboxType::Regular};
    (void)deliver(*target, Queue::System, std::move(message));
}

SendResult Node::send(Address to, Message message, MessagePriority priority) {
    return send_regular(nullptr, core_pid_, to, std::move(message), queue_for(priority));
}

SendResult Node::send(const PID& to, Message message, MessagePriority priority) {
    return send_regular(nullptr, core_pid_, to, std::move(message), queue_for(priority));
}

SendResult Node::send_exit(const PID& to, Error reason) {
    Process* target = find(to);
    if (target == nullptr || target->state_ == ProcessState::Init) {
        return sim::fail(Err::ProcessUnknown);
    }
    if (!target->is_alive()) {
        return sim::fail(Err::ProcessTerminated);
    }
    MailboxMessage message{core_pid_,         Ref{},  MessageExitPID{core_pid_, std::move(reason)},
                           next_message_id(), Atom(), MailboxType::Exit};
    return deliver(*target, Queue::Urgent, std::move(message));
}

void Node::stop() {
    // §3.6: every process gets a Shutdown exit from its parent, so it is never trapped.
    for (const PID& pid : processes()) {
        Process* process = find(pid);
        if (process != nullptr && process->is_alive()) {
            deliver_exit(process->parent_, pid,
                         MessageExitPID{process->parent_, Error::shutdown()});
        }
    }
}

} // namespace routesim::runtime
