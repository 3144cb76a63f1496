// Goal: index.html is one well-formed, self-contained document with every section (the tree's
// supervisors and pools when it has them), and a failing run (a fuzz reproducer) opens with
// its violation and witness events; the timeline pages to every failure, admin operation and
// fault (close points share a page, the page count is capped) and shows lane labels in full.
// Method: render pages for small runs (with and without a topology picture, with violations
// added to a real result), check the tag balance with a small tokenizer and look for the
// parts; plan the timeline of a real run directly for the cap and the kept-records limit.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "reports/export.hpp"
#include "reports/html.hpp"
#include "reports/testing.hpp"
#include "reports/timeline.hpp"

namespace routesim::reports {
namespace {

using testing::load;

// The first unbalanced tag, or "" when every opened element is closed in order.
std::string tag_balance_error(const std::string& html) {
    static const std::vector<std::string> voids = {"meta", "br", "link", "img", "input", "hr"};
    std::vector<std::string> open;
    for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
        if (html.compare(at, 2, "<!") == 0) {
            continue;
        }
        const std::size_t end = html.find('>', at);
        if (end == std::string::npos) {
            return "unterminated tag at " + std::to_string(at);
        }
        const bool closing = html[at + 1] == '/';
        const std::size_t name_at = at + (closing ? 2 : 1);
        const std::size_t name_end = html.find_first_of(" >/\n", name_at);
        const std::string name = html.substr(name_at, name_end - name_at);
        if (closing) {
            if (open.empty() || open.back() != name) {
                return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + ">";
            }
            open.pop_back();
        } else if (html[end - 1] != '/' &&
                   std::find(voids.begin(), voids.end(), name) == voids.end()) {
            open.push_back(name);
        }
    }
    return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

struct Fixture {
    scenarios::Scenario scenario;
    CollectedRun run;
    TopologyGraph graph;

    explicit Fixture(const std::string& name, CollectorOptions collector = {})
        : scenario(load(name)) {
        run = run_collected(scenario, {}, collector);
        graph = build_run_topology(scenario, run.result, run.facts);
    }

