// Fuzz results documents and their merge. The format, "routesim-fuzz-results/2":
//
//   { "format": "routesim-fuzz-results/2",
//     "scenario": "<scenario name>",
//     "campaigns": [ {"root_seed": S, "scheduler": "random" | "pct", "semantics": name,
//                     "shard_index": K, "shard_count": N, "jobs": J, "runs": n,
//                     "slices": [ {"first": i, "stride": d, "count": c} ]} ],
//     "runs": <total runs>,
//     "failures": [ {"root_seed": S, "index": i, "seed": s, "scheduler": ..., "semantics": ...,
//                    "kind": "invariant" | "check" | "limit",
//                    "name": "<invariant, expectation path or limit>", "at_ns": t,
//                    "explanation": "...", "trace_hash": "<16 hex>",
//                    "rerun": "routesim fuzz ...", optional "reproducer", "replay",
//                    "replay_trace_hash"} ],          // sorted by seed, one per run
//     "coverage": { "<route state> x <event>" | "window:<name>": {"runs": r, "events": e} },
//     "probes": [ {"name": "<probe name>", "runs": r} ],   // only for a scenario with probes
//     "elapsed_s": <wall-clock seconds, informational> }
//
// Run i of a campaign has seed run_seed(S, i); shard K/N runs the indices i = K (mod N), and
// its worker w of J the slice first K + w*N, stride N*J (a prefix of it, when a time budget or
// --max-failures stopped it). `semantics` is the profile the runs followed. A run is
// (scheduler, semantics, seed). Merging keeps each run once: a document whose runs all lie in
// one slice of another document's is left out (the two must agree about every such run);
// documents that share only some runs are refused, since their coverage cannot be split.
// Part of tools/.
#include <algorithm>
#include <cstdlib>

#include "sim/trace.hpp"
#include "tools/campaign_detail.hpp"

namespace routesim::tools {

using nlohmann::json;

namespace detail {

json failure_json(const FailureRecord& record) {
    return json{{"index", record.index},
                {"seed", record.seed},
                {"kind", record.key.kind},
                {"name", record.key.name},
                {"at_ns", record.at_ns},
                {"explanation", record.explanation},
                {"trace_hash", sim::format_hash(record.trace_hash)}};
}

FailureRecord failure_from_json(const json& item) {
    FailureRecord record;
    record.index = item.value("index", std::uint64_t{0});
    record.seed = item.value("seed", std::uint64_t{0});
    record.key.kind = item.value("kind", "");
    record.key.name = item.value("name", "");
    record.at_ns = item.value("at_ns", std::int64_t{0});
    record.explanation = item.value("explanation", "");
    record.trace_hash = std::strtoull(item.value("trace_hash", "0").c_str(), nullptr, 16);
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

json probes_json(const std::vector<ProbeCount>& probes) {
    json out = json::array();
    for (const ProbeCount& probe : probes) {
        out.push_back(json{{"name", probe.name}, {"runs", probe.runs}});
    }
    return out;
}

void add_probes(std::vector<ProbeCount>& into, const json& probes) {
    if (!probes.is_array()) {
        return;
    }
    for (const json& item : probes) {
        const std::string name = item.value("name", "");
        auto found = std::find_if(into.begin(), into.end(),
                                  [&name](const ProbeCount& probe) { return probe.name == name; });
        if (found == into.end()) {
            into.push_back(ProbeCount{name, 0});
            found = into.end() - 1;
        }
        found->runs += item.value("runs", std::uint64_t{0});
    }
}

} // namespace detail

namespace {

constexpr const char* results_format = "routesim-fuzz-results/2";

json slices_json(const std::vector<IndexSlice>& slices) {
    json out = json::array();
    for (const IndexSlice& slice : slices) {
        out.push_back(
            json{{"first", slice.first}, {"stride", slice.stride}, {"count", slice.count}});
    }
    return out;
}

} // namespace

json results_json(const CampaignResult& result, const CampaignOptions& options) {
    const std::string scheduler(sim::policy_name(options.scheduler));
    const std::string semantics(scenarios::spelling(result.semantics));
    json failures = json::array();
    std::vector<FailureRecord> by_seed = result.failures;
    std::sort(by_seed.begin(), by_seed.end(),
              [](const FailureRecord& a, const FailureRecord& b) { return a.seed < b.seed; });
    for (const FailureRecord& record : by_seed) {
        json item = detail::failure_json(record);
        item["root_seed"] = options.seed;
        item["scheduler"] = scheduler;
        item["semantics"] = semantics;
        failures.push_back(std::move(item));
    }
    const json campaign{{"root_seed", options.seed},
                        {"scheduler", scheduler},
                        {"semantics", semantics},
                        {"shard_index", options.shard_index},
                        {"shard_count", options.shard_count},
                        {"jobs", options.jobs},
                        {"runs", result.runs},
                        {"slices", slices_json(result.slices)}};
    json document{{"format", results_format},
                  {"scenario", result.scenario},
                  {"campaigns", json::array({campaign})},
                  {"runs", result.runs},
                  {"failures", std::move(failures)},
                  {"coverage", detail::coverage_json(result.coverage)},
                  {"elapsed_s", result.elapsed_s}};
    if (!result.probes.empty()) {
        document["probes"] = detail::probes_json(result.probes);
    }
    return document;
}

CampaignResult campaign_from_json(const json& document) {
    CampaignResult result;
    result.scenario = document.value("scenario", "");
    result.runs = document.value("runs", std::uint64_t{0});
    result.elapsed_s = document.value("elapsed_s", 0.0);
    detail::add_coverage(result.coverage, document.value("coverage", json::object()));
    detail::add_probes(result.probes, document.value("probes", json::array()));
    for (const json& item : document.value("failures", json::array())) {
        result.failures.push_back(detail::failure_from_json(item));
    }
    return result;
}

} // namespace routesim::tools
