// The names of the behaviours and routing rules registered by a program that embeds routesim
// (routesim::register_behavior / register_rule of scenarios/run/registry.hpp record them here),
// with the knobs each one takes: what the loader accepts as a behaviour `type` or a rule
// `{"type": ...}` besides the built-ins. Plain data; the factories live in scenarios/run/.
// Part of scenarios/format/: uses the model (its built-in spellings).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace routesim::scenarios {

/// A knob value a registered type's check rejects: which knob, and what it expects there
/// ("a positive integer"); the loader reports `expected <expected>, got <value>` at the knob.
struct KnobError {
    std::string knob;
    std::string expected;
};

/// Checks the knobs a file gives a registered type (an object holding only registered knobs):
/// nullopt when they are fine.
using KnobCheck = std::function<std::optional<KnobError>(const nlohmann::json& knobs)>;

/// What the loader knows of one registered type: the knob fields a file may give it (beside
/// `type` and, for behaviours, the common knobs of every worker; for rules, `default`), and
/// the check of their values (none: any JSON value).
struct RegisteredType {
    std::string name;
    std::vector<std::string> knobs;
    KnobCheck check;
};

/// Which table a name is registered in.
enum class RegistryTable : unsigned char { Behaviour, Rule };

/// Records a name. Throws std::invalid_argument, naming the problem, when the name is empty,
/// longer than an Atom, a built-in type of that table or already registered, or when a knob
/// is empty or reuses a common field (a behaviour's type, cost, crash_on, init,
/// terminate_cost, ignore_calls; a rule's type, default, by_type, hash, field, route). Not
/// thread-safe: register before loading scenarios (before main() or at its start).
void register_type_name(RegistryTable table, RegisteredType type);

/// The registered type `name` of `table`, or nullptr.
const RegisteredType* registered_type(RegistryTable table, std::string_view name);

/// The registered names of `table`, sorted.
std::vector<std::string_view> registered_names(RegistryTable table);

} // namespace routesim::scenarios
