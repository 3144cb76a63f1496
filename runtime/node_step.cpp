// Node: the step of one process, call completion, kills, termination and teardown
// (§1.4 drain loop, §2.4 calls, §3.2 teardown order, §3.3 kill).
// Part of runtime/: uses sim/ and the standard library only.
#include <algorithm>
#include <bit>

#include "runtime/events.hpp"
#include "runtime/node_impl.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime {
namespace {

constexpr std::uint8_t stale_responses_max = 10; // the response channel's capacity (§2.4)

} // namespace

void Node::run_step(sim::TaskId task) {
    run_task(task);
}

void Node::run_steps(sim::World& world, sim::TaskId first) {
    RS_ASSERT(&world == &world_);
    // The GNU spelling: [[gnu::always_inline]] in this place would apply to the lambda's type.
    world_.run_picked(
        first, [this](sim::TaskId task) __attribute__((always_inline)) { run_task(task); });
}

// run_task, step, take_one and after_callback are inlined into run_steps: the hot path of
// every message.
[[gnu::always_inline]] inline void Node::run_task(sim::TaskId task) {
    Process* process = slot(task);
    RS_ASSERT(process != nullptr);
    RS_ASSERT(process->flags_.runnable);
    process->flags_.runnable = false;
    step(*process);
    if (has_graveyard_) {
        graveyard_.clear();
        has_graveyard_ = false;
    }
}

[[gnu::always_inline]] inline void Node::step(Process& process) {
    RS_ASSERT(process.state_ != ProcessState::Terminated);
    if (process.wait_ != nullptr) {
        resume_call(process);
        return;
    }
    // §1.4: at the top of every iteration a Zombee stops with reason Kill.
    if (process.state_ == ProcessState::Zombee) {
        teardown(process, Error::kill());
        return;
    }
    take_one(process);
}

[[gnu::always_inline]] inline void Node::take_one(Process& process) {
    // §1.4: exactly one message per step, Urgent, else System, else Main, else Log: the
    // lowest non-empty queue.
    RS_ASSERT(process.queued_mask_ != 0);
    const auto index = static_cast<std::size_t>(std::countr_zero(process.queued_mask_));
    const auto chosen = static_cast<Queue>(index);
    // The message is handled in its slot: it has left the queue (lengths read during the
    // callback do not count it) and is released once the step is over.
    auto& ring = process.queues_[index];
    MailboxMessage& message = ring.take_front();
    if (ring.empty()) {
        process.queued_mask_ &= static_cast<std::uint8_t>(~(1U << index));
    }
    process.taken_++;
    world_.emit(ev::Take{sim::PremixedId(process.pid_.id, process.id_lanes_.take_pid), message.id,
                         chosen, message.type, message.from.id});
    // Fault points: a panic at message take (an injected crash follows the panic path). One
    // test for both a fault plan with rules and a watched process; take_panics looks closer.
    if ((world_.faults().has_rules() | process.take_watched_) && take_panics(process, message))
        [[unlikely]] {
        release_taken(ring, message);
        return;
    }
    process.flags_.in_step = true;
    const Status status = invoke(process, [&process, chosen, &message] {
        return process.behavior_->process_message(chosen, message);
    });
    after_callback(process, status);
    // After a teardown the process waits in the graveyard until the step ends, so its ring
    // is still there.
    release_taken(ring, message);
}

[[gnu::always_inline]] inline void Node::release_taken(detail::Ring<MailboxMessage>& ring,
                                                       MailboxMessage& message) {
    ring.release_taken(message);
}

void Node::resume_call(Process& process) {
    RS_ASSERT(process.wait_ != nullptr);
    RS_ASSERT(process.wait_->result.has_value());
    std::unique_ptr<Process::Wait> wait = std::move(process.wait_);
    CallResult result = std::move(*wait->result);
    if (process.state_ == ProcessState::Zombee) {
        // §2.4: killed during the wait, the call returns ErrProcessTerminated.
        result = sim::fail(Error(Err::ProcessTerminated));
    } else {
        process.state_ = ProcessState::Running;
    }
    std::string scratch;
    const std::string_view outcome = result ? std::string_view("ok") : result.error().name(scratch);
    world_.emit(ev::CallResult{process.pid_.id, wait->ref.id, outcome});
    process.flags_.in_step = true;
    const Status status =
        invoke(process, [&wait, &result] { return wait->then(std::move(result)); });
    after_callback(process, status);
}

