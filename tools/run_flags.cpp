// The shared run flags and the parsing of their values.
// Part of tools/: may use every layer's public headers.
#include "tools/run_flags.hpp"

#include <charconv>

#include <CLI/CLI.hpp>

#include "scenarios/loader.hpp"
#include "sim/trace.hpp"

namespace routesim::tools {

std::string quoted(std::string_view text) {
    std::string out;
    sim::append_json_string(out, text);
    return out;
}

sim::Result<std::uint64_t, std::string> parse_seed(std::string_view text) {
    const std::string expected =
        "expected an integer from 0 to " + std::to_string(scenarios::run_seed_max) + ", got ";
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    // Digits only: a sign, a blank or a fraction is refused, never read in part.
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (!digits || error != std::errc{} || stop != end || value > scenarios::run_seed_max) {
        return sim::fail(expected + quoted(text));
    }
    return value;
}

CLI::Option* add_seed_flag(CLI::App& command, std::string_view description,
                           std::function<void(std::uint64_t)> store, std::string& error) {
    return command.add_option_function<std::string>(
        "--seed",
        [store = std::move(store), &error](const std::string& text) {
            auto seed = parse_seed(text);
            if (!seed) {
                error = error.empty() ? "--seed: " + seed.error() : error;
                return;
            }
            store(seed.value());
        },
        std::string(description));
}

void add_run_flags(CLI::App& command, RunArgs& args, std::string& error) {
    command.add_option("file", args.file, "Scenario file")->required();
    add_seed_flag(command, "Root seed, 0 to 2^64-1 (overrides run.seed)",
                  [&args](std::uint64_t seed) { args.seed = seed; }, error);
    command
        .add_option("--scheduler", args.scheduler, "fifo, random or pct (overrides run.scheduler)")
        ->check(CLI::IsMember({"fifo", "random", "pct"}));
    command
        .add_option("--semantics", args.semantics,
                    "documented or upstream (overrides run.semantics)")
        ->check(CLI::IsMember({"documented", "upstream"}));
    command.add_option("--until", args.until,
                       "Stop at this virtual time (\"250ms\"), or \"idle\" when nothing is left "
                       "to do (overrides run.until)");
    command.add_option("--trace", args.trace_path, "Write the trace as JSON Lines");
}

} // namespace routesim::tools
