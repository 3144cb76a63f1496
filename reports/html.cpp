// The HTML report page: document skeleton, style, header, the violation box, the topology
// picture and the timeline. The tables live in html_sections.cpp.
// Part of reports/: uses the graph model, the collector's facts and scenarios/run/runner.hpp.
#include "reports/html.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "reports/detail/html_text.hpp"
#include "reports/export.hpp"
#include "reports/timeline.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

using detail::cell;
using detail::escape;

constexpr std::string_view style_sheet = R"css(
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #ffffff;
       font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 18px 28px 48px; }
h1 { font-size: 24px; margin: 4px 0 2px; }
h2 { font-size: 18px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 14px 0 4px; }
section { margin-top: 26px; }
nav { margin: 10px 0 0; font-size: 13px; }
nav a { margin-right: 14px; color: #0969da; text-decoration: none; }
.description { color: var(--muted); margin: 0 0 8px; max-width: 900px; }
.chips span { display: inline-block; margin: 2px 6px 2px 0; padding: 1px 8px; border-radius: 10px;
              background: var(--soft); border: 1px solid var(--line); font-size: 12px; }
.verdict { display: inline-block; padding: 2px 12px; border-radius: 12px; font-weight: 700;
           font-size: 14px; vertical-align: 4px; margin-left: 10px; }
.pass { background: #dafbe1; color: #116329; }
.fail { background: #ffebe9; color: #a40e26; }
.alert { border: 2px solid #cf222e; background: #fff5f5; border-radius: 8px; padding: 10px 16px;
         margin-top: 18px; }
.alert h2 { color: #a40e26; border-bottom-color: #f5c2c7; }
.alert .explanation { font-weight: 600; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 9px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.event, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
                 font-size: 12px; }
.running, .ok, .holds, .alive { color: #116329; font-weight: 600; }
.dead, .bad, .violated { color: #a40e26; font-weight: 600; }
.pending { color: #9a6700; font-weight: 600; }
.disabled, .unchecked, .muted { color: var(--muted); }
.picture { overflow: auto; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
           background: #ffffff; }
.picture svg { max-width: 100%; height: auto; }
.note { border: 1px dashed #d4a000; background: #fffbea; padding: 8px 12px; border-radius: 6px; }
.legend { font-size: 12px; color: var(--muted); margin: 6px 0; }
.legend span { display: inline-block; margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1.5px solid; border-radius: 2px;
          vertical-align: -2px; margin-right: 4px; }
.scroll { overflow: auto; max-height: 760px; border: 1px solid var(--line); border-radius: 6px; }
pre { background: var(--soft); padding: 8px 10px; overflow: auto; font-size: 12px; }
details summary { cursor: pointer; color: var(--muted); font-size: 13px; }
ol.pages { font-size: 13px; margin: 6px 0 10px; padding-left: 26px; }
ol.pages a { color: #0969da; text-decoration: none; }
ol.pages a.bad { color: #a40e26; }
.timeline-page { display: none; margin: 6px 0; }
.timeline-page h3 { margin: 8px 0 4px; }
.timeline-page h3 a { font-size: 13px; font-weight: 400; margin-left: 12px; color: #0969da; }
.timeline-page.shown, .timeline-page:target, .timeline-pages:target .timeline-page { display: block; }
.timeline-pages:has(.timeline-page:target) .timeline-page.shown:not(:target) { display: none; }
.grid { display: flex; flex-wrap: wrap; gap: 8px 28px; align-items: flex-start; }
footer { margin-top: 34px; color: var(--muted); font-size: 12px; }
footer a { color: #0969da; }
)css";

std::string header(const ReportPage& page) {
    const scenarios::Scenario& scenario = *page.scenario;
    const scenarios::RunResult& result = *page.result;
    // A reproducer's violation fails the page even when no required invariant names it.
    const bool passed = result.passed() && result.violations.empty();
    std::string out = "<header><h1>" + escape(scenario.name) + "<span class=\"verdict " +
                      (passed ? "pass" : "fail") + "\">" + (passed ? "PASS" : "FAIL") +
                      "</span></h1>";
    if (!scenario.description.empty()) {
        out += "<p class=\"description\">" + escape(scenario.description) + "</p>";
    }
    out += "<div class=\"chips\"><span>seed " + std::to_string(result.seed) +
           "</span><span>trace-hash " + sim::format_hash(result.trace_hash) + "</span><span>" +
           escape(sim::policy_name(result.scheduler)) + " scheduler</span><span>" +
           escape(scenarios::spelling(result.semantics)) + " semantics</span><span>stopped (" +
           escape(sim::stop_reason_name(result.outcome.reason)) + ") at " +
           escape(sim::format_instant(result.outcome.end)) + "</span><span>" +
           std::to_string(result.outcome.events) + " events</span><span>" +
           std::to_string(result.decisions.size()) + " scheduling decisions</span></div>";
    const bool tree = !result.supervisors.empty() || !result.pools.empty() ||
                      !result.waiting_calls.empty(); // tree_section is shown
    out += "<nav><a href=\"#topology\">Topology</a><a href=\"#routers\">Routing tables</a>"
           "<a href=\"#traffic\">Messages per route</a>" +
           std::string(tree ? "<a href=\"#tree\">Supervisors and pools</a>" : "") +
           "<a href=\"#counters\">Counters and ledger</a><a href=\"#verdicts\">Invariants and "
           "expectations</a><a href=\"#timeline\">Timeline</a></nav></header>";
    return out;
}

std::string witness_table(const properties::Violation& violation) {
    if (violation.witnesses.empty()) {
        return "<p class=\"muted\">No witness events were recorded.</p>";
    }
    std::string out = "<table><tr><th>seq</th><th>time</th><th>witness event</th></tr>";
    for (const properties::Witness& witness : violation.witnesses) {
        out += "<tr><td class=\"num\">" + std::to_string(witness.seq) + "</td>" +
               cell(sim::format_instant(witness.at)) + cell(witness.text, "event") + "</tr>";
    }
    return out + "</table>";
}

// The box at the top: violations with their witnesses, failed expectations, limits.
std::string alert(const ReportPage& page) {
    const scenarios::RunResult& result = *page.result;
    std::string body;
    for (const properties::Violation& violation : result.violations) {
        body += "<h3>Invariant violated: <code>" + escape(violation.invariant) + "</code> at " +
                escape(sim::format_instant(violation.at)) + "</h3><p class=\"explanation\">" +
                escape(violation.explanation) + "</p>" + witness_table(violation);
    }
    std::string failed;
    for (const scenarios::Check& check : result.checks) {
        if (!check.ok) {
            failed += "<tr>" + cell(check.what) + cell(check.expected) + cell(check.actual, "bad") +
                      cell(sim::format_instant(check.at)) + cell(check.pointer, "event") + "</tr>";
        }
    }
    if (!failed.empty()) {
        body += "<h3>Expectations that do not hold</h3><table><tr><th>what</th><th>expected</th>"
                "<th>actual</th><th>at</th><th>pointer</th></tr>" +
                failed + "</table>";
    }
    const auto reason = result.outcome.reason;
    if (reason == sim::StopReason::EventLimit || reason == sim::StopReason::TimeLimit) {
        body += "<h3>Limit reached: " + escape(sim::stop_reason_name(reason)) + "</h3>";
    }
    if (!result.root_failure.empty()) {
        body +=
            "<h3>The topology root did not start</h3><p>" + escape(result.root_failure) + "</p>";
    }
    if (body.empty()) {
        return "";
    }
    const std::string replay = page.replay.empty() ? "routesim run " + page.source + " --seed " +
                                                         std::to_string(result.seed)
                                                   : page.replay;
    return "<section class=\"alert\" id=\"violation\"><h2>This run failed</h2>" + body +
           "<p class=\"muted\">Replay it with <code>" + escape(replay) +
           "</code>; witness events are highlighted in the <a href=\"#timeline\">timeline</a>."
           "</p></section>";
}

std::string legend() {
    std::string out = "<div class=\"legend\">";
    for (const VertexKind kind : {VertexKind::Router, VertexKind::Supervisor, VertexKind::Pool,
                                  VertexKind::Actor, VertexKind::Client}) {
        const KindStyle style = kind_style(kind);
        out += "<span><i class=\"swatch\" style=\"background:" + std::string(style.fill) +
               ";border-color:" + std::string(style.stroke) + "\"></i>" +
               std::string(vertex_kind_name(kind)) + "</span>";
    }
    out += "<span><i class=\"swatch\" style=\"background:#e4e4e4;border-color:#8a8a8a;"
           "border-style:dashed\"></i>dead / never started</span>";
    out += "<span>dashed arrows: routing (orange: owned route, blue: via registry)</span>"
           "<span>solid: supervision, pool workers (green), clients (purple)</span></div>";
    return out;
}

std::string topology_section(const ReportPage& page) {
    std::string out = "<section id=\"topology\"><h2>Topology</h2>";
    if (!page.topology_svg.empty()) {
        out += "<div class=\"picture\">" + page.topology_svg + "</div>";
    } else {
        out += "<p class=\"note\"><strong>No topology picture.</strong> " +
               escape(page.topology_note) +
               " The graph is below as Mermaid text and in topology.dot.</p>";
    }
    out += legend();
    out += "<details><summary>Mermaid source (topology.mmd)</summary><pre>" + escape(page.mermaid) +
           "</pre></details></section>";
    return out;
}

// Pages at most in the timeline (the start of the run included).
constexpr std::size_t timeline_pages_max = 24;

std::string page_id(std::size_t index) {
    return "timeline-page-" + std::to_string(index + 1);
}

// "failure: pair_fifo at 2ms", with "(3 events)" when the next points say the same.
std::vector<std::string> point_labels(const std::vector<TimelinePoint>& points,
                                      std::vector<PointKind>* kinds = nullptr) {
    std::vector<std::string> labels;
    for (std::size_t at = 0; at < points.size();) {
        std::size_t same = at + 1;
        while (same < points.size() && points[same].text == points[at].text &&
               points[same].kind == points[at].kind) {
            same++;
        }
        labels.push_back(points[at].text + " at " + sim::format_instant(points[at].at) +
                         (same - at > 1 ? " (" + std::to_string(same - at) + " events)" : ""));
        if (kinds != nullptr) {
            kinds->push_back(points[at].kind);
        }
        at = same;
    }
    return labels;
}

std::string page_span(const TimelinePage& page) {
    return "events #" + std::to_string(page.first_seq) + "\xE2\x80\x93#" +
           std::to_string(page.last_seq) + ", " + sim::format_instant(page.first_at) +
           "\xE2\x80\x93" + sim::format_instant(page.last_at);
}

// The list of pages above the charts: every point of a page links to it.
std::string timeline_index(const TimelinePlan& plan) {
    std::string out = "<ol class=\"pages\">";
    for (std::size_t index = 0; index < plan.pages.size(); index++) {
        const TimelinePage& page = plan.pages[index];
        const std::string href = "<a href=\"#" + page_id(index) + "\"";
        std::vector<std::string> links;
        if (page.start) {
            links.push_back(href + ">start</a>");
        }
        std::vector<PointKind> kinds;
        const std::vector<std::string> labels = point_labels(page.points, &kinds);
        for (std::size_t at = 0; at < labels.size(); at++) {
            const bool failure = kinds[at] == PointKind::Failure;
            links.push_back(href + (failure ? " class=\"bad\"" : "") + ">" + escape(labels[at]) +
                            "</a>");
        }
        out += "<li>";
        for (std::size_t at = 0; at < links.size(); at++) {
            out += (at == 0 ? "" : ", ") + links[at];
        }
        out += " <span class=\"muted\">(" + escape(page_span(page)) + ")</span></li>";
    }
    return out + "</ol><p class=\"legend\">A link shows its page; <a href=\"#timeline-pages\">all "
                 "pages</a> shows them one under the other.</p>";
}

// What the pages are, what was merged or left out, and the chart's symbols.
std::string timeline_legend(const ReportPage& page, const TimelinePlan& plan) {
    const RunFacts& facts = *page.facts;
    std::string out = "<p class=\"legend\">Pages of up to " + std::to_string(page.timeline_rows) +
                      " events each: the start of the run, then one page around each failure "
                      "(witness events), admin operation and fault, in trace order; points that "
                      "fall in one window share a page";
    out += plan.merged > 0 ? " (" + std::to_string(plan.merged) + " did)." : ".";
    if (facts.records.size() < facts.events) {
        out += " The report keeps the first " + std::to_string(facts.records.size()) + " of " +
               std::to_string(facts.events) + " events.";
    }
    if (!plan.left_out.empty()) {
        const std::size_t over_cap = plan.left_out.size() - plan.beyond_records;
        out += " Not paged: " + std::to_string(plan.left_out.size()) + " point(s)";
        out += over_cap > 0 ? ", " + std::to_string(over_cap) + " over the cap of " +
                                  std::to_string(timeline_pages_max) + " pages"
                            : "";
        out += plan.beyond_records > 0
                   ? ", " + std::to_string(plan.beyond_records) + " beyond the events kept"
                   : "";
        const std::vector<std::string> labels = point_labels(plan.left_out);
        for (std::size_t at = 0; at < labels.size() && at < 12; at++) {
            out += (at == 0 ? ": " : "; ") + escape(labels[at]);
        }
        out += labels.size() > 12 ? "; \xE2\x80\xA6" : "";
        out += ".";
    }
    return out + "</p><p class=\"legend\">Blue arrows: sends (to the take); orange dashed: "
                 "forwards; dots: messages taken; red crosses: faults and abnormal exits; orange "
                 "diamonds: restarts; blue squares: admin operations; yellow bars: pending "
                 "windows; red rows: witness events; blue rows: admin operations and faults. Hover "
                 "a mark for its event. trace.json holds the same events (open it in "
                 "Perfetto).</p>";
}

// One page: a heading with links to its neighbours, then its chart. Pages are shown one at a
// time with :target CSS (the `shown` one when no page is the target); without CSS, all are.
// The rows every page marks: each witness of a failure (also those of a failure its page lists
// once) highlighted, and the admin operations and faults the pages are made around.
TimelineOptions timeline_marks(const ReportPage& page, const TimelinePlan& plan) {
    TimelineOptions marks;
    for (const properties::Violation& violation : page.result->violations) {
        for (const properties::Witness& witness : violation.witnesses) {
            marks.highlight.insert(witness.seq);
        }
    }
    for (const scenarios::Check& check : page.result->checks) {
        for (const properties::Witness& witness : check.witnesses) {
            marks.highlight.insert(witness.seq);
        }
    }
    for (const TimelinePage& any : plan.pages) {
        for (const TimelinePoint& point : any.points) {
            if (point.kind != PointKind::Failure) {
                marks.marked.insert(point.seq);
            }
        }
    }
    return marks;
}

std::string timeline_page(const ReportPage& page, const TimelinePlan& plan,
                          const TimelineOptions& marks, std::size_t index, bool shown) {
    RS_ASSERT(index < plan.pages.size());
    const TimelinePage& window = plan.pages[index];
    RS_ASSERT(window.rows > 0);
    TimelineOptions options = marks;
    options.first_seq = window.first_seq;
    options.rows_max = window.rows;
    options.id_suffix = "-p" + std::to_string(index + 1);
    const std::vector<std::string> labels = point_labels(window.points);
    std::string title = window.start ? "start" : labels.empty() ? "" : labels.front();
    const std::size_t more = labels.size() - (window.start || labels.empty() ? 0 : 1);
    title += more > 0 ? " and " + std::to_string(more) + " more" : "";
    std::string out = "<div class=\"timeline-page" + std::string(shown ? " shown" : "") +
                      "\" id=\"" + page_id(index) + "\"><h3>Page " + std::to_string(index + 1) +
                      " of " + std::to_string(plan.pages.size()) + ": " + escape(title) + " (" +
                      escape(page_span(window)) + ")";
    if (index > 0) {
        out += "<a href=\"#" + page_id(index - 1) + "\">\xE2\x86\x90 previous</a>";
    }
    if (index + 1 < plan.pages.size()) {
        out += "<a href=\"#" + page_id(index + 1) + "\">next \xE2\x86\x92</a>";
    }
    return out + "</h3><div class=\"scroll\">" + timeline_svg(*page.facts, page.labels, options) +
           "</div></div>";
}

std::string timeline_section(const ReportPage& page) {
    const std::vector<TimelinePoint> points =
        timeline_points(*page.scenario, *page.result, *page.facts, page.labels);
    const TimelinePlan plan = plan_timeline(
        *page.facts, points, std::max<std::size_t>(page.timeline_rows, 1), timeline_pages_max);
    std::string out = "<section id=\"timeline\"><h2>Timeline</h2>" + timeline_legend(page, plan);
    if (plan.pages.empty()) {
        return out + "<p class=\"muted\">No events were kept.</p></section>";
    }
    out += timeline_index(plan);
    // Shown first: the first page with a failure, else the start.
    std::size_t shown = 0;
    for (std::size_t index = 0; index < plan.pages.size(); index++) {
        if (plan.pages[index].has_failure()) {
            shown = index;
            break;
        }
    }
    const TimelineOptions marks = timeline_marks(page, plan);
    out += "<div class=\"timeline-pages\" id=\"timeline-pages\">";
    for (std::size_t index = 0; index < plan.pages.size(); index++) {
        out += timeline_page(page, plan, marks, index, index == shown);
    }
    return out + "</div></section>";
}

} // namespace

std::string render_html(const ReportPage& page) {
    RS_ASSERT(page.scenario != nullptr && page.result != nullptr);
    RS_ASSERT(page.facts != nullptr && page.graph != nullptr);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                      "<title>" +
                      escape(page.scenario->name) +
                      " \xE2\x80\x94 routesim report"
                      "</title><style>" +
                      std::string(style_sheet) + "</style></head><body><main>";
    out += header(page);
    out += alert(page);
    out += topology_section(page);
    out += detail::routers_section(page);
    out += detail::route_bars_section(page);
    out += detail::tree_section(page);
    out += detail::counters_section(page);
    out += detail::verdicts_section(page);
    out += timeline_section(page);
    out += "<footer>Files beside this page: ";
    if (!page.topology_svg.empty()) {
        out += "<a href=\"topology.svg\">topology.svg</a>, ";
    }
    out += "<a href=\"topology.dot\">topology.dot</a>, <a href=\"topology.mmd\">topology.mmd</a>, "
           "<a href=\"trace.json\">trace.json</a> (Chrome trace events).</footer>";
    out += "</main></body></html>\n";
    return out;
}

} // namespace routesim::reports
