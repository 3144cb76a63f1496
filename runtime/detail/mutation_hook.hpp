// The one question a deliberately broken rule asks at the place where its rule lives: is this
// mutation on? In the product runtime (routesim_runtime) the answer is the constant false, so
// the hook and its branch compile away; only the test runtime (routesim_runtime_mutant, built
// with ROUTESIM_MUTATION_HOOKS=1) asks testing_mutation.cpp. Included by runtime/*.cpp only,
// never by a header, so every other file compiles the same in both runtimes.
// Part of runtime/: uses the standard library only.
#pragma once

#include "runtime/testing_mutation.hpp"

#ifndef ROUTESIM_MUTATION_HOOKS
#define ROUTESIM_MUTATION_HOOKS 0
#endif

namespace routesim::runtime::detail {

#if ROUTESIM_MUTATION_HOOKS
/// Whether `mutation` is the one a MutationScope switched on (testing_mutation.cpp).
bool mutation_active(Mutation mutation);
#else
/// The product runtime breaks no rule.
constexpr bool mutation_active(Mutation /*mutation*/) {
    return false;
}
#endif

} // namespace routesim::runtime::detail
