// Loader internals: the parts of a node that are not nodes: routing rules and behaviours.
// Private to scenarios/; never throws.
#include <algorithm>
#include <array>

#include "scenarios/format/detail/parse.hpp"
#include "scenarios/format/registry.hpp"

namespace routesim::scenarios::detail {
namespace {

constexpr std::array<std::string_view, 4> rule_keys = {"by_type", "hash", "field", "route"};
constexpr std::string_view rule_choices = "by_type, hash, field, route, discard";
constexpr std::string_view what_rule =
    "a rule (\"discard\" or an object with one of: by_type, hash, field, route)";

/// The rule keys present in a rule object, in rule_keys order.
std::vector<std::string_view> present_rule_keys(const Json& object) {
    std::vector<std::string_view> present;
    for (std::string_view key : rule_keys) {
        if (object.contains(key)) {
            present.push_back(key);
        }
    }
    return present;
}

/// ", or {"type": R} with R a registered rule: a, b" when rules are registered, else "".
std::string registered_rule_choices() {
    const std::vector<std::string_view> names = registered_names(RegistryTable::Rule);
    return names.empty() ? std::string()
                         : ", or {\"type\": R} with R a registered rule: " + join(names);
}

bool fail_no_rule(Errors& errors, const Located& at) {
    for (const auto& item : at.json().items()) {
        if (item.key() != "default") {
            return errors.fail(at.pointer, "unknown rule " + quote(item.key()) +
                                               " (expected one of: " + std::string(rule_choices) +
                                               registered_rule_choices() + ")");
        }
    }
    return errors.fail(at.pointer, "rule object names no rule (expected one of: " +
                                       std::string(rule_choices) + registered_rule_choices() + ")");
}

/// Runs a registered type's knob check; a rejected knob is reported at its own pointer.
bool check_knobs(Errors& errors, const Located& at, const RegisteredType& type, const Json& knobs) {
    if (!type.check) {
        return true;
    }
    const std::optional<KnobError> error = type.check(knobs);
    if (!error.has_value()) {
        return true;
    }
    if (knobs.contains(error->knob)) {
        return fail_type(errors, at.member(error->knob), error->expected);
    }
    return errors.fail(at.pointer, quote(type.name) + " needs knob " + quote(error->knob) +
                                       " (expected " + error->expected + ")");
}

/// A registered rule: {"type": name, "default": route, ...its knobs}.
bool parse_custom_rule(Errors& errors, const Located& at, Rule& out) {
    const Located type = at.member("type");
    const std::vector<std::string_view> names = registered_names(RegistryTable::Rule);
    const std::string expected =
        names.empty() ? std::string("no routing rule is registered by this program; expected "
                                    "one of: ") +
                            std::string(rule_choices)
                      : "expected a registered rule: " + join(names);
    if (!type.json().is_string()) {
        return fail_type(errors, type, "a registered rule's name (" + expected + ")");
    }
    const auto& name = type.json().get_ref<const std::string&>();
    const RegisteredType* registered = registered_type(RegistryTable::Rule, name);
    if (registered == nullptr) {
        return errors.fail(type.pointer,
                           "unknown rule type " + quote(name) + " (" + expected + ")");
    }
    std::vector<std::string_view> known = {"type", "default"};
    known.insert(known.end(), registered->knobs.begin(), registered->knobs.end());
    const Fields fields(errors, at);
    if (!fields.only(known)) {
        return false;
    }
    out.kind = RuleKind::Custom;
    out.custom = name;
    for (const std::string& knob : registered->knobs) {
        if (fields.has(knob)) {
            out.knobs[knob] = fields.at(knob).json();
        }
    }
    return check_knobs(errors, at, *registered, out.knobs) &&
           fields.atom("default", out.default_route, Need::Optional,
                       "a route name (an Atom) or \"discard\"");
}

bool parse_by_type(Errors& errors, const Fields& fields, Rule& out) {
    if (!fields.only({"by_type", "default"})) {
        return false;
    }
    const Located map = fields.at("by_type");
    if (!expect_object(errors, map, "an object from message type to route name")) {
        return false;
    }
    for (const auto& item : map.json().items()) {
        std::string route;
        if (!read_atom(errors, map.member(item.key()), route,
                       "a route name (an Atom) or \"discard\"")) {
            return false;
        }
        out.by_type.emplace(item.key(), std::move(route));
    }
    return true;
}

bool parse_hash(Errors& errors, const Fields& fields, Rule& out) {
    if (!fields.only({"hash", "routes", "prefix", "count", "default"}) ||
        !fields.atom("hash", out.field, Need::Required, "a message field name (an Atom)")) {
        return false;
    }
    const bool has_routes = fields.has("routes");
    const bool has_table = fields.has("prefix") || fields.has("count");
    if (has_routes && has_table) {
        return errors.fail(fields.object().pointer,
                           "hash rule has both \"routes\" and \"prefix\"/\"count\" (expected "
                           "either a route list or a prefix with a count)");
    }
    if (!has_routes && !has_table) {
        return errors.fail(fields.object().pointer,
                           "hash rule needs \"routes\" or \"prefix\" with \"count\" (expected "
                           "{\"hash\": field, \"routes\": [...]} or {\"hash\": field, "
                           "\"prefix\": P, \"count\": N})");
    }
    if (has_table) {
        return fields.string("prefix", out.prefix, Need::Required) &&
               fields.u64("count", out.count, IntRange{.min = 1}, Need::Required);
    }
    const Located routes = fields.at("routes");
    if (!expect_array(errors, routes, "a non-empty array of route names")) {
        return false;
    }
    if (routes.json().empty()) {
        return fail_type(errors, routes, "a non-empty array of route names");
    }
    out.routes.resize(routes.json().size());
    for (std::size_t i = 0; i < out.routes.size(); i++) {
        if (!read_atom(errors, routes.element(i), out.routes[i], "a route name (an Atom)")) {
            return false;
        }
    }
    return true;
}

} // namespace

bool parse_rule(Errors& errors, const Located& at, Rule& out) {
    out = Rule{.pointer = at.pointer};
    if (at.json().is_string()) {
        const auto& text = at.json().get_ref<const std::string&>();
        if (text == discard_route) {
            return true;
        }
        const std::string hint =
            registered_type(RegistryTable::Rule, text) != nullptr
                ? "; a registered rule is written {\"type\": " + quote(text) + "}"
                : std::string();
        return errors.fail(at.pointer, "unknown rule " + quote(text) + " (expected one of: " +
                                           std::string(rule_choices) + ")" + hint);
    }
    if (!expect_object(errors, at, what_rule)) {
        return false;
    }
    const std::vector<std::string_view> present = present_rule_keys(at.json());
    if (at.json().contains("type")) {
        if (!present.empty()) {
            return errors.fail(at.pointer, "rule has both \"type\" and " + quote(present[0]) +
                                               " (expected a registered rule {\"type\": R} "
                                               "or one of: by_type, hash, field, route)");
        }
        return parse_custom_rule(errors, at, out);
    }
    if (present.empty()) {
        return fail_no_rule(errors, at);
    }
    if (present.size() > 1) {
        return errors.fail(at.pointer, "rule has both " + quote(present[0]) + " and " +
                                           quote(present[1]) +
                                           " (expected exactly one of: by_type, hash, field, "
                                           "route)");
    }
    const Fields fields(errors, at);
    bool parsed = false;
    if (present[0] == "by_type") {
        out.kind = RuleKind::ByType;
        parsed = parse_by_type(errors, fields, out);
    } else if (present[0] == "hash") {
        out.kind = RuleKind::Hash;
        parsed = parse_hash(errors, fields, out);
    } else if (present[0] == "field") {
        out.kind = RuleKind::Field;
        parsed = fields.only({"field", "default"}) &&
                 fields.atom("field", out.field, Need::Required, "a message field name (an Atom)");
    } else {
        out.kind = RuleKind::Route;
        parsed = fields.only({"route", "default"}) &&
                 fields.atom("route", out.route, Need::Required, "a route name (an Atom)");
    }
    return parsed && fields.atom("default", out.default_route, Need::Optional,
                                 "a route name (an Atom) or \"discard\"");
}

namespace {

bool parse_crash_on(Errors& errors, const Located& at, CrashOn& out) {
    constexpr std::string_view what = "{\"nth\": n} or {\"type\": T}";
    if (!expect_object(errors, at, what)) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"nth", "type"})) {
        return false;
    }
    if (fields.has("nth") == fields.has("type")) {
        return errors.fail(at.pointer, "crash_on takes exactly one of \"nth\" or \"type\" "
                                       "(expected " +
                                           std::string(what) + ")");
    }
    if (fields.has("nth")) {
        std::uint64_t nth = 0;
        if (!fields.u64("nth", nth, IntRange{.min = 1})) {
            return false;
        }
        out.nth = nth;
        return true;
    }
    std::string type;
    if (!fields.atom("type", type, Need::Required, "a message type (an Atom)")) {
        return false;
    }
    out.type = std::move(type);
    return true;
}

