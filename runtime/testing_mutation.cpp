// The switch behind the mutation hooks: which broken rule is on in this process. Compiled only
// into the test runtime (routesim_runtime_mutant), never into the product.
// Part of runtime/: uses the standard library only.
#include "runtime/testing_mutation.hpp"

#include "runtime/detail/mutation_hook.hpp"

#if !ROUTESIM_MUTATION_HOOKS
#error "testing_mutation.cpp belongs to the test runtime (ROUTESIM_MUTATION_HOOKS=1)"
#endif

namespace routesim::runtime {

namespace {
// One per process: runs are single-threaded (a campaign's workers are processes), and a test
// switches a mutation on around the runs it breaks.
Mutation active_mutation = Mutation::None;
} // namespace

MutationScope::MutationScope(Mutation mutation) : previous_(active_mutation) {
    active_mutation = mutation;
}

MutationScope::~MutationScope() {
    active_mutation = previous_;
}

bool detail::mutation_active(Mutation mutation) {
    return mutation != Mutation::None && active_mutation == mutation;
}

} // namespace routesim::runtime
