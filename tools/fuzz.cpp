// `routesim fuzz`: flags, the campaign, shrinking each distinct failure to a reproducer file,
// the coverage report, the results file, `--replay` of one run, and `--merge`.
// Part of tools/: may use every layer's public headers.
#include "tools/fuzz.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "scenarios/format/loader.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"
#include "tools/campaign_detail.hpp"
#include "tools/commands.hpp"
#include "tools/fuzz/race_observer.hpp"
#include "tools/fuzz_detail.hpp"
#include "tools/shard_environment.hpp"
#include "tools/shrink.hpp"

namespace routesim::tools {
namespace {

using nlohmann::json;

struct Input {
    std::string file;
    json document;
    scenarios::Scenario scenario;
};

/// Reads and loads the scenario; prints the loader's error line on failure.
std::optional<Input> read_input(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        std::cerr << file << ": cannot read the file\n";
        return std::nullopt;
    }
    auto loaded = scenarios::load_scenario_text(text.str(), file);
    if (!loaded) {
        std::cerr << loaded.error().to_string() << "\n";
        return std::nullopt;
    }
    for (const scenarios::LoadError& warning : scenarios::scenario_warnings(loaded.value(), file)) {
        std::cerr << warning.to_string() << "\n"; // as run and validate print them
    }
    return Input{file, json::parse(text.str(), nullptr, false), std::move(loaded).value()};
}

/// --shard K/N, or --shard auto (the job runner's environment, tools/shard_environment.hpp) into
/// `options`; `note` gets the line that says which runner and shard auto chose. Prints what
/// is wrong and returns false on a bad value.
bool shard_of(const std::string& shard, CampaignOptions& options, std::string& note) {
    if (shard.empty()) {
        return true;
    }
    if (shard == "auto") {
        auto found = shard_from_environment(process_shard_environment());
        if (!found) {
            std::cerr << "routesim fuzz: --shard auto: " << found.error() << "\n";
            return false;
        }
        options.shard_index = found.value().index;
        options.shard_count = found.value().count;
        note = describe_shard(found.value());
        return true;
    }
    unsigned long long index = 0;
    unsigned long long count = 0;
    char extra = 0;
    // N is bounded so that a worker's stride (N * jobs) and indices stay far below 2^62.
    if (std::sscanf(shard.c_str(), "%llu/%llu%c", &index, &count, &extra) != 2 || count == 0 ||
        index >= count || count > (1ULL << 32)) {
        std::cerr << "routesim fuzz: --shard: expected K/N with 0 <= K < N <= 2^32, or auto, got \""
                  << shard << "\"\n";
        return false;
    }
    options.shard_index = index;
    options.shard_count = count;
    return true;
}

/// Flags -> campaign options; prints what is wrong and returns nothing on bad flags. `note`:
/// as shard_of's.
std::optional<CampaignOptions> options_of(const FuzzArgs& args, std::string& note) {
    CampaignOptions options;
    options.seed = args.seed;
    options.scheduler = args.scheduler == "pct" ? sim::Policy::Pct : sim::Policy::Random;
    if (!args.semantics.empty()) {
        options.semantics = scenarios::parse_spelling<scenarios::Semantics>(args.semantics);
    }
    options.runs = args.runs.value_or(args.time.empty() ? 1000 : 0);
    if (!args.time.empty()) {
        auto budget = sim::parse_duration(args.time);
        if (!budget) {
            std::cerr << "routesim fuzz: --time: " << budget.error() << "\n";
            return std::nullopt;
        }
        options.seconds = static_cast<double>(budget.value().count_ns()) / 1e9;
    }
    if (!shard_of(args.shard, options, note)) {
        return std::nullopt;
    }
    options.jobs = args.jobs;
    options.max_failures = args.max_failures;
    options.progress = ::isatty(STDERR_FILENO) != 0;
    return options;
}

/// Writes `text` to `path`; false (with a message) when it cannot, or when `path` is the
/// scenario file `input` (a link made after the check before fuzzing).
bool write_file(const std::filesystem::path& path, const std::string& text,
                const std::string& input = "") {
    if (!input.empty() && detail::is_same_file(path.string(), input)) {
        std::cerr << "routesim fuzz: --out: " << path.string()
                  << " would overwrite the scenario file " << input << "; not written\n";
        return false;
    }
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
        std::cerr << "routesim fuzz: cannot write " << path.string() << "\n";
        return false;
    }
    return true;
}

