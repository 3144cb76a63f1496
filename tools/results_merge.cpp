// `fuzz --merge`: results documents (format in results.cpp) checked, and merged so that each
// run (scheduler, semantics, run seed) counts once. Part of tools/.
#include <algorithm>
#include <tuple>

#include "tools/campaign_detail.hpp"

namespace routesim::tools {
namespace {

using detail::RunSet;
using nlohmann::json;

constexpr const char* results_format = "routesim-fuzz-results/2";
constexpr std::uint64_t index_limit = std::uint64_t{1} << 62;

struct Part {
    std::string name;
    const json* document = nullptr;
    std::vector<RunSet> sets;
    bool left_out = false;
};

std::string expected(const std::string& name, const std::string& pointer, const std::string& what) {
    return name + ": " + pointer + ": expected " + what;
}

bool has_uint(const json& object, const char* key) {
    if (!object.contains(key)) {
        return false;
    }
    const json& value = object[key];
    return value.is_number_unsigned() ||
           (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

bool has_string(const json& object, const char* key) {
    return object.contains(key) && object[key].is_string();
}

/// The first of `keys` that `object` lacks as an unsigned integer, else nullptr.
const char* missing_uint(const json& object, std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        if (!has_uint(object, key)) {
            return key;
        }
    }
    return nullptr;
}

const char* missing_string(const json& object, std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        if (!has_string(object, key)) {
            return key;
        }
    }
    return nullptr;
}

/// One campaign entry's slices as run sets; an error names the bad value.
sim::Result<std::vector<RunSet>, std::string> sets_of(const json& campaign, const std::string& name,
                                                      const std::string& at) {
    if (!campaign.is_object()) {
        return sim::fail(expected(name, at, "a campaign object"));
    }
    if (const char* key = missing_uint(campaign, {"root_seed"})) {
        return sim::fail(expected(name, at + "/" + key, "an unsigned integer"));
    }
    if (const char* key = missing_string(campaign, {"scheduler", "semantics"})) {
        return sim::fail(expected(name, at + "/" + key, "a string"));
    }
    if (!campaign.contains("slices") || !campaign["slices"].is_array()) {
        return sim::fail(expected(name, at + "/slices", "an array of {first, stride, count}"));
    }
    std::vector<RunSet> sets;
    for (std::size_t i = 0; i < campaign["slices"].size(); i++) {
        const json& slice = campaign["slices"][i];
        const std::string here = at + "/slices/" + std::to_string(i);
        const char* key =
            slice.is_object() ? missing_uint(slice, {"first", "stride", "count"}) : "first";
        if (key != nullptr) {
            return sim::fail(expected(name, here + "/" + key, "an unsigned integer"));
        }
        const IndexSlice value{slice["first"].get<std::uint64_t>(),
                               slice["stride"].get<std::uint64_t>(),
                               slice["count"].get<std::uint64_t>()};
        if (value.stride == 0 || value.stride > index_limit || value.first >= index_limit ||
            value.count > index_limit / value.stride) {
            return sim::fail(expected(name, here,
                                      "first < 2^62, 1 <= stride <= 2^62 and "
                                      "stride * count <= 2^62"));
        }
        sets.push_back(RunSet{campaign["root_seed"].get<std::uint64_t>(),
                              campaign["scheduler"].get<std::string>(),
                              campaign["semantics"].get<std::string>(), value});
    }
    return sets;
}

/// Checks the probe counts of a document when it has them (files of scenarios without probes,
/// and files written before probes existed, have none).
std::optional<std::string> check_probes(const json& document, const std::string& name) {
    if (!document.contains("probes")) {
        return std::nullopt;
    }
    if (!document["probes"].is_array()) {
        return expected(name, "/probes", "an array");
    }
    for (std::size_t i = 0; i < document["probes"].size(); i++) {
        const json& item = document["probes"][i];
        const std::string at = "/probes/" + std::to_string(i);
        if (!item.is_object() || missing_string(item, {"name"}) != nullptr ||
            missing_uint(item, {"runs"}) != nullptr) {
            return expected(name, at, "{\"name\": n, \"runs\": r}");
        }
    }
    return std::nullopt;
}

/// Checks the failures and coverage of a document (the merge reads them without defaults).
std::optional<std::string> check_entries(const json& document, const std::string& name) {
    if (!document.contains("failures") || !document["failures"].is_array()) {
        return expected(name, "/failures", "an array");
    }
    for (std::size_t i = 0; i < document["failures"].size(); i++) {
        const json& item = document["failures"][i];
        const std::string at = "/failures/" + std::to_string(i);
        if (!item.is_object()) {
            return expected(name, at, "a failure object");
        }
        if (const char* key = missing_uint(item, {"root_seed", "index", "seed"})) {
            return expected(name, at + "/" + key, "an unsigned integer");
        }
        if (const char* key = missing_string(item, {"scheduler", "semantics", "kind", "name"})) {
            return expected(name, at + "/" + key, "a string");
        }
    }
    if (!document.contains("coverage") || !document["coverage"].is_object()) {
        return expected(name, "/coverage", "an object");
    }
    for (const auto& [key, count] : document["coverage"].items()) {
        if (!count.is_object() || missing_uint(count, {"runs", "events"}) != nullptr) {
            return expected(name, "/coverage/" + key, "{\"runs\": r, \"events\": e}");
        }
    }
    return check_probes(document, name);
}

sim::Result<Part, std::string> read_part(const json& document, const std::string& name) {
    if (!document.is_object() || !has_string(document, "format") ||
        document["format"] != results_format) {
        const bool old =
            document.is_object() && document.value("format", json()) == "routesim-fuzz-results/1";
        return sim::fail(expected(name, "/format", std::string("\"") + results_format + "\"") +
                         (old ? " (a /1 file does not say which runs it holds; run its campaign "
                                "again)"
                              : " (a routesim fuzz results file)"));
    }
    if (!has_string(document, "scenario")) {
        return sim::fail(expected(name, "/scenario", "a string"));
    }
    if (!has_uint(document, "runs")) {
        return sim::fail(expected(name, "/runs", "an unsigned integer"));
    }
    if (!document.contains("campaigns") || !document["campaigns"].is_array()) {
        return sim::fail(expected(name, "/campaigns", "an array"));
    }
    if (auto error = check_entries(document, name)) {
        return sim::fail(*error);
    }
    Part part{name, &document, {}, false};
    std::uint64_t runs = 0;
    for (std::size_t i = 0; i < document["campaigns"].size(); i++) {
        auto sets = sets_of(document["campaigns"][i], name, "/campaigns/" + std::to_string(i));
        if (!sets) {
            return sim::fail(sets.error());
        }
        for (const RunSet& set : sets.value()) {
            runs += set.slice.count;
            part.sets.push_back(set);
        }
    }
    if (runs != document["runs"].get<std::uint64_t>()) {
        return sim::fail(
            expected(name, "/runs", "the sum of the slice counts (" + std::to_string(runs) + ")"));
    }
    return part;
}

/// True when every run of `inner` lies in one slice of `outer`.
bool holds_all(const Part& outer, const Part& inner) {
    return std::all_of(inner.sets.begin(), inner.sets.end(), [&outer](const RunSet& set) {
        return std::any_of(outer.sets.begin(), outer.sets.end(),
                           [&set](const RunSet& big) { return detail::holds_all(big, set); });
    });
}

using RunKey = std::tuple<std::string, std::string, std::uint64_t>;

RunKey key_of(const json& failure) {
    return RunKey{failure["scheduler"].get<std::string>(), failure["semantics"].get<std::string>(),
                  failure["seed"].get<std::uint64_t>()};
}

bool holds_failure_run(const Part& part, const json& failure) {
    return std::any_of(part.sets.begin(), part.sets.end(), [&failure](const RunSet& set) {
        return set.scheduler == failure["scheduler"].get<std::string>() &&
               set.semantics == failure["semantics"].get<std::string>() &&
               detail::holds_run(set, failure["root_seed"].get<std::uint64_t>(),
                                 failure["index"].get<std::uint64_t>());
    });
}

std::string outcome_text(const json* failure) {
    if (failure == nullptr) {
        return "no failure";
    }
    return failure->value("kind", "") + " " + failure->value("name", "") + " at " +
           std::to_string(failure->value("at_ns", std::int64_t{0})) + " ns (trace-hash " +
           failure->value("trace_hash", "?") + ")";
}

bool same_outcome(const json& a, const json& b) {
    for (const char* key : {"kind", "name", "at_ns", "trace_hash"}) {
        if (a.value(key, json()) != b.value(key, json())) {
            return false;
        }
    }
    return true;
}

std::map<RunKey, const json*> failures_by_run(const Part& part) {
    std::map<RunKey, const json*> out;
    for (const json& item : (*part.document)["failures"]) {
        out.emplace(key_of(item), &item);
    }
    return out;
}

/// Where `inner` (all of whose runs `outer` holds) and `outer` disagree about a run.
std::optional<std::string> disagreement(const Part& inner, const Part& outer) {
    const auto inner_failures = failures_by_run(inner);
    const auto outer_failures = failures_by_run(outer);
    auto conflict = [&](const RunKey& key, const json* in, const json* out) {
        return inner.name + " and " + outer.name + " disagree about run seed " +
               std::to_string(std::get<2>(key)) + " (scheduler " + std::get<0>(key) +
               ", semantics " + std::get<1>(key) + "): " + inner.name + " has " + outcome_text(in) +
               ", " + outer.name + " has " + outcome_text(out);
    };
    for (const auto& [key, item] : inner_failures) {
        const auto found = outer_failures.find(key);
        if (found == outer_failures.end() || !same_outcome(*item, *found->second)) {
            return conflict(key, item, found == outer_failures.end() ? nullptr : found->second);
        }
    }
    for (const auto& [key, item] : outer_failures) {
        if (!inner_failures.contains(key) && holds_failure_run(inner, *item)) {
            return conflict(key, nullptr, item);
        }
    }
    return std::nullopt;
}

/// A run two documents share when neither holds all of the other's.
std::optional<std::string> overlap(const Part& a, const Part& b) {
    for (const RunSet& x : a.sets) {
        for (const RunSet& y : b.sets) {
            if (const auto index = detail::first_shared_run(x, y)) {
                return a.name + " and " + b.name + " both hold run seed " +
                       std::to_string(run_seed(x.root_seed, *index)) + " (root seed " +
                       std::to_string(x.root_seed) + " run " + std::to_string(*index) +
                       ", scheduler " + x.scheduler + ", semantics " + x.semantics +
                       ") but neither holds all runs of the other: merged, their shared runs "
                       "would count twice (merge disjoint shards)";
            }
        }
    }
    return std::nullopt;
}

/// Leaves out each document whose runs another one holds (of two equal ones, the later);
/// then refuses documents that still share runs.
std::optional<std::string> leave_out_repeats(std::vector<Part>& parts) {
    for (std::size_t i = 0; i < parts.size(); i++) {
        for (std::size_t j = 0; j < parts.size(); j++) {
            if (j == i || parts[j].left_out || !holds_all(parts[j], parts[i]) ||
                (holds_all(parts[i], parts[j]) && j > i)) {
                continue;
            }
            if (auto error = disagreement(parts[i], parts[j])) {
                return error;
            }
            parts[i].left_out = true;
            break;
        }
    }
    for (std::size_t i = 0; i < parts.size(); i++) {
        for (std::size_t j = i + 1; j < parts.size(); j++) {
            if (parts[i].left_out || parts[j].left_out) {
                continue;
            }
            if (auto error = overlap(parts[i], parts[j])) {
                return error;
            }
        }
    }
    return std::nullopt;
}

json combine(const std::vector<Part>& parts) {
    json campaigns = json::array();
    std::map<std::pair<std::uint64_t, RunKey>, json> failures; // by seed, then run
    std::map<std::string, CoverageCount> coverage;
    std::vector<ProbeCount> probes;
    std::uint64_t runs = 0;
    double elapsed = 0;
    for (const Part& part : parts) {
        if (part.left_out) {
            continue;
        }
        const json& document = *part.document;
        for (const json& entry : document["campaigns"]) {
            campaigns.push_back(entry);
        }
        runs += document["runs"].get<std::uint64_t>();
        elapsed += document.value("elapsed_s", 0.0);
        detail::add_coverage(coverage, document["coverage"]);
        detail::add_probes(probes, document.value("probes", json::array()));
        for (const json& item : document["failures"]) {
            failures.emplace(std::pair{item["seed"].get<std::uint64_t>(), key_of(item)}, item);
        }
    }
    json merged_failures = json::array();
    for (auto& [key, item] : failures) {
        merged_failures.push_back(std::move(item));
    }
    json merged{{"format", results_format},
                {"scenario", parts.front().document->at("scenario")},
                {"campaigns", std::move(campaigns)},
                {"runs", runs},
                {"failures", std::move(merged_failures)},
                {"coverage", detail::coverage_json(coverage)},
                {"elapsed_s", elapsed}};
    if (!probes.empty()) {
        merged["probes"] = detail::probes_json(probes);
    }
    return merged;
}

} // namespace

sim::Result<json, std::string> merge_results(const std::vector<json>& documents,
                                             const std::vector<std::string>& names,
                                             std::vector<std::string>* left_out) {
    std::vector<Part> parts;
    for (std::size_t i = 0; i < documents.size(); i++) {
        const std::string name = i < names.size() ? names[i] : "document " + std::to_string(i + 1);
        auto part = read_part(documents[i], name);
        if (!part) {
            return sim::fail(part.error());
        }
        const json& scenario = documents[i]["scenario"];
        if (!parts.empty() && scenario != parts.front().document->at("scenario")) {
            return sim::fail(name + " is for scenario " + scenario.dump() + ", " +
                             parts.front().name + " for " +
                             parts.front().document->at("scenario").dump());
        }
        parts.push_back(std::move(part).value());
    }
    if (parts.empty()) {
        return sim::fail(std::string("no results documents to merge"));
    }
    if (auto error = leave_out_repeats(parts)) {
        return sim::fail(*error);
    }
    for (const Part& part : parts) {
        if (part.left_out && left_out != nullptr) {
            left_out->push_back(part.name);
        }
    }
    return combine(parts);
}

} // namespace routesim::tools
