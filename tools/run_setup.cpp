// Setting up the run of `routesim run` and `routesim report` from the shared flags.
// Part of tools/: may use every layer's public headers.
#include "tools/run_setup.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "scenarios/format/loader.hpp"
#include "tools/fuzz/race_observer.hpp"

namespace routesim::tools {

namespace fs = std::filesystem;

bool same_file(const fs::path& left, const fs::path& right) {
    std::error_code error;
    if (fs::exists(left, error) && fs::exists(right, error)) {
        return fs::equivalent(left, right, error);
    }
    // At most one exists: the other would be created where the first already is only when
    // their resolved paths agree.
    const auto resolved = [](const fs::path& path) {
        std::error_code ignored;
        const fs::path absolute = fs::absolute(path, ignored).lexically_normal();
        const fs::path canonical = fs::weakly_canonical(absolute, ignored);
        return canonical.empty() ? absolute : canonical;
    };
    return resolved(left) == resolved(right);
}

sim::Result<void, std::string> check_outputs(const std::string& input,
                                             const std::vector<OutputFile>& outputs) {
    for (const OutputFile& output : outputs) {
        if (same_file(output.path, input)) {
            return sim::fail(output.flag + ": " + output.path + " would overwrite the input file " +
                             input);
        }
    }
    for (std::size_t later = 1; later < outputs.size(); later++) {
        for (std::size_t earlier = 0; earlier < later; earlier++) {
            if (same_file(outputs[later].path, outputs[earlier].path)) {
                return sim::fail(outputs[later].flag + ": " + outputs[later].path +
                                 " is also written by " + outputs[earlier].flag + " (" +
                                 outputs[earlier].path + ")");
            }
        }
    }
    return {};
}

CappedTraceSink::CappedTraceSink(std::ostream& out, std::uint64_t bytes_max)
    : out_(out), bytes_max_(bytes_max), format_(line_) {
}

void CappedTraceSink::on_event(const sim::TraceEvent& event) {
    if (stopped_) {
        return;
    }
    line_.str({});
    format_.on_event(event);
    const std::string_view line = line_.view();
    if (line.size() > bytes_max_ - bytes_) {
        stopped_ = true;
        stopped_seq_ = event.seq;
        stopped_at_ = event.at;
        return;
    }
    out_ << line;
    bytes_ += line.size();
    RS_ASSERT(bytes_ <= bytes_max_);
}

std::uint64_t CappedTraceSink::stopped_seq() const {
    RS_ASSERT(stopped_);
    return stopped_seq_;
}

sim::Instant CappedTraceSink::stopped_at() const {
    RS_ASSERT(stopped_);
    return stopped_at_;
}

sim::Result<std::string, std::string> pinned_scenario(std::string_view text,
                                                      const scenarios::Scenario& scenario,
                                                      const scenarios::RunSettings& settings) {
    nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
    if (document.is_discarded() || !document.is_object()) {
        return sim::fail(std::string("the scenario is not a JSON object"));
    }
    nlohmann::json& run = document["run"];
    run["seed"] = settings.seed.value_or(scenario.run.seed);
    run["scheduler"] = scenarios::spelling(settings.scheduler.value_or(scenario.run.scheduler));
    run["semantics"] = scenarios::spelling(settings.semantics.value_or(scenario.run.semantics));
    const std::optional<sim::Instant> until =
        settings.until_idle ? std::nullopt : (settings.until ? settings.until : scenario.run.until);
    run["until"] = until ? sim::format_instant(*until) : std::string("idle");
    return document.dump(2) + "\n";
}

int RunSetup::fail(const std::string& message) const {
    std::cerr << "routesim " << command_ << ": " << message << "\n";
    return exit_bad_input;
}

int RunSetup::open(const RunArgs& args, const std::vector<OutputFile>& outputs) {
    RS_ASSERT(args_ == nullptr);
    args_ = &args;
    auto loaded = scenarios::load_scenario_file(args.file);
    if (!loaded) {
        std::cerr << loaded.error().to_string() << "\n";
        return exit_bad_input;
    }
    scenario_.emplace(std::move(loaded).value());
    print_warnings(*scenario_, args.file);
    settings_.instrument = &fuzz::shared_observer(); // for a scenario's `faults.aim`
    settings_.seed = args.seed;
    if (!args.scheduler.empty()) {
        settings_.scheduler = scenarios::parse_spelling<sim::Policy>(args.scheduler);
    }
    if (!args.semantics.empty()) {
        settings_.semantics = scenarios::parse_spelling<scenarios::Semantics>(args.semantics);
    }
    if (args.until == "idle") {
        settings_.until_idle = true; // scenarios/FORMAT.md: `until` is a time or "idle"
    } else if (!args.until.empty()) {
        auto until = sim::parse_duration(args.until);
        if (!until) {
            return fail("--until: " + until.error());
        }
        settings_.until = sim::Instant::zero() + until.value();
    }
    std::vector<OutputFile> written;
    if (!args.trace_path.empty()) {
        written.push_back({"--trace", args.trace_path});
    }
    if (!args.save_repro.empty()) {
        written.push_back({"--save-repro", args.save_repro});
    }
    written.insert(written.end(), outputs.begin(), outputs.end());
    if (auto checked = check_outputs(args.file, written); !checked) {
        return fail(checked.error());
    }
    if (const int code = save_repro(); code != exit_ok) {
        return code;
    }
    if (!args.trace_path.empty()) {
        trace_file_.open(args.trace_path, std::ios::binary | std::ios::trunc);
        if (!trace_file_) {
            return fail("cannot open " + args.trace_path + " for writing");
        }
        trace_sink_ = std::make_unique<CappedTraceSink>(trace_file_, args.trace_bytes_max);
        settings_.extra_sinks.push_back(trace_sink_.get());
    }
    return exit_ok;
}

int RunSetup::save_repro() const {
    if (args_->save_repro.empty()) {
        return exit_ok;
    }
    std::ifstream in(args_->file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto pinned = pinned_scenario(text.str(), scenario(), settings_);
    if (!in || !pinned) {
        return fail("--save-repro: cannot read " + args_->file + " again");
    }
    std::ofstream out(args_->save_repro, std::ios::binary | std::ios::trunc);
    out << pinned.value();
    out.close();
    if (!out) {
        return fail("--save-repro: cannot write " + args_->save_repro);
    }
    return exit_ok;
}

const scenarios::Scenario& RunSetup::scenario() const {
    RS_ASSERT(scenario_.has_value());
    return *scenario_;
}

std::uint64_t RunSetup::seed() const {
    return settings_.seed.value_or(scenario().run.seed);
}

int RunSetup::close() {
    if (!trace_file_.is_open()) {
        return exit_ok;
    }
    trace_file_.close();
    if (!trace_file_) {
        std::cerr << "routesim " << command_ << ": writing " << args_->trace_path << " failed\n";
        return exit_failed;
    }
    if (trace_sink_->stopped()) {
        std::cerr << "routesim " << command_ << ": trace stopped at " << args_->trace_bytes_max
                  << " bytes (--trace-max) at event " << trace_sink_->stopped_seq()
                  << ", virtual time " << sim::format_instant(trace_sink_->stopped_at())
                  << "; the run went on\n";
    }
    return exit_ok;
}

} // namespace routesim::tools
