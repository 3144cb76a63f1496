// Shrinking: the candidate reproducer (faults pinned as timeline actions, choices as
// run.schedule), its verification, and the minimising passes (shrink_passes.cpp).
// Part of tools/: may use every layer's public headers.
#include "tools/shrink.hpp"

#include <algorithm>
#include <map>

#include "properties/monitor.hpp"
#include "reports/trace_lines.hpp"
#include "scenarios/format/loader.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"
#include "tools/fuzz/race_observer.hpp"
#include "tools/shrink_detail.hpp"

namespace routesim::tools {

using nlohmann::json;
using scenarios::FiredFault;
using scenarios::RunResult;
using scenarios::Verb;

namespace {

std::string time_text(sim::Instant at) {
    return sim::format_instant(at);
}

/// The timeline action that replays `fault`, or nothing when it cannot be pinned.
std::optional<json> pinned_action(const FiredFault& fault, const json& original) {
    if (!fault.pinnable) {
        return std::nullopt;
    }
    json action{{"at", time_text(fault.at)}, {"step", fault.step}};
    const std::string verb(scenarios::spelling(fault.verb));
    switch (fault.verb) {
    case Verb::Kill:
    case Verb::Crash:
        action[verb] = fault.target;
        return action;
    case Verb::FailSpawns:
        action[verb] = json{{"node", fault.target}, {"count", 1}};
        return action;
    default:
        break;
    }
    if (!scenarios::is_management_verb(fault.verb)) {
        return std::nullopt;
    }
    json argument{{"router", fault.target}, {"name", fault.route}};
    if (fault.verb == Verb::AddRoute || fault.verb == Verb::ReplaceRoute) {
        const json::json_pointer pointer(fault.worker_pointer);
        if (fault.worker_pointer.empty() || !original.contains(pointer)) {
            return std::nullopt;
        }
        argument["worker"] = original.at(pointer);
    }
    action[verb] = std::move(argument);
    action["via"] = std::string(scenarios::spelling(fault.via));
    return action;
}

void set_run(json& document, const ShrinkInput& input, const std::vector<std::uint32_t>& schedule) {
    json& run = document["run"];
    run["seed"] = input.seed;
    run.erase("schedule");
    if (!schedule.empty()) {
        run["schedule"] = schedule;
    }
    // Replay falls back to the canonical (fifo) choice when the log runs out, so an empty log
    // is a fifo run; a non-empty one names the policy that made it.
    run["scheduler"] =
        schedule.empty() ? std::string("fifo") : std::string(sim::policy_name(input.scheduler));
    if (input.semantics.has_value()) {
        run["semantics"] = std::string(scenarios::spelling(*input.semantics));
    }
}

/// Drops `$schema` (a relative path that no longer points at the schema from where
/// reproducers are written) and the scenario's description: explain_reproducer writes the
/// reproducer's own once the shrunk document is verified.
void strip_for_reproducer(json& document) {
    document.erase("$schema");
    document.erase("description");
}

} // namespace

namespace detail {

std::optional<json> pinned_document(const ShrinkInput& input) {
    json document = *input.document;
    json actions = json::array();
    for (const FiredFault& fault : input.failing->faults) {
        auto action = pinned_action(fault, *input.document);
        if (!action.has_value()) {
            return std::nullopt;
        }
        actions.push_back(std::move(*action));
    }
    if (document.contains("faults")) {
        // Only the terminate-cost draws stay random: they have their own stream, so they
        // replay from the seed whatever else is pinned.
        const json faults = document["faults"];
        document.erase("faults");
        if (faults.contains("terminate_cost")) {
            document["faults"] = json{{"terminate_cost", faults["terminate_cost"]}};
        }
    }
    if (!actions.empty()) {
        json& timeline = document["timeline"];
        if (!timeline.is_array()) {
            timeline = json::array();
        }
        for (json& action : actions) {
            timeline.push_back(std::move(action));
        }
    }
    set_run(document, input, input.failing->decisions);
    strip_for_reproducer(document);
    return document;
}

json fallback_document(const ShrinkInput& input) {
    json document = *input.document;
    if (document.contains("faults") && document["faults"].is_object()) {
        document["faults"]["aim"] = true; // the fuzzer aimed; so does the replay
    }
    set_run(document, input, input.failing->decisions);
    strip_for_reproducer(document);
    return document;
}

std::vector<std::pair<std::string, std::string>> failed_checks(const RunResult& result) {
    std::vector<std::pair<std::string, std::string>> failed;
    for (const auto& check : result.checks) {
        if (!check.ok) {
            failed.emplace_back(check.what, check.actual);
        }
    }
    std::sort(failed.begin(), failed.end());
    return failed;
}

Evaluator::Evaluator(const ShrinkInput& input) : input_(input) {
    if (input_.failure.kind == "check") {
        failed_checks_ = failed_checks(*input_.failing);
    }
}

std::optional<RunResult> Evaluator::run(const json& document,
                                        const scenarios::RunSettings& settings) {
    auto loaded = scenarios::load_scenario_text(document.dump(), "reproducer");
    if (!loaded) {
        return std::nullopt;
    }
    scenarios::RunSettings instrumented = settings;
    if (instrumented.instrument == nullptr) {
        instrumented.instrument = &fuzz::shared_observer(); // reproducers set faults.aim
    }
    return scenarios::run_scenario(loaded.value(), instrumented);
}

bool Evaluator::holds(const json& document) {
    if (exhausted()) {
        return false;
    }
    candidates_++;
    scenarios::RunSettings settings;
    settings.check_determinism = false;
    settings.stop_on_violation = input_.failure.kind == "invariant";
    settings.judge_probes = false; // as the campaign judged the failing run (probes never fail it)
    const auto result = run(document, settings);
    if (!result.has_value()) {
        return false;
    }
    if (input_.failure.kind == "check") {
        return failed_checks(*result) == failed_checks_;
    }
    return shows(*result, input_.failure);
}

ShrinkSizes sizes_of(const json& document) {
    ShrinkSizes sizes;
    if (document.contains("timeline")) {
        sizes.timeline = document["timeline"].size();
    }
    if (document.contains("workload")) {
        for (const json& entry : document["workload"]) {
            sizes.workload_entries++;
            sizes.messages += entry.value("count", std::uint64_t{1});
        }
    }
    if (document.contains("run") && document["run"].contains("schedule")) {
        sizes.schedule = document["run"]["schedule"].size();
    }
    for (const json::json_pointer& route : route_pointers(document)) {
        (void)route;
        sizes.routes++;
    }
    return sizes;
}

} // namespace detail

namespace {

std::string describe_record(const sim::TraceRecord& record) {
    std::string text =
        "#" + std::to_string(record.seq) + " at " + time_text(record.at) + ": " + record.kind;
    for (const auto& [key, value] : record.fields) {
        text += " " + key + "=";
        std::visit(
            [&text](const auto& v) {
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>) {
                    text += v;
                } else if constexpr (std::is_same_v<V, bool>) {
                    text += v ? "true" : "false";
                } else {
                    text += std::to_string(v);
                }
            },
            value);
    }
    return text;
}

bool tells_the_story(const sim::TraceRecord& record) {
    static constexpr std::string_view kinds[] = {
        "fault_kill",    "fault_aim",   "kill",           "exit", "route_pending", "route_admin",
        "route_restart", "sup_restart", "sup_child_exit", "drop", "signal_lost"};
    for (std::string_view kind : kinds) {
        if (record.kind == kind) {
            return true;
        }
    }
    if (record.kind == "call_result" || record.kind == "pool_forward") {
        const std::string outcome = record.text("outcome");
        return outcome != "ok";
    }
    return record.kind == "route" && record.text("resolution") == "failed";
}

/// Keeps the events that tell what happened (faults, pending changes, losses), and every
/// event's line as the trace view tells it (processes by path and PID: `r/a <…1004> took
/// ...`), for the witness lines of the reproducer and of `fuzz`.
class StorySink final : public sim::TraceSink {
public:
    void on_event(const sim::TraceEvent& event) override {
        // An event the trace view cannot follow (it never comes from the runtime) keeps its
        // raw `kind field=value` text.
        const bool follows = lines_.check(event).has_value();
        if (follows) {
            lines_.apply(event);
        }
        if (told_.size() < told_max) {
            told_.emplace(event.seq,
                          follows ? lines_.describe(event) : properties::describe_event(event));
        }
        sim::TraceRecord record = sim::MemorySink::copy(event);
        if (tells_the_story(record)) {
            records_.push_back(std::move(record));
        }
    }
    const std::vector<sim::TraceRecord>& records() const { return records_; }
    /// The trace view's text of event `seq`, or nullptr past the first told_max events.
    const std::string* told(std::uint64_t seq) const {
        const auto found = told_.find(seq);
        return found == told_.end() ? nullptr : &found->second;
    }

private:
    static constexpr std::size_t told_max = 200000; // the reproducer's run: shrunk, short
    reports::TraceLines lines_;
    std::map<std::uint64_t, std::string> told_; // by seq
    std::vector<sim::TraceRecord> records_;
};

// "#13 at 1ms: <what>": the trace view's text when the sink has it, else `fallback`.
std::string witness_line(const StorySink& trace, std::uint64_t seq, sim::Instant at,
                         const std::string& fallback) {
    const std::string* told = trace.told(seq);
    return "#" + std::to_string(seq) + " at " + time_text(at) + ": " +
           (told != nullptr ? *told : fallback);
}

std::vector<std::string> witnesses_of(const RunResult& result, const FailureKey& key,
                                      const StorySink& trace) {
    std::vector<std::string> lines;
    if (key.kind == "invariant") {
        for (const auto& violation : result.violations) {
            if (violation.invariant == key.name) {
                for (const auto& witness : violation.witnesses) {
                    lines.push_back(witness_line(trace, witness.seq, witness.at, witness.text));
                }
                return lines;
            }
        }
    }
    std::vector<std::string> story;
    for (const sim::TraceRecord& record : trace.records()) {
        const std::string* told = trace.told(record.seq);
        story.push_back(told != nullptr ? witness_line(trace, record.seq, record.at, *told)
                                        : describe_record(record));
    }
    constexpr std::size_t shown_max = 12;
    if (story.size() <= shown_max) {
        return story;
    }
    lines.assign(story.begin(), story.begin() + shown_max / 2);
    lines.push_back("... " + std::to_string(story.size() - shown_max) + " more");
    lines.insert(lines.end(), story.end() - shown_max / 2, story.end());
    return lines;
}

} // namespace

