// act::Pool: init and worker spawning, dispatch by queue and type, the round-robin forward with
// lazy respawn, admin commands and inspect (§5).
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/pool.hpp"

#include "runtime/detail/mutation_hook.hpp"
#include "runtime/node_impl.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::act {
namespace {

constexpr std::size_t workers_cap_factor = 100; // Ergo: queue limit = 100 × PoolSize (§5)

// pool_forward outcomes with their text hashes computed at compile time (hot path).
constexpr ev::Text outcome_ok{"ok"};
constexpr ev::Text outcome_full{"full"};
constexpr ev::Text outcome_dead{"dead"};
constexpr ev::Text outcome_respawned{"respawned"};
constexpr ev::Text outcome_respawn_failed{"respawn_failed"};
constexpr ev::Text outcome_respawn_forward_failed{"respawn_forward_failed"};
constexpr ev::Text outcome_unhandled{"unhandled"};

bool is_dead_worker(Err err) {
    return err == Err::ProcessUnknown || err == Err::ProcessTerminated;
}

} // namespace

// -- callbacks (Ergo's defaults, §4.1 and §5) ---------------------------------------------

Status Pool::handle_message(const PID& from, const Message&) {
    process().log("warning", "Pool.HandleMessage: unhandled message from " + to_string(from));
    return ok();
}

CallReply Pool::handle_call(const PID& from, const Ref&, const Message&) {
    process().log("warning", "Pool.HandleCall: unhandled request from " + to_string(from));
    return CallReply::later();
}

Inspection Pool::handle_inspect(const PID&, const std::vector<std::string>&) {
    return statistics();
}

void Pool::terminate(const Error&) {
}

// -- queries ------------------------------------------------------------------------------

Inspection Pool::statistics() const {
    // §5 newer upstream: ergo:-prefixed keys, pool_size is the effective size.
    return Inspection{
        {"ergo:pool_size", std::to_string(options_.pool_size)},
        {"ergo:worker_behavior", worker_behavior_},
        {"ergo:worker_mailbox_size", std::to_string(options_.worker_mailbox_size)},
        {"ergo:worker_restarts", std::to_string(restarts_)},
        {"ergo:messages_forwarded", std::to_string(forwarded_)},
        {"ergo:messages_unhandled", std::to_string(unhandled_)},
    };
}

Inspection Pool::merged_inspection(const PID& from, const std::vector<std::string>& items) {
    // §5 / R41: the built-in map first, then every key of handle_inspect on top.
    Inspection merged = statistics();
    for (auto& [key, value] : handle_inspect(from, items)) {
        merged[key] = std::move(value);
    }
    return merged;
}

// -- commands -----------------------------------------------------------------------------

sim::Result<std::int64_t, Error> Pool::add_workers(std::int64_t count) {
    // §1.2: behaviour helpers need the state to be exactly Running.
    if (process().state() != ProcessState::Running) {
        return sim::fail(Error(Err::NotAllowed));
    }
    RS_ASSERT(count >= 0);
    for (std::int64_t i = 0; i < count; i++) {
        auto spawned = spawn_worker();
        if (!spawned) {
            return sim::fail(spawned.error()); // §5: (0, err); earlier spawns stay
        }
        if (!push_worker(spawned.value())) {
            continue;
        }
        process().node().world().emit(
            ev::PoolWorkers{process().pid().id, "add", spawned.value().id, workers_.size()});
    }
    return static_cast<std::int64_t>(workers_.size());
}

sim::Result<std::int64_t, Error> Pool::remove_workers(std::int64_t count) {
    if (process().state() != ProcessState::Running) {
        return sim::fail(Error(Err::NotAllowed));
    }
    RS_ASSERT(count >= 0);
    for (std::int64_t i = 0; i < count; i++) {
        if (workers_.empty()) {
            return sim::fail(Error(Err::PoolEmpty)); // §5: removals done so far stay done
        }
        const PID worker = workers_.front();
        workers_.pop_front();
        // The worker may be dead already; Ergo ignores the error.
        (void)process().send_exit(worker, Error::normal());
        process().node().world().emit(
            ev::PoolWorkers{process().pid().id, "remove", worker.id, workers_.size()});
    }
    return static_cast<std::int64_t>(workers_.size());
}

// -- Behavior -----------------------------------------------------------------------------

Status Pool::process_init(const Args& args) {
    world_ = &process().node().world();
    self_id_ = process().pid().id;
    sim::Result<PoolOptions, Error> result = init(args);
    if (!result) {
        return stop(result.error());
    }
    options_ = std::move(result).value();
    // §5 newer upstream: the stored size is the effective one.
    if (options_.pool_size < 1) {
        options_.pool_size = pool_size_default;
    }
    workers_max_ = static_cast<std::size_t>(options_.pool_size) * workers_cap_factor;
    for (std::int64_t i = 0; i < options_.pool_size; i++) {
        auto spawned = spawn_worker();
        if (!spawned) {
            // §5: the pool's init fails; workers spawned so far are not cleaned up.
            return stop(spawned.error());
        }
        push_worker(spawned.value());
        if (i == 0) {
            const Process* first = process().node().find(spawned.value());
            RS_ASSERT(first != nullptr);
            worker_behavior_ = std::string(first->behavior().behavior_name());
        }
    }
    RS_ASSERT(workers_.size() == static_cast<std::size_t>(options_.pool_size));
    return ok();
}