[[gnu::always_inline]] inline void Node::after_callback(Process& process, const Status& status) {
    process.flags_.in_step = false;
    RS_ASSERT(process.state_ != ProcessState::Terminated);
    if (!status) {
        if (process.wait_ != nullptr) {
            abandon_call(process);
        }
        begin_termination(process, status.error());
        return;
    }
    if (process.wait_ != nullptr) {
        // The call's response or timeout makes the process runnable again (§2.4).
        if (process.state_ == ProcessState::Running) {
            process.state_ = ProcessState::WaitResponse;
        }
        if (process.wait_->result.has_value()) {
            process.flags_.runnable = true;
            world_.scheduler().make_runnable(process.pid_.id);
        }
        return;
    }
    if (process.state_ == ProcessState::Zombee) {
        teardown(process, Error::kill());
        return;
    }
    if (process.pending_cost_ > sim::Duration::zero()) {
        const sim::Duration cost = process.pending_cost_;
        process.pending_cost_ = sim::Duration::zero();
        schedule_unbusy(process, cost);
        return;
    }
    if (process.has_messages()) {
        process.flags_.runnable = true;
        world_.scheduler().make_runnable(process.pid_.id);
        return;
    }
    // Asleep with no step flag (the step has cleared runnable and in_step; busy and stopping
    // were not set) and no call wait, as poke expects.
    process.state_ = ProcessState::Sleep;
}

bool Node::take_panics(Process& process, const MailboxMessage& message) {
    // Only an item that a callback would take can panic there: a message or a call. Exits and
    // system items are handled by the runtime or the behaviour's own loop, not by user code.
    if (message.type != MailboxType::Regular && message.type != MailboxType::Request) {
        return false;
    }
    sim::FaultPlan& faults = world_.faults();
    const bool planned = faults.is_armed(take_site_) &&
                         faults.should_fire(take_site_, now(), process.behavior_->behavior_name());
    if (!planned &&
        (!process.take_watched_ || !take_panic_hook_ || !take_panic_hook_(process.pid_))) {
        return false;
    }
    // Either way, as a panic in the callback that would have taken the item (§3.2; §6.2 for a
    // Supervisor, which recovers it and shuts its children down first).
    process.flags_.in_step = true;
    const Status status =
        invoke(process, [&process] { return process.behavior_->process_panic(); });
    after_callback(process, status);
    return true;
}

void Node::schedule_unbusy(Process& process, sim::Duration cost) {
    process.flags_.busy = true;
    world_.emit(ev::Busy{process.pid_.id, cost.count_ns()});
    const PID pid = process.pid_;
    world_.schedule_after(cost, [this, pid] {
        Process* target = find(pid);
        if (target == nullptr) {
            return;
        }
        target->flags_.busy = false;
        if (target->state_ == ProcessState::Zombee || target->has_messages()) {
            poke(*target);
            return;
        }
        RS_ASSERT(!target->has_step_flags());
        RS_ASSERT(target->wait_ == nullptr);
        target->state_ = ProcessState::Sleep;
    });
}

// -- calls --------------------------------------------------------------------------------

SendResult Node::respond(const PID& from, const PID& to, const Ref& ref, CallResult result) {
    Process* caller = find(to);
    if (caller == nullptr || caller->state_ == ProcessState::Init) {
        return sim::fail(Err::ProcessUnknown);
    }
    const bool matches =
        caller->wait_ != nullptr && caller->wait_->ref == ref && !caller->wait_->result.has_value();
    std::string scratch;
    const std::string_view outcome = result ? std::string_view("ok") : result.error().name(scratch);
    if (!matches) {
        // §2.4: a response nobody waits for is buffered, then discarded by the ref mismatch;
        // only a full buffer (10) is reported to the responder. While a call waits, the
        // waiting caller reads and discards mismatches at once, so they take no room.
        const bool read_at_once = caller->wait_ != nullptr && !caller->wait_->result.has_value();
        if (!read_at_once && caller->stale_responses_ >= stale_responses_max) {
            return sim::fail(Err::ResponseIgnored);
        }
        if (!read_at_once) {
            caller->stale_responses_++;
        }
        world_.emit(ev::ResponseDropped{from.id, to.id, ref.id, "no matching call"});
        return {};
    }
    world_.emit(ev::Response{from.id, to.id, ref.id, outcome});
    world_.cancel(caller->wait_->timer);
    caller->wait_->result = std::move(result);
    if (!caller->flags_.in_step && !caller->flags_.runnable) {
        caller->flags_.runnable = true;
        world_.scheduler().make_runnable(caller->pid_.id);
    }
    return {};
}

