// The shared run flags and the parsing of their values.
// Part of tools/: may use every layer's public headers.
#include "tools/run_flags.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>

#include <CLI/CLI.hpp>

#include "scenarios/format/loader.hpp"
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

sim::Result<std::uint64_t, std::string> parse_size(std::string_view text) {
    struct Unit {
        std::string_view suffix;
        std::uint64_t bytes;
    };
    static constexpr Unit units[] = {{"", 1},
                                     {"B", 1},
                                     {"KiB", 1ULL << 10},
                                     {"MiB", 1ULL << 20},
                                     {"GiB", 1ULL << 30},
                                     {"TiB", 1ULL << 40},
                                     {"kB", 1000},
                                     {"MB", 1000'000},
                                     {"GB", 1000'000'000},
                                     {"TB", 1000'000'000'000}};
    const std::size_t digits_end = std::min(text.find_first_not_of("0123456789"), text.size());
    const std::string_view suffix = text.substr(digits_end);
    std::uint64_t count = 0;
    const auto [stop, error] = std::from_chars(text.data(), text.data() + digits_end, count);
    const auto unit = std::find_if(std::begin(units), std::end(units),
                                   [&](const Unit& known) { return known.suffix == suffix; });
    if (digits_end == 0 || error != std::errc{} || unit == std::end(units) ||
        count > UINT64_MAX / unit->bytes) {
        return sim::fail("expected a size: an integer number of bytes, or an integer with a "
                         "unit B, KiB, MiB, GiB, TiB, kB, MB, GB or TB (\"512MiB\"), got " +
                         quoted(text));
    }
    return count * unit->bytes;
}

CLI::Option* add_parsed_flag(CLI::App& command, const ParsedFlag& flag,
                             std::function<void(std::uint64_t)> store, std::string& error) {
    return command.add_option_function<std::string>(
        flag.name,
        [name = flag.name, parse = flag.parse, store = std::move(store),
         &error](const std::string& text) {
            auto value = parse(text);
            if (!value) {
                error = error.empty() ? name + ": " + value.error() : error;
                return;
            }
            store(value.value());
        },
        flag.description);
}

CLI::Option* add_seed_flag(CLI::App& command, std::string_view description,
                           std::function<void(std::uint64_t)> store, std::string& error) {
    return add_parsed_flag(command, {"--seed", std::string(description), parse_seed},
                           std::move(store), error);
}

std::string shell_word(std::string_view text) {
    constexpr std::string_view plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_-+=.,/:@%";
    if (!text.empty() && text.find_first_not_of(plain) == std::string_view::npos) {
        return std::string(text);
    }
    std::string out = "'";
    for (const char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

std::string replay_command(const RunArgs& args, std::uint64_t seed) {
    std::string out = "routesim run " + shell_word(args.file) + " --seed " + std::to_string(seed);
    const std::pair<std::string_view, const std::string*> overrides[] = {
        {"--scheduler", &args.scheduler},
        {"--semantics", &args.semantics},
        {"--until", &args.until}};
    for (const auto& [flag, value] : overrides) {
        if (!value->empty()) {
            out += " " + std::string(flag) + " " + shell_word(*value);
        }
    }
    return out;
}

void add_run_flags(CLI::App& command, RunArgs& args, std::string& error) {
    command.add_option("file", args.file, "Scenario file")->required()->type_name("FILE");
    add_seed_flag(
        command, "Root seed, 0 to 2^64-1 (overrides run.seed)",
        [&args](std::uint64_t seed) { args.seed = seed; }, error)
        ->type_name("N");
    command
        .add_option("--scheduler", args.scheduler, "fifo, random or pct (overrides run.scheduler)")
        ->check(CLI::IsMember({"fifo", "random", "pct"}))
        ->type_name("NAME");
    command
        .add_option("--semantics", args.semantics,
                    "documented or upstream (overrides run.semantics)")
        ->check(CLI::IsMember({"documented", "upstream"}))
        ->type_name("NAME");
    command
        .add_option("--until", args.until,
                    "Stop at this virtual time (\"250ms\"), or \"idle\" when nothing is left "
                    "to do (overrides run.until)")
        ->type_name("D");
    command.add_option("--trace", args.trace_path, "Write the trace as JSON Lines")
        ->type_name("FILE");
    add_parsed_flag(
        command,
        {"--trace-max",
         "Largest --trace file: bytes, or with a unit (512MiB, 1GiB, 2GB); "
         "default 1GiB. The trace stops there, the run goes on",
         parse_size},
        [&args](std::uint64_t bytes) { args.trace_bytes_max = bytes; }, error)
        ->type_name("SIZE");
    command
        .add_option("--save-repro", args.save_repro,
                    "Write the scenario with this run's seed, scheduler, semantics and until "
                    "pinned in its run section, so that `routesim run FILE` replays it")
        ->type_name("FILE");
}

} // namespace routesim::tools
