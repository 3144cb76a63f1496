// `routesim fuzz` output helpers shared by fuzz.cpp and its tests: the commands it prints
// (each a complete command line) and the check that its output never overwrites the scenario
// file it reads. Private to tools/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "scenarios/format/model.hpp"
#include "sim/scheduler.hpp"

namespace routesim::tools::detail {

/// `text` as one POSIX shell word: as it is when it holds only safe characters, else in
/// single quotes.
std::string shell_word(const std::string& text);

/// The command that runs campaign run `seed` again exactly as the campaign ran it (aimed
/// faults, the run's scheduler and semantics):
/// `routesim fuzz FILE --replay SEED --scheduler P --semantics M`.
std::string rerun_command(const std::string& file, std::uint64_t seed, sim::Policy scheduler,
                          scenarios::Semantics semantics);

/// The command that replays a reproducer with its run also pinned on the command line:
/// `routesim run PATH --seed S --scheduler P --semantics M`, the values read from the
/// document's `run` section (`semantics` when it names none).
std::string replay_command(const std::string& path, const nlohmann::json& document,
                           scenarios::Semantics semantics);

/// What fuzz writes into `out`: reproducers `<scenario>-<seed>.repro.json` and the results
/// file `results_name`.
struct OutFiles {
    std::string out;
    std::string scenario;
    std::string results_name;
};

/// Why writing `files` could overwrite the scenario file `file` (one line naming both), or
/// nothing when it cannot: `out` is that file, or the results file or a file in `out` named
/// like a reproducer is the scenario file (the same file on disk: a hard or symbolic link,
/// or the file itself). Cost: one pass over `out`'s entries.
std::optional<std::string> overwrites_input(const OutFiles& files, const std::string& file);

/// True when `path` names the same file on disk as `file` (both exist).
bool is_same_file(const std::string& path, const std::string& file);

} // namespace routesim::tools::detail
