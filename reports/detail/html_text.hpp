// Small text helpers of the HTML report: escaping and number formatting.
// Private to reports/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace routesim::reports::detail {

/// Text made safe for HTML and SVG element content and quoted attribute values.
inline std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

/// `text` cut to `width_max` bytes with an ellipsis (never in the middle of a UTF-8 sequence).
inline std::string shorten(std::string_view text, std::size_t width_max) {
    if (text.size() <= width_max) {
        return std::string(text);
    }
    std::size_t cut = width_max > 1 ? width_max - 1 : 0;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
        cut--;
    }
    return std::string(text.substr(0, cut)) + "\xE2\x80\xA6"; // U+2026 HORIZONTAL ELLIPSIS
}

/// A table cell.
inline std::string cell(std::string_view text, std::string_view css_class = {}) {
    if (css_class.empty()) {
        return "<td>" + escape(text) + "</td>";
    }
    return "<td class=\"" + std::string(css_class) + "\">" + escape(text) + "</td>";
}

/// A right-aligned numeric table cell.
inline std::string number_cell(std::uint64_t value) {
    return "<td class=\"num\">" + std::to_string(value) + "</td>";
}

} // namespace routesim::reports::detail