std::string sizes_text(const ShrinkSizes& before, const ShrinkSizes& after) {
    auto pair = [](std::uint64_t a, std::uint64_t b) {
        return std::to_string(a) + " -> " + std::to_string(b);
    };
    return "timeline " + pair(before.timeline, after.timeline) + ", workload " +
           pair(before.workload_entries, after.workload_entries) + " entries (" +
           pair(before.messages, after.messages) + " messages), routes " +
           pair(before.routes, after.routes) + ", schedule " +
           pair(before.schedule, after.schedule) + " choices";
}

/// What the results file records of a shrunk failure.
struct Shrunk {
    std::string reproducer;
    std::string replay;
    std::uint64_t trace_hash = 0;
};

scenarios::Semantics semantics_of(const Input& input, const CampaignOptions& options) {
    return options.semantics.value_or(input.scenario.run.semantics);
}

/// The complete command that runs a failing campaign run again, and that run's trace hash.
void print_rerun(const Input& input, const CampaignOptions& options, const FailureRecord& record) {
    std::cout << "  rerun: "
              << detail::rerun_command(input.file, record.seed, options.scheduler,
                                       semantics_of(input, options))
              << "\n  rerun-trace-hash: " << sim::format_hash(record.trace_hash) << "\n";
}

/// Shrinks one failure and prints what it found. Nothing when the reproducer could not be
/// made or written.
std::optional<Shrunk> shrink_and_report(const Input& input, const CampaignOptions& options,
                                        const FailureRecord& first,
                                        const std::filesystem::path& out) {
    const scenarios::RunResult failing = scenarios::run_scenario(
        input.scenario, fuzz_settings(first.seed, options.scheduler, options.semantics));
    if (failing.trace_hash != first.trace_hash) {
        std::cout << "  the rerun's trace hash " << sim::format_hash(failing.trace_hash)
                  << " differs from the campaign's (a determinism bug; seed " << first.seed
                  << ")\n";
    }
    const detail::Stopwatch clock;
    ShrinkInput shrink{&input.document,   first.seed, options.scheduler,
                       options.semantics, &failing,   first.key};
    auto reproducer = shrink_failure(shrink);
    if (!reproducer) {
        std::cout << "  shrink failed: " << reproducer.error() << "\n";
        return std::nullopt;
    }
    const Reproducer& repro = reproducer.value();
    const std::filesystem::path path =
        out / (input.scenario.name + "-" + std::to_string(first.seed) + ".repro.json");
    if (!write_file(path, reproducer_text(repro.document), input.file)) {
        return std::nullopt;
    }
    std::cout << "  reproducer: " << path.string()
              << (repro.pinned ? " (faults pinned as timeline actions)"
                               : " (random faults replayed from the seed with faults.aim)")
              << "\n";
    std::cout << "  what: " << explain_failure(repro.result, first.key) << "\n";
    std::cout << "  witnesses:\n";
    for (const std::string& line : repro.witnesses) {
        std::cout << "    " << line << "\n";
    }
    std::cout << "  shrunk: " << sizes_text(repro.before, repro.after) << "; " << repro.candidates
              << " candidate runs in " << clock.seconds() << " s\n";
    const std::string replay =
        detail::replay_command(path.string(), repro.document, repro.result.semantics);
    std::cout << "  replay: " << replay << "\n";
    std::cout << "  trace-hash: " << sim::format_hash(repro.result.trace_hash) << "\n";
    return Shrunk{path.string(), replay, repro.result.trace_hash};
}

void print_coverage(const CampaignResult& result) {
    std::cout << coverage_text(result.coverage) << probes_text(result.probes, result.runs);
}

std::string results_name(const std::string& scenario, const CampaignOptions& options) {
    if (options.shard_count == 1) {
        return scenario + ".results.json";
    }
    return scenario + ".shard-" + std::to_string(options.shard_index) + "-of-" +
           std::to_string(options.shard_count) + ".results.json";
}

