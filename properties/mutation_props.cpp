// Goal: the property suites catch a runtime whose rules are broken. For each test-only
// mutation (runtime/testing_mutation.hpp), the generated-topology checker reports a
// violation of the monitor that owns the broken rule, and the same cases with the mutation
// off report none. If that monitor were broken (or not installed), the test would fail.
// Method: up to `cases_max` cases drawn with fixed seeds from the generator focused on the
// mutated component (properties/gen/topology.hpp); each is run with and without the
// mutation, stopping at the first case the expected monitor flags.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <string_view>

#include "properties/gen/topology.hpp"
#include "runtime/testing_mutation.hpp"

namespace routesim::properties {
namespace {

using gen::CaseResult;
using gen::Focus;
using gen::TopologyCase;
using runtime::Mutation;

constexpr std::uint64_t cases_max = 60;
constexpr int case_size = 60;

/// Searches fixed-seed cases for one where `monitor` reports the mutation; every case tried
/// must be clean without it. Returns the number of cases tried until caught (0: never).
std::uint64_t cases_until_caught(Mutation mutation, Focus focus, std::string_view monitor) {
    for (std::uint64_t seed = 1; seed <= cases_max; seed++) {
        const TopologyCase topology_case = gen::sample_case(focus, seed, case_size);
        const CaseResult clean = gen::run_case(topology_case);
        EXPECT_TRUE(clean.findings.empty())
            << "without the mutation, case " << seed << " reports:\n"
            << clean.describe() << "\n"
            << gen::describe(topology_case);
        if (!clean.findings.empty()) {
            return 0;
        }
        const CaseResult mutated = [&] {
            const runtime::MutationScope broken(mutation);
            return gen::run_case(topology_case);
        }();
        if (mutated.violated(monitor)) {
            std::string monitors;
            for (const gen::Finding& finding : mutated.findings) {
                if (monitors.find(finding.monitor) == std::string::npos) {
                    monitors += (monitors.empty() ? "" : ", ") + finding.monitor;
                }
            }
            std::cout << runtime::mutation_name(mutation) << ": caught in case " << seed << " by "
                      << monitors << "\n";
            return seed;
        }
    }
    return 0;
}

void expect_caught(Mutation mutation, Focus focus, std::string_view monitor) {
    const std::uint64_t caught = cases_until_caught(mutation, focus, monitor);
    EXPECT_NE(caught, 0U) << "mutation " << runtime::mutation_name(mutation)
                          << " was not caught by " << monitor << " within " << cases_max
                          << " generated cases";
}

TEST(MutationCheck, ForwardToPendingDisableIsCaught) {
    expect_caught(Mutation::ForwardToPendingDisable, Focus::Router, "no_forward_to_disabled");
}

TEST(MutationCheck, ForwardToPendingRemoveIsCaught) {
    expect_caught(Mutation::ForwardToPendingRemove, Focus::Router, "no_forward_to_disabled");
}

TEST(MutationCheck, DropSenderIsCaught) {
    expect_caught(Mutation::DropSender, Focus::Router, "sender_preservation");
}

TEST(MutationCheck, DiscardCountedAsForwardedIsCaught) {
    expect_caught(Mutation::DiscardCountedAsForwarded, Focus::Router, "counter_consistency");
}

TEST(MutationCheck, PoolDuplicateOnRespawnIsCaught) {
    expect_caught(Mutation::PoolDuplicateOnRespawn, Focus::Pool, "message_conservation");
}

TEST(MutationCheck, RestartBeyondIntensityIsCaught) {
    expect_caught(Mutation::RestartBeyondIntensity, Focus::Supervisor, "restart_intensity");
}

TEST(MutationCheck, KeepChildrenOfFailedInitIsCaught) {
    expect_caught(Mutation::KeepChildrenOfFailedInit, Focus::AtomicInit, "atomic_init");
}

// A scope switches its mutation on for what runs inside it only: before it, after it and
// around a nested scope the rules are whole again. The case is one the mutation is caught in.
TEST(MutationCheck, AScopeBreaksTheRuleOnlyWhileItLives) {
    const std::uint64_t seed =
        cases_until_caught(Mutation::DropSender, Focus::Router, "sender_preservation");
    ASSERT_NE(seed, 0U);
    const TopologyCase topology_case = gen::sample_case(Focus::Router, seed, case_size);
    {
        const runtime::MutationScope broken(Mutation::DropSender);
        EXPECT_TRUE(gen::run_case(topology_case).violated("sender_preservation"));
        {
            const runtime::MutationScope none(Mutation::None);
            EXPECT_TRUE(gen::run_case(topology_case).findings.empty());
        }
        EXPECT_TRUE(gen::run_case(topology_case).violated("sender_preservation"));
    }
    EXPECT_TRUE(gen::run_case(topology_case).findings.empty());
}

} // namespace
} // namespace routesim::properties
