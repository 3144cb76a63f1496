// The factories of registered behaviours and rules (a std::map each, built on first use);
// their names go to the loader's table (scenarios/format/registry.hpp).
// Part of scenarios/: uses runtime/, sim/ and nlohmann_json.
#include "scenarios/run/registry.hpp"

#include <map>
#include <stdexcept>

#include "scenarios/format/registry.hpp"

namespace routesim {
namespace {

template <class Factory>
std::map<std::string, Factory, std::less<>>& factories() {
    static std::map<std::string, Factory, std::less<>> table;
    return table;
}

template <class Factory>
void add(scenarios::RegistryTable table, std::string name, Factory factory,
         std::vector<std::string> knobs, KnobCheck check) {
    if (!factory) {
        throw std::invalid_argument("routesim: registering \"" + name + "\" without a factory");
    }
    // The name table checks the name and the knobs, and throws before anything is kept.
    scenarios::register_type_name(
        table, scenarios::RegisteredType{name, std::move(knobs), std::move(check)});
    factories<Factory>().emplace(std::move(name), std::move(factory));
}

template <class Factory>
const Factory* find(std::string_view name) {
    const auto& table = factories<Factory>();
    const auto found = table.find(name);
    return found == table.end() ? nullptr : &found->second;
}

} // namespace

void register_behavior(std::string name, BehaviorFactory factory, std::vector<std::string> knobs,
                       KnobCheck check) {
    add(scenarios::RegistryTable::Behaviour, std::move(name), std::move(factory), std::move(knobs),
        std::move(check));
}

void register_rule(std::string name, RuleFactory factory, std::vector<std::string> knobs,
                   KnobCheck check) {
    add(scenarios::RegistryTable::Rule, std::move(name), std::move(factory), std::move(knobs),
        std::move(check));
}

const BehaviorFactory* registered_behavior(std::string_view name) {
    return find<BehaviorFactory>(name);
}

const RuleFactory* registered_rule(std::string_view name) {
    return find<RuleFactory>(name);
}

} // namespace routesim
