// The registered behaviour and rule names (a std::map per table: sorted, deterministic).
// Part of scenarios/format/: uses the model (its built-in spellings).
#include "scenarios/format/registry.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>

#include "runtime/gen.hpp"
#include "scenarios/format/model.hpp"

namespace routesim::scenarios {
namespace {

using Table = std::map<std::string, RegisteredType, std::less<>>;

/// Function-local statics: constructed on first use, so registering from another file's
/// static initializer is safe whatever the initialization order.
Table& table_of(RegistryTable table) {
    static Table behaviours;
    static Table rules;
    return table == RegistryTable::Behaviour ? behaviours : rules;
}

bool is_builtin(RegistryTable table, std::string_view name) {
    const Spellings names =
        table == RegistryTable::Behaviour ? spellings(BehaviourType{}) : spellings(RuleKind{});
    return std::find(names.names.begin(), names.names.end(), name) != names.names.end();
}

/// The fields every behaviour object has already, or that name a built-in rule: a knob may not
/// reuse them.
bool is_reserved_knob(RegistryTable table, std::string_view knob) {
    constexpr std::array<std::string_view, 6> behaviour_fields = {
        "type", "cost", "crash_on", "init", "terminate_cost", "ignore_calls"};
    if (table == RegistryTable::Rule) {
        constexpr std::array<std::string_view, 6> rule_fields = {"type", "default", "by_type",
                                                                 "hash", "field",   "route"};
        return std::find(rule_fields.begin(), rule_fields.end(), knob) != rule_fields.end();
    }
    return std::find(behaviour_fields.begin(), behaviour_fields.end(), knob) !=
           behaviour_fields.end();
}

} // namespace

void register_type_name(RegistryTable table, RegisteredType type) {
    const std::string what = table == RegistryTable::Behaviour ? "behavior" : "routing rule";
    if (type.name.empty() || type.name.size() > runtime::atom_length_max) {
        throw std::invalid_argument("routesim: a registered " + what +
                                    " name must be 1 to 255 bytes long");
    }
    if (is_builtin(table, type.name)) {
        throw std::invalid_argument("routesim: cannot register " + what + " \"" + type.name +
                                    "\": it is a built-in " + what + " type");
    }
    Table& names = table_of(table);
    if (names.contains(type.name)) {
        throw std::invalid_argument("routesim: " + what + " \"" + type.name +
                                    "\" is registered twice");
    }
    for (const std::string& knob : type.knobs) {
        if (knob.empty() || is_reserved_knob(table, knob)) {
            throw std::invalid_argument("routesim: " + what + " \"" + type.name +
                                        "\": a knob may not be named \"" + knob +
                                        "\" (a field of every " + what + " or of a built-in one)");
        }
    }
    std::string name = type.name;
    names.emplace(std::move(name), std::move(type));
}

const RegisteredType* registered_type(RegistryTable table, std::string_view name) {
    const Table& names = table_of(table);
    const auto found = names.find(name);
    return found == names.end() ? nullptr : &found->second;
}

std::vector<std::string_view> registered_names(RegistryTable table) {
    std::vector<std::string_view> names;
    for (const auto& [name, type] : table_of(table)) {
        names.emplace_back(name);
    }
    return names;
}

} // namespace routesim::scenarios