    ReportPage page(std::string svg = {}) const {
        ReportPage page{
            .scenario = &scenario, .result = &run.result, .facts = &run.facts, .graph = &graph};
        page.source = testing::scenario_path("x");
        page.labels = process_labels(scenario, run.facts);
        page.mermaid = to_mermaid(graph);
        page.topology_svg = std::move(svg);
        page.topology_note = "Graphviz (the dot program) was not found on PATH.";
        return page;
    }
};

TEST(HtmlReport, IsWellFormedAndSelfContained) {
    const Fixture fixture("route-restarts");
    const std::string html = render_html(fixture.page("<svg id=\"topo\"><g></g></svg>"));
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("src=\"http"), std::string::npos);
    EXPECT_NE(html.find("<div class=\"picture\"><svg id=\"topo\">"), std::string::npos);
    for (const char* id : {"topology", "routers", "traffic", "counters", "verdicts", "timeline"}) {
        EXPECT_NE(html.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
    }
    EXPECT_EQ(html.find("id=\"violation\""), std::string::npos); // a passing run
}

TEST(HtmlReport, ShowsRoutingTableAndHottestRoute) {
    const Fixture fixture("route-restarts");
    const std::string html = render_html(fixture.page());
    // payments: running, 2 restarts, 10 forwarded; audit: 2 failed before it was added.
    EXPECT_NE(html.find("<td>payments</td><td class=\"running\">running</td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num\">2</td><td class=\"num\">10</td>"), std::string::npos);
    EXPECT_NE(html.find("10 \xE2\x80\x94 hottest"), std::string::npos);
    EXPECT_NE(html.find("2 (+2 failed)"), std::string::npos);
    EXPECT_NE(html.find("class=\"pending\""), std::string::npos); // the disable window
}

TEST(HtmlReport, DeadRouterShowsItsLastTableWithTimeAndReason) {
    const Fixture fixture("dead-router");
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_NE(html.find("died at 2ms: kill; its last table"), std::string::npos);
    // Its owned routes, not "(registry) not owned" rows, with the real counts.
    EXPECT_EQ(html.find("(registry)"), std::string::npos);
    EXPECT_NE(html.find("<td>a</td><td class=\"running\">running</td>"), std::string::npos);
    EXPECT_NE(html.find("<td>r</td><td class=\"num\">3</td>"), std::string::npos);
}

TEST(HtmlReport, ShowsSupervisorsPoolsAndTheIntensityCause) {
    const Fixture fixture("supervisor-gives-up");
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_NE(html.find("<a href=\"#tree\">Supervisors and pools</a>"), std::string::npos);
    EXPECT_NE(html.find("<section id=\"tree\">"), std::string::npos);
    EXPECT_NE(html.find("terminated at 2ms: restart intensity exceeded: 2 restarts in 1s &gt; 1, "
                        "last: a kill at 2ms"),
              std::string::npos);
    EXPECT_NE(html.find("<td>a</td><td class=\"bad\">exited</td>"), std::string::npos);
    EXPECT_NE(html.find("<tr><td>sup/p</td><td class=\"num\">2</td>"), std::string::npos);
    EXPECT_NE(html.find("<th colspan=\"2\">user messages</th>"), std::string::npos);
    EXPECT_NE(html.find("<th colspan=\"2\">runtime messages sent</th>"), std::string::npos);
}

TEST(HtmlReport, AFailedExpectationListsItsDecidingEventsUnderIt) {
    // The planted race under the seed that fails it, run as `routesim report` runs it.
    auto loaded = scenarios::load_scenario_file(
        std::string(ROUTESIM_SOURCE_DIR) + "/scenarios/races/call-during-pending-replace.json");
    ASSERT_TRUE(loaded.has_value());
    const scenarios::Scenario scenario = loaded.value();
    scenarios::RunSettings settings;
    settings.seed = 7;
    settings.scheduler = sim::Policy::Random;
    settings.explain_checks = true;
    const CollectedRun run = run_collected(scenario, settings);
    ASSERT_FALSE(run.result.passed());
    const TopologyGraph graph = build_run_topology(scenario, run.result, run.facts);
    ReportPage page{
        .scenario = &scenario, .result = &run.result, .facts = &run.facts, .graph = &graph};
    page.labels = process_labels(scenario, run.facts);
    const std::string html = render_html(page);
    EXPECT_EQ(tag_balance_error(html), "");
    const std::size_t row = html.find("<td>clients.client:1.errors.gen.ErrTimeout</td>");
    ASSERT_NE(row, std::string::npos);
    const std::size_t events = html.find("deciding events:", row);
    ASSERT_NE(events, std::string::npos);
    EXPECT_NE(html.find("<code>#25 @51ms call_result caller=client:1 &lt;\u20261003&gt; ref=1 "
                        "outcome=gen.ErrTimeout</code>",
                        events),
              std::string::npos);
}

TEST(HtmlReport, WithoutGraphvizSaysWhyInsteadOfThePicture) {
    const Fixture fixture("content-dispatch");
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_NE(html.find("No topology picture."), std::string::npos);
    EXPECT_NE(html.find("was not found on PATH"), std::string::npos);
    EXPECT_NE(html.find("graph TB"), std::string::npos); // the Mermaid text instead
    EXPECT_EQ(html.find("href=\"topology.svg\""), std::string::npos);
}

TEST(HtmlReport, ReproducerOpensWithTheViolationAndItsWitnesses) {
    Fixture fixture("content-dispatch");
    fixture.run.result.violations.push_back(
        properties::Violation{"pair_fifo",
                              sim::Instant::zero(),
                              "message 2 was taken before message 1",
                              {{24, sim::Instant::zero(), "forward id=1 by=1001 to=1002"},
                               {32, sim::Instant::zero(), "route id=2 name=shipments"}}});
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    const std::size_t alert = html.find("id=\"violation\"");
    ASSERT_NE(alert, std::string::npos);
    EXPECT_LT(alert, html.find("id=\"topology\""));
    EXPECT_NE(html.find("Invariant violated: <code>pair_fifo</code>"), std::string::npos);
    EXPECT_NE(html.find("forward id=1 by=1001 to=1002"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"verdict fail\">FAIL</span>"), std::string::npos);
    std::size_t highlighted = 0;
    for (std::size_t at = html.find("class=\"witness\""); at != std::string::npos;
         at = html.find("class=\"witness\"", at + 1)) {
        highlighted++;
    }
    EXPECT_EQ(highlighted, 2U); // both witness rows in the timeline
    // One failure with two witnesses on one page has one entry in the pages' index.
    std::size_t entries = 0;
    for (std::size_t at = html.find(">failure: pair_fifo at "); at != std::string::npos;
         at = html.find(">failure: pair_fifo at ", at + 1)) {
        entries++;
    }
    EXPECT_EQ(entries, 1U);
}

// The replay hint is the command the CLI gives (with every flag that changed the run), or
// the file and seed when there is none.
TEST(HtmlReport, ReplayHintIsTheCompleteCommandLine) {
    Fixture fixture("content-dispatch");
    fixture.run.result.violations.push_back(
        properties::Violation{"pair_fifo", sim::Instant::zero(), "out of order", {}});
    ReportPage page = fixture.page();
    page.source = "s.json";
    EXPECT_NE(render_html(page).find("Replay it with <code>routesim run s.json --seed " +
                                     std::to_string(fixture.run.result.seed) + "</code>"),
              std::string::npos);
    page.replay = "routesim run 'my s.json' --seed 7 --scheduler random --until 5ms";
    EXPECT_NE(render_html(page).find("Replay it with <code>routesim run &#39;my s.json&#39; "
                                     "--seed 7 --scheduler random --until 5ms</code>"),
              std::string::npos);
}

// The timeline's pages: the text of each page by its id, and the index list.
std::map<std::string, std::string> timeline_pages(const std::string& html) {
    std::map<std::string, std::string> pages;
    const std::string open = "\" id=\"timeline-page-";
    for (std::size_t at = html.find(open); at != std::string::npos;) {
        const std::size_t id_at = at + 6;
        const std::string id = html.substr(id_at, html.find('"', id_at) - id_at);
        const std::size_t next = html.find(open, at + 1);
        const std::size_t end = next == std::string::npos ? html.find("</section>", at) : next;
        pages[id] = html.substr(at, end - at);
        at = next;
    }
    return pages;
}

std::vector<std::string> timeline_index(const std::string& html) {
    std::vector<std::string> items;
    const std::size_t list = html.find("<ol class=\"pages\">");
    const std::size_t end = html.find("</ol>", list);
    for (std::size_t at = html.find("<li>", list); at < end; at = html.find("<li>", at + 1)) {
        items.push_back(html.substr(at, html.find("</li>", at) - at));
    }
    return items;
}

std::size_t count_of(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        count++;
    }
    return count;
}

// Whether the page's summary "(events #A–#B, ...)" spans `seq`.
bool page_holds(const std::string& page, std::uint64_t seq) {
    const std::size_t first = page.find("(events #");
    const std::size_t last = page.find("\xE2\x80\x93#", first);
    if (first == std::string::npos || last == std::string::npos) {
        return false;
    }
    return std::stoull(page.substr(first + 9)) <= seq && seq <= std::stoull(page.substr(last + 4));
}

// The first collected record of `kind` at or after `at`.
const sim::TraceRecord& record_after(const RunFacts& facts, std::string_view kind,
                                     sim::Instant at) {
    for (const sim::TraceRecord& record : facts.records) {
        if (record.kind == kind && record.at >= at) {
            return record;
        }
    }
    ADD_FAILURE() << "no " << kind << " record after " << sim::format_instant(at);
    return facts.records.back();
}

void add_violation(Fixture& fixture, const std::string& invariant, const sim::TraceRecord& at) {
    fixture.run.result.violations.push_back(
        properties::Violation{invariant, at.at, invariant + " broke", {{at.seq, at.at, at.kind}}});
}

TEST(Timeline, EveryFailureBeyondTheFirstRowsGetsAPageWithItsWitnessHighlighted) {
    Fixture fixture("timeline-pages");
    const sim::TraceRecord& early = record_after(
        fixture.run.facts, "take", sim::Instant::zero() + sim::Duration::milliseconds(20));
    const sim::TraceRecord& late = record_after(
        fixture.run.facts, "take", sim::Instant::zero() + sim::Duration::milliseconds(36));
    add_violation(fixture, "pair_fifo", early);
    add_violation(fixture, "route_stability", late);
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    const auto pages = timeline_pages(html);
    ASSERT_GE(pages.size(), 3U);
    EXPECT_EQ(count_of(pages.at("timeline-page-1"), "class=\"witness\""), 0U); // the start
    std::vector<std::string> with_witness;
    for (const auto& [id, text] : pages) {
        if (count_of(text, "class=\"witness\"") > 0) {
            EXPECT_EQ(count_of(text, "class=\"witness\""), 1U) << id;
            with_witness.push_back(id);
        }
    }
    ASSERT_EQ(with_witness.size(), 2U); // one page per failure, far apart
    EXPECT_NE(with_witness[0], "timeline-page-1");
    EXPECT_TRUE(page_holds(pages.at(with_witness[0]), early.seq)) << with_witness[0];
    EXPECT_TRUE(page_holds(pages.at(with_witness[1]), late.seq)) << with_witness[1];
    // The first failure's page is the one shown; the index links to both in red.
    EXPECT_NE(html.find("<div class=\"timeline-page shown\" id=\"" + with_witness[0] + "\">"),
              std::string::npos);
    EXPECT_EQ(count_of(html, "timeline-page shown"), 1U);
    EXPECT_NE(html.find("<a href=\"#" + with_witness[0] +
                        "\" class=\"bad\">failure: pair_fifo at " + sim::format_instant(early.at) +
                        "</a>"),
              std::string::npos);
    EXPECT_NE(html.find("<a href=\"#" + with_witness[1] +
                        "\" class=\"bad\">failure: "
                        "route_stability at " +
                        sim::format_instant(late.at) + "</a>"),
              std::string::npos);
}

// A failed expectation's deciding events (Check::witnesses) are failures like a violation's.
TEST(Timeline, AFailedExpectationsWitnessesGetAPageToo) {
    Fixture fixture("timeline-pages");
    const sim::TraceRecord& late = record_after(
        fixture.run.facts, "take", sim::Instant::zero() + sim::Duration::milliseconds(36));
    scenarios::Check check;
    check.what = "clients.shop.received";
    check.expected = "1";
    check.actual = "0";
    check.witnesses = {{late.seq, late.at, "take"}};
    fixture.run.result.checks.push_back(check);
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_NE(html.find("\" class=\"bad\">failure: expect clients.shop.received at " +
                        sim::format_instant(late.at) + "</a>"),
              std::string::npos);
    const auto pages = timeline_pages(html);
    ASSERT_EQ(pages.size(), 4U); // start, 12ms, 30ms, the failure
    EXPECT_EQ(count_of(pages.at("timeline-page-4"), "class=\"witness\""), 1U);
    EXPECT_TRUE(page_holds(pages.at("timeline-page-4"), late.seq));
    EXPECT_NE(html.find("<div class=\"timeline-page shown\" id=\"timeline-page-4\">"),
              std::string::npos);
}

TEST(Timeline, AdminOperationsAndFaultsGetOneIndexEntryEachMergedWhenClose) {
    const Fixture fixture("timeline-pages");
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    const std::vector<std::string> index = timeline_index(html);
    ASSERT_EQ(index.size(), 3U) << html.substr(html.find("<ol class=\"pages\">"), 2000);
    EXPECT_TRUE(index[0].starts_with("<li><a href=\"#timeline-page-1\">start</a> <span"))
        << index[0];
    // The disable and the kill 200us later share the second page; the enable has the third.
    EXPECT_NE(index[1].find("<a href=\"#timeline-page-2\">admin disable_route ledger at 12ms</a>, "
                            "<a href=\"#timeline-page-2\">fault kill sup/outer_supervisor/"
                            "payments_router/settlements_and_refunds &lt;\xE2\x80\xA6"),
              std::string::npos)
        << index[1];
    EXPECT_NE(index[1].find("&gt; at 12200us</a>"), std::string::npos) << index[1];
    EXPECT_NE(index[2].find("<a href=\"#timeline-page-3\">admin enable_route ledger at 30ms</a>"),
              std::string::npos)
        << index[2];
    EXPECT_NE(html.find("share a page (1 did)."), std::string::npos);
    EXPECT_EQ(timeline_pages(html).size(), 3U);
    EXPECT_EQ(count_of(html, "class=\"point\""), 3U); // each point's row, on its page
    // No failure: the start is shown; each page links to its neighbours.
    EXPECT_NE(html.find("<div class=\"timeline-page shown\" id=\"timeline-page-1\">"),
              std::string::npos);
    EXPECT_NE(timeline_pages(html)
                  .at("timeline-page-2")
                  .find("<a href=\"#timeline-page-1\">\xE2\x86\x90 previous</a><a "
                        "href=\"#timeline-page-3\">next \xE2\x86\x92</a></h3>"),
              std::string::npos);
}

// Each fault is one point: a crash (an exit with a panic), a random kill (fault_kill and the
// kill it causes), an aimed one; admin operations name their verb and, when not ok, the error.
TEST(Timeline, EachFaultIsOnePointNamedByItsVictim) {
    const Fixture crashes("route-restarts");
    std::vector<std::string> texts;
    for (const TimelinePoint& point : timeline_points(crashes.scenario, crashes.run.result,
                                                      crashes.run.facts, crashes.page().labels)) {
        texts.push_back(point.text);
    }
    EXPECT_EQ(texts, (std::vector<std::string>{"admin disable_route shipments",
                                               "fault crash orders/payments <\xE2\x80\xA6"
                                               "1002>",
                                               "admin add_route audit",
                                               "fault crash orders/payments <\xE2\x80\xA6"
                                               "1007>"}));
    auto loaded = scenarios::load_scenario_text(R"({"name": "k", "run": {"seed": 5},
        "topology": {"kind": "router", "name": "r", "routes": [
            {"name": "a", "worker": {"kind": "actor", "behavior": {"type": "sink"}}}],
            "route_message": {"route": "a"}},
        "workload": [{"from": "c", "to": "r", "send": {"type": "M"}, "count": 40, "every": "1ms"}],
        "faults": {"kill": {"targets": ["route_workers"], "every": "10ms"}},
        "expect": {"invariants": []}})",
                                                "k.json");
    ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
    const CollectedRun run = run_collected(loaded.value());
    const auto labels = process_labels(loaded.value(), run.facts);
    std::size_t injected = 0;
    for (const sim::TraceRecord& record : run.facts.records) {
        injected += record.kind == "fault_kill" ? 1U : 0U;
    }
    std::size_t kills = 0;
    for (const TimelinePoint& point :
         timeline_points(loaded.value(), run.result, run.facts, labels)) {
        EXPECT_EQ(point.kind, PointKind::Fault) << point.text;
        EXPECT_TRUE(point.text.starts_with("fault kill r/a <")) << point.text;
        kills++;
    }
    EXPECT_GT(injected, 1U);
    EXPECT_EQ(kills, injected); // not a second point for the kill event itself
}

