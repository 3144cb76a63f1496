// Goal: a violation found in a real run shows the events that decide it, each naming its
// processes by path and PID (properties/INVARIANTS.md): one test per invariant that a
// runtime mutation breaks in an example scenario (the others are pinned by their monitor's
// unit tests on hand-made traces, properties/*_monitors_test.cpp).
// Method: the example and mutation that properties/INVARIANTS.md quotes for the invariant;
// the first violation's witness lines are compared with the events that make it.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "runtime/testing_mutation.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"

namespace routesim::scenarios {
namespace {

/// The witness lines of the first violation of `invariant` in `example` run with `mutation`.
std::vector<std::string> first_witnesses(std::string_view example, runtime::Mutation mutation,
                                         std::string_view invariant) {
    auto loaded = load_scenario_file(std::string(ROUTESIM_SOURCE_DIR) + "/scenarios/examples/" +
                                     std::string(example));
    EXPECT_TRUE(loaded.has_value()) << example;
    if (!loaded.has_value()) {
        return {};
    }
    const runtime::MutationScope broken(mutation);
    const RunResult result = run_scenario(loaded.value());
    for (const properties::Violation& violation : result.violations) {
        if (violation.invariant == invariant) {
            std::vector<std::string> texts;
            for (const properties::Witness& witness : violation.witnesses) {
                texts.push_back("#" + std::to_string(witness.seq) + " " + witness.text);
            }
            return texts;
        }
    }
    ADD_FAILURE() << example << ": no " << invariant << " violation";
    return {};
}

TEST(InvariantWitnesses, SenderPreservationShowsTheOriginalSendAndTheForwardThatLostIt) {
    EXPECT_EQ(first_witnesses("admin-priority-path.json", runtime::Mutation::DropSender,
                              "sender_preservation"),
              (std::vector<std::string>{
                  "#12 send id=1 from=client:1 <…1004> to=event_router <…1001>",
                  "#14 forward id=1 by=event_router <…1001> to=event_router/payments <…1002> "
                  "from=event_router <…1001> queue=2"}));
}

TEST(InvariantWitnesses, AtomicInitShowsTheWorkerSpawnedAndTheInitThatFailed) {
    EXPECT_EQ(first_witnesses("atomic-init.json", runtime::Mutation::KeepChildrenOfFailedInit,
                              "atomic_init"),
              (std::vector<std::string>{
                  "#2 spawn pid=r/a <…1002> parent=r <…1001> name= behavior=sink kind=Actor",
                  "#8 spawn_failed pid=r <…1001> parent=<…1> name=r reason=spawn route \"c\": "
                  "init failed (behavior.init)"}));
}

TEST(InvariantWitnesses, NoForwardToDisabledShowsThePendingStateAndTheForward) {
    EXPECT_EQ(first_witnesses("pending-operations.json", runtime::Mutation::ForwardToPendingDisable,
                              "no_forward_to_disabled"),
              (std::vector<std::string>{
                  "#17 route_pending router=r <…1001> name=a from_state=running "
                  "to_state=pending_disable worker=r/a <…1002>",
                  "#48 forward id=5 by=r <…1001> to=r/a <…1002> from=client:1 <…1006> queue=2"}));
}

TEST(InvariantWitnesses, MessageConservationShowsTheDuplicateForward) {
    EXPECT_EQ(first_witnesses("router-pool-per-shard.json",
                              runtime::Mutation::PoolDuplicateOnRespawn, "message_conservation"),
              (std::vector<std::string>{"#508 forward id=85 by=sup_root/shard:1 <…1007> "
                                        "to=sup_root/shard:1/#1 <…1009> from=client:2 <…1024> "
                                        "queue=2"}));
}

TEST(InvariantWitnesses, RestartIntensityShowsTheRestartDecisionsOfTheWindow) {
    const std::string decision = " sup_restart sup=sup <…1001> child=b pid=sup/b <…";
    const std::string tail = "> reason=kill intensity=2 period_ns=1000000000";
    EXPECT_EQ(first_witnesses("supervisor-one-for-one.json",
                              runtime::Mutation::RestartBeyondIntensity, "restart_intensity"),
              (std::vector<std::string>{"#67" + decision + "1008" + tail,
                                        "#76" + decision + "1009" + tail,
                                        "#85" + decision + "1010" + tail}));
}

} // namespace
} // namespace routesim::scenarios