void Node::call_timed_out(const PID& caller_pid, const Ref& ref) {
    Process* caller = find(caller_pid);
    if (caller == nullptr || caller->wait_ == nullptr || caller->wait_->ref != ref ||
        caller->wait_->result.has_value()) {
        return;
    }
    caller->wait_->result = CallResult(sim::fail(Error(Err::Timeout)));
    if (!caller->flags_.in_step && !caller->flags_.runnable) {
        caller->flags_.runnable = true;
        world_.scheduler().make_runnable(caller->pid_.id);
    }
}

void Node::abandon_call(Process& process) {
    RS_ASSERT(process.wait_ != nullptr);
    // A callback that started a call and then returned an error (or a process torn down while
    // a call was open) ends the call here, once, with outcome "abandoned", so that every
    // call ends exactly once in the trace (DESIGN.md call_outcome). The continuation never
    // runs and a later response is dropped as unmatched.
    world_.cancel(process.wait_->timer);
    world_.emit(ev::CallResult{process.pid_.id, process.wait_->ref.id, "abandoned"});
    process.wait_.reset();
}

// -- kill, termination, teardown ----------------------------------------------------------

SendResult Node::kill(const PID& pid) {
    Process* process = find(pid);
    if (process == nullptr || process->state_ == ProcessState::Init) {
        return sim::fail(Err::ProcessUnknown);
    }
    world_.emit(ev::Kill{pid.id, state_name(process->state_)});
    switch (process->state_) {
    case ProcessState::Sleep:
        // §3.3: a sleeping process is torn down at once.
        teardown(*process, Error::kill());
        break;
    case ProcessState::Running:
    case ProcessState::WaitResponse:
        // §3.3: the current callback (or wait) finishes, then the loop stops with Kill.
        process->state_ = ProcessState::Zombee;
        if (!process->flags_.in_step && !process->flags_.busy && !process->flags_.stopping &&
            process->wait_ == nullptr && !process->flags_.runnable) {
            poke(*process);
        }
        break;
    default:
        break;
    }
    return {};
}

void Node::begin_termination(Process& process, Error reason) {
    const sim::Duration delay = process.behavior_->terminate_delay();
    if (delay <= sim::Duration::zero() || reason.is(TerminateReason::Kill)) {
        teardown(process, reason);
        return;
    }
    // The behaviour takes `delay` to stop: it stays alive and takes nothing meanwhile.
    process.flags_.stopping = true;
    if (process.flags_.runnable) {
        world_.scheduler().remove(process.pid_.id);
        process.flags_.runnable = false;
    }
    const PID pid = process.pid_;
    world_.schedule_after(delay, [this, pid, reason] {
        Process* target = find(pid);
        if (target != nullptr) {
            teardown(*target, target->state_ == ProcessState::Zombee ? Error::kill() : reason);
        }
    });
}

void Node::drop_queued(Process& process, std::string_view why) {
    for (std::size_t q = 0; q < 4; q++) {
        process.queues_[q].for_each([&](const MailboxMessage& message) {
            world_.emit(ev::Drop{process.pid_.id, message.id, static_cast<Queue>(q), why});
        });
        process.queues_[q].clear();
    }
    process.queued_mask_ = 0;
}

void Node::preserve_queued(Process& process) {
    Stash stash{process.pid_, process.parent_, {}};
    for (std::size_t q = 0; q < 4; q++) {
        const auto queue = static_cast<Queue>(q);
        process.queues_[q].for_each([&](const MailboxMessage& message) {
            // Exit signals and inspect requests belong to the dead incarnation; Log items are
            // records, not work. Everything else is the successor's work.
            const bool keep = queue != Queue::Log && message.type != MailboxType::Exit &&
                              message.type != MailboxType::Inspect;
            if (!keep) {
                world_.emit(ev::Drop{process.pid_.id, message.id, queue, "terminated"});
                return;
            }
            world_.emit(ev::Preserve{process.pid_.id, message.id, queue, process.parent_.id});
            stash.messages.push_back(PreservedMessage{queue, message});
        });
        process.queues_[q].clear();
    }
    process.queued_mask_ = 0;
    RS_ASSERT(stash.pid == process.pid_ && stash.parent == process.parent_);
    if (!stash.messages.empty()) {
        preserved_.push_back(std::move(stash));
    }
}

