// Writing a report directory.
// Part of reports/: uses scenarios/run/runner.hpp's public API and the exporters of this folder.
#include "reports/report.hpp"

#include <fstream>
#include <system_error>

#include "reports/chrome_trace.hpp"
#include "reports/export.hpp"
#include "reports/graph.hpp"
#include "reports/html.hpp"
#include "reports/svg.hpp"

namespace routesim::reports {
namespace {

namespace fs = std::filesystem;

sim::Result<void, std::string> write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        return sim::fail("cannot open " + path.string() + " for writing");
    }
    out << text;
    out.close();
    if (!out) {
        return sim::fail("writing " + path.string() + " failed");
    }
    return {};
}

// The topology picture: runs Graphviz unless turned off or the graph is too big.
SvgRender picture(const fs::path& dir, const TopologyGraph& graph, const ReportOptions& options) {
    if (!options.render_svg) {
        return {false, "", "SVG rendering was turned off for this report."};
    }
    const std::size_t vertices = boost::num_vertices(graph);
    if (vertices > options.svg_vertices_max) {
        return {false, "",
                "The topology has " + std::to_string(vertices) + " vertices, more than the " +
                    std::to_string(options.svg_vertices_max) + " that are laid out as a picture."};
    }
    SvgRender render = render_svg(dir / "topology.dot", dir / "topology.svg");
    if (render.ok && inline_svg(render.svg).empty()) {
        return {false, "", "Graphviz wrote topology.svg without an <svg> element."};
    }
    return render;
}

} // namespace

CollectedRun run_collected(const scenarios::Scenario& scenario, scenarios::RunSettings settings,
                           CollectorOptions collector_options) {
    TraceCollector collector(collector_options);
    settings.extra_sinks.push_back(&collector);
    CollectedRun run;
    run.result = scenarios::run_scenario(scenario, settings);
    run.facts = collector.facts();
    return run;
}

sim::Result<void, std::string> prepare_report_dir(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
        return sim::fail("cannot create report directory " + dir.string() + ": " + error.message());
    }
    if (!fs::is_directory(dir, error)) {
        return sim::fail("report directory " + dir.string() + " is not a directory");
    }
    const fs::path probe = dir / ".routesim-report-probe";
    {
        std::ofstream out(probe, std::ios::binary | std::ios::trunc);
        if (!out) {
            return sim::fail("cannot write in report directory " + dir.string());
        }
    }
    fs::remove(probe, error);
    return {};
}

sim::Result<ReportFiles, std::string> write_report(const fs::path& dir,
                                                   const scenarios::Scenario& scenario,
                                                   const CollectedRun& run,
                                                   const ReportOptions& options) {
    ReportFiles files;
    const TopologyGraph graph = build_run_topology(scenario, run.result, run.facts);
    ReportPage page{
        .scenario = &scenario, .result = &run.result, .facts = &run.facts, .graph = &graph};
    page.source = options.source;
    page.replay = options.replay;
    page.labels = process_labels(scenario, run.facts);
    page.mermaid = to_mermaid(graph);
    page.timeline_rows = options.timeline_rows;
    const std::pair<std::string, std::string> texts[] = {
        {"topology.dot", to_dot(graph)},
        {"topology.mmd", page.mermaid},
        {"trace.json", to_chrome_trace(run.facts, page.labels, scenario.name).dump() + "\n"}};
    for (const auto& [name, text] : texts) {
        if (auto written = write_file(dir / name, text); !written) {
            return sim::fail(written.error());
        }
        files.written.push_back(dir / name);
    }
    const SvgRender render = picture(dir, graph, options);
    if (render.ok) {
        page.topology_svg = inline_svg(render.svg);
        files.has_picture = true;
        files.written.push_back(dir / "topology.svg");
    } else {
        page.topology_note = render.note;
        files.note = render.note;
    }
    if (auto written = write_file(dir / "index.html", render_html(page)); !written) {
        return sim::fail(written.error());
    }
    files.written.push_back(dir / "index.html");
    return files;
}

} // namespace routesim::reports