std::string explain_failure(const RunResult& result, const FailureKey& key) {
    if (key.kind == "invariant") {
        for (const auto& violation : result.violations) {
            if (violation.invariant == key.name) {
                return "invariant " + key.name + " violated at " + time_text(violation.at) + ": " +
                       violation.explanation;
            }
        }
    }
    if (key.kind == "check") {
        for (const auto& check : result.checks) {
            if (!check.ok && check.what == key.name) {
                return "expectation " + check.what + " failed at " + time_text(check.at) +
                       ": expected " + check.expected + ", got " + check.actual + " (" +
                       check.pointer + ")";
            }
        }
    }
    return key.describe() + " at " + time_text(result.outcome.end);
}

namespace {

// One fault action of a timeline in words ("kill r/a at 3ms"), or "" for another action.
std::string fault_action_text(const json& action) {
    if (!action.is_object()) {
        return "";
    }
    for (const auto& [verb, argument] : action.items()) {
        const std::optional<Verb> parsed = scenarios::parse_spelling<Verb>(verb);
        if (!parsed.has_value()) {
            continue;
        }
        std::string target;
        if (argument.is_string()) {
            target = argument.get<std::string>(); // kill, crash
        } else if (argument.is_object() && argument.contains("node")) {
            target = argument.value("node", ""); // fail_spawns
        } else if (argument.is_object()) {
            target = argument.value("router", "") + "/" + argument.value("name", "");
        }
        return verb + " " + target + " at " + action.value("at", "0ms");
    }
    return "";
}

// The faults of the reproducer, in words: its timeline's fault actions when they are pinned,
// or that they are drawn again from the seed.
std::string faults_text(const Reproducer& reproducer) {
    if (!reproducer.pinned) {
        return "the scenario's random faults, drawn again from the seed (faults.aim)";
    }
    std::string text;
    const json timeline = reproducer.document.value("timeline", json::array());
    for (const json& action : timeline) {
        const std::string fault = fault_action_text(action);
        if (!fault.empty()) {
            text += (text.empty() ? "" : ", ") + fault;
        }
    }
    return text.empty() ? "none" : text;
}

} // namespace

