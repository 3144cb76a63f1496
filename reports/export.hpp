// Text exporters of the topology graph: Graphviz DOT and Mermaid (`graph TB`, in the style
// of the Router page's Use Cases diagrams), and the labels and colours they share.
// Part of reports/: uses the graph model only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/graph.hpp"

namespace routesim::reports {

/// The colours and Graphviz shape of a vertex kind (CSS hex colours).
struct KindStyle {
    std::string_view fill;
    std::string_view stroke;
    std::string_view dot_shape;
};

/// The style of a vertex kind; the HTML legend uses the same.
KindStyle kind_style(VertexKind kind);

/// The lines of a vertex label: name, kind and detail, then (run graphs) state and counts.
std::vector<std::string> vertex_label_lines(const VertexProps& vertex, bool from_run);

/// The parts of an edge label: the static hint, then the count when the edge has one.
std::vector<std::string> edge_label_parts(const EdgeProps& edge, bool from_run);

/// Graphviz DOT: nodes shaped and coloured by kind and final state, routing and registry
/// edges dashed, clients on the top rank, labels with counts. Deterministic text.
std::string to_dot(const TopologyGraph& graph);

/// Mermaid `graph TB`: routers as hexagons, supervisors as boxes, pools as subroutines,
/// actors rounded, clients as stadiums; routing edges `-.->`; classDef colours by kind and
/// state. Deterministic text.
std::string to_mermaid(const TopologyGraph& graph);

} // namespace routesim::reports
