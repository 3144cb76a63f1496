// Loader internals: `expect` objects (end of run and `check` actions).
// Private to scenarios/; never throws. Targets are only shaped here; validate.cpp resolves them.
#include <algorithm>
#include <array>
#include <set>

#include "runtime/events.hpp"
#include "scenarios/format/detail/parse.hpp"

namespace routesim::scenarios::detail {
namespace {

/// Fails unless an object key is an Atom (targets, route names, types are keys here).
bool check_key(Errors& errors, const Located& value, const std::string& key,
               std::string_view what) {
    if (!key.empty() && key.size() <= 255) {
        return true;
    }
    return errors.fail(value.pointer, "key " + quote(key) + " is not " + std::string(what) +
                                          " (expected a non-empty string of at most 255 bytes)");
}

/// Reads an object whose keys are Atoms, calling `read` on each member.
template <class Read>
bool read_map(Errors& errors, const Located& at, std::string_view what_object,
              std::string_view what_key, Read read) {
    if (!expect_object(errors, at, what_object)) {
        return false;
    }
    for (const auto& item : at.json().items()) {
        const Located member = at.member(item.key());
        if (!check_key(errors, member, item.key(), what_key) || !read(item.key(), member)) {
            return false;
        }
    }
    return true;
}

bool read_counts(Errors& errors, const Located& at, bool error_names,
                 std::map<std::string, std::uint64_t>& out) {
    const std::string_view what_object = error_names ? "an object from Ergo error name to count"
                                                     : "an object from message type to count";
    return read_map(
        errors, at, what_object, "a name", [&](const std::string& key, const Located& member) {
            std::string name = key;
            if (error_names) {
                // Validate the key as an outcome; the message points at its value.
                const Json key_json = key;
                if (!read_outcome(errors, Located{&key_json, member.pointer}, false, name)) {
                    return false;
                }
            }
            return read_u64(errors, member, IntRange{}, out[name]);
        });
}

bool parse_invariants(Errors& errors, const Located& at, std::vector<Invariant>& out) {
    if (at.json().is_string() && at.json().get_ref<const std::string&>() == "all") {
        out = all_invariants();
        return true;
    }
    if (!at.json().is_array()) {
        return fail_type(errors, at, "\"all\" or an array of invariant names");
    }
    std::vector<Invariant> chosen(at.json().size());
    for (std::size_t i = 0; i < chosen.size(); i++) {
        if (!read_enum(errors, at.element(i), chosen[i])) {
            return false;
        }
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    out = std::move(chosen);
    return true;
}

bool parse_route_expect(Errors& errors, const Located& at, RouteExpect& out) {
    if (!expect_object(errors, at, "an object with \"state\" and/or \"restarts\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"state", "restarts"})) {
        return false;
    }
    if (fields.has("state")) {
        RouteState state = RouteState::Running;
        if (!read_enum(errors, fields.at("state"), state)) {
            return false;
        }
        out.state = state;
    }
    if (fields.has("restarts")) {
        std::uint64_t restarts = 0;
        if (!read_u64(errors, fields.at("restarts"), IntRange{}, restarts)) {
            return false;
        }
        out.restarts = restarts;
    }
    return true;
}

bool parse_client_expect(Errors& errors, const Located& at, ClientExpect& out) {
    if (!expect_object(errors, at, "an object with \"received\", \"types\" or \"errors\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"received", "types", "errors"})) {
        return false;
    }
    if (fields.has("received")) {
        std::uint64_t received = 0;
        if (!read_u64(errors, fields.at("received"), IntRange{}, received)) {
            return false;
        }
        out.received = received;
    }
    return (!fields.has("types") || read_counts(errors, fields.at("types"), false, out.types)) &&
           (!fields.has("errors") || read_counts(errors, fields.at("errors"), true, out.errors));
}

bool parse_target_list(Errors& errors, const Located& at, std::vector<std::string>& out) {
    if (!expect_array(errors, at, "an array of targets")) {
        return false;
    }
    out.resize(at.json().size());
    for (std::size_t i = 0; i < out.size(); i++) {
        if (!read_atom(errors, at.element(i), out[i], what_target)) {
            return false;
        }
    }
    return true;
}

/// The one member of a probe condition object {"<key>": value}.
bool single_member(Errors& errors, const Located& at, std::string_view what, std::string& key) {
    if (!at.json().is_object() || at.json().size() != 1) {
        return fail_type(errors, at, what);
    }
    key = at.json().begin().key();
    return check_key(errors, at.member(key), key, "a target");
}

bool parse_probe_route_state(Errors& errors, const Located& at, Probe& out) {
    constexpr std::string_view what = "an object with one route path and its state, such as "
                                      "{\"r/a\": \"pending_replace\"}";
    if (!single_member(errors, at, what, out.target)) {
        return false;
    }
    const std::size_t slash = out.target.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == out.target.size()) {
        return errors.fail(at.member(out.target).pointer,
                           "route path " + quote(out.target) +
                               " is not \"<router>/<route>\" (expected a router target, a "
                               "\"/\" and a route name)");
    }
    out.router = out.target.substr(0, slash);
    out.route = out.target.substr(slash + 1);
    return read_enum(errors, at.member(out.target), out.state);
}

bool parse_probe_route_failed(Errors& errors, const Located& at, Probe& out) {
    constexpr std::string_view what = "an object with one router target and an Ergo error name, "
                                      "such as {\"r\": \"gen.ErrBusy\"}";
    return single_member(errors, at, what, out.target) &&
           read_outcome(errors, at.member(out.target), false, out.reason);
}

bool parse_probe_restarts(Errors& errors, const Located& at, Probe& out) {
    constexpr std::string_view what = "an object with one target and a count, such as "
                                      "{\"sup/w\": 1}";
    return single_member(errors, at, what, out.target) &&
           read_u64(errors, at.member(out.target), IntRange{1}, out.count);
}

bool parse_probe_event(Errors& errors, const Located& at, Probe& out) {
    if (!expect_object(errors, at, "an object with \"kind\" and optional \"at\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"kind", "at"}) || !fields.string("kind", out.kind, Need::Required) ||
        !fields.atom("at", out.target, Need::Optional, what_target)) {
        return false;
    }
    std::vector<std::string_view> kinds;
    for (std::size_t i = 1; i <= runtime::ev::kind_count; i++) {
        kinds.push_back(runtime::ev::kind_name(static_cast<runtime::ev::Kind>(i)));
    }
    std::sort(kinds.begin(), kinds.end());
    if (std::find(kinds.begin(), kinds.end(), out.kind) == kinds.end()) {
        std::string message = "unknown trace event kind " + quote(out.kind) + " (expected one of: ";
        for (std::size_t i = 0; i < kinds.size(); i++) {
            message += (i == 0 ? "" : ", ") + std::string(kinds[i]);
        }
        message += ")";
        if (const auto near = closest(out.kind, kinds)) {
            message += "; did you mean " + quote(*near) + "?";
        }
        return errors.fail(fields.at("kind").pointer, message);
    }
    if (!out.target.empty() && (out.kind == "fault" || out.kind == "limit")) {
        return errors.fail(fields.at("at").pointer, "a " + quote(out.kind) +
                                                        " event names no process (expected no "
                                                        "\"at\")");
    }
    return true;
}

/// The condition fields of a probe, in the order of ProbeCondition.
constexpr std::array<std::string_view, 4> probe_conditions = {
    probe_condition_field(ProbeCondition::RouteStateSeen),
    probe_condition_field(ProbeCondition::RouteFailedSeen),
    probe_condition_field(ProbeCondition::RestartsSeen),
    probe_condition_field(ProbeCondition::EventSeen)};

bool parse_probe(Errors& errors, const Located& at, Probe& out) {
    out.pointer = at.pointer;
    if (!expect_object(errors, at, "a probe object with \"name\" and one condition")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"name", "route_state", "route_failed", "restarts", "event"}) ||
        !fields.string("name", out.name, Need::Required)) {
        return false;
    }
    if (out.name.empty()) {
        return errors.fail(fields.at("name").pointer, "empty probe name (expected a name)");
    }
    std::vector<std::size_t> present;
    for (std::size_t i = 0; i < probe_conditions.size(); i++) {
        if (fields.has(probe_conditions[i])) {
            present.push_back(i);
        }
    }
    const std::string choices = "\"route_state\", \"route_failed\", \"restarts\" or \"event\"";
    if (present.size() != 1) {
        return errors.fail(
            at.pointer,
            present.empty()
                ? "probe " + quote(out.name) + " has no condition (expected one of " + choices + ")"
                : "probe " + quote(out.name) + " has " + std::to_string(present.size()) +
                      " conditions (expected exactly one of " + choices + ")");
    }
    out.condition = static_cast<ProbeCondition>(present[0]);
    const Located condition = fields.at(probe_conditions[present[0]]);
    switch (out.condition) {
    case ProbeCondition::RouteStateSeen:
        return parse_probe_route_state(errors, condition, out);
    case ProbeCondition::RouteFailedSeen:
        return parse_probe_route_failed(errors, condition, out);
    case ProbeCondition::RestartsSeen:
        return parse_probe_restarts(errors, condition, out);
    case ProbeCondition::EventSeen:
        return parse_probe_event(errors, condition, out);
    }
    return false;
}

bool parse_sometimes(Errors& errors, const Located& at, std::vector<Probe>& out) {
    if (!expect_array(errors, at, "an array of probes")) {
        return false;
    }
    out.resize(at.json().size());
    std::map<std::string, std::string> names; // name -> pointer of its first probe
    bool ok = true;
    for (std::size_t i = 0; i < out.size(); i++) {
        if (!parse_probe(errors, at.element(i), out[i])) {
            ok = false;
            continue;
        }
        const auto [first, inserted] = names.emplace(out[i].name, out[i].pointer);
        if (!inserted) {
            ok = errors.fail(out[i].pointer + "/name",
                             "duplicate probe name " + quote(out[i].name) +
                                 " (already used by the probe at " + first->second +
                                 "; expected every probe name once)");
        }
    }
    return ok;
}

/// Parses one section when present; a section with an error joins `context.failed_parts`.
template <class Parse>
bool parse_section(LoadContext& context, const Fields& fields, std::string_view key, Parse parse) {
    if (!fields.has(key)) {
        return true;
    }
    const Located at = fields.at(key);
    if (parse(at)) {
        return true;
    }
    context.failed_parts.insert(at.pointer);
    return false;
}

bool parse_nested_maps(LoadContext& context, const Fields& fields, Expect& out) {
    Errors& errors = context.errors;
    const auto inspect = [&](const std::string& target, const Located& values) {
        return read_map(errors, values, "an object from Inspect key to string value", "a key",
                        [&](const std::string& key, const Located& value) {
                            return read_string(errors, value, out.inspect[target][key]);
                        });
    };
    const auto routes = [&](const std::string& router, const Located& table) {
        return read_map(errors, table, "an object from route name to route expectation",
                        "a route name", [&](const std::string& route, const Located& value) {
                            return parse_route_expect(errors, value, out.routes[router][route]);
                        });
    };
    const auto clients = [&](const std::string& client, const Located& value) {
        return parse_client_expect(errors, value, out.clients[client]);
    };
    const auto failed = [&](const std::string& router, const Located& value) {
        return read_counts(errors, value, true, out.route_failed[router]);
    };
    const auto processed = [&](const std::string& target, const Located& value) {
        return read_u64(errors, value, IntRange{}, out.processed[target]);
    };
    constexpr std::string_view by_target = "an object keyed by target";
    const auto map_of = [&](std::string_view what_object, std::string_view what_key,
                            const auto& read) {
        return [&, what_object, what_key](const Located& at) {
            return read_map(errors, at, what_object, what_key, read);
        };
    };
    bool ok = parse_section(context, fields, "inspect", map_of(by_target, "a target", inspect));
    ok = parse_section(context, fields, "routes", map_of(by_target, "a router target", routes)) &&
         ok;
    ok = parse_section(context, fields, "clients",
                       map_of("an object keyed by client name", "a client name", clients)) &&
         ok;
    ok = parse_section(context, fields, "route_failed",
                       map_of(by_target, "a router target", failed)) &&
         ok;
    return parse_section(context, fields, "processed", map_of(by_target, "a target", processed)) &&
           ok;
}

} // namespace

bool parse_expect(LoadContext& context, const Located& at, Expect& out) {
    Errors& errors = context.errors;
    out = Expect{};
    out.pointer = at.pointer;
    if (!expect_object(errors, at, "an expect object")) {
        context.failed_parts.insert(at.pointer);
        return false;
    }
    const Fields fields(errors, at);
    // Probes belong to the whole run: a `check` action's expect takes the other fields only.
    bool ok = at.pointer == "/expect"
                  ? fields.only({"invariants", "inspect", "routes", "clients", "alive", "dead",
                                 "route_failed", "processed", "sometimes"})
                  : fields.only({"invariants", "inspect", "routes", "clients", "alive", "dead",
                                 "route_failed", "processed"});
    ok = (at.pointer != "/expect" || parse_section(context, fields, "sometimes",
                                                   [&](const Located& section) {
                                                       return parse_sometimes(errors, section,
                                                                              out.sometimes);
                                                   })) &&
         ok;
    ok = parse_section(context, fields, "invariants",
                       [&](const Located& section) {
                           return parse_invariants(errors, section, out.invariants);
                       }) &&
         ok;
    ok = parse_nested_maps(context, fields, out) && ok;
    ok = parse_section(context, fields, "alive",
                       [&](const Located& section) {
                           return parse_target_list(errors, section, out.alive);
                       }) &&
         ok;
    return parse_section(context, fields, "dead",
                         [&](const Located& section) {
                             return parse_target_list(errors, section, out.dead);
                         }) &&
           ok;
}

} // namespace routesim::scenarios::detail
