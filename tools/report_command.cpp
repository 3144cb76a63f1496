// routesim report, and the report of routesim run --report.
// Part of tools/: may use every layer's public headers.
#include "tools/report_command.hpp"

#include <iostream>

#include "reports/report.hpp"
#include "scenarios/format/loader.hpp"
#include "sim/trace.hpp"
#include "tools/run_flags.hpp"
#include "tools/run_setup.hpp"

namespace routesim::tools {
namespace {

// Writes the report of a finished run; returns the exit code of that step.
int write(const std::string& dir, const scenarios::Scenario& scenario,
          const reports::CollectedRun& run, const RunArgs& args, std::ostream& out) {
    const reports::ReportOptions options{.source = args.file,
                                         .replay = replay_command(args, run.result.seed)};
    auto files = reports::write_report(dir, scenario, run, options);
    if (!files) {
        std::cerr << "routesim report: " << files.error() << "\n";
        return exit_failed;
    }
    out << "report: " << (std::filesystem::path(dir) / "index.html").string() << "\n";
    if (!files.value().has_picture) {
        out << "report: no topology.svg: " << files.value().note << "\n";
    }
    return exit_ok;
}

// The files a report writes into `dir` (reports::write_report and prepare_report_dir's
// probe), and the directory itself, as outputs of `flag`.
std::vector<OutputFile> report_outputs(const std::string& flag, const std::string& dir) {
    std::vector<OutputFile> outputs{{flag, dir}};
    for (const char* name : {"index.html", "topology.dot", "topology.svg", "topology.mmd",
                             "trace.json", ".routesim-report-probe"}) {
        outputs.push_back({flag, (std::filesystem::path(dir) / name).string()});
    }
    return outputs;
}

} // namespace

int report_command(const ReportArgs& args) {
    RunSetup setup("report");
    if (const int code = setup.open(args.run, report_outputs("--out", args.out_dir));
        code != exit_ok) {
        return code;
    }
    if (auto ready = reports::prepare_report_dir(args.out_dir); !ready) {
        std::cerr << "routesim report: " << ready.error() << "\n";
        return exit_bad_input;
    }
    const scenarios::Scenario& scenario = setup.scenario();
    scenarios::RunSettings settings = setup.settings();
    settings.explain_checks = true; // the verdicts table shows a failed check's deciding events
    const reports::CollectedRun run = reports::run_collected(scenario, settings);
    if (const int code = setup.close(); code != exit_ok) {
        return code;
    }
    std::cout << "seed: " << run.result.seed << "\n";
    std::cout << "trace-hash: " << sim::format_hash(run.result.trace_hash) << "\n";
    std::cout << "verdict: " << (run.result.passed() ? "PASS" : "FAIL") << "\n";
    return write(args.out_dir, scenario, run, args.run, std::cout);
}

int run_with_report(const RunArgs& args, const std::string& report_dir) {
    reports::TraceCollector collector;
    RunHooks hooks;
    hooks.outputs = report_outputs("--report", report_dir);
    hooks.before_run = [&] {
        if (auto ready = reports::prepare_report_dir(report_dir); !ready) {
            std::cerr << "routesim run: --report: " << ready.error() << "\n";
            return exit_bad_input;
        }
        return exit_ok;
    };
    hooks.sinks.push_back(&collector);
    hooks.after_run = [&](const scenarios::Scenario& scenario, const scenarios::RunResult& result) {
        const reports::CollectedRun run{result, collector.facts()};
        return write(report_dir, scenario, run, args, std::cerr);
    };
    return run_command(args, hooks);
}

} // namespace routesim::tools