Status Pool::process_message(Queue queue, MailboxMessage& message) {
    if (queue == Queue::Log) {
        // §5: a Log-queue item makes the pool panic.
        process().log("error", "pool process can not be a logger");
        return stop(Error::panic());
    }
    // §5: Main-queue Regular, Request and Event items go to a worker; everything else
    // (High/Max traffic, exits, inspect requests) is the pool's own.
    const bool forwarded_type = message.type == MailboxType::Regular ||
                                message.type == MailboxType::Request ||
                                message.type == MailboxType::Event;
    if (queue == Queue::Main && forwarded_type) {
        forward(message);
        return ok();
    }
    return handle_own(message);
}

void Pool::process_terminate(const Error& reason) {
    terminate(reason);
}

Inspection Pool::process_inspect(PID from, const std::vector<std::string>& items) {
    return merged_inspection(from, items);
}

// -- internals ----------------------------------------------------------------------------

Status Pool::handle_own(const MailboxMessage& message) {
    switch (message.type) {
    case MailboxType::Regular:
    case MailboxType::Event:
        return handle_message(message.from, message.message);
    case MailboxType::Request:
        return handle_request(message);
    case MailboxType::Exit: {
        // §5: no trap-exit; any exit signal terminates the pool with the wrapped reason.
        auto origin = exit_origin(message.message);
        RS_ASSERT(origin.has_value());
        return stop(Error::wrap(origin->first, origin->second));
    }
    case MailboxType::Inspect: {
        const auto* request = message.message.get<MessageInspect>();
        Inspection values = merged_inspection(
            message.from, request != nullptr ? request->items : std::vector<std::string>{});
        (void)process().send_response(message.from, message.ref,
                                      InspectionReply{std::move(values)});
        return ok();
    }
    }
    RS_ASSERT(false);
    return ok();
}

Status Pool::handle_request(const MailboxMessage& message) {
    // §4.2: the Pool's HandleCall conventions are the Actor's.
    CallReply reply = handle_call(message.from, message.ref, message.message);
    const std::optional<Error>& reason = reply.stop_reason();
    const bool send_reply =
        !reply.reply().empty() && (!reason.has_value() || reason->is(TerminateReason::Normal));
    if (send_reply) {
        (void)process().send_response(message.from, message.ref, reply.reply());
    }
    if (reason.has_value()) {
        return stop(*reason);
    }
    return ok();
}

void Pool::forward(const MailboxMessage& message) {
    // §5 forward: at most L attempts, L = the queue length when the message arrived.
    const std::size_t attempts = workers_.size();
    for (std::size_t i = 0; i < attempts; i++) {
        RS_ASSERT(!workers_.empty());
        const PID worker = workers_.front();
        workers_.pop_front();
        if (try_worker(worker, message) == Attempt::Done) {
            return;
        }
    }
    // §5 step 6: nobody took it. The message is dropped; a forwarded call is never answered.
    unhandled_++;
    emit_forward(message.id, PID{}, outcome_unhandled);
    process().log("error",
                  "no available worker process. ignored message from " + to_string(message.from));
}

Pool::Attempt Pool::try_worker(const PID& worker, const MailboxMessage& message) {
    const SendResult sent = process().forward(worker, message, MessagePriority::Normal);
    if (sent) {
        push_worker(worker);
        forwarded_++;
        emit_forward(message.id, worker, outcome_ok);
        return Attempt::Done;
    }
    if (is_dead_worker(sent.error())) {
        emit_forward(message.id, worker, outcome_dead);
        return respawn(message);
    }
    // §5 step 5: mailbox full; back to the tail, try the next one.
    push_worker(worker);
    emit_forward(message.id, worker, outcome_full);
    return Attempt::Next;
}

Pool::Attempt Pool::respawn(const MailboxMessage& message) {
    auto spawned = spawn_worker();
    if (!spawned) {
        // §5 step 4: the dead PID is dropped for good and the pool shrinks.
        emit_forward(message.id, PID{}, outcome_respawn_failed);
        process().log("error", "unable to spawn new worker process: " + spawned.error().message());
        return Attempt::Next;
    }
    const PID fresh = spawned.value();
    restarts_++;
    const SendResult sent = process().forward(fresh, message, MessagePriority::Normal);
    push_worker(fresh);
    if (!sent) {
        // §5 newer upstream: not counted as forwarded; the next worker is tried.
        emit_forward(message.id, fresh, outcome_respawn_forward_failed);
        return Attempt::Next;
    }
    forwarded_++;
    emit_forward(message.id, fresh, outcome_respawned);
    if (runtime::detail::mutation_active(Mutation::PoolDuplicateOnRespawn)) {
        return Attempt::Next; // §5 (mutation: the message goes on to the next worker too)
    }
    return Attempt::Done;
}

sim::Result<PID, Error> Pool::spawn_worker() {
    // §5: unregistered, MailboxSize = WorkerMailboxSize, LinkParent only.
    const ProcessOptions options{.mailbox_size = options_.worker_mailbox_size, .link_parent = true};
    return process().spawn(options_.worker_factory, options, options_.worker_args);
}

bool Pool::push_worker(const PID& worker) {
    if (workers_.size() >= workers_max_) {
        process().node().world().emit(
            ev::PoolWorkers{process().pid().id, "lost", worker.id, workers_.size()});
        return false;
    }
    workers_.push_back(worker);
    return true;
}

void Pool::emit_forward(std::uint64_t id, const PID& worker, ev::Text outcome) {
    RS_ASSERT(world_ != nullptr);
    world_->emit(ev::PoolForward{self_id_, id, worker.id, outcome});
}

} // namespace routesim::runtime::act
