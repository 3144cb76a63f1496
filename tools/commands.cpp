// routesim run and validate.
// Part of tools/: may use every layer's public headers.
#include "tools/commands.hpp"

#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "scenarios/format/loader.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/trace.hpp"
#include "tools/run_setup.hpp"
#include "tools/trace_command.hpp"

namespace routesim::tools {
namespace {

nlohmann::json ledger_json(const properties::Ledger& ledger) {
    return {{"sent", ledger.sent},           {"handled", ledger.handled},
            {"discarded", ledger.discarded}, {"route_failed", ledger.route_failed},
            {"unhandled", ledger.unhandled}, {"dropped", ledger.dropped},
            {"queued", ledger.queued}};
}

// The supervisors, pools and calls still waiting (scenarios::RunResult), as `run` prints them.
void add_tree_json(nlohmann::json& out, const scenarios::RunResult& result) {
    for (const auto& sup : result.supervisors) {
        nlohmann::json item{{"path", sup.path},
                            {"pid", sup.pid},
                            {"type", scenarios::spelling(sup.type)},
                            {"alive", sup.alive},
                            {"restarts", sup.restarts},
                            {"window_restarts", sup.window_restarts},
                            {"intensity", sup.intensity},
                            {"period_ns", sup.period.count_ns()},
                            {"children", nlohmann::json::array()}};
        for (const auto& child : sup.children) {
            item["children"].push_back({{"name", child.name},
                                        {"state", child.state},
                                        {"pid", child.pid},
                                        {"restarts", child.restarts},
                                        {"last_exit", child.last_exit}});
        }
        if (sup.terminated_at.has_value()) {
            item["terminated"] = {{"at_ns", sup.terminated_at->ns()},
                                  {"reason", sup.terminated_reason},
                                  {"cause", sup.cause}};
        }
        out["supervisors"].push_back(item);
    }
    for (const auto& pool : result.pools) {
        out["pools"].push_back({{"path", pool.path},
                                {"pid", pool.pid},
                                {"alive", pool.alive},
                                {"size", pool.size},
                                {"live_workers", pool.live_workers},
                                {"forwarded", pool.forwarded},
                                {"unhandled", pool.unhandled},
                                {"worker_restarts", pool.worker_restarts}});
    }
    out["waiting_calls"] = nlohmann::json::array();
    for (const auto& call : result.waiting_calls) {
        out["waiting_calls"].push_back({{"caller", call.caller},
                                        {"target", call.target},
                                        {"since_ns", call.since.ns()},
                                        {"ref", call.ref}});
    }
}

// A witness of a violation or a failed check, as --json gives it.
nlohmann::json witness_json(const properties::Witness& witness) {
    return {{"seq", witness.seq}, {"at_ns", witness.at.ns()}, {"event", witness.text}};
}

// The checks of a run, each failed one with its deciding events (Check::witnesses).
nlohmann::json checks_json(const std::vector<scenarios::Check>& checks) {
    nlohmann::json out;
    for (const auto& check : checks) {
        nlohmann::json item{{"what", check.what},       {"expected", check.expected},
                            {"actual", check.actual},   {"ok", check.ok},
                            {"pointer", check.pointer}, {"at_ns", check.at.ns()}};
        if (!check.ok) {
            item["witnesses"] = nlohmann::json::array();
            for (const auto& witness : check.witnesses) {
                item["witnesses"].push_back(witness_json(witness));
            }
        }
        out.push_back(item);
    }
    return out;
}

nlohmann::json result_json(const scenarios::Scenario& scenario,
                           const scenarios::RunResult& result) {
    nlohmann::json out;
    out["scenario"] = scenario.name;
    out["seed"] = result.seed;
    out["trace_hash"] = sim::format_hash(result.trace_hash);
    out["verdict"] = result.passed() ? "pass" : "fail";
    out["stop"] = std::string(sim::stop_reason_name(result.outcome.reason));
    out["end_ns"] = result.outcome.end.ns();
    out["events"] = result.outcome.events;
    out["scheduler"] = std::string(sim::policy_name(result.scheduler));
    out["semantics"] = std::string(scenarios::spelling(result.semantics));
    out["root_failure"] = result.root_failure;
    out["decisions"] = result.decisions;
    if (!result.checks.empty()) {
        out["checks"] = checks_json(result.checks);
    }
    for (const scenarios::ProbeResult& probe : result.probes) {
        // Each probe is also a check ("sometimes.<name>"); this says where it was reached.
        nlohmann::json item{
            {"name", probe.name}, {"pointer", probe.pointer}, {"reached", probe.reached}};
        if (probe.reached) {
            item["seq"] = probe.seq;
            item["at_ns"] = probe.at.ns();
        }
        out["probes"].push_back(item);
    }
    for (const auto& invariant : result.invariants) {
        out["invariants"][invariant.name] = invariant.verdict;
    }
    for (const auto& violation : result.violations) {
        nlohmann::json item{{"invariant", violation.invariant},
                            {"at_ns", violation.at.ns()},
                            {"explanation", violation.explanation}};
        for (const auto& witness : violation.witnesses) {
            item["witnesses"].push_back(witness_json(witness));
        }
        out["violations"].push_back(item);
    }
    out["ledger"] = ledger_json(result.ledger);
    out["ledger"]["user"] = ledger_json(result.user_ledger);
    out["ledger"]["runtime_sent"] = {{"exit_signals", result.exit_signals_sent},
                                     {"admin", result.admin_sent},
                                     {"internal", result.internal_sent}};
    add_tree_json(out, result);
    for (const auto& router : result.routers) {
        nlohmann::json item{{"path", router.path},
                            {"pid", router.pid},
                            {"alive", router.alive},
                            {"forwarded", router.counters.forwarded},
                            {"discarded", router.counters.discarded},
                            {"failed", router.counters.failed},
                            {"restarts", router.counters.restarts},
                            {"route_failed", router.route_failed}};
        for (const auto& row : router.routes) {
            item["routes"].push_back({{"name", row.name},
                                      {"state", row.state},
                                      {"pid", row.pid},
                                      {"restarts", row.restarts},
                                      {"exited", row.exited}});
        }
        if (router.died_at.has_value()) {
            // A router that died: `routes` and the counters are its last table.
            item["died"] = {{"at_ns", router.died_at->ns()}, {"reason", router.died_reason}};
        }
        out["routers"].push_back(item);
    }
    for (const auto& [name, record] : result.clients) {
        out["clients"][name] = {
            {"received", record.received}, {"types", record.types}, {"errors", record.errors}};
    }
    return out;
}

// The events around each failure of `result` (run_command's --explain): the run is made again
// with the same settings and an ExplainSink as its only sink; "" when the run passed.
std::string explanation(const scenarios::Scenario& scenario, const scenarios::RunResult& result,
                        const scenarios::RunSettings& settings) {
    if (result.passed()) {
        return {};
    }
    ExplainSink explain(result);
    scenarios::RunSettings again = settings;
    again.extra_sinks = {&explain}; // not the --trace file nor the caller's sinks again
    again.check_determinism = false;
    const scenarios::RunResult second = scenarios::run_scenario(scenario, again);
    if (second.trace_hash != result.trace_hash) {
        std::cerr << "routesim run: --explain: the second run gave trace hash "
                  << sim::format_hash(second.trace_hash) << ", not "
                  << sim::format_hash(result.trace_hash) << "\n";
    }
    return explain.text();
}

} // namespace

int run_command(const RunArgs& args, const RunHooks& hooks) {
    RunSetup setup("run");
    if (const int code = setup.open(args, hooks.outputs); code != exit_ok) {
        return code;
    }
    if (hooks.before_run) {
        if (const int code = hooks.before_run(); code != exit_ok) {
            return code;
        }
    }
    const scenarios::Scenario& scenario = setup.scenario();
    scenarios::RunSettings settings = setup.settings();
    settings.explain_checks = true; // a failed expectation prints the events that decide it
    settings.extra_sinks.insert(settings.extra_sinks.end(), hooks.sinks.begin(), hooks.sinks.end());
    const scenarios::RunResult result = scenarios::run_scenario(scenario, settings);
    if (const int code = setup.close(); code != exit_ok) {
        return code;
    }
    const std::string explained = args.explain ? explanation(scenario, result, settings) : "";
    if (args.json) {
        nlohmann::json out = result_json(scenario, result);
        if (args.explain) {
            out["explain"] = nlohmann::json::array();
            std::size_t start = 0;
            while (start < explained.size()) {
                const std::size_t end = explained.find('\n', start);
                out["explain"].push_back(explained.substr(start, end - start));
                start = end + 1;
            }
        }
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "seed: " << setup.seed() << "\n";
        std::cout << "trace-hash: " << sim::format_hash(result.trace_hash) << "\n";
        std::cout << scenarios::format_summary(scenario, result) << explained;
    }
    const int code = result.passed() ? exit_ok : exit_failed;
    return hooks.after_run ? std::max(code, hooks.after_run(scenario, result)) : code;
}

void print_warnings(const scenarios::Scenario& scenario, const std::string& file) {
    for (const scenarios::LoadError& warning : scenarios::scenario_warnings(scenario, file)) {
        std::cerr << warning.to_string() << "\n";
    }
}

int validate_command(const std::vector<std::string>& files) {
    // Every error of each file, one per line (the first is the one `run` prints); the warnings
    // of a file that loaded go to stderr.
    int code = exit_ok;
    for (const std::string& file : files) {
        const scenarios::LoadReport report = scenarios::check_scenario_file(file);
        for (const std::string& line : report.error_lines()) {
            std::cout << line << "\n";
        }
        for (const scenarios::LoadError& warning : report.warnings) {
            std::cerr << warning.to_string() << "\n"; // never changes the exit code
        }
        if (!report.scenario.has_value()) {
            code = exit_bad_input;
        }
    }
    return code;
}

} // namespace routesim::tools
