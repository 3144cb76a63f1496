// Routing rule evaluation.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#include "scenarios/rules.hpp"

#include "sim/assert.hpp"
#include "sim/prng.hpp"

namespace routesim::scenarios {
namespace {

runtime::Atom route_atom(const std::string& name) {
    // RouteDiscard is the empty Atom (R3); a name no Atom can hold resolves to nothing.
    if (name == discard_route || name.empty() || name.size() > runtime::atom_length_max) {
        return runtime::Atom();
    }
    return runtime::Atom(name);
}

const Json* field_of(const Json& message, const std::string& field) {
    if (!message.is_object()) {
        return nullptr;
    }
    auto found = message.find(field);
    return found == message.end() ? nullptr : &*found;
}

} // namespace

std::uint64_t hash_value(const Json& value) {
    if (value.is_number_unsigned()) {
        return value.get<std::uint64_t>();
    }
    if (value.is_number_integer()) {
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    }
    if (value.is_string()) {
        return sim::fnv1a64(value.get_ref<const std::string&>());
    }
    return sim::fnv1a64(value.dump());
}

runtime::Atom apply_rule(const Rule& rule, const Json& message) {
    switch (rule.kind) {
    case RuleKind::Discard:
        return runtime::Atom();
    case RuleKind::Route:
        return route_atom(rule.route);
    case RuleKind::ByType: {
        const Json* type = field_of(message, "type");
        if (type != nullptr && type->is_string()) {
            auto found = rule.by_type.find(type->get_ref<const std::string&>());
            if (found != rule.by_type.end()) {
                return route_atom(found->second);
            }
        }
        return route_atom(rule.default_route);
    }
    case RuleKind::Field: {
        const Json* value = field_of(message, rule.field);
        if (value != nullptr && value->is_string() && !value->get_ref<const std::string&>().empty() &&
            value->get_ref<const std::string&>().size() <= runtime::atom_length_max) {
            return runtime::Atom(value->get_ref<const std::string&>());
        }
        return route_atom(rule.default_route);
    }
    case RuleKind::Hash: {
        const Json* value = field_of(message, rule.field);
        if (value == nullptr || value->is_null()) {
            return route_atom(rule.default_route);
        }
        const std::uint64_t h = hash_value(*value);
        if (!rule.routes.empty()) {
            return route_atom(rule.routes[h % rule.routes.size()]);
        }
        RS_ASSERT(rule.count > 0);
        return route_atom(rule.prefix + std::to_string(h % rule.count));
    }
    }
    RS_ASSERT(false);
    return runtime::Atom();
}

} // namespace routesim::scenarios