int merge_command(const FuzzArgs& args) {
    std::vector<json> documents;
    for (const std::string& file : args.merge) {
        std::ifstream in(file, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        json document = json::parse(text.str(), nullptr, false);
        if (!in || document.is_discarded()) {
            std::cerr << file << ": not a JSON results file\n";
            return exit_bad_input;
        }
        documents.push_back(std::move(document));
    }
    std::vector<std::string> left_out;
    auto merged = merge_results(documents, args.merge, &left_out);
    if (!merged) {
        std::cerr << "routesim fuzz --merge: " << merged.error() << "\n";
        return exit_bad_input;
    }
    const CampaignResult result = campaign_from_json(merged.value());
    std::cout << "merged: " << documents.size() << " files, scenario " << result.scenario << ", "
              << result.runs << " runs, " << result.failures.size() << " failing runs\n";
    for (const std::string& name : left_out) {
        std::cout << "  left out " << name << ": another file holds all its runs (and agrees)\n";
    }
    for (const json& item : merged.value()["failures"]) {
        std::cout << "  seed " << item.value("seed", std::uint64_t{0}) << " (scheduler "
                  << item.value("scheduler", "") << ", semantics " << item.value("semantics", "")
                  << "): " << item.value("kind", "") << " " << item.value("name", "") << "\n";
        if (item.contains("rerun") && item["rerun"].is_string()) {
            std::cout << "    rerun: " << item["rerun"].get<std::string>() << "\n";
        }
    }
    print_coverage(result);
    const std::filesystem::path path =
        std::filesystem::path(args.out) / (result.scenario + ".results.json");
    if (!write_file(path, merged.value().dump(2) + "\n")) {
        return exit_failed;
    }
    std::cout << "results: " << path.string() << "\n";
    return result.failures.empty() ? exit_ok : exit_failed;
}

} // namespace

namespace {

constexpr std::string_view window_prefix = "window:";
constexpr std::string_view pair_separator = " x ";

/// One coverage line: the name padded to 40 columns, then its runs and times.
void coverage_row(std::ostream& out, std::string_view indent, std::string_view name,
                  const CoverageCount& count) {
    out << indent << name;
    for (std::size_t pad = name.size(); pad < 40; pad++) {
        out << ' ';
    }
    out << ' ' << std::setw(9) << count.runs << (count.runs == 1 ? " run " : " runs") << ' '
        << std::setw(10) << count.events << (count.events == 1 ? " time" : " times") << "\n";
}

/// Windows in their fixed order, then windows this build does not know (a merged results file
/// from another version), then the ones never reached.
void coverage_windows_text(std::ostream& out,
                           const std::map<std::string, CoverageCount>& coverage) {
    const std::vector<std::string> windows = fuzz::coverage_windows();
    std::vector<std::string> missed;
    out << "  windows:\n";
    for (const std::string& window : windows) {
        auto found = coverage.find(std::string(window_prefix) + window);
        if (found == coverage.end()) {
            missed.push_back(window);
        } else {
            coverage_row(out, "    ", window, found->second);
        }
    }
    for (const auto& [key, count] : coverage) {
        const std::string_view name = std::string_view(key).substr(window_prefix.size());
        if (key.starts_with(window_prefix) &&
            std::find(windows.begin(), windows.end(), name) == windows.end()) {
            coverage_row(out, "    ", name, count);
        }
    }
    if (!missed.empty()) {
        out << "    not reached:";
        for (std::size_t i = 0; i < missed.size(); i++) {
            out << (i == 0 ? " " : ", ") << missed[i];
        }
        out << "\n";
    }
}

/// Pairs grouped by route state, states in their fixed order (unknown ones last, sorted).
void coverage_pairs_text(std::ostream& out, const std::map<std::string, CoverageCount>& coverage,
                         std::size_t pairs_reached) {
    std::vector<std::string> states = fuzz::coverage_states();
    for (const auto& [key, count] : coverage) {
        const std::size_t at = key.find(pair_separator);
        if (!key.starts_with(window_prefix) && at != std::string::npos &&
            std::find(states.begin(), states.end(), key.substr(0, at)) == states.end()) {
            states.push_back(key.substr(0, at));
        }
    }
    out << "  (route state, event) pairs:\n";
    if (pairs_reached == 0) {
        out << "    none reached\n";
    }
    for (const std::string& state : states) {
        const std::string prefix = state + std::string(pair_separator);
        bool header = false;
        for (auto it = coverage.lower_bound(prefix);
             it != coverage.end() && it->first.starts_with(prefix); ++it) {
            if (!header) {
                out << "    " << state << ":\n";
                header = true;
            }
            coverage_row(out, "      ", std::string_view(it->first).substr(prefix.size()),
                         it->second);
        }
    }
}

} // namespace

