// Fuzz results documents and their merge. The format, "routesim-fuzz-results/1":
//
//   { "format": "routesim-fuzz-results/1",
//     "scenario": "<scenario name>",
//     "campaigns": [ {"root_seed": S, "scheduler": "random" | "pct", "semantics": "" | name,
//                     "shard_index": K, "shard_count": N, "runs": n} ],
//     "runs": <total runs>,
//     "failures": [ {"index": i, "seed": s, "kind": "invariant" | "check" | "limit",
//                    "name": "<invariant, expectation path or limit>", "at_ns": t,
//                    "explanation": "..."} ],          // sorted by seed, one per seed
//     "coverage": { "<route state> x <event>" | "window:<name>": {"runs": r, "events": e} },
//     "elapsed_s": <wall-clock seconds, informational> }
//
// Run i of a campaign has seed run_seed(S, i); shard K/N runs the indices i = K (mod N).
// Merging concatenates the campaigns (an identical campaign entry counts once), keeps one
// failure per seed, and sums runs and coverage. Part of tools/.
#include <algorithm>

#include "tools/campaign_detail.hpp"

namespace routesim::tools {

using nlohmann::json;

namespace detail {

json failure_json(const FailureRecord& record) {
    return json{{"index", record.index},        {"seed", record.seed},
                {"kind", record.key.kind},      {"name", record.key.name},
                {"at_ns", record.at_ns},        {"explanation", record.explanation}};
}

FailureRecord failure_from_json(const json& item) {
    FailureRecord record;
    record.index = item.value("index", std::uint64_t{0});
    record.seed = item.value("seed", std::uint64_t{0});
    record.key.kind = item.value("kind", "");
    record.key.name = item.value("name", "");
    record.at_ns = item.value("at_ns", std::int64_t{0});
    record.explanation = item.value("explanation", "");
    return record;
}

json coverage_json(const std::map<std::string, CoverageCount>& coverage) {
    json out = json::object();
    for (const auto& [key, count] : coverage) {
        out[key] = json{{"runs", count.runs}, {"events", count.events}};
    }
    return out;
}

void add_coverage(std::map<std::string, CoverageCount>& into, const json& coverage) {
    if (!coverage.is_object()) {
        return;
    }
    for (const auto& [key, count] : coverage.items()) {
        CoverageCount& sum = into[key];
        sum.runs += count.value("runs", std::uint64_t{0});
        sum.events += count.value("events", std::uint64_t{0});
    }
}

} // namespace detail

json results_json(const CampaignResult& result, const CampaignOptions& options) {
    json failures = json::array();
    std::vector<FailureRecord> by_seed = result.failures;
    std::sort(by_seed.begin(), by_seed.end(),
              [](const FailureRecord& a, const FailureRecord& b) { return a.seed < b.seed; });
    for (const FailureRecord& record : by_seed) {
        failures.push_back(detail::failure_json(record));
    }
    const json campaign{
        {"root_seed", options.seed},
        {"scheduler", std::string(sim::policy_name(options.scheduler))},
        {"semantics", options.semantics ? std::string(scenarios::spelling(*options.semantics)) : ""},
        {"shard_index", options.shard_index},
        {"shard_count", options.shard_count},
        {"runs", result.runs}};
    return json{{"format", "routesim-fuzz-results/1"},
                {"scenario", result.scenario},
                {"campaigns", json::array({campaign})},
                {"runs", result.runs},
                {"failures", std::move(failures)},
                {"coverage", detail::coverage_json(result.coverage)},
                {"elapsed_s", result.elapsed_s}};
}

CampaignResult campaign_from_json(const json& document) {
    CampaignResult result;
    result.scenario = document.value("scenario", "");
    result.runs = document.value("runs", std::uint64_t{0});
    result.elapsed_s = document.value("elapsed_s", 0.0);
    detail::add_coverage(result.coverage, document.value("coverage", json::object()));
    for (const json& item : document.value("failures", json::array())) {
        result.failures.push_back(detail::failure_from_json(item));
    }
    return result;
}

sim::Result<json, std::string> merge_results(const std::vector<json>& documents) {
    json campaigns = json::array();
    std::map<std::uint64_t, json> failures;
    std::map<std::string, CoverageCount> coverage;
    std::string scenario;
    std::uint64_t runs = 0;
    double elapsed = 0;
    for (std::size_t i = 0; i < documents.size(); i++) {
        const json& document = documents[i];
        if (!document.is_object() || document.value("format", "") != "routesim-fuzz-results/1") {
            return sim::fail("document " + std::to_string(i + 1) +
                             " is not a routesim fuzz results document (expected \"format\": "
                             "\"routesim-fuzz-results/1\")");
        }
        const std::string name = document.value("scenario", "");
        if (i > 0 && name != scenario) {
            return sim::fail("document " + std::to_string(i + 1) + " is for scenario \"" + name +
                             "\", not \"" + scenario + "\"");
        }
        scenario = name;
        const json entries = document.value("campaigns", json::array());
        const bool seen = !entries.empty() && std::all_of(entries.begin(), entries.end(), [&](const json& c) {
            return std::find(campaigns.begin(), campaigns.end(), c) != campaigns.end();
        });
        if (seen) {
            continue; // the same campaign twice counts once
        }
        for (const json& entry : entries) {
            campaigns.push_back(entry);
        }
        runs += document.value("runs", std::uint64_t{0});
        elapsed += document.value("elapsed_s", 0.0);
        detail::add_coverage(coverage, document.value("coverage", json::object()));
        for (const json& item : document.value("failures", json::array())) {
            failures.emplace(item.value("seed", std::uint64_t{0}), item);
        }
    }
    json merged_failures = json::array();
    for (auto& [seed, item] : failures) {
        merged_failures.push_back(std::move(item));
    }
    return json{{"format", "routesim-fuzz-results/1"},
                {"scenario", scenario},
                {"campaigns", std::move(campaigns)},
                {"runs", runs},
                {"failures", std::move(merged_failures)},
                {"coverage", detail::coverage_json(coverage)},
                {"elapsed_s", elapsed}};
}

} // namespace routesim::tools
