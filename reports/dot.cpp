// The DOT exporter and the labels and colours every exporter shares.
// Part of reports/: uses the graph model only.
#include <algorithm>

#include "reports/export.hpp"
#include "sim/assert.hpp"

namespace routesim::reports {
namespace {

std::string dot_quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

// Several lines as one DOT label ("\n" centres each line).
std::string dot_label(const std::vector<std::string>& lines) {
    std::string joined;
    for (const std::string& line : lines) {
        std::string escaped = dot_quote(line);
        joined += (joined.empty() ? "" : "\\n") + escaped.substr(1, escaped.size() - 2);
    }
    return "\"" + joined + "\"";
}

std::string plural(std::uint64_t count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string vertex_attributes(const VertexProps& vertex, bool from_run) {
    const KindStyle style = kind_style(vertex.kind);
    std::string fill(style.fill);
    std::string stroke(style.stroke);
    std::string font = "#1a1a1a";
    std::string styles = vertex.kind == VertexKind::Actor ? "filled,rounded" : "filled";
    if (vertex.state == VertexState::Dead) {
        fill = "#e4e4e4";
        stroke = "#8a8a8a";
        font = "#6b6b6b";
        styles += ",dashed";
    } else if (vertex.state == VertexState::NeverStarted) {
        fill = "#ffffff";
        stroke = "#b0b0b0";
        font = "#8a8a8a";
        styles += ",dashed";
    }
    std::string out = "label=" + dot_label(vertex_label_lines(vertex, from_run)) +
                      ", shape=" + std::string(style.dot_shape) + ", style=\"" + styles +
                      "\", fillcolor=\"" + fill + "\", color=\"" + stroke + "\", fontcolor=\"" +
                      font + "\"";
    if (vertex.replicas > 1) {
        out += ", peripheries=2";
    }
    if (!vertex.last_fault.empty() || vertex.restarts > 0) {
        out += ", penwidth=2";
    }
    return out;
}

std::string_view edge_colour(EdgeKind kind) {
    switch (kind) {
    case EdgeKind::Supervises:
        return "#555555";
    case EdgeKind::PoolWorker:
        return "#2e7d32";
    case EdgeKind::Route:
        return "#c77700";
    case EdgeKind::Registry:
        return "#2f5fa8";
    case EdgeKind::Client:
        return "#7b1fa2";
    }
    return "#555555";
}

// Traffic edges get thicker with their share of the busiest edge: 1.0 .. 4.0 in tenths.
std::string pen_width(std::uint64_t messages, std::uint64_t busiest) {
    const std::uint64_t tenths = busiest == 0 ? 10 : 10 + (30 * messages) / busiest;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::string edge_attributes(const EdgeProps& edge, bool from_run, std::uint64_t busiest) {
    std::string out;
    const std::vector<std::string> parts = edge_label_parts(edge, from_run);
    if (!parts.empty()) {
        out += "label=" + dot_label(parts) + ", ";
    }
    const bool idle = from_run && edge.messages.has_value() && *edge.messages == 0;
    out += "color=\"" + std::string(idle ? "#c4c4c4" : edge_colour(edge.kind)) + "\"";
    out += ", fontcolor=\"" + std::string(idle ? "#9a9a9a" : edge_colour(edge.kind)) + "\"";
    if (edge.kind == EdgeKind::Route || edge.kind == EdgeKind::Registry) {
        out += ", style=dashed";
    }
    if (from_run && edge.messages.has_value()) {
        out += ", penwidth=" + pen_width(*edge.messages, busiest);
    }
    return out;
}

} // namespace

KindStyle kind_style(VertexKind kind) {
    switch (kind) {
    case VertexKind::Actor:
        return {"#f4f4f4", "#555555", "box"};
    case VertexKind::Supervisor:
        return {"#e3ecfa", "#2f5fa8", "box"};
    case VertexKind::Pool:
        return {"#e6f4ea", "#2e7d32", "folder"};
    case VertexKind::Router:
        return {"#fff1dc", "#c77700", "hexagon"};
    case VertexKind::Client:
        return {"#f6ecfa", "#7b1fa2", "ellipse"};
    }
    return {"#ffffff", "#000000", "box"};
}

std::vector<std::string> vertex_label_lines(const VertexProps& vertex, bool from_run) {
    std::string name = vertex.name;
    if (vertex.replicas > 1) {
        name += " \xC3\x97" + std::to_string(vertex.replicas); // U+00D7 MULTIPLICATION SIGN
    }
    std::vector<std::string> lines{name};
    if (vertex.kind != VertexKind::Client) {
        lines.push_back(std::string(vertex_kind_name(vertex.kind)) + ": " + vertex.detail);
    }
    if (!from_run) {
        return lines;
    }
    std::string state(vertex_state_name(vertex.state));
    if (vertex.replicas > 1 || vertex.incarnations.size() > 1) {
        state =
            std::to_string(vertex.alive) + " alive of " + plural(vertex.incarnations.size(), "pid");
    } else if (vertex.state == VertexState::Dead && !vertex.last_fault.empty()) {
        state += " (" + vertex.last_fault + ")";
    }
    if (vertex.kind != VertexKind::Client && vertex.state != VertexState::NeverStarted) {
        state += ", took " + std::to_string(vertex.taken);
    }
    lines.push_back(state);
    if (vertex.restarts > 0) {
        lines.push_back(plural(vertex.restarts, "restart"));
    }
    return lines;
}

std::vector<std::string> edge_label_parts(const EdgeProps& edge, bool from_run) {
    std::vector<std::string> parts;
    if (!edge.label.empty()) {
        parts.push_back(edge.label);
    }
    if (edge.messages.has_value()) {
        const std::uint64_t count = *edge.messages;
        if (from_run) {
            parts.push_back(plural(count, "msg"));
        } else if (edge.kind == EdgeKind::Client) {
            parts.back() += " \xC3\x97" + std::to_string(count);
        }
    }
    return parts;
}

std::string to_dot(const TopologyGraph& graph) {
    const GraphProps& props = graph[boost::graph_bundle];
    std::string out = "digraph " + dot_quote(props.name) + " {\n";
    out += "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=13, nodesep=0.35, "
           "ranksep=0.55, labelloc=t, label=" +
           dot_quote(props.name) + "];\n";
    out += "  node [fontname=\"Helvetica\", fontsize=11, margin=\"0.12,0.06\"];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];\n";
    std::uint64_t busiest = 0;
    for (const Edge edge : boost::make_iterator_range(boost::edges(graph))) {
        busiest = std::max(busiest, graph[edge].messages.value_or(0));
    }
    std::string clients;
    for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph))) {
        const std::string id = "v" + std::to_string(vertex);
        out += "  " + id + " [" + vertex_attributes(graph[vertex], props.from_run) + "];\n";
        if (graph[vertex].kind == VertexKind::Client) {
            clients += " " + id + ";";
        }
    }
    if (!clients.empty()) {
        out += "  { rank=min;" + clients + " }\n";
    }
    for (const Edge edge : boost::make_iterator_range(boost::edges(graph))) {
        out += "  v" + std::to_string(boost::source(edge, graph)) + " -> v" +
               std::to_string(boost::target(edge, graph)) + " [" +
               edge_attributes(graph[edge], props.from_run, busiest) + "];\n";
    }
    out += "}\n";
    RS_ASSERT(out.ends_with("}\n"));
    return out;
}

} // namespace routesim::reports
