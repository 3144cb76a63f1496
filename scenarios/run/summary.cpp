// The readable run summary printed by `routesim run` (and compared by the golden tests).
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include <algorithm>
#include <string>

#include "scenarios/run/runner.hpp"

namespace routesim::scenarios {
namespace {

// Pads to `width` columns: UTF-8 continuation bytes take none (a PID's "…" is one column).
std::string pad(std::string text, std::size_t width) {
    const auto columns = static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char byte) { return (byte & 0xC0) != 0x80; }));
    if (columns < width) {
        text.append(width - columns, ' ');
    }
    return text;
}

std::string counts(const std::map<std::string, std::uint64_t>& table) {
    if (table.empty()) {
        return "none";
    }
    std::string text;
    for (const auto& [name, count] : table) {
        text += (text.empty() ? "" : ", ") + name + " " + std::to_string(count);
    }
    return text;
}

void append_routers(std::string& out, const RunResult& result) {
    if (result.routers.empty()) {
        return;
    }
    out += "routers:\n";
    for (const RouterSummary& router : result.routers) {
        out += "  " + router.path + " " + (router.pid.empty() ? "(never started)" : router.pid);
        if (router.died_at.has_value()) {
            out += " (died at " + sim::format_instant(*router.died_at) + ": " + router.died_reason +
                   "; its last table)";
        } else if (!router.alive) {
            out += " (not running)";
        }
        if (router.alive || router.died_at.has_value()) {
            out += ": forwarded " + std::to_string(router.counters.forwarded) + ", discarded " +
                   std::to_string(router.counters.discarded) + ", failed " +
                   std::to_string(router.counters.failed) + ", restarts " +
                   std::to_string(router.counters.restarts);
        }
        out += "\n";
        std::size_t width = 4;
        for (const RouteRow& row : router.routes) {
            width = std::max(width, row.name.size());
        }
        for (const RouteRow& row : router.routes) {
            out += "    " + pad(row.name, width) + "  " + pad(row.state, 15) + "  " +
                   pad(row.pid.empty() ? "-" : row.pid + (row.exited ? " (exited)" : ""), 10) +
                   "  restarts " + std::to_string(row.restarts) + "\n";
        }
        if (!router.route_failed.empty()) {
            out += "    route failures: " + counts(router.route_failed) + "\n";
        }
    }
}

void append_supervisors(std::string& out, const RunResult& result) {
    if (result.supervisors.empty()) {
        return;
    }
    out += "supervisors:\n";
    for (const SupervisorSummary& sup : result.supervisors) {
        out += "  " + sup.path + " " + (sup.pid.empty() ? "(never started)" : sup.pid) + " " +
               std::string(spelling(sup.type));
        if (sup.terminated_at.has_value()) {
            out += " (terminated at " + sim::format_instant(*sup.terminated_at) + ": " +
                   (sup.cause.empty() ? sup.terminated_reason : sup.cause) + ")";
        } else if (!sup.alive && !sup.pid.empty()) {
            out += " (not running)";
        }
        out += ": restarts " + std::to_string(sup.restarts) + ", " +
               std::to_string(sup.window_restarts) + " in the current window (intensity " +
               std::to_string(sup.intensity) + " per " + sim::format_duration(sup.period) + ")\n";
        std::size_t width = 4;
        for (const ChildRow& child : sup.children) {
            width = std::max(width, child.name.size());
        }
        for (const ChildRow& child : sup.children) {
            out += "    " + pad(child.name, width) + "  " + pad(child.state, 11) + "  " +
                   pad(child.pid.empty() ? "-" : child.pid, 10) + "  restarts " +
                   std::to_string(child.restarts) +
                   (child.last_exit.empty() ? "" : ", last exit: " + child.last_exit) + "\n";
        }
    }
}

void append_pools(std::string& out, const RunResult& result) {
    if (result.pools.empty()) {
        return;
    }
    out += "pools:\n";
    for (const PoolSummary& pool : result.pools) {
        out += "  " + pool.path + " " + (pool.pid.empty() ? "(never started)" : pool.pid);
        if (!pool.alive && !pool.pid.empty()) {
            out += " (not running)";
        }
        out += ": size " + std::to_string(pool.size) + ", live workers " +
               std::to_string(pool.live_workers) + ", forwarded " + std::to_string(pool.forwarded) +
               ", unhandled " + std::to_string(pool.unhandled) + ", worker restarts " +
               std::to_string(pool.worker_restarts) + "\n";
    }
}