bool parse_init(Errors& errors, const Located& at, InitFailure& out) {
    constexpr std::string_view what = "{\"fail\": true} or {\"fail_first\": k}";
    if (!expect_object(errors, at, what)) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"fail", "fail_first"})) {
        return false;
    }
    if (fields.has("fail") == fields.has("fail_first")) {
        return errors.fail(at.pointer, "init takes exactly one of \"fail\" or \"fail_first\" "
                                       "(expected " +
                                           std::string(what) + ")");
    }
    return fields.boolean("fail", out.fail) && fields.u64("fail_first", out.fail_first);
}

constexpr std::array<std::string_view, 6> behaviour_fields = {
    "type", "cost", "crash_on", "init", "terminate_cost", "ignore_calls"};

/// Reads `type`: a built-in behaviour, or a registered one (Custom, with its name). The
/// error lists the registered names after the built-ins.
bool parse_behaviour_type(Errors& errors, const Fields& fields, Behaviour& out) {
    const std::vector<std::string_view> registered = registered_names(RegistryTable::Behaviour);
    if (registered.empty() || !fields.has("type")) {
        return fields.enumeration("type", out.type, Need::Required);
    }
    const Spellings builtins = spellings(BehaviourType{});
    std::vector<std::string_view> names(builtins.names.begin(), builtins.names.end());
    names.insert(names.end(), registered.begin(), registered.end());
    std::size_t index = 0;
    if (!read_spelled(errors, fields.at("type"), Spellings{builtins.noun, names}, index)) {
        return false;
    }
    if (index < builtins.names.size()) {
        out.type = static_cast<BehaviourType>(index);
        return true;
    }
    out.type = BehaviourType::Custom;
    out.custom = std::string(names[index]);
    return true;
}

