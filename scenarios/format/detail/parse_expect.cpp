// Loader internals: `expect` objects (end of run and `check` actions).
// Private to scenarios/; never throws. Targets are only shaped here; validate.cpp resolves them.
#include <algorithm>

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
    bool ok = fields.only({"invariants", "inspect", "routes", "clients", "alive", "dead",
                           "route_failed", "processed"});
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
