// Loader internals: the `timeline` section (one verb per action, its argument, via, expect).
// Private to scenarios/; never throws.
#include <algorithm>
#include <array>

#include "scenarios/format/detail/parse.hpp"

namespace routesim::scenarios::detail {
namespace {

// Fields an action may carry besides its verb; which ones a verb accepts is decided later.
constexpr std::array<std::string_view, 8> action_extras = {"at", "expect",   "via",     "from",
                                                           "to", "priority", "timeout", "step"};

std::string verb_list() {
    return join(spellings(Verb{}).names);
}

/// Finds the verb keys of an action object, in key order.
std::vector<Verb> find_verbs(const Json& object) {
    std::vector<Verb> verbs;
    for (const auto& item : object.items()) {
        if (const auto verb = parse_spelling<Verb>(item.key())) {
            verbs.push_back(*verb);
        }
    }
    return verbs;
}

bool fail_without_verb(Errors& errors, const Located& at) {
    for (const auto& item : at.json().items()) {
        const auto extra = std::find(action_extras.begin(), action_extras.end(), item.key());
        if (extra == action_extras.end()) {
            return errors.fail(at.pointer + "/" + pointer_key(item.key()),
                               "unknown field " + quote(item.key()) +
                                   " (expected a verb, one of: " + verb_list() +
                                   "; or one of: at, expect, from, priority, timeout, to, via)");
        }
    }
    return errors.fail(at.pointer,
                       "action has no verb (expected exactly one of: " + verb_list() + ")");
}

std::vector<std::string_view> known_fields(Verb verb) {
    std::vector<std::string_view> known = {"at", spelling(verb)};
    if (verb != Verb::Check) {
        known.push_back("expect");
        known.push_back("step"); // a pinned fault (scenarios/FORMAT.md, `routesim fuzz`)
    }
    if (is_management_verb(verb)) {
        known.push_back("via");
    }
    if (verb == Verb::Send || verb == Verb::Call) {
        // One at a time: GCC 12 warns falsely (-Wstringop-overflow) on the list insert.
        for (std::string_view field : {"from", "to", "priority"}) {
            known.push_back(field);
        }
    }
    if (verb == Verb::Call) {
        known.push_back("timeout");
    }
    return known;
}

bool parse_management(LoadContext& context, const Located& at, Action& action) {
    Errors& errors = context.errors;
    const bool has_worker = action.verb == Verb::AddRoute || action.verb == Verb::ReplaceRoute;
    const std::string_view what = has_worker
                                      ? "{\"router\": target, \"name\": route, \"worker\": node}"
                                      : "{\"router\": target, \"name\": route}";
    if (!expect_object(errors, at, what)) {
        return false;
    }
    const Fields fields(errors, at);
    std::vector<std::string_view> known = {"router", "name"};
    if (has_worker) {
        known.push_back("worker");
    }
    if (!fields.only(known) || !fields.atom("router", action.router, Need::Required, what_target) ||
        !fields.atom("name", action.route, Need::Required, "a route name (an Atom)")) {
        return false;
    }
    if (!has_worker) {
        return true;
    }
    if (!fields.need("worker", "a node object with \"kind\"")) {
        return false;
    }
    action.worker.emplace();
    return parse_node_tree(context, fields.at("worker"), action.router + "/" + action.route,
                           *action.worker, TreeRoot::RouteWorker);
}

bool parse_exit(Errors& errors, const Located& at, Action& action) {
    constexpr std::string_view what = "{\"target\": target, \"reason\": reason}";
    if (!expect_object(errors, at, what)) {
        return false;
    }
    const Fields fields(errors, at);
    return fields.only({"target", "reason"}) &&
           fields.atom("target", action.target, Need::Required, what_target) &&
           fields.atom("reason", action.reason, Need::Optional,
                       "a reason: \"normal\", \"shutdown\", \"kill\" or any non-empty string");
}

bool parse_fail_spawns(Errors& errors, const Located& at, Action& action) {
    if (!expect_object(errors, at, "{\"node\": path, \"count\": k}")) {
        return false;
    }
    const Fields fields(errors, at);
    return fields.only({"node", "count"}) &&
           fields.atom("node", action.node, Need::Required,
                       "the tree path of a topology node (a non-empty string)") &&
           fields.u64("count", action.count);
}

bool parse_one_message(LoadContext& context, const Fields& fields, const Located& at,
                       Action& action) {
    Errors& errors = context.errors;
    if (!parse_message(errors, at, false, action.message) ||
        !fields.atom("from", action.from, Need::Required, "a client name (an Atom)") ||
        !fields.atom("to", action.to, Need::Required, what_target) ||
        !fields.enumeration("priority", action.priority) ||
        !fields.duration("timeout", action.timeout)) {
        return false;
    }
    context.messages++;
    if (context.messages > context.limits.workload_total_max) {
        return errors.fail(at.pointer, "workload and timeline send more than " +
                                           std::to_string(context.limits.workload_total_max) +
                                           " messages in total (expected at most " +
                                           std::to_string(context.limits.workload_total_max) + ")");
    }
    return true;
}

bool parse_argument(LoadContext& context, const Fields& fields, Action& action) {
    Errors& errors = context.errors;
    const Located argument = fields.at(spelling(action.verb));
    switch (action.verb) {
    case Verb::Kill:
    case Verb::Crash:
        return read_atom(errors, argument, action.target, what_target);
    case Verb::Exit:
        return parse_exit(errors, argument, action);
    case Verb::FailSpawns:
        return parse_fail_spawns(errors, argument, action);
    case Verb::Send:
    case Verb::Call:
        return parse_one_message(context, fields, argument, action);
    case Verb::Check:
        action.check.emplace();
        return parse_expect(context, argument, *action.check);
    default:
        RS_ASSERT(is_management_verb(action.verb));
        return parse_management(context, argument, action);
    }
}

bool parse_action(LoadContext& context, const Located& at, Action& action) {
    Errors& errors = context.errors;
    action.pointer = at.pointer;
    if (!expect_object(errors, at, "a timeline action with \"at\" and one verb")) {
        return false;
    }
    const std::vector<Verb> verbs = find_verbs(at.json());
    if (verbs.empty()) {
        return fail_without_verb(errors, at);
    }
    if (verbs.size() > 1) {
        return errors.fail(at.pointer, "action has two verbs, " + quote(spelling(verbs[0])) +
                                           " and " + quote(spelling(verbs[1])) +
                                           " (expected exactly one verb per action)");
    }
    action.verb = verbs[0];
    const Fields fields(errors, at);
    if (!fields.only(known_fields(action.verb)) ||
        !fields.duration("at", action.at, Need::Required) ||
        !fields.enumeration("via", action.via)) {
        return false;
    }
    if (fields.has("step")) {
        std::uint64_t step = 0;
        if (!fields.u64("step", step)) {
            return false;
        }
        action.step = step;
    }
    if (fields.has("expect")) {
        std::string outcome;
        if (!read_outcome(errors, fields.at("expect"), true, outcome)) {
            return false;
        }
        action.expect = std::move(outcome);
    }
    return parse_argument(context, fields, action);
}

/// Whether a failed action may have lost a name: a route's worker, a client, or (when its
/// verb is not known) either.
bool may_lose_names(const Json& json, const Action& action) {
    if (!json.is_object() || find_verbs(json).size() != 1) {
        return true;
    }
    switch (action.verb) {
    case Verb::AddRoute:
    case Verb::ReplaceRoute:
        return true;
    case Verb::Send:
    case Verb::Call:
        return action.from.empty() || is_router_admin_message(action.message);
    default:
        return false;
    }
}

} // namespace

bool parse_timeline(LoadContext& context, const Located& at, std::vector<Action>& out) {
    Errors& errors = context.errors;
    if (!expect_array(errors, at, "an array of timeline actions")) {
        return false;
    }
    const std::uint64_t actions_max = context.limits.timeline_actions_max;
    if (at.json().size() > actions_max) {
        return errors.fail(at.pointer, "timeline has " + std::to_string(at.json().size()) +
                                           " actions (expected at most " +
                                           std::to_string(actions_max) + ")");
    }
    out.resize(at.json().size());
    bool ok = true;
    for (std::size_t i = 0; i < out.size(); i++) {
        const std::uint64_t before = errors.count();
        const Located entry = at.element(i);
        if (parse_action(context, entry, out[i])) {
            continue;
        }
        ok = false;
        context.failed_parts.insert(out[i].pointer);
        if (context.messages > context.limits.workload_total_max) {
            return false; // every later send would repeat the limit's error
        }
        if (may_lose_names(entry.json(), out[i])) {
            context.name_errors += errors.count() - before;
        }
    }
    return ok;
}

} // namespace routesim::scenarios::detail