void append_waiting_calls(std::string& out, const RunResult& result) {
    if (result.waiting_calls.empty()) {
        return;
    }
    out += "calls waiting at the end:\n";
    for (const WaitingCall& call : result.waiting_calls) {
        out += "  " + call.caller + " -> " + (call.target.empty() ? "?" : call.target) + " since " +
               sim::format_instant(call.since) + " (ref " + std::to_string(call.ref) + ")\n";
    }
}

void append_ledger(std::string& out, const RunResult& result) {
    out += "ledger: " + result.ledger.to_string() + "\n";
    out += "  user messages: " + result.user_ledger.to_string() + "\n";
    const std::uint64_t runtime_sent =
        result.exit_signals_sent + result.admin_sent + result.internal_sent;
    out += "  runtime messages: sent " + std::to_string(runtime_sent) + ": exit signals " +
           std::to_string(result.exit_signals_sent) + ", admin " +
           std::to_string(result.admin_sent) + ", internal " +
           std::to_string(result.internal_sent) + "\n";
}

void append_checks(std::string& out, const RunResult& result) {
    std::size_t held = 0;
    for (const Check& check : result.checks) {
        held += check.ok ? 1 : 0;
    }
    out += "expectations: " + std::to_string(result.checks.size()) + " checked, " +
           std::to_string(held) + " hold\n";
    for (const Check& check : result.checks) {
        if (!check.ok) {
            out += "  FAIL " + check.what + " at " + sim::format_instant(check.at) + ": expected " +
                   check.expected + ", got " + check.actual + " (" + check.pointer + ")\n";
            for (const properties::Witness& witness : check.witnesses) {
                // The deciding events, as a VIOLATION line's witnesses are printed.
                out += "    " + witness.line() + "\n";
            }
        }
    }
}

/// The probes of `expect.sometimes` (none printed when the scenario has none).
void append_probes(std::string& out, const RunResult& result) {
    if (result.probes.empty()) {
        return;
    }
    std::size_t reached = 0;
    for (const ProbeResult& probe : result.probes) {
        reached += probe.reached ? 1 : 0;
    }
    out += "probes: " + std::to_string(reached) + " of " + std::to_string(result.probes.size()) +
           " reached\n";
    for (const ProbeResult& probe : result.probes) {
        out += "  " + probe.name + ": " +
               (probe.reached ? "reached at #" + std::to_string(probe.seq) + " @" +
                                    sim::format_instant(probe.at)
                              : std::string("never reached")) +
               " (" + probe.pointer + ")\n";
    }
}

} // namespace

std::string format_summary(const Scenario& scenario, const RunResult& result) {
    std::string out;
    out += "scenario: " + scenario.name + "\n";
    out += "run: scheduler " + std::string(sim::policy_name(result.scheduler)) + ", semantics " +
           std::string(spelling(result.semantics)) + ", stopped (" +
           std::string(sim::stop_reason_name(result.outcome.reason)) + ") at " +
           sim::format_instant(result.outcome.end) + " after " +
           std::to_string(result.outcome.events) + " events, " +
           std::to_string(result.decisions.size()) + " scheduling decisions\n";
    if (!result.root_failure.empty()) {
        out += "root: did not start: " + result.root_failure + "\n";
    }
    append_routers(out, result);
    append_supervisors(out, result);
    append_pools(out, result);
    if (!result.clients.empty()) {
        out += "clients:\n";
        for (const auto& [name, record] : result.clients) {
            out += "  " + name + ": received " + std::to_string(record.received) + " (" +
                   counts(record.types) + "), errors: " + counts(record.errors) + "\n";
        }
    }
    append_waiting_calls(out, result);
    append_ledger(out, result);
    out += "invariants:";
    for (const InvariantResult& invariant : result.invariants) {
        out += " " + invariant.name + " " + invariant.verdict + ";";
    }
    out += "\n";
    append_probes(out, result);
    append_checks(out, result);
    for (const auto& violation : result.violations) {
        out += "VIOLATION " + violation.to_string() + "\n";
    }
    if (result.outcome.reason == sim::StopReason::EventLimit ||
        result.outcome.reason == sim::StopReason::TimeLimit) {
        out += "LIMIT reached: " + std::string(sim::stop_reason_name(result.outcome.reason)) +
               " (seed " + std::to_string(result.seed) + ")\n";
    }
    out += std::string("verdict: ") + (result.passed() ? "PASS" : "FAIL") + "\n";
    return out;
}

} // namespace routesim::scenarios
