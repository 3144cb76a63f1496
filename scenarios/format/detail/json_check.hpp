// Loader internals: parsing the raw text into a document while checking JSON syntax, duplicate
// keys and nesting depth. Private to scenarios/; never throws.
#pragma once

#include <cstdint>
#include <string_view>

#include "scenarios/format/detail/reader.hpp"

namespace routesim::scenarios::detail {

/// Parses `text` into `out` when it is exactly one JSON value with no duplicate key in any
/// object and no array or object nested deeper than `depth_max`. Otherwise records the error
/// and returns false: syntax errors with pointer "" and the line, column and byte; the other
/// two at their pointer. Cost: one pass over the text.
bool parse_json_text(Errors& errors, std::string_view text, std::uint32_t depth_max, Json& out);

} // namespace routesim::scenarios::detail