/// The fields a behaviour of `out.type` takes: the common knobs, echo's "reply", forward's
/// "to", or a registered behaviour's own knobs (copied into out.knobs).
std::vector<std::string_view> behaviour_known_fields(const Fields& fields, Behaviour& out) {
    std::vector<std::string_view> known(behaviour_fields.begin(), behaviour_fields.end());
    if (out.type == BehaviourType::Echo) {
        known.push_back("reply");
    }
    if (out.type == BehaviourType::Forward) {
        known.push_back("to");
    }
    if (out.type == BehaviourType::Custom) {
        const RegisteredType* registered = registered_type(RegistryTable::Behaviour, out.custom);
        RS_ASSERT(registered != nullptr);
        for (const std::string& knob : registered->knobs) {
            known.emplace_back(knob);
            if (fields.has(knob)) {
                out.knobs[knob] = fields.at(knob).json();
            }
        }
    }
    return known;
}

} // namespace

bool parse_behaviour(Errors& errors, const Located& at, Behaviour& out) {
    if (!expect_object(errors, at, "a behavior object with \"type\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!parse_behaviour_type(errors, fields, out)) {
        return false;
    }
    // Every type takes the common knobs; echo adds "reply", forward adds "to".
    const std::vector<std::string_view> known = behaviour_known_fields(fields, out);
    if (!fields.only(known) || !fields.duration("cost", out.cost) ||
        !fields.duration("terminate_cost", out.terminate_cost) ||
        !fields.boolean("ignore_calls", out.ignore_calls) || !fields.boolean("reply", out.reply)) {
        return false;
    }
    if (fields.has("crash_on")) {
        CrashOn crash_on;
        if (!parse_crash_on(errors, fields.at("crash_on"), crash_on)) {
            return false;
        }
        out.crash_on = std::move(crash_on);
    }
    if (fields.has("init") && !parse_init(errors, fields.at("init"), out.init)) {
        return false;
    }
    if (out.type == BehaviourType::Custom &&
        !check_knobs(errors, at, *registered_type(RegistryTable::Behaviour, out.custom),
                     out.knobs)) {
        return false;
    }
    return out.type != BehaviourType::Forward ||
           fields.atom("to", out.to, Need::Required, what_target);
}

} // namespace routesim::scenarios::detail