void Node::drop_preserved_of(const PID& parent) {
    if (preserved_.empty()) {
        return;
    }
    // Kept mailboxes whose parent is gone can never be handed over: drop them.
    auto kept = preserved_.begin();
    for (auto it = preserved_.begin(); it != preserved_.end(); ++it) {
        if (it->parent != parent) {
            if (kept != it) {
                *kept = std::move(*it);
            }
            ++kept;
            continue;
        }
        for (const PreservedMessage& item : it->messages) {
            world_.emit(ev::Drop{it->pid.id, item.message.id, item.queue, "parent_terminated"});
        }
    }
    preserved_.erase(kept, preserved_.end());
    RS_ASSERT(std::none_of(preserved_.begin(), preserved_.end(),
                           [&](const Stash& stash) { return stash.parent == parent; }));
}

std::vector<PreservedMessage> Node::take_preserved(const PID& pid) {
    auto found = std::find_if(preserved_.begin(), preserved_.end(),
                              [&pid](const Stash& stash) { return stash.pid == pid; });
    if (found == preserved_.end()) {
        return {};
    }
    std::vector<PreservedMessage> messages = std::move(found->messages);
    preserved_.erase(found);
    RS_ASSERT(!messages.empty());
    return messages;
}

void Node::teardown(Process& process, const Error& reason) {
    RS_ASSERT(process.state_ != ProcessState::Terminated);
    // §3.2 step 1: Terminated, out of the table (and the runnable set).
    process.state_ = ProcessState::Terminated;
    live_count_--;
    if (process.flags_.runnable) {
        world_.scheduler().remove(process.pid_.id);
        process.flags_.runnable = false;
    }
    if (process.wait_ != nullptr) {
        abandon_call(process);
    }
    const std::string reason_text = reason.message();
    world_.emit(ev::Exit{process.pid_.id, reason_text, ev::text(process.name_)});
    // Messages left in the mailbox are discarded (§3.2); each is traced for the ledger. Our
    // preserve_mailbox extension keeps the user messages for a live parent instead.
    if (process.options_.preserve_mailbox && find(process.parent_) != nullptr) {
        preserve_queued(process);
    } else {
        drop_queued(process, "terminated");
    }
    drop_preserved_of(process.pid_);
    // Steps 2 and 3, atomically before any recipient runs: links, monitors, then the name.
    const Error propagated = reason.unwrap();
    notify_consumers(process, propagated);
    if (!process.name_.empty()) {
        release_name(process.name_, propagated, false);
    }
    for (const auto& hook : teardown_hooks_) {
        hook(process, reason);
    }
    // Step 7: Terminate runs last, with the original (wrapped) reason.
    try {
        process.behavior_->process_terminate(reason);
    } catch (...) {
        world_.emit(ev::Log{process.pid_.id, "error", "panic in terminate"});
    }
    graveyard_.push_back(std::move(table_[process.pid_.id - first_pid_id]));
    has_graveyard_ = true;
}

void Node::notify_consumers(Process& process, const Error& propagated) {
    // Links first, then monitors, each in creation order (§3.2 step 2).
    std::vector<Relation> consumers = std::move(process.consumers_);
    process.consumers_.clear();
    for (const Relation& relation : consumers) {
        if (!relation.is_monitor) {
            deliver_exit(process.pid_, relation.consumer, MessageExitPID{process.pid_, propagated});
        }
    }
    for (const Relation& relation : consumers) {
        if (relation.is_monitor) {
            deliver_down(process.pid_, relation.consumer, MessageDownPID{process.pid_, propagated});
        }
    }
}

