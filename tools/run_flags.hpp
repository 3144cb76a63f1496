// The flags `routesim run` and `routesim report` share, defined once for both, and the
// parsing of their values (--seed by run.seed's rules, also for `fuzz`).
// Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sim/result.hpp"
#include "tools/commands.hpp"

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace routesim::tools {

/// Parses a --seed value by the rules of `run.seed` (scenarios::run_seed_max): decimal digits
/// only, from 0 to the maximum. Error: `expected an integer from 0 to <max>, got "<text>"`.
sim::Result<std::uint64_t, std::string> parse_seed(std::string_view text);

/// Parses a --trace-max size: an integer number of bytes, or an integer with a unit B, KiB,
/// MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000): `512MiB`, `1GiB`.
/// Error: `expected a size: ..., got "<text>"`; also for a size past 2^64-1 bytes.
sim::Result<std::uint64_t, std::string> parse_size(std::string_view text);

/// `"<text>"` with JSON escapes, for "got ..." in flag errors.
std::string quoted(std::string_view text);

/// A flag whose text value a parser turns into an integer.
struct ParsedFlag {
    std::string name;
    std::string description;
    std::function<sim::Result<std::uint64_t, std::string>(std::string_view)> parse;
};

/// Adds `flag` to `command`. A value the parser accepts goes to `store`; a refused one leaves
/// `<name>: <why>` in `error` (unless an earlier flag's error is there), for the caller to
/// print as `routesim <command>: <error>` and exit 2.
CLI::Option* add_parsed_flag(CLI::App& command, const ParsedFlag& flag,
                             std::function<void(std::uint64_t)> store, std::string& error);

/// Adds `--seed N` (parse_seed) to `command`, as add_parsed_flag does.
CLI::Option* add_seed_flag(CLI::App& command, std::string_view description,
                           std::function<void(std::uint64_t)> store, std::string& error);

/// `text` as one shell word: unchanged when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside written as '\'').
std::string shell_word(std::string_view text);

/// The complete command line that replays a run of `args` with `seed`: `routesim run FILE
/// --seed N`, then every flag that changed the run (--scheduler, --semantics, --until) as
/// given. Outputs (--trace, --report, ...) are left out: they do not change the run.
std::string replay_command(const RunArgs& args, std::uint64_t seed);

/// Adds the scenario FILE and the run flags shared by `routesim run` and `routesim report`
/// to `command`, storing into `args`: --seed, --scheduler, --semantics, --until, --trace,
/// --trace-max, --save-repro.
/// Values the parsers refuse leave their message in `error` (see add_seed_flag).
void add_run_flags(CLI::App& command, RunArgs& args, std::string& error);

} // namespace routesim::tools
