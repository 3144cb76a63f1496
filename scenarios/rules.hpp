// Routing rules of scenario routers (scenario-format.md "Routing rules"): discard, by_type,
// hash (route list or prefix + count), field and route, each with a default.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/gen.hpp"
#include "scenarios/topology.hpp"

namespace routesim::scenarios {

/// The route name `rule` picks for `message` (a JSON object); RouteDiscard (the empty Atom)
/// for "discard". Hash values: an integer field is used as its 64-bit two's complement value,
/// any other value (a string's bytes, or the compact JSON of anything else) through FNV-1a 64.
runtime::Atom apply_rule(const Rule& rule, const Json& message);

/// The 64-bit hash of a field value as the hash rule defines it.
std::uint64_t hash_value(const Json& value);

} // namespace routesim::scenarios
