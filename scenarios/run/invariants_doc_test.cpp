// Goal: the VIOLATION lines that properties/INVARIANTS.md quotes as "what a run prints" are
// what runs really print, and the catalogue covers every invariant the loader accepts.
// Method: each quoted line is reproduced by running an example scenario on a runtime with a
// deliberately broken rule (runtime/testing_mutation.hpp, as properties/mutation_props.cpp
// does); the first VIOLATION line of format_summary must appear verbatim in INVARIANTS.md.
// If a monitor's wording, a scenario or a mutation changes, the test names the stale quote.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "runtime/testing_mutation.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::scenarios {
namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string catalogue() {
    return read_text(std::string(ROUTESIM_SOURCE_DIR) + "/properties/INVARIANTS.md");
}

/// The first line starting with "VIOLATION <invariant> " of a run's summary, or "".
std::string first_violation(const std::string& summary, std::string_view invariant) {
    const std::string head = "VIOLATION " + std::string(invariant) + " ";
    std::istringstream lines(summary);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(head, 0) == 0) {
            return line;
        }
    }
    return "";
}

struct Quote {
    std::string_view invariant;
    std::string_view example; // in scenarios/examples/
    runtime::Mutation mutation;
};

void expect_quoted(const Quote& quote) {
    const std::string path =
        std::string(ROUTESIM_SOURCE_DIR) + "/scenarios/examples/" + std::string(quote.example);
    auto loaded = load_scenario_file(path);
    ASSERT_TRUE(loaded.has_value()) << path;
    const runtime::MutationScope broken(quote.mutation);
    const RunResult result = run_scenario(loaded.value());
    const std::string summary = format_summary(loaded.value(), result);
    const std::string line = first_violation(summary, quote.invariant);
    ASSERT_FALSE(line.empty()) << quote.example << " with mutation "
                               << runtime::mutation_name(quote.mutation) << " printed no "
                               << quote.invariant << " violation";
    EXPECT_NE(catalogue().find(line + "\n"), std::string::npos)
        << "properties/INVARIANTS.md does not quote the line a run prints now:\n"
        << line;
}

TEST(ManualInvariants, QuotedViolationLinesAreWhatRunsPrint) {
    using runtime::Mutation;
    const Quote quotes[] = {
        {"sender_preservation", "admin-priority-path.json", Mutation::DropSender},
        {"atomic_init", "atomic-init.json", Mutation::KeepChildrenOfFailedInit},
        {"no_forward_to_disabled", "pending-operations.json", Mutation::ForwardToPendingDisable},
        {"no_forward_to_disabled", "pending-operations.json", Mutation::ForwardToPendingRemove},
        {"message_conservation", "router-pool-per-shard.json", Mutation::PoolDuplicateOnRespawn},
        {"restart_intensity", "supervisor-one-for-one.json", Mutation::RestartBeyondIntensity},
    };
    for (const Quote& quote : quotes) {
        SCOPED_TRACE(std::string(quote.invariant) + " / " + std::string(quote.example));
        expect_quoted(quote);
    }
}

TEST(ManualInvariants, TheSameExamplesHoldWithoutTheMutation) {
    // Without a broken rule the quoted scenarios print no VIOLATION at all: the quotes are
    // caused by the mutation, not by the scenario.
    for (std::string_view example :
         {"admin-priority-path.json", "atomic-init.json", "pending-operations.json",
          "router-pool-per-shard.json", "supervisor-one-for-one.json"}) {
        auto loaded = load_scenario_file(std::string(ROUTESIM_SOURCE_DIR) + "/scenarios/examples/" +
                                         std::string(example));
        ASSERT_TRUE(loaded.has_value()) << example;
        const RunResult result = run_scenario(loaded.value());
        EXPECT_TRUE(result.violations.empty()) << example;
    }
}

TEST(ManualInvariants, EveryInvariantHasASection) {
    const std::string text = catalogue();
    for (std::string_view name : spellings(Invariant{}).names) {
        EXPECT_NE(text.find("<a id=\"" + std::string(name) + "\"></a>"), std::string::npos)
            << "properties/INVARIANTS.md has no section for " << name;
    }
}

} // namespace
} // namespace routesim::scenarios
