// The commands `routesim fuzz` prints and writes into its results. Part of tools/.
#include <algorithm>

#include "tools/fuzz_detail.hpp"

namespace routesim::tools::detail {

std::string shell_word(const std::string& text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("_-./+=:,@%").find(c) != std::string_view::npos;
    });
    if (plain) {
        return text;
    }
    std::string quoted = "'";
    for (char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

std::string rerun_command(const std::string& file, std::uint64_t seed, sim::Policy scheduler,
                          scenarios::Semantics semantics) {
    return "routesim fuzz " + shell_word(file) + " --replay " + std::to_string(seed) +
           " --scheduler " + std::string(sim::policy_name(scheduler)) + " --semantics " +
           std::string(scenarios::spelling(semantics));
}

std::string replay_command(const std::string& path, const nlohmann::json& document,
                           scenarios::Semantics semantics) {
    const nlohmann::json run = document.value("run", nlohmann::json::object());
    std::string command = "routesim run " + shell_word(path);
    if (run.contains("seed") && run["seed"].is_number_unsigned()) {
        command += " --seed " + std::to_string(run["seed"].get<std::uint64_t>());
    }
    if (run.contains("scheduler") && run["scheduler"].is_string()) {
        command += " --scheduler " + shell_word(run["scheduler"].get<std::string>());
    }
    const std::string named = run.value("semantics", std::string(scenarios::spelling(semantics)));
    return command + " --semantics " + shell_word(named);
}

} // namespace routesim::tools::detail
