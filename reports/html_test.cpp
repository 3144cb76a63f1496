// Goal: index.html is one well-formed, self-contained document with every section (the tree's
// supervisors and pools when it has them), and a failing run (a fuzz reproducer) opens with
// its violation and witness events. Method:
// render pages for small runs (with and without a topology picture, with a violation added
// to a real result), check the tag balance with a small tokenizer and look for the parts.
#include <gtest/gtest.h>

#include <vector>

#include "reports/export.hpp"
#include "reports/html.hpp"
#include "reports/testing.hpp"

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

    explicit Fixture(const std::string& name) : scenario(load(name)) {
        run = run_collected(scenario);
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
