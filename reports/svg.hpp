// SVG pictures of the topology through Graphviz: runs `dot -Tsvg` found on PATH. Without
// Graphviz there is no picture, only a note saying why.
// Part of reports/: uses the standard library and POSIX process spawning.
#pragma once

#include <filesystem>
#include <string>

namespace routesim::reports {

/// The SVG text of a rendering, or the reason there is none.
struct SvgRender {
    bool ok = false;
    /// The SVG document as Graphviz wrote it (when ok).
    std::string svg;
    /// Why there is no picture (when not ok), one sentence for people.
    std::string note;
};

/// Renders `dot_file` to `svg_file` with `dot -Tsvg`, then reads it back. Graphviz missing,
/// failing or writing nothing is not an error of the caller: the result says why.
/// Cost: one process spawn; Graphviz layout time.
SvgRender render_svg(const std::filesystem::path& dot_file, const std::filesystem::path& svg_file);

/// The `<svg ...>...</svg>` element of an SVG document, without the XML prolog and doctype,
/// ready to inline in HTML; "" when there is none.
std::string inline_svg(const std::string& document);

} // namespace routesim::reports