std::string probes_text(const std::vector<ProbeCount>& probes, std::uint64_t runs) {
    if (probes.empty()) {
        return "";
    }
    std::vector<std::string_view> missed;
    for (const ProbeCount& probe : probes) {
        if (probe.runs == 0) {
            missed.push_back(probe.name);
        }
    }
    std::ostringstream out;
    out << "probes: " << probes.size() - missed.size() << " of " << probes.size()
        << " reached by some run\n";
    for (const ProbeCount& probe : probes) {
        out << "  " << probe.name << ": " << probe.runs << " of " << runs << " runs\n";
    }
    if (!missed.empty()) {
        out << "  reached by no run:";
        for (std::size_t i = 0; i < missed.size(); i++) {
            out << (i == 0 ? " " : ", ") << missed[i];
        }
        out << "\n";
    }
    return out.str();
}

std::string coverage_text(const std::map<std::string, CoverageCount>& coverage) {
    std::size_t windows_reached = 0;
    std::size_t pairs_reached = 0;
    for (const auto& [key, count] : coverage) {
        (key.starts_with(window_prefix) ? windows_reached : pairs_reached)++;
    }
    std::ostringstream out;
    out << "coverage: " << windows_reached << " of " << fuzz::coverage_windows().size()
        << " pending/restart windows and " << pairs_reached
        << " (route state, event) pairs reached (runs that reached each, times in all)\n";
    coverage_windows_text(out, coverage);
    coverage_pairs_text(out, coverage, pairs_reached);
    return out.str();
}