TEST(Timeline, LongLaneLabelsAreShownInFull) {
    const Fixture fixture("timeline-pages");
    const std::string html = render_html(fixture.page());
    const std::string path = "sup/outer_supervisor/payments_router/settlements_and_refunds";
    // The label's text itself (after its tooltip), not only the <title>.
    const std::size_t label = html.find("</title>" + path + "</text>");
    ASSERT_NE(label, std::string::npos);
    EXPECT_NE(html.rfind("transform=\"rotate(-40 ", label), std::string::npos); // too wide: rotated
    EXPECT_EQ(html.find("\xE2\x80\xA6refunds"), std::string::npos);             // never cut
    EXPECT_NE(html.find(">&lt;\xE2\x80\xA6"
                        "100"),
              std::string::npos); // the PID under the lane
    // A small chart keeps its labels side by side, in full.
    const Fixture small("supervisor-gives-up");
    const std::string side_by_side = render_html(small.page());
    EXPECT_EQ(side_by_side.find("rotate(-40"), std::string::npos);
    EXPECT_NE(side_by_side.find("</title>sup/p/#*</text>"), std::string::npos);
}

TEST(Timeline, PageCapKeepsTheStartAndTheFailuresFirst) {
    const Fixture fixture("timeline-pages");
    std::vector<TimelinePoint> points = timeline_points(fixture.scenario, fixture.run.result,
                                                        fixture.run.facts, fixture.page().labels);
    ASSERT_EQ(points.size(), 3U);
    const sim::TraceRecord& late = record_after(
        fixture.run.facts, "take", sim::Instant::zero() + sim::Duration::milliseconds(36));
    points.push_back(TimelinePoint{PointKind::Failure, late.seq, late.at, "failure: x"});
    const TimelinePlan all = plan_timeline(fixture.run.facts, points, 300, 24);
    EXPECT_EQ(all.pages.size(), 4U);
    EXPECT_EQ(all.merged, 1U);
    EXPECT_TRUE(all.left_out.empty());
    const TimelinePlan capped = plan_timeline(fixture.run.facts, points, 300, 2);
    ASSERT_EQ(capped.pages.size(), 2U);
    EXPECT_TRUE(capped.pages[0].start);
    EXPECT_TRUE(capped.pages[1].has_failure());
    ASSERT_EQ(capped.left_out.size(), 3U); // the admin operations and the kill
    EXPECT_EQ(capped.left_out[0].text, "admin disable_route ledger");
    EXPECT_EQ(capped.beyond_records, 0U);
    for (const TimelinePage& page : all.pages) {
        EXPECT_LE(page.rows, 300U);
        EXPECT_LE(page.first_seq, page.last_seq);
    }
    for (std::size_t at = 1; at < all.pages.size(); at++) {
        EXPECT_LT(all.pages[at - 1].last_seq, all.pages[at].first_seq); // no overlap
    }
}

