// Process: the process API behaviours call from their callbacks (§2–3).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/process.hpp"

#include "runtime/events.hpp"
#include "runtime/node_impl.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime {

std::string_view mailbox_type_name(MailboxType type) {
    switch (type) {
    case MailboxType::Regular:
        return "regular";
    case MailboxType::Request:
        return "request";
    case MailboxType::Event:
        return "event";
    case MailboxType::Exit:
        return "exit";
    case MailboxType::Inspect:
        return "inspect";
    }
    RS_ASSERT(false);
    return {};
}

Process::Process(Node& node, PID pid, PID parent, PID leader, ProcessOptions options,
                 std::unique_ptr<Behavior> behavior)
    : node_(node), pid_(pid), parent_(parent), leader_(leader),
      send_queue_(queue_for(options.send_priority)),
      queue_len_max_(options.mailbox_size <= 0 ? UINT32_MAX
                     : options.mailbox_size >= std::int64_t{UINT32_MAX}
                         ? UINT32_MAX
                         : static_cast<std::uint32_t>(options.mailbox_size)),
      options_(options), behavior_(std::move(behavior)) {
    RS_ASSERT(behavior_ != nullptr);
    RS_ASSERT(!pid_.empty());
}

Process::~Process() = default;

sim::Instant Process::now() const {
    return node_.now();
}

// send, send_with_priority and forward are defined in node.cpp, next to the delivery they
// inline.

sim::Result<sim::TimerId, Err> Process::send_after(Address to, Message message,
                                                   sim::Duration delay) {
    if (!is_alive()) {
        return sim::fail(Err::NotAllowed);
    }
    Node& node = node_;
    const PID from = pid_;
    return node.world().schedule_after(delay, [&node, from, to, message] {
        // §2.7: sent even if the sender died; its priority is read at fire time.
        Process* sender = node.find(from);
        const MessagePriority priority =
            sender != nullptr ? sender->options_.send_priority : MessagePriority::Normal;
        node.world().emit(ev::Timer{from.id, "send_after"});
        MailboxMessage item{from, Ref{}, message, 0, Atom(), MailboxType::Regular};
        (void)node.route(sender, from, to, std::move(item), queue_for(priority));
    });
}

bool Process::cancel_send_after(sim::TimerId timer) {
    return node_.world().cancel(timer);
}

SendResult Process::call(Address to, Message request, CallOptions options, CallContinuation then) {
    RS_ASSERT(then != nullptr);
    if (!can_call_state() || wait_ != nullptr) {
        return sim::fail(Err::NotAllowed);
    }
    if (!to.is_name() && to.pid() == pid_) {
        return sim::fail(Err::NotAllowed);
    }
    const Ref ref = node_.make_ref();
    const MessagePriority priority = options.priority.value_or(options_.send_priority);
    MailboxMessage item{pid_, ref, std::move(request), 0, Atom(), MailboxType::Request};
    const SendResult sent = node_.route(this, pid_, to, std::move(item), queue_for(priority));
    if (!sent) {
        return sent;
    }
    // §2.4: CallWithTimeout with t < 1 means the default timeout.
    const sim::Duration timeout =
        options.timeout > sim::Duration::zero() ? options.timeout : CallOptions{}.timeout;
    node_.world().emit(ev::Call{pid_.id, ref.id, timeout.count_ns()});
    stale_responses_ = 0;
    Node& node = node_;
    const PID caller = pid_;
    const sim::TimerId timer = node_.world().schedule_after(
        timeout, [&node, caller, ref] { node.call_timed_out(caller, ref); });
    wait_ = std::make_unique<Wait>(Wait{ref, timer, std::move(then), std::nullopt});
    return {};
}

SendResult Process::send_response(const PID& to, const Ref& ref, Message value) {
    if (!is_alive()) {
        return sim::fail(Err::NotAllowed);
    }
    return node_.respond(pid_, to, ref, CallResult(std::move(value)));
}

