// Routing rule evaluation.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#include "scenarios/run/rules.hpp"

#include <algorithm>
#include <exception>

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

const std::string type_field = "type";

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

CompiledRule::CompiledRule(const Rule& rule) : CompiledRule(rule, "", {}) {
}

CompiledRule::CompiledRule(const Rule& rule, std::string_view router_path,
                           std::vector<std::string> routes)
    : rule_(&rule), route_(route_atom(rule.route)), default_(route_atom(rule.default_route)) {
    for (const auto& [type, route] : rule.by_type) {
        by_type_.emplace(type, route_atom(route));
    }
    for (const std::string& route : rule.routes) {
        routes_.push_back(route_atom(route));
    }
    if (rule.kind == RuleKind::Hash && rule.routes.empty()) {
        constexpr std::uint64_t numbered_max = 4096; // larger counts intern on every pick
        numbered_.resize(static_cast<std::size_t>(std::min(rule.count, numbered_max)));
    }
    if (rule.kind == RuleKind::Custom) {
        make_custom(router_path, std::move(routes));
    }
}

void CompiledRule::make_custom(std::string_view router_path, std::vector<std::string> routes) {
    const RuleFactory* factory = registered_rule(rule_->custom);
    RS_ASSERT(factory != nullptr); // the loader accepted the name: it is registered
    route_names_ = std::move(routes);
    const std::string what = "registered rule \"" + rule_->custom + "\": ";
    try {
        custom_ = (*factory)(RuleSpec{router_path, route_names_, rule_->knobs});
    } catch (const std::exception& error) {
        error_ = what + "the factory threw: " + error.what();
        return;
    }
    if (custom_ == nullptr) {
        error_ = what + "the factory made no rule";
    }
}

runtime::Atom CompiledRule::apply_custom(const Json& message, const Json** hashed) {
    if (custom_ == nullptr) {
        return default_; // unreachable: the router's Init failed (error())
    }
    std::optional<Json> key = custom_->key(message);
    const std::string route = custom_->route(message);
    if (key.has_value() && hashed != nullptr) {
        key_ = std::move(*key);
        *hashed = &key_;
    }
    return route.empty() ? default_ : route_atom(route);
}

runtime::Atom CompiledRule::apply(const Json& message, const Json** hashed) {
    if (custom()) {
        return apply_custom(message, hashed);
    }
    return pick([&message](const std::string& name) { return field_of(message, name); }, hashed);
}

runtime::Atom CompiledRule::apply(const JsonMessage& message, const Json** hashed, Json& scratch) {
    if (custom()) {
        return apply_custom(message.json(), hashed);
    }
    return pick([&](const std::string& name) { return message.field(name, scratch); }, hashed);
}

template <class FieldOf>
runtime::Atom CompiledRule::pick(FieldOf&& field_of, const Json** hashed) {
    const Rule& rule = *rule_;
    switch (rule.kind) {
    case RuleKind::Discard:
    case RuleKind::Custom: // apply_custom
        return runtime::Atom();
    case RuleKind::Route:
        return route_;
    case RuleKind::ByType: {
        const Json* type = field_of(type_field);
        if (type != nullptr && type->is_string()) {
            auto found = by_type_.find(type->get_ref<const std::string&>());
            if (found != by_type_.end()) {
                return found->second;
            }
        }
        return default_;
    }
    case RuleKind::Field: {
        const Json* value = field_of(rule.field);
        if (value != nullptr && value->is_string() &&
            !value->get_ref<const std::string&>().empty() &&
            value->get_ref<const std::string&>().size() <= runtime::atom_length_max) {
            return runtime::Atom(value->get_ref<const std::string&>());
        }
        return default_;
    }
    case RuleKind::Hash: {
        const Json* value = field_of(rule.field);
        if (value == nullptr || value->is_null()) {
            return default_;
        }
        if (hashed != nullptr) {
            *hashed = value;
        }
        const std::uint64_t h = hash_value(*value);
        if (!routes_.empty()) {
            return routes_[h % routes_.size()];
        }
        RS_ASSERT(rule.count > 0);
        const std::uint64_t index = h % rule.count;
        if (index >= numbered_.size()) {
            return route_atom(rule.prefix + std::to_string(index));
        }
        std::optional<runtime::Atom>& name = numbered_[index];
        if (!name.has_value()) {
            name = route_atom(rule.prefix + std::to_string(index));
        }
        return *name;
    }
    }
    RS_ASSERT(false);
    return runtime::Atom();
}

} // namespace routesim::scenarios
