// The Mermaid exporter: `graph TB` in the style of router.md's Use Cases diagrams.
// Part of reports/: uses the graph model only.
#include <set>

#include "reports/export.hpp"

namespace routesim::reports {
namespace {

// Mermaid entity codes keep quotes and angle brackets out of the syntax.
std::string mermaid_text(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "#quot;";
            break;
        case '<':
            out += "#lt;";
            break;
        case '>':
            out += "#gt;";
            break;
        case '\n':
            out += ' ';
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const std::string& part : parts) {
        out += (out.empty() ? "" : std::string(separator)) + mermaid_text(part);
    }
    return out;
}

std::string node_shape(VertexKind kind, const std::string& label) {
    const std::string quoted = "\"" + label + "\"";
    switch (kind) {
    case VertexKind::Router:
        return "{{" + quoted + "}}";
    case VertexKind::Supervisor:
        return "[" + quoted + "]";
    case VertexKind::Pool:
        return "[[" + quoted + "]]";
    case VertexKind::Actor:
        return "(" + quoted + ")";
    case VertexKind::Client:
        return "([" + quoted + "])";
    }
    return "[" + quoted + "]";
}

std::string class_of(const VertexProps& vertex) {
    switch (vertex.state) {
    case VertexState::Dead:
        return "dead";
    case VertexState::NeverStarted:
        return "never";
    case VertexState::Static:
    case VertexState::Alive:
        break;
    }
    return std::string(vertex_kind_name(vertex.kind));
}

std::string arrow(const EdgeProps& edge, bool from_run) {
    const bool dashed = edge.kind == EdgeKind::Route || edge.kind == EdgeKind::Registry;
    const std::vector<std::string> parts = edge_label_parts(edge, from_run);
    const std::string body = dashed ? "-.->" : "-->";
    if (parts.empty()) {
        return " " + body + " ";
    }
    return " " + body + "|\"" + join(parts, " · ") + "\"| ";
}

} // namespace

std::string to_mermaid(const TopologyGraph& graph) {
    const bool from_run = graph[boost::graph_bundle].from_run;
    std::string out = "graph TB\n";
    std::set<std::string> classes;
    for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph))) {
        const VertexProps& props = graph[vertex];
        out += "v" + std::to_string(vertex) +
               node_shape(props.kind, join(vertex_label_lines(props, from_run), "<br/>")) + "\n";
        classes.insert(class_of(props));
    }
    for (const Edge edge : boost::make_iterator_range(boost::edges(graph))) {
        out += "v" + std::to_string(boost::source(edge, graph)) + arrow(graph[edge], from_run) +
               "v" + std::to_string(boost::target(edge, graph)) + "\n";
    }
    for (const VertexKind kind : {VertexKind::Actor, VertexKind::Supervisor, VertexKind::Pool,
                                  VertexKind::Router, VertexKind::Client}) {
        const std::string name(vertex_kind_name(kind));
        if (classes.contains(name)) {
            const KindStyle style = kind_style(kind);
            out += "classDef " + name + " fill:" + std::string(style.fill) +
                   ",stroke:" + std::string(style.stroke) + "\n";
        }
    }
    if (classes.contains("dead")) {
        out += "classDef dead fill:#e4e4e4,stroke:#8a8a8a,color:#6b6b6b,stroke-dasharray:4 3\n";
    }
    if (classes.contains("never")) {
        out += "classDef never fill:#ffffff,stroke:#b0b0b0,color:#8a8a8a,stroke-dasharray:4 3\n";
    }
    for (const Vertex vertex : boost::make_iterator_range(boost::vertices(graph))) {
        out += "class v" + std::to_string(vertex) + " " + class_of(graph[vertex]) + "\n";
    }
    return out;
}

} // namespace routesim::reports
