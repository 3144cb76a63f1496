// Scenario loading: file reading, the top-level object, and the order of the passes (syntax
// check, typed parse, cross-reference validation). Part of scenarios/; nothing escapes it.
#include "scenarios/loader.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "scenarios/detail/json_check.hpp"
#include "scenarios/detail/parse.hpp"

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
        !parse_sections(context, fields, out)) {
        return false;
    }
    return validate_scenario(context, out);
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
    return file + ": " + pointer + ": " + message;
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
