// act::Pool: Ergo's pool of identical workers. Normal-priority traffic is forwarded round-robin
// to a worker (From and Ref kept); High/Max traffic reaches the pool's own callbacks
// (§5, including its "newer upstream" paragraph, which wins).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/behavior.hpp"
#include "runtime/node_impl.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::runtime {
namespace act {

/// What a Pool's init returns (§5 PoolOptions).
struct PoolOptions {
    /// Per-queue cap of each worker's mailbox; 0 = unbounded.
    std::int64_t worker_mailbox_size = 0;
    /// Workers to spawn; below 1 means Ergo's default of 3 (§5, and inspect reports 3).
    std::int64_t pool_size = 0;
    /// Makes each worker. Spawning with a null factory fails with ErrIncorrect.
    Factory worker_factory;
    /// Arguments of every worker's init.
    Args worker_args;
};

/// Ergo's defaultPoolSize (§5).
inline constexpr std::int64_t pool_size_default = 3;

/// The Pool behaviour. Derive, implement init, and optionally override the admin callbacks,
/// which see only High/Max-priority traffic (§5). Defaults follow Ergo: handle_message and
/// handle_call log a warning (so an admin call times out), handle_inspect returns the
/// built-in statistics, terminate does nothing. There is no trap-exit: any exit signal
/// terminates the pool with the wrapped reason "<origin>: <reason>".
///
/// Workers are spawned with link_parent only: they die with the pool, but the pool is never
/// told when one dies; a dead worker is replaced lazily when a forward to it fails. If init
/// spawns some workers and then fails, those workers are left running, as in Ergo.
class Pool : public Behavior {
public:
    // -- callbacks ----------------------------------------------------------------------
    /// Returns the pool's options; an error makes the pool's spawn fail.
    virtual sim::Result<PoolOptions, Error> init(const Args& args) = 0;
    /// A High/Max-priority message (or down notice); an error terminates the pool with it.
    virtual Status handle_message(const PID& from, const Message& message);
    /// A High/Max-priority call, with the Actor's return conventions (§4.2).
    virtual CallReply handle_call(const PID& from, const Ref& ref, const Message& request);
    /// Extra inspect keys; merged on top of the built-in ones (a key given here wins).
    virtual Inspection handle_inspect(const PID& from, const std::vector<std::string>& items);
    /// Runs after the teardown with the original (wrapped) reason.
    virtual void terminate(const Error& reason);

    // -- queries ------------------------------------------------------------------------
    /// The round-robin queue: the next worker to try first.
    const std::deque<PID>& workers() const { return workers_; }
    /// The options as stored after init (pool_size already the effective size).
    const PoolOptions& options() const { return options_; }
    std::uint64_t messages_forwarded() const { return forwarded_; }
    std::uint64_t messages_unhandled() const { return unhandled_; }
    std::uint64_t worker_restarts() const { return restarts_; }
    /// The built-in inspect map: ergo:pool_size, ergo:worker_behavior,
    /// ergo:worker_mailbox_size, ergo:worker_restarts, ergo:messages_forwarded,
    /// ergo:messages_unhandled (decimal strings).
    Inspection statistics() const;

    // -- commands (only from the pool's own callbacks) ------------------------------------
    /// Spawns `count` workers and appends them to the tail of the queue. Returns the new
    /// queue length. Errors: NotAllowed unless the pool is Running (inside its own callback);
    /// the spawn error of a worker (workers spawned before it stay).
    sim::Result<std::int64_t, Error> add_workers(std::int64_t count);
    /// Pops `count` workers from the head and sends each an exit with reason Normal. Returns
    /// the new queue length. Errors: NotAllowed unless Running; PoolEmpty when the queue runs
    /// dry (removals already done stay done). Neither call changes options().pool_size.
    sim::Result<std::int64_t, Error> remove_workers(std::int64_t count);

    // -- Behavior -----------------------------------------------------------------------
    Status process_init(const Args& args) final;
    Status process_message(Queue queue, MailboxMessage& message) final;
    void process_terminate(const Error& reason) final;
    Inspection process_inspect(PID from, const std::vector<std::string>& items) final;
    std::string_view kind_name() const override { return "Pool"; }

private:
    enum class Attempt : std::uint8_t { Done, Next, Drop };

    Status handle_own(const MailboxMessage& message);
    Status handle_request(const MailboxMessage& message);
    void forward(const MailboxMessage& message);
    Attempt try_worker(const PID& worker, const MailboxMessage& message);
    Attempt respawn(const MailboxMessage& message);
    sim::Result<PID, Error> spawn_worker();
    bool push_worker(const PID& worker);
    void emit_forward(std::uint64_t id, const PID& worker, ev::Text outcome);
    Inspection merged_inspection(const PID& from, const std::vector<std::string>& items);

    sim::World* world_ = nullptr; // cached at init for the hot path
    std::uint64_t self_id_ = 0;
    PoolOptions options_;
    std::deque<PID> workers_;
    std::size_t workers_max_ = 0; // Ergo's queue cap: 100 × the effective pool size (§5)
    std::string worker_behavior_;
    std::uint64_t forwarded_ = 0;
    std::uint64_t unhandled_ = 0;
    std::uint64_t restarts_ = 0;
};

} // namespace act
} // namespace routesim::runtime
