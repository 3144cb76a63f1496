// Goal: the commands `routesim fuzz` prints are complete, shell-safe command lines, and the
// output guard knows a reproducer name from any other file.
// Method: call the helpers of tools/fuzz_detail.hpp on plain and awkward paths (the CLI test
// fuzz-verdicts-replay runs the commands themselves).
#include <gtest/gtest.h>

#include "tools/fuzz_detail.hpp"

namespace routesim::tools {
namespace {

TEST(FuzzCommands, ShellWordsQuoteOnlyWhatNeedsIt) {
    EXPECT_EQ(detail::shell_word("scenarios/races/a-b_c.json"), "scenarios/races/a-b_c.json");
    EXPECT_EQ(detail::shell_word("my dir/it's.json"), "'my dir/it'\\''s.json'");
    EXPECT_EQ(detail::shell_word(""), "''");
    EXPECT_EQ(detail::shell_word("$HOME;rm"), "'$HOME;rm'");
}

TEST(FuzzCommands, RerunCarriesSeedSchedulerAndSemantics) {
    EXPECT_EQ(
        detail::rerun_command("a b.json", 42, sim::Policy::Pct, scenarios::Semantics::Upstream),
        "routesim fuzz 'a b.json' --replay 42 --scheduler pct --semantics upstream");
}

TEST(FuzzCommands, ReplayRepeatsTheReproducersRunSection) {
    const nlohmann::json document{{"run", {{"seed", 9}, {"scheduler", "fifo"}}}};
    EXPECT_EQ(
        detail::replay_command("out/x-9.repro.json", document, scenarios::Semantics::Documented),
        "routesim run out/x-9.repro.json --seed 9 --scheduler fifo --semantics documented");
    const nlohmann::json pinned{
        {"run",
         {{"seed", 17911839290282890590ULL}, {"scheduler", "pct"}, {"semantics", "upstream"}}}};
    EXPECT_EQ(detail::replay_command("r.json", pinned, scenarios::Semantics::Documented),
              "routesim run r.json --seed 17911839290282890590 --scheduler pct --semantics "
              "upstream");
}

} // namespace
} // namespace routesim::tools
