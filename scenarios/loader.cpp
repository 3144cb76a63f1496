// Scenario loading: file reading, the top-level object, and the order of the passes (syntax
// check, typed parse, cross-reference validation). Part of scenarios/; nothing escapes it.
#include "scenarios/loader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "scenarios/detail/json_check.hpp"
#include "scenarios/detail/parse.hpp"
#include "scenarios/resolve.hpp"

namespace routesim::scenarios {
namespace {

using detail::Fields;
using detail::Located;
using detail::Need;

constexpr std::array<std::string_view, 9> top_fields = {"$schema",  "name",     "description",
                                                        "run",      "topology", "workload",
                                                        "timeline", "faults",   "expect"};

bool parse_sections(detail::LoadContext& context, const Fields& fields, Scenario& out) {
    if (fields.has("workload") && !parse_workload(context, fields.at("workload"), out.workload)) {
        return false;
    }
    if (fields.has("timeline") && !parse_timeline(context, fields.at("timeline"), out.timeline)) {
        return false;
    }
    if (fields.has("faults") && !parse_faults(context, fields.at("faults"), out.faults)) {
        return false;
    }
    if (fields.has("expect")) {
        return parse_expect(context.errors, fields.at("expect"), out.expect);
    }
    out.expect.pointer = "/expect";
    return true;
}

// -- router.admin messages ------------------------------------------------------------------
// A workload or timeline send or call whose type is "router.admin" is a management operation
// for a router's admin path (scenario-format.md): {"type": "router.admin", "op": <management
// verb>, "name": <route>, "worker": <node>}; add_route and replace_route need the worker.

constexpr std::string_view admin_type = "router.admin";
constexpr std::array<std::string_view, 4> admin_fields = {"type", "op", "name", "worker"};

bool is_admin_message(const Json& message) {
    const auto type = message.find("type");
    return type != message.end() && type->is_string() &&
           type->get_ref<const std::string&>() == admin_type;
}

std::string management_ops() {
    std::string list;
    for (std::string_view name : spellings(Verb{}).names) {
        const auto verb = parse_spelling<Verb>(name);
        if (verb.has_value() && is_management_verb(*verb)) {
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
    }
    return list;
}

/// Checks one router.admin message and parses its worker into `out.message_workers`.
/// `to` is the message's target (the worker's path is "<to>/<name>").
bool parse_admin_message(detail::LoadContext& context, const Located& at, const std::string& to,
                         Scenario& out) {
    detail::Errors& errors = context.errors;
    const Fields fields(errors, at);
    if (!fields.only(admin_fields) ||
        !fields.need("op", "a management operation (one of: " + management_ops() + ")")) {
        return false;
    }
    const Located op_at = fields.at("op");
    const std::string* op_text = op_at.json().is_string()
                                     ? &op_at.json().get_ref<const std::string&>()
                                     : nullptr;
    const auto op = op_text != nullptr ? parse_spelling<Verb>(*op_text) : std::nullopt;
    if (!op.has_value() || !is_management_verb(*op)) {
        return detail::fail_type(errors, op_at,
                                 "a management operation (one of: " + management_ops() + ")");
    }
    MessageWorker entry;
    entry.router = to;
    entry.pointer = at.pointer;
    if (!fields.atom("name", entry.route, Need::Required, "a route name (an Atom)")) {
        return false;
    }
    if (entry.route == "$i") {
        return errors.fail(fields.at("name").pointer,
                           "route name \"$i\" is not allowed in a router.admin message (expected a "
                           "literal route name; the router reads \"$i\" replaced by a number)");
    }
    const bool takes_worker = *op == Verb::AddRoute || *op == Verb::ReplaceRoute;
    if (takes_worker && !fields.need("worker", "a node object with \"kind\"")) {
        return false;
    }
    if (!fields.has("worker")) {
        return true;
    }
    // A worker on another operation is checked like any node, then unused (the router ignores
    // it, as the Router methods without a worker do).
    if (!detail::parse_node_tree(context, fields.at("worker"), to + "/" + entry.route,
                                 entry.worker, detail::TreeRoot::RouteWorker)) {
        return false;
    }
    if (takes_worker) {
        entry.spec = fields.at("worker").json();
        out.message_workers.push_back(std::move(entry));
    }
    return true;
}

bool parse_admin_messages(detail::LoadContext& context, Scenario& out) {
    for (const WorkloadSource& source : out.workload) {
        if (is_admin_message(source.message) &&
            !parse_admin_message(context,
                                 Located{&source.message,
                                         source.pointer + (source.is_call ? "/call" : "/send")},
                                 source.to, out)) {
            return false;
        }
    }
    for (const Action& action : out.timeline) {
        if ((action.verb == Verb::Send || action.verb == Verb::Call) &&
            is_admin_message(action.message) &&
            !parse_admin_message(context,
                                 Located{&action.message,
                                         action.pointer + "/" + std::string(spelling(action.verb))},
                                 action.to, out)) {
            return false;
        }
    }
    return true;
}

/// After validate_scenario: the targets inside message workers (forward `to`, dead letters)
/// resolve, and no node of theirs takes a client's name.
bool validate_message_workers(detail::Errors& errors, const Scenario& scenario) {
    if (scenario.message_workers.empty()) {
        return true;
    }
    const TargetResolver resolver(scenario);
    const auto check_target = [&](const std::string& target, const std::string& pointer) {
        const auto resolved = resolver.resolve(target);
        return resolved.has_value() || errors.fail(pointer, resolved.error());
    };
    for (const MessageWorker& entry : scenario.message_workers) {
        std::vector<const Node*> stack{&entry.worker};
        while (!stack.empty()) {
            const Node* node = stack.back();
            stack.pop_back();
            if (!node->name.empty() &&
                std::find(scenario.clients.begin(), scenario.clients.end(), node->name) !=
                    scenario.clients.end()) {
                return errors.fail(node->pointer + "/name",
                                   "name " + detail::quote(node->name) +
                                       " is also a client's name (expected a name that no "
                                       "client uses)");
            }
            if (node->kind == NodeKind::Actor && node->behaviour.type == BehaviourType::Forward &&
                !check_target(node->behaviour.to, node->pointer + "/behavior/to")) {
                return false;
            }
            if (node->kind == NodeKind::Router &&
                node->router.on_route_failed == OnRouteFailed::DeadLetter &&
                !check_target(node->router.dead_letter,
                              node->pointer + "/on_route_failed/dead_letter")) {
                return false;
            }
            for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
                stack.push_back(&*child);
            }
        }
    }
    return true;
}

bool parse_document(detail::LoadContext& context, const Json& document, Scenario& out) {
    detail::Errors& errors = context.errors;
    const Located root{&document, ""};
    if (!detail::expect_object(errors, root, "a scenario object with \"name\" and \"topology\"")) {
        return false;
    }
    const Fields fields(errors, root);
    std::string schema;
    if (!fields.only(top_fields) || !fields.atom("name", out.name, Need::Required) ||
        !fields.need("topology", "a node object with \"kind\"") ||
        !fields.string("$schema", schema) || !fields.string("description", out.description)) {
        return false;
    }
    if (fields.has("run") && !parse_run(context, fields.at("run"), out.run)) {
        return false;
    }
    if (!parse_node_tree(context, fields.at("topology"), std::nullopt, out.topology) ||
        !parse_sections(context, fields, out) || !parse_admin_messages(context, out)) {
        return false;
    }
    return validate_scenario(context, out) && validate_message_workers(context.errors, out);
}

LoadError make_error(const detail::Errors& errors, std::string file_label) {
    RS_ASSERT(errors.any());
    return LoadError{std::move(file_label), errors.pointer(), errors.message()};
}

} // namespace

std::string LoadError::to_string() const {
    if (pointer.empty()) {
        return file + ": " + message;
    }
    // A pointer holds keys as written (RFC 6901); their control characters are shown escaped
    // so that the line stays one line.
    return file + ": " + detail::escape_controls(pointer) + ": " + message;
}

sim::Result<Scenario, LoadError> load_scenario_text(std::string_view text, std::string file_label,
                                                    const LoadLimits& limits) {
    if (text.size() > limits.file_bytes_max) {
        return sim::fail(LoadError{std::move(file_label), "",
                                   "file is " + std::to_string(text.size()) +
                                       " bytes (expected at most " +
                                       std::to_string(limits.file_bytes_max) + ")"});
    }
    detail::LoadContext context{.limits = limits};
    try {
        Json document;
        if (!detail::parse_json_text(context.errors, text, limits.json_depth_max, document)) {
            return sim::fail(make_error(context.errors, std::move(file_label)));
        }
        Scenario scenario;
        if (!parse_document(context, document, scenario)) {
            return sim::fail(make_error(context.errors, std::move(file_label)));
        }
        RS_ASSERT(!context.errors.any());
        return scenario;
    } catch (const std::exception& error) {
        // Only allocation failures can get here; the readers use non-throwing accessors.
        return sim::fail(LoadError{std::move(file_label), "",
                                   std::string("internal loader error: ") + error.what()});
    }
}

sim::Result<Scenario, LoadError> load_scenario_file(const std::string& path,
                                                    const LoadLimits& limits) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return sim::fail(LoadError{path, "",
                                   std::string("cannot open file: ") + std::strerror(errno) +
                                       " (expected a readable scenario file)"});
    }
    std::string text;
    std::array<char, 64 * 1024> chunk{};
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > limits.file_bytes_max) {
            return sim::fail(LoadError{
                path, "",
                "file is larger than " + std::to_string(limits.file_bytes_max) +
                    " bytes (expected at most " + std::to_string(limits.file_bytes_max) + ")"});
        }
    }
    if (in.bad()) {
        return sim::fail(
            LoadError{path, "", "cannot read file (expected a readable scenario file)"});
    }
    return load_scenario_text(text, path, limits);
}

} // namespace routesim::scenarios
