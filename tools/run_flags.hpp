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

/// `"<text>"` with JSON escapes, for "got ..." in flag errors.
std::string quoted(std::string_view text);

/// Adds `--seed N` to `command`. A value parse_seed accepts goes to `store`; a refused one
/// leaves `--seed: <why>` in `error` (unless an earlier flag's error is there), for the caller
/// to print as `routesim <command>: <error>` and exit 2.
CLI::Option* add_seed_flag(CLI::App& command, std::string_view description,
                           std::function<void(std::uint64_t)> store, std::string& error);

/// Adds the scenario FILE and the run flags shared by `routesim run` and `routesim report`
/// to `command`, storing into `args`: --seed, --scheduler, --semantics, --until, --trace.
/// Values the parsers refuse leave their message in `error` (see add_seed_flag).
void add_run_flags(CLI::App& command, RunArgs& args, std::string& error);

} // namespace routesim::tools
