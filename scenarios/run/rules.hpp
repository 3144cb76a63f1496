// Routing rules of scenario routers (scenarios/FORMAT.md "Routing rules"): discard, by_type,
// hash (route list or prefix + count), field and route, each with a default.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/gen.hpp"
#include "scenarios/format/topology.hpp"
#include "scenarios/run/json_message.hpp"
#include "scenarios/run/registry.hpp"

namespace routesim::scenarios {

/// A rule ready to route: its route names are interned once, so a message costs a field
/// lookup and a hash, no string building (a prefix/count hash rule interns each numbered name
/// the first time it is picked). Keeps a reference to the rule.
class CompiledRule {
public:
    explicit CompiledRule(const Rule& rule);
    /// A rule of the router at `router_path` with these routes (a registered rule is made
    /// from its factory here, and sees them).
    CompiledRule(const Rule& rule, std::string_view router_path, std::vector<std::string> routes);
    /// The route name the rule picks for `message` (a JSON object); RouteDiscard (the empty
    /// Atom) for "discard". Hash values: an integer field is used as its 64-bit two's
    /// complement value, any other value (a string's bytes, or the compact JSON of anything
    /// else) through FNV-1a 64. A hash rule that hashed a field points `hashed` at it.
    runtime::Atom apply(const Json& message, const Json** hashed = nullptr);
    /// The same for a message payload, read through JsonMessage::field (a workload message
    /// made from its template is routed without making its JSON); a "$i" field's value is
    /// put in `scratch`, where `hashed` may then point.
    runtime::Atom apply(const JsonMessage& message, const Json** hashed, Json& scratch);
    const Rule& rule() const { return *rule_; }
    /// Whether this is a registered rule (its answers may depend on its state: never
    /// memoised per message).
    bool custom() const { return rule_->kind == RuleKind::Custom; }
    /// Why a registered rule's factory made no rule (its router's Init fails with it), or "".
    const std::string& error() const { return error_; }

private:
    /// Makes the registered rule (or records why its factory made none).
    void make_custom(std::string_view router_path, std::vector<std::string> routes);
    /// A registered rule's answer for `message`; a key it names goes to `key_`.
    runtime::Atom apply_custom(const Json& message, const Json** hashed);

    /// apply's body over a field lookup `field_of(name) -> const Json*`.
    template <class FieldOf>
    runtime::Atom pick(FieldOf&& field_of, const Json** hashed);

    const Rule* rule_;
    runtime::Atom route_;                                       // route
    runtime::Atom default_;                                     // default_route
    std::map<std::string, runtime::Atom, std::less<>> by_type_; // by_type
    std::vector<runtime::Atom> routes_;                         // hash with a route list
    std::vector<std::optional<runtime::Atom>> numbered_;        // hash with prefix/count, lazily
    std::vector<std::string> route_names_;                      // what a registered rule sees
    std::unique_ptr<RoutingRule> custom_;                       // a registered rule
    Json key_;                                                  // its last key
    std::string error_;                                         // its factory's failure
};

/// The 64-bit hash of a field value as the hash rule defines it.
std::uint64_t hash_value(const Json& value);

} // namespace routesim::scenarios
