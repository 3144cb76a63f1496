// Test-only mutations: deliberately broken runtime rules, so that the mutation check
// (properties/mutation_props.cpp) can show that the invariant monitors catch each one. A test
// switches one on with a MutationScope; only the test runtime
// (routesim_runtime_mutant: the hooked files compiled with ROUTESIM_MUTATION_HOOKS=1, plus
// testing_mutation.cpp) has the hooks and MutationScope, so the product runtime carries no
// mutation branch and a product binary that named MutationScope would not link. Each hook is
// one branch at the place where its rule lives (detail/mutation_hook.hpp), commented with the
// rule it breaks.
// Part of runtime/: uses the standard library only.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/mailbox.hpp"

namespace routesim::runtime {

/// A deliberately broken rule (test-only).
enum class Mutation : std::uint8_t {
    None = 0,
    /// R14 broken: a route pending Disable still gets traffic (router.cpp, resolve).
    ForwardToPendingDisable = 1,
    /// R15 broken: a route pending Remove still gets traffic (router.cpp, resolve).
    ForwardToPendingRemove = 2,
    /// R21 broken: a forward to an owned route carries the router as From (router.cpp).
    DropSender = 3,
    /// R11/R42 broken: a RouteDiscard is counted as forwarded (router.cpp, route_one).
    DiscardCountedAsForwarded = 4,
    /// §5 broken: after a respawned worker took a message the pool goes on to the next
    /// worker, forwarding the same message twice (pool.cpp, respawn).
    PoolDuplicateOnRespawn = 5,
    /// §6.4 broken: the strategy allows one restart more per period than the intensity
    /// the supervisor reports (supervisor.cpp, process_init).
    RestartBeyondIntensity = 6,
    /// R6 broken: a process whose Init fails does not stop the children it spawned with
    /// LinkChild during that Init (node.cpp, finish_failed_init).
    KeepChildrenOfFailedInit = 7,
};

/// The mutation's name as the tests print it.
inline std::string_view mutation_name(Mutation mutation) {
    switch (mutation) {
    case Mutation::None:
        return "none";
    case Mutation::ForwardToPendingDisable:
        return "forward_to_pending_disable";
    case Mutation::ForwardToPendingRemove:
        return "forward_to_pending_remove";
    case Mutation::DropSender:
        return "drop_sender";
    case Mutation::DiscardCountedAsForwarded:
        return "discard_counted_as_forwarded";
    case Mutation::PoolDuplicateOnRespawn:
        return "pool_duplicate_on_respawn";
    case Mutation::RestartBeyondIntensity:
        return "restart_beyond_intensity";
    case Mutation::KeepChildrenOfFailedInit:
        return "keep_children_of_failed_init";
    }
    return "unknown";
}

/// Switches `mutation` on (for the whole process: runs are single-threaded) until destroyed,
/// then restores the one before (scopes nest). Defined only in the test runtime
/// (testing_mutation.cpp).
class MutationScope {
public:
    explicit MutationScope(Mutation mutation);
    ~MutationScope();
    MutationScope(const MutationScope&) = delete;
    MutationScope& operator=(const MutationScope&) = delete;

private:
    Mutation previous_;
};

/// DropSender: a copy of `message` whose From is `sender`.
inline MailboxMessage with_sender(const MailboxMessage& message, const PID& sender) {
    MailboxMessage copy = message;
    copy.from = sender;
    return copy;
}

} // namespace routesim::runtime
