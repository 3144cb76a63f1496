// Scenario loading: file reading, the top-level object, and the order of the passes (syntax
// check, typed parse, cross-reference validation). Part of scenarios/; nothing escapes it.
#include "scenarios/format/loader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "scenarios/format/detail/json_check.hpp"
#include "scenarios/format/detail/parse.hpp"
#include "scenarios/format/resolve.hpp"

namespace routesim::scenarios {
namespace {

using detail::Fields;
using detail::Located;
using detail::Need;

constexpr std::array<std::string_view, 9> top_fields = {"$schema",  "name",     "description",
                                                        "run",      "topology", "workload",
                                                        "timeline", "faults",   "expect"};

/// The sections after the topology; each is parsed whatever happened to the others.
/// False when one had an error.
bool parse_sections(detail::LoadContext& context, const Fields& fields, Scenario& out) {
    bool ok = true;
    // Entries and actions report which of their errors lose names (detail::LoadContext).
    if (fields.has("workload")) {
        ok = parse_workload(context, fields.at("workload"), out.workload) && ok;
    }
    if (fields.has("timeline")) {
        ok = parse_timeline(context, fields.at("timeline"), out.timeline) && ok;
    }
    if (fields.has("faults") && !parse_faults(context, fields.at("faults"), out.faults)) {
        context.failed_parts.insert("/faults");
        ok = false;
    }
    if (fields.has("expect")) {
        return parse_expect(context, fields.at("expect"), out.expect) && ok;
    }
    out.expect.pointer = "/expect";
    return ok;
}

// -- router.admin messages ------------------------------------------------------------------
// A workload or timeline send or call whose type is "router.admin" is a management operation
// for a router's admin path (scenarios/FORMAT.md): {"type": "router.admin", "op": <management
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
    const std::string* op_text =
        op_at.json().is_string() ? &op_at.json().get_ref<const std::string&>() : nullptr;
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
    if (!detail::parse_node_tree(context, fields.at("worker"), to + "/" + entry.route, entry.worker,
                                 detail::TreeRoot::RouteWorker)) {
        return false;
    }
    if (takes_worker) {
        entry.spec = fields.at("worker").json();
        out.message_workers.push_back(std::move(entry));
    }
    return true;
}

bool parse_admin_messages(detail::LoadContext& context, Scenario& out) {
    bool ok = true;
    for (const WorkloadSource& source : out.workload) {
        if (is_admin_message(source.message)) {
            ok = parse_admin_message(context,
                                     Located{&source.message,
                                             source.pointer + (source.is_call ? "/call" : "/send")},
                                     source.to, out) &&
                 ok;
        }
    }
    for (const Action& action : out.timeline) {
        if ((action.verb == Verb::Send || action.verb == Verb::Call) &&
            is_admin_message(action.message)) {
            ok = parse_admin_message(
                     context,
                     Located{&action.message,
                             action.pointer + "/" + std::string(spelling(action.verb))},
                     action.to, out) &&
                 ok;
        }
    }
    return ok;
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
            if (!node->name.empty() && std::find(scenario.clients.begin(), scenario.clients.end(),
                                                 node->name) != scenario.clients.end()) {
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

/// The top-level fields, each checked whatever happened to the others. False when one had an
/// error; `topology` is set when the topology is there to parse.
bool parse_top_fields(const Fields& fields, Scenario& out, bool& topology) {
    std::string schema;
    bool ok = fields.only(top_fields);
    ok = fields.atom("name", out.name, Need::Required) && ok;
    topology = fields.need("topology", "a node object with \"kind\"");
    ok = fields.string("$schema", schema) && ok;
    return fields.string("description", out.description) && ok && topology;
}

bool parse_document(detail::LoadContext& context, const Json& document, Scenario& out) {
    detail::Errors& errors = context.errors;
    const Located root{&document, ""};
    if (!detail::expect_object(errors, root, "a scenario object with \"name\" and \"topology\"")) {
        return false;
    }
    const Fields fields(errors, root);
    bool has_topology = false;
    bool ok = parse_top_fields(fields, out, has_topology);
    if (fields.has("run") && !parse_run(context, fields.at("run"), out.run)) {
        context.failed_parts.insert("/run");
        ok = false;
    }
    // The cross-reference passes need every name the scenario registers: they run only when
    // no error lost one (in the topology, a worker, or a client's `from`).
    const std::uint64_t before = errors.count();
    const bool topology_ok =
        has_topology && parse_node_tree(context, fields.at("topology"), std::nullopt, out.topology);
    context.name_errors += errors.count() - before;
    ok = parse_sections(context, fields, out) && topology_ok && ok;
    const std::uint64_t before_admin = errors.count();
    ok = parse_admin_messages(context, out) && ok;
    context.name_errors += errors.count() - before_admin;
    if (!has_topology || context.name_errors > 0) {
        return false;
    }
    const bool valid = validate_scenario(context, out);
    return validate_message_workers(context.errors, out) && valid && ok;
}

/// Reads a whole file, at most limits.file_bytes_max bytes.
sim::Result<std::string, LoadError> read_file(const std::string& path, const LoadLimits& limits) {
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
    return text;
}

LoadReport failed_report(LoadError error) {
    LoadReport report;
    report.errors.push_back(std::move(error));
    return report;
}

LoadReport report_errors(const detail::Errors& errors, const std::string& file_label) {
    RS_ASSERT(errors.any());
    LoadReport report;
    for (const detail::Errors::Entry& entry : errors.kept()) {
        report.errors.push_back(LoadError{file_label, entry.pointer, entry.message});
    }
    report.errors_unlisted = errors.count() - errors.kept().size();
    RS_ASSERT(report.errors.size() <= LoadReport::errors_listed_max);
    return report;
}

} // namespace

std::string LoadError::to_string() const {
    const std::string text = warning ? "warning: " + message : message;
    if (pointer.empty()) {
        return file + ": " + text;
    }
    // A pointer holds keys as written (RFC 6901); their control characters are shown escaped
    // so that the line stays one line.
    return file + ": " + detail::escape_controls(pointer) + ": " + text;
}

std::vector<LoadError> scenario_warnings(const Scenario& scenario, const std::string& file_label) {
    std::vector<LoadError> warnings;
    for (detail::Warning& found : detail::scenario_warnings(scenario)) {
        warnings.push_back(LoadError{.file = file_label,
                                     .pointer = std::move(found.pointer),
                                     .message = std::move(found.message),
                                     .warning = true});
    }
    return warnings;
}

std::vector<std::string> LoadReport::error_lines() const {
    std::vector<std::string> lines;
    for (const LoadError& error : errors) {
        lines.push_back(error.to_string());
    }
    if (errors_unlisted > 0) {
        RS_ASSERT(!errors.empty());
        lines.push_back(errors.front().file + ": " + std::to_string(errors_unlisted) +
                        " more errors not listed (only the first " +
                        std::to_string(errors_listed_max) + " are)");
    }
    return lines;
}

LoadReport check_scenario_text(std::string_view text, std::string file_label,
                               const LoadLimits& limits) {
    static_assert(LoadReport::errors_listed_max == detail::Errors::kept_max);
    if (text.size() > limits.file_bytes_max) {
        return failed_report(LoadError{std::move(file_label), "",
                                       "file is " + std::to_string(text.size()) +
                                           " bytes (expected at most " +
                                           std::to_string(limits.file_bytes_max) + ")"});
    }
    detail::LoadContext context{.limits = limits};
    try {
        Json document;
        if (!detail::parse_json_text(context.errors, text, limits.json_depth_max, document)) {
            return report_errors(context.errors, file_label);
        }
        Scenario scenario;
        if (!parse_document(context, document, scenario)) {
            return report_errors(context.errors, file_label);
        }
        RS_ASSERT(!context.errors.any());
        LoadReport report;
        report.warnings = scenario_warnings(scenario, file_label);
        report.scenario = std::move(scenario);
        return report;
    } catch (const std::exception& error) {
        // Only allocation failures can get here; the readers use non-throwing accessors.
        return failed_report(LoadError{std::move(file_label), "",
                                       std::string("internal loader error: ") + error.what()});
    }
}

LoadReport check_scenario_file(const std::string& path, const LoadLimits& limits) {
    auto text = read_file(path, limits);
    if (!text) {
        return failed_report(text.error());
    }
    return check_scenario_text(text.value(), path, limits);
}

sim::Result<Scenario, LoadError> load_scenario_text(std::string_view text, std::string file_label,
                                                    const LoadLimits& limits) {
    LoadReport report = check_scenario_text(text, std::move(file_label), limits);
    if (!report.scenario.has_value()) {
        RS_ASSERT(!report.errors.empty());
        return sim::fail(std::move(report.errors.front()));
    }
    return std::move(*report.scenario);
}

sim::Result<Scenario, LoadError> load_scenario_file(const std::string& path,
                                                    const LoadLimits& limits) {
    auto text = read_file(path, limits);
    if (!text) {
        return sim::fail(text.error());
    }
    return load_scenario_text(text.value(), path, limits);
}

} // namespace routesim::scenarios