void Node::release_name(Atom name, const Error& propagated, bool unregistered) {
    auto entry = names_.find(name);
    RS_ASSERT(entry != names_.end());
    const PID owner = entry->second.pid;
    std::vector<Relation> consumers = std::move(entry->second.consumers);
    names_.erase(entry);
    world_.emit(ev::Unregister{owner.id, ev::text(name)});
    // §2.2, §3.4: name linkers and monitors hear from the core PID; an explicit unregister
    // gives ErrUnregistered.
    const Error reason = unregistered ? Error(Err::Unregistered) : propagated;
    const ProcessID process_id{name, name_};
    for (const Relation& relation : consumers) {
        if (!relation.is_monitor) {
            deliver_exit(core_pid_, relation.consumer, MessageExitProcessID{process_id, reason});
        }
    }
    for (const Relation& relation : consumers) {
        if (relation.is_monitor) {
            deliver_down(core_pid_, relation.consumer, MessageDownProcessID{process_id, reason});
        }
    }
}

sim::Result<Inspection, Err> Node::inspect(const PID& pid, const std::vector<std::string>& items) {
    Process* process = find(pid);
    if (process == nullptr || process->state_ == ProcessState::Init) {
        return sim::fail(Err::ProcessUnknown);
    }
    if (!process->is_alive()) {
        return sim::fail(Err::ProcessTerminated);
    }
    try {
        return process->behavior_->process_inspect(core_pid_, items);
    } catch (...) {
        return Inspection{};
    }
}

// -- relations ----------------------------------------------------------------------------

SendResult Node::add_relation(Process& consumer, Address target, bool is_monitor) {
    if (!consumer.can_call_state()) {
        return sim::fail(Err::NotAllowed);
    }
    std::vector<Relation>* consumers = nullptr;
    if (target.is_name()) {
        auto entry = names_.find(target.name());
        if (entry == names_.end() || entry->second.pid.empty()) {
            return sim::fail(Err::ProcessUnknown);
        }
        if (entry->second.pid == consumer.pid_) {
            return sim::fail(Err::NotAllowed);
        }
        consumers = &entry->second.consumers;
    } else {
        if (target.pid() == consumer.pid_) {
            // Linking oneself is NotAllowed (§3.4); we reject monitoring oneself the same way.
            return sim::fail(Err::NotAllowed);
        }
        Process* process = find(target.pid());
        if (process == nullptr || process->state_ == ProcessState::Init) {
            return sim::fail(Err::ProcessUnknown);
        }
        if (!process->is_alive()) {
            return sim::fail(Err::ProcessTerminated);
        }
        consumers = &process->consumers_;
    }
    const bool duplicate =
        std::any_of(consumers->begin(), consumers->end(), [&](const Relation& r) {
            return r.consumer == consumer.pid_ && r.is_monitor == is_monitor;
        });
    if (duplicate) {
        return sim::fail(Err::TargetExist);
    }
    RS_ASSERT(target.is_name() || target.pid() != consumer.pid_); // §3.4: never oneself
    consumers->push_back(Relation{consumer.pid_, is_monitor});
    if (!is_monitor && !target.is_name()) {
        consumer.links_out_.push_back(target.pid());
    }
    const std::string target_text = to_string(target);
    world_.emit(ev::Link{consumer.pid_.id, target_text, is_monitor});
    return {};
}

SendResult Node::remove_relation(Process& consumer, Address target, bool is_monitor) {
    if (!consumer.can_call_state()) {
        return sim::fail(Err::NotAllowed);
    }
    std::vector<Relation>* consumers = nullptr;
    if (target.is_name()) {
        auto entry = names_.find(target.name());
        if (entry == names_.end()) {
            return sim::fail(Err::ProcessUnknown);
        }
        consumers = &entry->second.consumers;
    } else {
        Process* process = find(target.pid());
        if (process == nullptr) {
            return sim::fail(Err::ProcessUnknown);
        }
        consumers = &process->consumers_;
    }
    auto found = std::find_if(consumers->begin(), consumers->end(), [&](const Relation& r) {
        return r.consumer == consumer.pid_ && r.is_monitor == is_monitor;
    });
    if (found == consumers->end()) {
        return sim::fail(Err::TargetUnknown);
    }
    consumers->erase(found);
    // add_relation refuses a duplicate, so none of this kind is left.
    RS_ASSERT(std::none_of(consumers->begin(), consumers->end(), [&](const Relation& r) {
        return r.consumer == consumer.pid_ && r.is_monitor == is_monitor;
    }));
    if (!is_monitor && !target.is_name()) {
        auto out = std::find(consumer.links_out_.begin(), consumer.links_out_.end(), target.pid());
        if (out != consumer.links_out_.end()) {
            consumer.links_out_.erase(out);
        }
    }
    return {};
}

} // namespace routesim::runtime
