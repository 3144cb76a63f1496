// The loader fuzz target: bytes -> load_scenario_text under tight limits -> (when the scenario
// is small) the topology built on a fresh Node. Built with clang's libFuzzer for the nightly
// campaign (-DROUTESIM_LIBFUZZER=ON) and with g++ into the replay driver (replay_main.cpp).
#include "scenarios/fuzz/loader_fuzz.hpp"

#include <string_view>

#include "scenarios/format/loader.hpp"
#include "scenarios/fuzz/build_probe.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::fuzz {
namespace {

/// Limits small enough that every accepted input loads and builds in milliseconds, so that a
/// slow input is a real hang and not a legitimately huge scenario.
LoadLimits fuzz_limits() {
    LoadLimits limits;
    limits.file_bytes_max = 1024 * 1024;
    limits.nodes_max = 5'000;
    limits.processes_max = 20'000;
    limits.repeat_max = 5'000;
    limits.repeat_values_max = 500'000;
    limits.workload_count_max = 100'000;
    limits.workload_total_max = 100'000;
    limits.timeline_actions_max = 5'000;
    return limits;
}

/// Scenarios up to this many processes are built.
constexpr std::uint64_t build_processes_max = 2'000;

/// Topology processes when built (a pool multiplies its worker subtree), saturating.
std::uint64_t process_count(const Node& root) {
    // Iterative: (node, multiplier) pairs.
    std::uint64_t total = 0;
    std::vector<std::pair<const Node*, std::uint64_t>> stack{{&root, 1}};
    while (!stack.empty()) {
        const auto [node, times] = stack.back();
        stack.pop_back();
        total += times;
        if (total > build_processes_max) {
            return total;
        }
        std::uint64_t child_times = times;
        if (node->kind == NodeKind::Pool) {
            child_times *= effective_pool_size(node->pool.size);
        }
        for (const Node& child : node->children) {
            stack.emplace_back(&child, child_times);
        }
    }
    return total;
}

/// No line break of any kind a terminal or a line-based reader would split at.
bool is_one_line(std::string_view line) {
    return line.find_first_of("\n\r\v\f") == std::string_view::npos;
}

} // namespace

Verdict fuzz_loader_one(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto loaded = load_scenario_text(text, "fuzz.json", fuzz_limits());
    // Going on after an error must neither crash nor change the first error.
    const LoadReport report = check_scenario_text(text, "fuzz.json", fuzz_limits());
    RS_ASSERT(loaded.has_value() == report.scenario.has_value());
    RS_ASSERT(report.errors.size() <= LoadReport::errors_listed_max);
    for (const std::string& line : report.error_lines()) {
        RS_ASSERT(is_one_line(line));
    }
    for (const LoadError& warning : report.warnings) {
        RS_ASSERT(warning.warning);
        RS_ASSERT(is_one_line(warning.to_string()));
    }
    if (!loaded) {
        const LoadError& error = loaded.error();
        // Every rejection names what was expected in one line (input text embedded in the
        // message or the pointer is escaped).
        RS_ASSERT(!error.message.empty());
        RS_ASSERT(is_one_line(error.to_string()));
        RS_ASSERT(error.pointer.empty() || error.pointer.front() == '/');
        RS_ASSERT(!report.errors.empty());
        RS_ASSERT(report.errors.front().to_string() == error.to_string());
        return Verdict::Rejected;
    }
    const Scenario& scenario = loaded.value();
    if (process_count(scenario.topology) > build_processes_max ||
        scenario.clients.size() > build_processes_max) {
        return Verdict::Loaded;
    }
    const probe::Built built = probe::build(scenario);
    // The root, when it started, is alive, and so is every client.
    RS_ASSERT(built.processes >= scenario.clients.size() + (built.root_failure.empty() ? 1 : 0));
    return Verdict::Built;
}

} // namespace routesim::scenarios::fuzz

/// libFuzzer's entry point. Returns 0 for every input (nothing is kept out of the corpus).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)routesim::scenarios::fuzz::fuzz_loader_one(data, size);
    return 0;
}