TEST(Timeline, AFailureBeyondTheKeptEventsIsListedNotPaged) {
    Fixture fixture("timeline-pages", CollectorOptions{.records_max = 400});
    const std::uint64_t beyond = fixture.run.facts.events - 5;
    fixture.run.result.violations.push_back(properties::Violation{
        "pair_fifo", sim::Instant::zero(), "late", {{beyond, sim::Instant::zero(), "take"}}});
    const std::string html = render_html(fixture.page());
    EXPECT_EQ(tag_balance_error(html), "");
    EXPECT_NE(html.find("The report keeps the first 400 of " +
                        std::to_string(fixture.run.facts.events) + " events."),
              std::string::npos);
    EXPECT_NE(html.find("Not paged: 1 point(s), 1 beyond the events kept: failure: pair_fifo at "
                        "0ns."),
              std::string::npos);
    EXPECT_EQ(count_of(html, "class=\"witness\""), 0U);
    EXPECT_EQ(timeline_pages(html).size(), 1U); // the start only
}

TEST(ReportFiles, WritesEveryFileAndNotesAMissingPicture) {
    const scenarios::Scenario scenario = load("content-dispatch");
    const CollectedRun run = run_collected(scenario);
    const std::filesystem::path dir = "report_files_test";
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(prepare_report_dir(dir).has_value());
    auto files = write_report(dir, scenario, run, ReportOptions{.render_svg = false});
    ASSERT_TRUE(files.has_value()) << files.error();
    EXPECT_FALSE(files.value().has_picture);
    EXPECT_EQ(files.value().note, "SVG rendering was turned off for this report.");
    for (const char* name : {"index.html", "topology.dot", "topology.mmd", "trace.json"}) {
        EXPECT_TRUE(std::filesystem::is_regular_file(dir / name)) << name;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "topology.svg"));
    EXPECT_FALSE(std::filesystem::exists(dir / ".routesim-report-probe"));
}

TEST(ReportFiles, UnwritableDirectoryIsAClearError) {
    std::filesystem::create_directories("report_blocked_test");
    std::ofstream("report_blocked_test/file") << "x";
    auto ready = prepare_report_dir("report_blocked_test/file/sub");
    ASSERT_FALSE(ready.has_value());
    EXPECT_NE(ready.error().find("cannot create report directory report_blocked_test/file/sub"),
              std::string::npos)
        << ready.error();
}

} // namespace
} // namespace routesim::reports
