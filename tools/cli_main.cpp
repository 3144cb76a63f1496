// The routesim command line as a library function (tools/cli.hpp): the routesim binary's
// main calls it, and so can a program's own CLI after registering its behaviours and rules.
// Exceptions from CLI11 and from the commands are caught here and never escape.
// Part of tools/: may use every layer's public headers.
#include "tools/cli.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scheduler.hpp"
#include "sim/trace.hpp"
#include "sim/trace_scheme.hpp"
#include "tools/commands.hpp"
#include "tools/demo.hpp"
#include "tools/fuzz.hpp"
#include "tools/report_command.hpp"
#include "tools/run_flags.hpp"
#include "tools/trace_command.hpp"

namespace {

using namespace routesim;

using tools::exit_bad_input;
using tools::exit_failed;
using tools::exit_ok;

struct DemoArgs {
    std::uint64_t seed = 1;
    std::string scheduler = "fifo";
    std::uint32_t pct_depth = 3;
    std::uint32_t tasks = 8;
    std::uint32_t tokens = 64;
    std::uint32_t hops = 32;
    std::string trace_path;
};

int run_demo_command(const DemoArgs& args) {
    auto policy = sim::parse_policy(args.scheduler);
    if (!policy) {
        std::cerr << "routesim demo: --scheduler: " << policy.error() << "\n";
        return exit_bad_input;
    }
    tools::DemoOptions options;
    options.seed = args.seed;
    options.scheduler.policy = *policy;
    options.scheduler.pct_depth = args.pct_depth;
    options.task_count = args.tasks;
    options.token_count = args.tokens;
    options.hops_per_token = args.hops;
    std::ofstream trace_file;
    if (!args.trace_path.empty()) {
        trace_file.open(args.trace_path);
        if (!trace_file) {
            std::cerr << "routesim demo: cannot open " << args.trace_path << " for writing\n";
            return exit_bad_input;
        }
        options.trace_out = &trace_file;
    }
    std::cout << "seed: " << args.seed << "\n";
    const tools::DemoResult result = tools::run_demo(options);
    std::cout << "trace-hash: " << sim::format_hash(result.trace_hash) << "\n";
    std::cout << "scheduler: " << args.scheduler << "\n";
    std::cout << "stop: " << sim::stop_reason_name(result.outcome.reason) << " at "
              << sim::format_instant(result.outcome.end) << "\n";
    std::cout << "events: " << result.outcome.events << " (trace " << result.trace_events << ")\n";
    std::cout << "hops: " << result.hops << "\n";
    std::cout << "decisions: " << result.decisions.size() << "\n";
    if (trace_file.is_open()) {
        trace_file.close();
        if (!trace_file) {
            std::cerr << "routesim demo: writing " << args.trace_path << " failed\n";
            return exit_failed;
        }
    }
    return result.outcome.failed() ? exit_failed : exit_ok;
}

// The end of every subcommand's --help: what its exit codes mean and where the scenario
// format is written down.
std::string help_footer(std::string_view exit_codes) {
    return "Exit codes: " + std::string(exit_codes) +
           "; 2 invalid input (a bad flag or scenario file: one line on stderr).\n"
           "Scenario format: README.md (\"The CLI\") and the JSON Schema "
           "scenarios/schema/scenario.schema.json.";
}

constexpr std::string_view exit_codes_run =
    "0 pass (every expectation and invariant held); 1 an expectation, invariant or limit failed";

/// Every subcommand's flags as parsed, the subcommands, and the flag errors the seed flags
/// report after parsing (tools::add_seed_flag).
struct Cli {
    DemoArgs demo_args;
    tools::RunArgs run_args;
    std::string run_report_dir;
    tools::ReportArgs report_args;
    tools::FuzzArgs fuzz_args;
    std::vector<std::string> validate_files;
    tools::TraceArgs trace_args;
    std::vector<std::string> diff_files;
    CLI::App* demo = nullptr;
    CLI::App* run = nullptr;
    CLI::App* report = nullptr;
    CLI::App* fuzz = nullptr;
    CLI::App* validate = nullptr;
    CLI::App* trace = nullptr;
    CLI::App* diff = nullptr;
    std::string demo_flag_error;
    std::string run_flag_error;
    std::string report_flag_error;
    std::string fuzz_flag_error;
};

void add_demo(CLI::App& app, Cli& cli) {
    DemoArgs& args = cli.demo_args;
    cli.demo = app.add_subcommand("demo", "Run the kernel demo (token-passing tasks)");
    CLI::App& demo = *cli.demo;
    demo.footer(help_footer("0 the demo ran to its end; 1 it hit a limit"));
    tools::add_seed_flag(
        demo, "Root seed, 0 to 2^64-1", [&args](std::uint64_t seed) { args.seed = seed; },
        cli.demo_flag_error);
    demo.add_option("--scheduler", args.scheduler, "fifo, random or pct")
        ->check(CLI::IsMember({"fifo", "random", "pct"}));
    demo.add_option("--pct-depth", args.pct_depth, "PCT bug depth")->check(CLI::Range(1, 64));
    demo.add_option("--tasks", args.tasks, "Number of tasks")->check(CLI::Range(1, 100000));
    demo.add_option("--tokens", args.tokens, "Number of tokens")->check(CLI::Range(0, 1000000));
    demo.add_option("--hops", args.hops, "Hops per token")->check(CLI::Range(1, 100000));
    demo.add_option("--trace", args.trace_path, "Write the trace as JSON Lines");
}

void add_run_and_report(CLI::App& app, Cli& cli) {
    cli.run = app.add_subcommand("run", "Replay a scenario file and check its expectations");
    tools::add_run_flags(*cli.run, cli.run_args, cli.run_flag_error);
    cli.run->footer(help_footer(exit_codes_run));
    cli.run->add_flag("--json", cli.run_args.json, "Print the result as JSON");
    cli.run->add_flag("--explain", cli.run_args.explain,
                      "After the summary, print the events within 10ms of each failure (as "
                      "`routesim trace` writes them; the run is made a second time for it)");
    cli.run
        ->add_option("--report", cli.run_report_dir,
                     "Also write the report of this run (index.html, topology.*, trace.json) to "
                     "DIR")
        ->type_name("DIR");

    cli.report =
        app.add_subcommand("report", "Run a scenario and write its report (index.html, ...)");
    tools::add_run_flags(*cli.report, cli.report_args.run, cli.report_flag_error);
    cli.report->footer(help_footer("0 the report was written (whatever the run's verdict, which "
                                   "it prints); 1 writing a file failed"));
    cli.report->add_option("--out", cli.report_args.out_dir, "Directory for the report files")
        ->required()
        ->type_name("DIR");
}

void add_fuzz(CLI::App& app, Cli& cli) {
    tools::FuzzArgs& args = cli.fuzz_args;
    cli.fuzz = app.add_subcommand(
        "fuzz", "Fuzz a scenario (seeds, schedules, aimed faults); shrink failures to reproducers");
    CLI::App& fuzz = *cli.fuzz;
    fuzz.footer(help_footer("0 no run failed; 1 a run failed (its reproducer is written) or a "
                            "worker process died"));
    fuzz.add_option("file", args.file, "Scenario file");
    fuzz.add_option("--runs", args.runs, "Number of runs (default 1000, or unbounded with --time)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));
    fuzz.add_option("--time", args.time, "Wall-clock budget (\"30s\")");
    tools::add_seed_flag(
        fuzz, "Root seed; run i uses splitmix64(seed + i*gamma)",
        [&args](std::uint64_t seed) { args.seed = seed; }, cli.fuzz_flag_error);
    fuzz.add_option("--scheduler", args.scheduler, "random or pct")
        ->check(CLI::IsMember({"random", "pct"}));
    fuzz.add_option("--semantics", args.semantics, "documented or upstream")
        ->check(CLI::IsMember({"documented", "upstream"}));
    fuzz.add_option("--jobs", args.jobs, "Worker processes")->check(CLI::Range(1, 1024));
    fuzz.add_option("--shard", args.shard,
                    "Take every N-th run starting at K (\"K/N\"), or \"auto\": K and N from the "
                    "job runner's environment (ROUTESIM_SHARD, GNU parallel, a Slurm array, a "
                    "Kubernetes Indexed Job; README \"Job runners\")");
    fuzz.add_option("--out", args.out, "Directory for reproducers and results (fuzz-out)");
    fuzz.add_option("--max-failures", args.max_failures, "Stop after this many failing runs");
    fuzz.add_option("--shrink-max", args.shrink_max, "Distinct failures to shrink (4)");
    fuzz.add_option("--merge", args.merge, "Merge results files instead of fuzzing (each run once)")
        ->expected(1, -1);
    fuzz.add_option("--replay", args.replay,
                    "Run only the campaign run with this run seed (as a failure line names it) "
                    "and shrink it if it fails");
}

void add_validate(CLI::App& app, Cli& cli) {
    cli.validate = app.add_subcommand("validate", "Check scenario files (exit 0 or 2)");
    cli.validate->footer(help_footer("0 every file is a valid scenario"));
    cli.validate->add_option("files", cli.validate_files, "Scenario files")->required();
}

void add_trace_and_diff(CLI::App& app, Cli& cli) {
    tools::TraceArgs& args = cli.trace_args;
    cli.trace = app.add_subcommand("trace", "Print a --trace file (JSON Lines) as a readable "
                                            "timeline, one line per event");
    CLI::App& trace = *cli.trace;
    trace.footer(help_footer("0 the timeline was printed"));
    trace.add_option("file", args.file, "Trace file written by run --trace")
        ->required()
        ->type_name("FILE.jsonl");
    trace.add_option("--around", args.around, "Keep the events within --window of this time")
        ->type_name("T");
    trace.add_option("--window", args.window, "With --around: how far from it (default 10ms)")
        ->type_name("D");
    trace
        .add_option("--process", args.process,
                    "Keep the events that name this process or a descendant (a path: r/a)")
        ->type_name("PATH");
    trace.add_option("--kinds", args.kinds, "Keep the events of these kinds (send,take,...)")
        ->type_name("K,...");

    cli.diff = app.add_subcommand("diff", "Compare two runs: two run --json results, or two "
                                          "--trace files");
    cli.diff->footer(help_footer("0 identical; 1 they differ"));
    cli.diff->add_option("files", cli.diff_files, "A and B")
        ->required()
        ->expected(2)
        ->type_name("A B");
}

/// The flag error a seed flag left for `command` ("routesim <command>: <error>"), if any.
bool reject_flag_error(std::string_view command, const std::string& error) {
    if (error.empty()) {
        return false;
    }
    std::cerr << "routesim " << command << ": " << error << "\n";
    return true;
}

/// Runs the parsed subcommand and returns its exit code.
int dispatch(const Cli& cli) {
    if (cli.demo->parsed()) {
        return reject_flag_error("demo", cli.demo_flag_error) ? exit_bad_input
                                                              : run_demo_command(cli.demo_args);
    }
    if (cli.run->parsed()) {
        if (reject_flag_error("run", cli.run_flag_error)) {
            return exit_bad_input;
        }
        return cli.run_report_dir.empty()
                   ? tools::run_command(cli.run_args)
                   : tools::run_with_report(cli.run_args, cli.run_report_dir);
    }
    if (cli.report->parsed()) {
        return reject_flag_error("report", cli.report_flag_error)
                   ? exit_bad_input
                   : tools::report_command(cli.report_args);
    }
    if (cli.fuzz->parsed()) {
        if (reject_flag_error("fuzz", cli.fuzz_flag_error)) {
            return exit_bad_input;
        }
        if (cli.fuzz_args.file.empty() == cli.fuzz_args.merge.empty()) {
            std::cerr << "routesim fuzz: give a scenario FILE, or --merge RESULTS...\n";
            return exit_bad_input;
        }
        return tools::fuzz_command(cli.fuzz_args);
    }
    if (cli.validate->parsed()) {
        return tools::validate_command(cli.validate_files);
    }
    if (cli.trace->parsed()) {
        return tools::trace_command(cli.trace_args);
    }
    if (cli.diff->parsed()) {
        return tools::diff_command(cli.diff_files[0], cli.diff_files[1]);
    }
    return exit_bad_input;
}

} // namespace

int routesim::cli_main(int argc, char** argv) {
    CLI::App app{"routesim: deterministic simulator for Ergo-style actor routing topologies"};
    app.set_version_flag("--version", std::string("routesim ") + ROUTESIM_VERSION +
                                          " (trace-hash scheme " +
                                          std::to_string(sim::trace_hash_scheme) + ")");
    app.require_subcommand(1);
    app.footer(help_footer(exit_codes_run));
    Cli cli;
    add_demo(app, cli);
    add_run_and_report(app, cli);
    add_fuzz(app, cli);
    add_validate(app, cli);
    add_trace_and_diff(app, cli);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error);
        return code == 0 ? exit_ok : exit_bad_input;
    }
    try {
        return dispatch(cli);
    } catch (const std::exception& error) {
        std::cerr << "routesim: internal error: " << error.what() << "\n";
        return exit_failed;
    }
}
