// The values of the flags `routesim run`, `report` and `fuzz` share: --seed by run.seed's
// rules, with the error text of a refused value.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sim/result.hpp"

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

} // namespace routesim::tools
