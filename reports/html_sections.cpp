// The tables and charts of the HTML report: routing tables, messages per route, counters,
// ledger, clients, invariants and expectations.
// Part of reports/: uses the collector's facts and scenarios/run/runner.hpp.
#include <algorithm>
#include <set>
#include <vector>

#include "reports/detail/html_text.hpp"
#include "reports/html.hpp"

namespace routesim::reports::detail {
namespace {

/// One bar of the messages-per-route chart and one row of a routing table's counts.
struct RouteCount {
    std::string name;
    std::uint64_t forwarded = 0;
    std::uint64_t failed = 0;
    bool owned = true;
};

std::set<std::uint64_t> pids_of(const ReportPage& page, const std::string& path) {
    std::set<std::uint64_t> pids;
    for (const auto& [pid, label] : page.labels) {
        if (label == path) {
            pids.insert(pid);
        }
    }
    return pids;
}

// Per-route counts of a router (all its incarnations): owned routes in table order, then
// names it reached through the registry or failed to resolve, by name.
std::vector<RouteCount> route_counts(const ReportPage& page,
                                     const scenarios::RouterSummary& router) {
    std::vector<RouteCount> counts;
    for (const scenarios::RouteRow& row : router.routes) {
        counts.push_back(RouteCount{.name = row.name});
    }
    const std::set<std::uint64_t> pids = pids_of(page, router.path);
    std::map<std::string, RouteCount> others;
    for (const auto& [key, traffic] : page.facts->routes) {
        if (!pids.contains(key.first)) {
            continue;
        }
        // A named copy: clang 14 cannot capture a structured binding in a lambda.
        const std::string& route = key.second;
        auto owned = std::find_if(counts.begin(), counts.end(), [&route](const RouteCount& count) {
            return count.name == route;
        });
        RouteCount& count =
            owned != counts.end()
                ? *owned
                : others.emplace(key.second, RouteCount{key.second, 0, 0, false}).first->second;
        count.forwarded += traffic.forwarded();
        count.failed += traffic.failed;
    }
    for (auto& [name, count] : others) {
        counts.push_back(count);
    }
    return counts;
}

std::string state_class(const std::string& state) {
    if (state.starts_with("pending_")) {
        return "pending";
    }
    return state;
}

std::string routing_table(const ReportPage& page, const scenarios::RouterSummary& router) {
    std::string out = "<table><tr><th>route</th><th>state</th><th>pid</th><th>pending</th>"
                      "<th>restarts</th><th>forwarded</th><th>failed</th></tr>";
    const std::vector<RouteCount> counts = route_counts(page, router);
    for (const RouteCount& count : counts) {
        const auto row =
            std::find_if(router.routes.begin(), router.routes.end(),
                         [&](const scenarios::RouteRow& r) { return r.name == count.name; });
        if (row != router.routes.end()) {
            const bool pending = row->state.starts_with("pending_");
            out += "<tr>" + cell(row->name) + cell(row->state, state_class(row->state)) +
                   cell(row->pid.empty() ? "-" : row->pid + (row->exited ? " (exited)" : ""),
                        row->exited ? "dead" : "event") +
                   cell(pending ? row->state.substr(8) : "-", pending ? "pending" : "") +
                   number_cell(row->restarts);
        } else {
            out += "<tr>" + cell(count.name + " (registry)") + cell("not owned", "muted") +
                   cell("-") + cell("-") + cell("-");
        }
        out += number_cell(count.forwarded) +
               (count.failed > 0 ? "<td class=\"num bad\">" + std::to_string(count.failed) + "</td>"
                                 : number_cell(0)) +
               "</tr>";
    }
    if (counts.empty()) {
        out += "<tr><td colspan=\"7\" class=\"muted\">no owned routes and nothing routed "
               "(a free router resolves names through the registry)</td></tr>";
    }
    return out + "</table>";
}

std::string failures(const std::map<std::string, std::uint64_t>& table) {
    std::string text;
    for (const auto& [name, count] : table) {
        text += (text.empty() ? "" : ", ") + name + " " + std::to_string(count);
    }
    return text;
}

std::string bar_chart(const std::vector<RouteCount>& counts) {
    std::uint64_t busiest = 0;
    std::size_t name_width = 6;
    for (const RouteCount& count : counts) {
        busiest = std::max(busiest, count.forwarded + count.failed);
        name_width = std::max(name_width, std::min<std::size_t>(count.name.size(), 28));
    }
    const int label_width = static_cast<int>(name_width) * 7 + 16;
    constexpr int bar_max = 560;
    constexpr int row = 22;
    const int height = static_cast<int>(counts.size()) * row + 8;
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      std::to_string(label_width + bar_max + 150) + "\" height=\"" +
                      std::to_string(height) +
                      "\" font-family=\"Helvetica, Arial, sans-serif\" "
                      "font-size=\"12\">";
    for (std::size_t i = 0; i < counts.size(); i++) {
        const RouteCount& count = counts[i];
        const int y = 4 + static_cast<int>(i) * row;
        const auto scale = [&](std::uint64_t value) {
            return busiest == 0 ? 0 : static_cast<int>((value * bar_max) / busiest);
        };
        const bool hot =
            busiest > 0 && count.forwarded + count.failed == busiest && counts.size() > 1;
        const int ok_width = scale(count.forwarded);
        const int failed_width = scale(count.failed);
        out += "<text x=\"" + std::to_string(label_width - 8) + "\" y=\"" + std::to_string(y + 14) +
               "\" text-anchor=\"end\">" + escape(shorten(count.name, 28)) + "</text>";
        out += "<rect x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y + 2) +
               "\" width=\"" + std::to_string(ok_width) + "\" height=\"16\" rx=\"2\" fill=\"" +
               (hot ? "#d9480f" : "#f0a04b") + "\"/>";
        out += "<rect x=\"" + std::to_string(label_width + ok_width) + "\" y=\"" +
               std::to_string(y + 2) + "\" width=\"" + std::to_string(failed_width) +
               "\" height=\"16\" fill=\"#c62828\"/>";
        out += "<text x=\"" + std::to_string(label_width + ok_width + failed_width + 6) +
               "\" y=\"" + std::to_string(y + 14) + "\">" + std::to_string(count.forwarded) +
               (count.failed > 0 ? " (+" + std::to_string(count.failed) + " failed)" : "") +
               (hot ? " \xE2\x80\x94 hottest" : "") + "</text>";
    }
    return out + "</svg>";
}

std::string ledger_table(const properties::Ledger& ledger, std::string_view title) {
    std::string out = "<table><tr><th colspan=\"2\">" + escape(title) + "</th></tr>";
    const std::pair<std::string_view, std::uint64_t> rows[] = {
        {"sent", ledger.sent},           {"handled", ledger.handled},
        {"discarded", ledger.discarded}, {"route_failed", ledger.route_failed},
        {"unhandled", ledger.unhandled}, {"dropped", ledger.dropped},
        {"queued", ledger.queued}};
    for (const auto& [name, value] : rows) {
        out += "<tr>" + cell(name) + number_cell(value) + "</tr>";
    }
    for (const auto& [reason, value] : ledger.dropped_by_reason) {
        out += "<tr>" + cell("  dropped: " + reason, "muted") + number_cell(value) + "</tr>";
    }
    out += "<tr>" + cell("balanced") + (ledger.balanced() ? cell("yes", "ok") : cell("no", "bad")) +
           "</tr>";
    return out + "</table>";
}

// The messages the runtime sent, by class (the ledger's share that is not the user's).
std::string runtime_sent_table(const scenarios::RunResult& result) {
    return "<table><tr><th colspan=\"2\">runtime messages sent</th></tr><tr>" +
           cell("exit signals") + number_cell(result.exit_signals_sent) + "</tr><tr>" +
           cell("admin") + number_cell(result.admin_sent) + "</tr><tr>" + cell("internal") +
           number_cell(result.internal_sent) + "</tr></table>";
}

std::string clients_table(const scenarios::RunResult& result) {
    if (result.clients.empty()) {
        return "";
    }
    std::string out = "<table><tr><th>client</th><th>received</th><th>by type</th>"
                      "<th>errors</th></tr>";
    for (const auto& [name, record] : result.clients) {
        out += "<tr>" + cell(name) + number_cell(record.received) +
               cell(record.types.empty() ? "-" : failures(record.types)) +
               cell(record.errors.empty() ? "-" : failures(record.errors),
                    record.errors.empty() ? "" : "bad") +
               "</tr>";
    }
    return out + "</table>";
}

} // namespace

std::string routers_section(const ReportPage& page) {
    std::string out = "<section id=\"routers\"><h2>Routing tables</h2>";
    if (page.result->routers.empty()) {
        out += "<p class=\"muted\">No routers in this topology.</p>";
    }
    for (const scenarios::RouterSummary& router : page.result->routers) {
        out +=
            "<h3>" + escape(router.path) + " <code>" +
            escape(router.pid.empty() ? "never started" : router.pid) + "</code>" +
            (router.died_at.has_value()
                 ? " <span class=\"dead\">died at " + escape(sim::format_instant(*router.died_at)) +
                       ": " + escape(router.died_reason) + "; its last table</span>"
             : router.alive ? ""
                            : " <span class=\"dead\">not running</span>") +
            "</h3>";
        out += routing_table(page, router);
        if (!router.route_failed.empty()) {
            out += "<p>MessageRouteFailed: <span class=\"bad\">" +
                   escape(failures(router.route_failed)) + "</span></p>";
        }
    }
    return out + "</section>";
}

std::string route_bars_section(const ReportPage& page) {
    std::string out = "<section id=\"traffic\"><h2>Messages per route</h2>";
    bool any = false;
    for (const scenarios::RouterSummary& router : page.result->routers) {
        const std::vector<RouteCount> counts = route_counts(page, router);
        if (counts.empty()) {
            continue;
        }
        any = true;
        out += "<h3>" + escape(router.path) + "</h3>" + bar_chart(counts);
    }
    if (!any) {
        out += "<p class=\"muted\">Nothing was routed.</p>";
    }
    return out + "</section>";
}

std::string counters_section(const ReportPage& page) {
    const scenarios::RunResult& result = *page.result;
    std::string out = "<section id=\"counters\"><h2>Counters and ledger</h2><div class=\"grid\">";
    if (!result.routers.empty()) {
        out += "<table><tr><th>router</th><th>forwarded</th><th>discarded</th><th>failed</th>"
               "<th>restarts</th></tr>";
        for (const scenarios::RouterSummary& router : result.routers) {
            out += "<tr>" + cell(router.path) + number_cell(router.counters.forwarded) +
                   number_cell(router.counters.discarded) + number_cell(router.counters.failed) +
                   number_cell(router.counters.restarts) + "</tr>";
        }
        out += "</table>";
    }
    out += ledger_table(result.ledger, "message ledger (every message)") +
           ledger_table(result.user_ledger, "user messages") + runtime_sent_table(result) +
           "</div>" + clients_table(result) + "</section>";
    return out;
}

std::string tree_section(const ReportPage& page) {
    const scenarios::RunResult& result = *page.result;
    if (result.supervisors.empty() && result.pools.empty() && result.waiting_calls.empty()) {
        return "";
    }
    std::string out = "<section id=\"tree\"><h2>Supervisors, pools and waiting calls</h2>";
    for (const scenarios::SupervisorSummary& sup : result.supervisors) {
        out += "<h3>" + escape(sup.path) + " <code>" +
               escape(sup.pid.empty() ? "never started" : sup.pid) + "</code> " +
               escape(scenarios::spelling(sup.type));
        if (sup.terminated_at.has_value()) {
            out += " <span class=\"dead\">terminated at " +
                   escape(sim::format_instant(*sup.terminated_at)) + ": " +
                   escape(sup.cause.empty() ? sup.terminated_reason : sup.cause) + "</span>";
        }
        out += "</h3><p>restarts " + std::to_string(sup.restarts) + ", " +
               std::to_string(sup.window_restarts) + " in the current window (intensity " +
               std::to_string(sup.intensity) + " per " + escape(sim::format_duration(sup.period)) +
               ")</p>";
        out += "<table><tr><th>child</th><th>state</th><th>pid</th><th>restarts</th>"
               "<th>last exit</th></tr>";
        for (const scenarios::ChildRow& child : sup.children) {
            out += "<tr>" + cell(child.name) +
                   cell(child.state, child.state == "running" ? "ok" : "bad") +
                   cell(child.pid.empty() ? "-" : child.pid) + number_cell(child.restarts) +
                   cell(child.last_exit.empty() ? "-" : child.last_exit) + "</tr>";
        }
        out += "</table>";
    }
    if (!result.pools.empty()) {
        out += "<table><tr><th>pool</th><th>size</th><th>live workers</th><th>forwarded</th>"
               "<th>unhandled</th><th>worker restarts</th></tr>";
        for (const scenarios::PoolSummary& pool : result.pools) {
            out += "<tr>" + cell(pool.path) + number_cell(pool.size) +
                   number_cell(pool.live_workers) + number_cell(pool.forwarded) +
                   number_cell(pool.unhandled) + number_cell(pool.worker_restarts) + "</tr>";
        }
        out += "</table>";
    }
    if (!result.waiting_calls.empty()) {
        out += "<table><tr><th>caller</th><th>target</th><th>waiting since</th><th>ref</th></tr>";
        for (const scenarios::WaitingCall& call : result.waiting_calls) {
            out += "<tr>" + cell(call.caller) + cell(call.target.empty() ? "?" : call.target) +
                   cell(sim::format_instant(call.since)) + number_cell(call.ref) + "</tr>";
        }
        out += "</table>";
    }
    return out + "</section>";
}

std::string verdicts_section(const ReportPage& page) {
    const scenarios::RunResult& result = *page.result;
    std::string out = "<section id=\"verdicts\"><h2>Invariants and expectations</h2>"
                      "<div class=\"grid\"><table><tr><th>invariant</th><th>verdict</th></tr>";
    for (const scenarios::InvariantResult& invariant : result.invariants) {
        out += "<tr>" + cell(invariant.name) + cell(invariant.verdict, invariant.verdict) + "</tr>";
    }
    out += "</table><table><tr><th>expectation</th><th>expected</th><th>actual</th><th></th></tr>";
    for (const scenarios::Check& check : result.checks) {
        out += "<tr>" + cell(check.what) + cell(check.expected) + cell(check.actual) +
               (check.ok ? cell("holds", "ok") : cell("FAILS", "bad")) + "</tr>";
        if (!check.witnesses.empty()) {
            // The events that decide a failed check, under it (highlighted in the timeline).
            out += "<tr><td colspan=\"4\" class=\"muted\">deciding events:";
            for (const properties::Witness& witness : check.witnesses) {
                out += "<br><code>" + escape(witness.line()) + "</code>";
            }
            out += "</td></tr>";
        }
    }
    if (result.checks.empty()) {
        out += "<tr><td colspan=\"4\" class=\"muted\">no expectations</td></tr>";
    }
    return out + "</table></div></section>";
}

} // namespace routesim::reports::detail