void explain_reproducer(Reproducer& reproducer, const ShrinkInput& input) {
    // What fails and how to get there, then the events that show it: the reader of the file
    // learns why it exists without running it (the scenario's own description is dropped).
    const RunResult& result = reproducer.result;
    std::string text = "Reproducer: " + explain_failure(result, input.failure) +
                       ". Found by routesim fuzz; seed " + std::to_string(input.seed) +
                       ", scheduler " +
                       reproducer.document["run"].value("scheduler", std::string("fifo")) +
                       ", semantics " + std::string(scenarios::spelling(result.semantics)) +
                       "; faults and management on its timeline: " + faults_text(reproducer) + ".";
    if (!reproducer.witnesses.empty()) {
        text += " Witnesses:";
        for (const std::string& line : reproducer.witnesses) {
            text += " " + line + ";";
        }
        text.back() = '.';
    }
    reproducer.document["description"] = std::move(text);
}

std::string reproducer_text(const json& document) {
    return document.dump(2) + "\n";
}

sim::Result<Reproducer, std::string> shrink_failure(const ShrinkInput& input) {
    RS_ASSERT(input.document != nullptr && input.failing != nullptr);
    detail::Evaluator evaluator(input);
    Reproducer reproducer;
    std::optional<json> candidate = detail::pinned_document(input);
    if (!candidate.has_value() || !evaluator.holds(*candidate)) {
        reproducer.pinned = false;
        candidate = detail::fallback_document(input);
        if (!evaluator.holds(*candidate)) {
            return sim::fail("seed " + std::to_string(input.seed) +
                             ": replaying the failing run (" + input.failure.describe() +
                             ") did not reproduce it");
        }
    }
    reproducer.before = detail::sizes_of(*candidate);
    reproducer.document = detail::minimise(std::move(*candidate), evaluator, input.failure);
    reproducer.after = detail::sizes_of(reproducer.document);
    reproducer.candidates = evaluator.candidates();
    // Verify as `routesim run` runs it: default settings, the whole run, the determinism check.
    StorySink trace;
    scenarios::RunSettings settings;
    settings.extra_sinks.push_back(&trace);
    auto final_result = detail::Evaluator::run(reproducer.document, settings);
    if (!final_result.has_value() || !shows(*final_result, input.failure)) {
        return sim::fail("seed " + std::to_string(input.seed) +
                         ": the minimised reproducer does not show " + input.failure.describe());
    }
    reproducer.result = std::move(*final_result);
    reproducer.witnesses = witnesses_of(reproducer.result, input.failure, trace);
    explain_reproducer(reproducer, input);
    return reproducer;
}

} // namespace routesim::tools