SendResult Process::send_response_error(const PID& to, const Ref& ref, Error error) {
    if (!is_alive()) {
        return sim::fail(Err::NotAllowed);
    }
    return node_.respond(pid_, to, ref, CallResult(sim::fail(std::move(error))));
}

sim::Result<PID, Error> Process::spawn(const Factory& factory, ProcessOptions options,
                                       const Args& args) {
    if (state_ != ProcessState::Init && !can_call_state()) {
        return sim::fail(Error(Err::NotAllowed));
    }
    return node_.spawn_process(this, Atom(), factory, options, args);
}

sim::Result<PID, Error> Process::spawn_register(Atom name, const Factory& factory,
                                                ProcessOptions options, const Args& args) {
    if (state_ != ProcessState::Init && !can_call_state()) {
        return sim::fail(Error(Err::NotAllowed));
    }
    RS_ASSERT(!name.empty());
    return node_.spawn_process(this, name, factory, options, args);
}

SendResult Process::register_name(Atom name) {
    // §2.2: not during Init; one name per process; a taken name fails.
    if (!can_call_state()) {
        return sim::fail(Err::NotAllowed);
    }
    if (!name_.empty() || node_.names_.count(name) > 0) {
        return sim::fail(Err::Taken);
    }
    node_.names_[name].pid = pid_;
    name_ = name;
    node_.world().emit(ev::Register{pid_.id, ev::text(name)});
    return {};
}

SendResult Process::unregister_name() {
    if (!can_call_state()) {
        return sim::fail(Err::NotAllowed);
    }
    if (name_.empty()) {
        return sim::fail(Err::NameUnknown);
    }
    const Atom name = name_;
    name_ = Atom();
    node_.release_name(name, Error(Err::Unregistered), true);
    return {};
}

SendResult Process::link(Address target) {
    return node_.add_relation(*this, target, false);
}

SendResult Process::unlink(Address target) {
    return node_.remove_relation(*this, target, false);
}

SendResult Process::monitor(Address target) {
    return node_.add_relation(*this, target, true);
}

SendResult Process::demonitor(Address target) {
    return node_.remove_relation(*this, target, true);
}

SendResult Process::send_exit(const PID& to, Error reason) {
    // §3.3: needs Running/WaitResponse; not to oneself, one's parent or leader.
    if (!can_call_state()) {
        return sim::fail(Err::NotAllowed);
    }
    if (to == pid_ || to == parent_ || to == leader_) {
        return sim::fail(Err::NotAllowed);
    }
    Process* target = node_.find(to);
    if (target == nullptr || target->state_ == ProcessState::Init) {
        return sim::fail(Err::ProcessUnknown);
    }
    if (!target->is_alive()) {
        return sim::fail(Err::ProcessTerminated);
    }
    MailboxMessage message{pid_,
                           Ref{},
                           MessageExitPID{pid_, std::move(reason)},
                           node_.next_message_id(),
                           Atom(),
                           MailboxType::Exit};
    return node_.deliver(*target, Queue::Urgent, std::move(message));
}

void Process::busy_for(sim::Duration cost) {
    RS_ASSERT(cost >= sim::Duration::zero());
    pending_cost_ += cost;
}

void Process::run_outside(const std::function<void()>& operation) {
    RS_ASSERT(!flags_.in_step);
    RS_ASSERT(is_alive());
    const bool was_sleeping = state_ == ProcessState::Sleep;
    if (was_sleeping) {
        state_ = ProcessState::Running; // not runnable: no step is scheduled for it
    }
    operation();
    // Back to sleep only as poke expects a sleeper: no step flag and no call wait.
    if (was_sleeping && state_ == ProcessState::Running && !has_step_flags() && wait_ == nullptr &&
        !has_messages()) {
        state_ = ProcessState::Sleep;
    }
}

void Process::log(std::string_view level, std::string_view text) {
    node_.world().emit(ev::Log{pid_.id, level, text});
}

} // namespace routesim::runtime
