// The commands `routesim fuzz` prints and writes into its results, and the guard that keeps
// its output files off the scenario file it reads. Part of tools/.
#include <algorithm>
#include <filesystem>
#include <vector>

#include "tools/fuzz_detail.hpp"

namespace routesim::tools::detail {

namespace fs = std::filesystem;

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
    const nlohmann::json seed = run.value("seed", nlohmann::json());
    if (seed.is_number_unsigned() || (seed.is_number_integer() && seed.get<std::int64_t>() >= 0)) {
        command += " --seed " + std::to_string(seed.get<std::uint64_t>());
    }
    if (run.contains("scheduler") && run["scheduler"].is_string()) {
        command += " --scheduler " + shell_word(run["scheduler"].get<std::string>());
    }
    const std::string named = run.value("semantics", std::string(scenarios::spelling(semantics)));
    return command + " --semantics " + shell_word(named);
}

bool is_same_file(const std::string& path, const std::string& file) {
    std::error_code error;
    return fs::exists(path, error) && fs::exists(file, error) && fs::equivalent(path, file, error);
}

namespace {

/// True when `name` is `<scenario>-<digits>.repro.json`.
bool is_reproducer_name(const std::string& name, const std::string& scenario) {
    const std::string prefix = scenario + "-";
    const std::string suffix = ".repro.json";
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix)) {
        return false;
    }
    const std::string seed =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    return std::all_of(seed.begin(), seed.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::optional<std::string> overwrites_input(const OutFiles& files, const std::string& file) {
    const std::string head = "routesim fuzz: --out: ";
    if (is_same_file(files.out, file)) {
        return head + "expected a directory, got " + files.out + ", which is the scenario file " +
               file;
    }
    const fs::path results = fs::path(files.out) / files.results_name;
    if (is_same_file(results.string(), file)) {
        return head + "the results file " + results.string() +
               " would overwrite the scenario file " + file;
    }
    std::error_code error;
    if (!fs::is_directory(files.out, error)) {
        return std::nullopt; // created on first write: nothing in it yet
    }
    std::vector<std::string> clashes;
    for (const fs::directory_entry& entry : fs::directory_iterator(files.out, error)) {
        const std::string name = entry.path().filename().string();
        if (is_reproducer_name(name, files.scenario) && is_same_file(entry.path().string(), file)) {
            clashes.push_back(entry.path().string());
        }
    }
    if (clashes.empty()) {
        return std::nullopt;
    }
    std::sort(clashes.begin(), clashes.end()); // directory order is unspecified
    return head + "reproducers are written as " + files.scenario + "-<seed>.repro.json in " +
           files.out + ", and " + clashes.front() + " is the scenario file " + file +
           "; choose another --out";
}

} // namespace routesim::tools::detail