namespace {

/// The first line of a campaign on a scenario without random faults: what it explores.
void print_fault_notice(const Input& input) {
    const scenarios::Faults& faults = input.scenario.faults;
    const bool chances = (faults.crash && faults.crash->probability_ppb > 0) ||
                         (faults.spawn_fail && faults.spawn_fail->probability_ppb > 0);
    if (faults.kill || faults.admin || chances) {
        return;
    }
    std::cout << (input.document.contains("faults")
                      ? "fuzz: no kill, crash, spawn_fail or admin faults: exploring schedules "
                        "only (seeds, scheduler choices)\n"
                      : "fuzz: no faults section: exploring schedules only (seeds, scheduler "
                        "choices)\n");
}

/// `--replay SEED`: the one campaign run with run seed SEED, and its shrunk reproducer.
int replay_run(const FuzzArgs& args, const Input& input, const CampaignOptions& options) {
    const std::uint64_t seed = *args.replay;
    std::cout << "fuzz: " << input.scenario.name << ", run seed " << seed
              << " as a campaign runs it, scheduler " << sim::policy_name(options.scheduler)
              << ", semantics " << scenarios::spelling(semantics_of(input, options)) << "\n";
    const scenarios::RunResult result = scenarios::run_scenario(
        input.scenario, fuzz_settings(seed, options.scheduler, options.semantics));
    std::cout << "seed: " << seed << "\n";
    std::cout << "trace-hash: " << sim::format_hash(result.trace_hash) << "\n";
    if (!run_failed(result)) {
        std::cout << "verdict: pass\n";
        return exit_ok;
    }
    const FailureRecord record = detail::record_failure(0, seed, result);
    std::cout << "verdict: fail\n";
    std::cout << "failure: " << record.key.describe() << " (seed " << seed << ")\n";
    std::cout << "  what: " << record.explanation << "\n";
    if (args.shrink_max > 0) {
        (void)shrink_and_report(input, options, record, args.out);
    }
    return exit_failed;
}

/// Shrinks the first run of each distinct failure (lowest index: deterministic), up to
/// --shrink-max of them, and prints every distinct failure. Returns the shrunk ones by seed.
std::map<std::uint64_t, Shrunk> report_failures(const FuzzArgs& args, const Input& input,
                                                const CampaignOptions& options,
                                                const CampaignResult& result) {
    std::map<FailureKey, std::pair<const FailureRecord*, std::uint64_t>> distinct;
    std::vector<FailureKey> order;
    for (const FailureRecord& record : result.failures) {
        auto [at, fresh] = distinct.try_emplace(record.key, &record, 0);
        at->second.second++;
        if (fresh) {
            order.push_back(record.key);
        }
    }
    const detail::Stopwatch shrink_clock; // wall clock for the report only
    std::map<std::uint64_t, Shrunk> shrunk;
    for (std::size_t i = 0; i < order.size(); i++) {
        const auto& [first, count] = distinct[order[i]];
        std::cout << "failure: " << order[i].describe() << " (" << count << " run"
                  << (count == 1 ? "" : "s") << "; first: run " << first->index << ", seed "
                  << first->seed << (i < args.shrink_max ? ")\n" : "; not shrunk)\n");
        print_rerun(input, options, *first);
        if (i < args.shrink_max) {
            if (auto done = shrink_and_report(input, options, *first, args.out)) {
                shrunk.emplace(first->seed, std::move(*done));
            }
        }
    }
    const std::size_t tried = std::min<std::size_t>(order.size(), args.shrink_max);
    if (tried > 0) {
        std::cout << "shrinking: " << tried << " failure" << (tried == 1 ? "" : "s") << " in "
                  << shrink_clock.seconds() << " s\n";
    }
    return shrunk;
}

/// The results document with each failure's rerun command (and its reproducer's replay).
json annotated_results(const Input& input, const CampaignResult& result,
                       const CampaignOptions& options,
                       const std::map<std::uint64_t, Shrunk>& shrunk) {
    json document = results_json(result, options);
    for (json& item : document["failures"]) {
        const std::uint64_t seed = item["seed"].get<std::uint64_t>();
        item["rerun"] = detail::rerun_command(input.file, seed, options.scheduler,
                                              semantics_of(input, options));
        const auto found = shrunk.find(seed);
        if (found != shrunk.end()) {
            item["reproducer"] = found->second.reproducer;
            item["replay"] = found->second.replay;
            item["replay_trace_hash"] = sim::format_hash(found->second.trace_hash);
        }
    }
    return document;
}

int campaign(const FuzzArgs& args, const Input& input, const CampaignOptions& options,
             const std::string& shard_note) {
    std::cout << "fuzz: " << input.scenario.name << ", seed " << options.seed << ", scheduler "
              << sim::policy_name(options.scheduler) << ", shard " << options.shard_index << "/"
              << options.shard_count << ", jobs " << options.jobs << "\n";
    if (!shard_note.empty()) {
        std::cout << "shard: " << shard_note << "\n";
    }
    const CampaignResult result = run_campaign(input.scenario, options);
    const double rate =
        result.elapsed_s > 0 ? static_cast<double>(result.runs) / result.elapsed_s : 0;
    std::cout << "runs: " << result.runs << " in " << result.elapsed_s << " s ("
              << static_cast<std::uint64_t>(rate)
              << " runs/s), failures: " << result.failures.size() << "\n";
    const std::map<std::uint64_t, Shrunk> shrunk = report_failures(args, input, options, result);
    print_coverage(result);
    const std::filesystem::path results =
        std::filesystem::path(args.out) / results_name(input.scenario.name, options);
    if (write_file(results, annotated_results(input, result, options, shrunk).dump(2) + "\n",
                   input.file)) {
        std::cout << "results: " << results.string() << "\n";
    }
    return result.failures.empty() && !result.worker_crashed ? exit_ok : exit_failed;
}

} // namespace

int fuzz_command(const FuzzArgs& args) {
    if (!args.merge.empty() && args.replay.has_value()) {
        std::cerr << "routesim fuzz: --replay: expected a scenario FILE, not --merge\n";
        return exit_bad_input;
    }
    if (!args.merge.empty()) {
        return merge_command(args);
    }
    std::string shard_note;
    const auto options = options_of(args, shard_note);
    if (!options.has_value()) {
        return exit_bad_input;
    }
    const auto input = read_input(args.file);
    if (!input.has_value()) {
        return exit_bad_input;
    }
    // Refused before any run: fuzz output must never replace the file it reads.
    const detail::OutFiles files{args.out, input->scenario.name,
                                 results_name(input->scenario.name, *options)};
    if (auto clash = detail::overwrites_input(files, args.file)) {
        std::cerr << *clash << "\n";
        return exit_bad_input;
    }
    print_fault_notice(*input);
    return args.replay.has_value() ? replay_run(args, *input, *options)
                                   : campaign(args, *input, *options, shard_note);
}

} // namespace routesim::tools
