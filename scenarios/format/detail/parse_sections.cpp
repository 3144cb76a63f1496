// Loader internals: the `run`, `workload` and `faults` sections and message objects.
// Private to scenarios/; never throws.
#include <cctype>

#include "scenarios/format/detail/parse.hpp"

namespace routesim::scenarios::detail {
namespace {

constexpr std::string_view what_uniform = "{\"uniform\": [lo, hi]} with integers lo <= hi";

bool parse_until(Errors& errors, const Located& at, std::optional<sim::Instant>& out) {
    if (at.json().is_string() && at.json().get_ref<const std::string&>() == "idle") {
        out.reset();
        return true;
    }
    const bool digit_first =
        at.json().is_string() && !at.json().get_ref<const std::string&>().empty() &&
        std::isdigit(static_cast<unsigned char>(at.json().get_ref<const std::string&>()[0])) != 0;
    if (!digit_first && !at.json().is_number_unsigned()) {
        return fail_type(errors, at, "\"idle\" or " + std::string(what_duration));
    }
    sim::Duration span;
    if (!read_duration(errors, at, span)) {
        return false;
    }
    out = sim::Instant::zero() + span;
    return true;
}

bool parse_schedule(LoadContext& context, const Located& at, std::vector<std::uint32_t>& out) {
    Errors& errors = context.errors;
    if (!expect_array(errors, at, "an array of non-negative integers (scheduler choices)")) {
        return false;
    }
    const std::uint64_t length_max = context.limits.schedule_length_max;
    if (at.json().size() > length_max) {
        return errors.fail(at.pointer, "schedule has " + std::to_string(at.json().size()) +
                                           " choices (expected at most " +
                                           std::to_string(length_max) + ")");
    }
    out.resize(at.json().size());
    for (std::size_t i = 0; i < out.size(); i++) {
        std::uint64_t choice = 0;
        if (!read_u64(errors, at.element(i), IntRange{.max = UINT32_MAX}, choice)) {
            return false;
        }
        out[i] = static_cast<std::uint32_t>(choice);
    }
    return true;
}

bool parse_uniform(Errors& errors, const Located& at) {
    const Fields fields(errors, at);
    if (!fields.only({"uniform"})) {
        return false;
    }
    const Located bounds = fields.at("uniform");
    if (!bounds.json().is_array() || bounds.json().size() != 2) {
        return fail_type(errors, bounds, "[lo, hi] (two integers, lo <= hi)");
    }
    std::int64_t low = 0;
    std::int64_t high = 0;
    if (!read_i64(errors, bounds.element(0), low) || !read_i64(errors, bounds.element(1), high)) {
        return false;
    }
    if (low > high) {
        return errors.fail(bounds.pointer, "uniform range [" + std::to_string(low) + ", " +
                                               std::to_string(high) + "] is empty (expected " +
                                               std::string(what_uniform) + ")");
    }
    return true;
}

/// Checks every {"uniform": ...} among the payload values of a workload message, at any depth
/// and in the order walk_payload visits them (so the first error is the first in the file).
bool parse_generators(Errors& errors, const Located& message) {
    std::vector<Located> stack;
    const Json& json = message.json();
    for (auto member = json.rbegin(); member != json.rend(); ++member) {
        if (member.key() != "type") {
            stack.push_back(message.member(member.key()));
        }
    }
    while (!stack.empty()) {
        const Located at = std::move(stack.back());
        stack.pop_back();
        const Json& value = at.json();
        if (value.is_object() && value.contains("uniform")) {
            if (!parse_uniform(errors, at)) {
                return false;
            }
        } else if (value.is_object()) {
            for (auto member = value.rbegin(); member != value.rend(); ++member) {
                stack.push_back(at.member(member.key()));
            }
        } else if (value.is_array()) {
            for (std::size_t i = value.size(); i > 0; i--) {
                stack.push_back(at.element(i - 1));
            }
        }
    }
    return true;
}

bool parse_fault_targets(Errors& errors, const Located& at, std::vector<FaultTarget>& out) {
    if (!expect_array(errors, at, "a non-empty array of fault target classes")) {
        return false;
    }
    if (at.json().empty()) {
        return fail_type(errors, at, "a non-empty array of fault target classes");
    }
    out.resize(at.json().size());
    for (std::size_t i = 0; i < out.size(); i++) {
        if (!read_enum(errors, at.element(i), out[i])) {
            return false;
        }
    }
    return true;
}

bool parse_every(const Fields& fields, sim::Duration& out) {
    if (!fields.duration("every", out, Need::Required)) {
        return false;
    }
    if (out > sim::Duration::zero()) {
        return true;
    }
    return fail_type(fields.errors(), fields.at("every"), "a duration greater than 0ns");
}

bool parse_chance(Errors& errors, const Located& at, ChanceFaults& out) {
    if (!expect_object(errors, at, "an object with \"probability\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"probability", "targets"}) ||
        !fields.need("probability", "a probability (a number from 0 to 1)") ||
        !read_probability_ppb(errors, fields.at("probability"), out.probability_ppb)) {
        return false;
    }
    return !fields.has("targets") || parse_fault_targets(errors, fields.at("targets"), out.targets);
}

bool parse_admin(Errors& errors, const Located& at, AdminFaults& out) {
    if (!expect_object(errors, at, "an object with \"routers\" and \"every\"")) {
        return false;
    }
    const Fields fields(errors, at);
    if (!fields.only({"routers", "every"}) ||
        !fields.need("routers", "a non-empty array of router targets")) {
        return false;
    }
    const Located routers = fields.at("routers");
    if (!routers.json().is_array() || routers.json().empty()) {
        return fail_type(errors, routers, "a non-empty array of router targets");
    }
    out.routers.resize(routers.json().size());
    for (std::size_t i = 0; i < out.routers.size(); i++) {
        if (!read_atom(errors, routers.element(i), out.routers[i], what_target)) {
            return false;
        }
    }
    return parse_every(fields, out.every);
}

bool parse_kill(Errors& errors, const Located& at, KillFaults& out) {
    if (!expect_object(errors, at, "an object with \"targets\" and \"every\"")) {
        return false;
    }
    const Fields fields(errors, at);
    return fields.only({"targets", "every"}) &&
           fields.need("targets", "a non-empty array of fault target classes") &&
           parse_fault_targets(errors, fields.at("targets"), out.targets) &&
           parse_every(fields, out.every);
}

bool parse_terminate_cost(Errors& errors, const Located& at, std::optional<sim::Duration>& out) {
    if (!expect_object(errors, at, "{\"max\": duration}")) {
        return false;
    }
    const Fields fields(errors, at);
    sim::Duration max;
    if (!fields.only({"max"}) || !fields.duration("max", max, Need::Required)) {
        return false;
    }
    out = max;
    return true;
}

} // namespace

bool parse_run(LoadContext& context, const Located& at, RunOptions& out) {
    Errors& errors = context.errors;
    if (!expect_object(errors, at, "a run object")) {
        return false;
    }
    const Fields fields(errors, at);
    const LoadLimits& limits = context.limits;
    context.max_events_given = fields.has("max_events");
    if (!fields.only({"seed", "until", "scheduler", "pct_depth", "max_events", "schedule", "cost",
                      "semantics"}) ||
        !fields.u64("seed", out.seed, IntRange{.max = run_seed_max}) ||
        !fields.enumeration("scheduler", out.scheduler) ||
        !fields.u64(
            "max_events", out.max_events,
            IntRange{.min = 1, .max = limits.max_events_max, .limit = "max_events limit"}) ||
        !fields.duration("cost", out.cost) || !fields.enumeration("semantics", out.semantics)) {
        return false;
    }
    std::uint64_t pct_depth = out.pct_depth;
    if (!fields.u64("pct_depth", pct_depth,
                    IntRange{.min = 1, .max = limits.pct_depth_max, .limit = "pct_depth limit"})) {
        return false;
    }
    out.pct_depth = static_cast<std::uint32_t>(pct_depth);
    if (fields.has("until") && !parse_until(errors, fields.at("until"), out.until)) {
        return false;
    }
    return !fields.has("schedule") || parse_schedule(context, fields.at("schedule"), out.schedule);
}

bool parse_message(Errors& errors, const Located& at, bool generators, Json& out) {
    if (!expect_object(errors, at, "a message object with a string \"type\"")) {
        return false;
    }
    const Fields fields(errors, at);
    std::string type;
    if (!fields.atom("type", type, Need::Required, "a message type (an Atom)")) {
        return false;
    }
    if (generators && type == "$i") {
        // "$i" would turn the type into a number; generators apply to payload fields only.
        return errors.fail(fields.at("type").pointer,
                           "message type \"$i\" is not allowed (expected a literal type name; "
                           "\"$i\" works in payload fields)");
    }
    if (generators && !is_router_admin_message(at.json()) && !parse_generators(errors, at)) {
        return false;
    }
    out = at.json();
    return true;
}

namespace {

bool parse_source(LoadContext& context, const Located& entry, WorkloadSource& source) {
    Errors& errors = context.errors;
    source.pointer = entry.pointer;
    if (!expect_object(errors, entry, "a workload entry with \"send\" or \"call\"")) {
        return false;
    }
    const Fields fields(errors, entry);
    source.is_call = fields.has("call");
    if (source.is_call == fields.has("send")) {
        return errors.fail(entry.pointer, "workload entry needs exactly one of \"send\" or "
                                          "\"call\" (expected a message under one of them)");
    }
    const char* verb = source.is_call ? "call" : "send";
    std::vector<std::string_view> known = {verb, "from", "to", "at", "count", "every", "priority"};
    if (source.is_call) {
        known.push_back("timeout");
    }
    const IntRange count{.max = context.limits.workload_count_max, .limit = "count limit"};
    if (!fields.only(known) ||
        !fields.atom("from", source.from, Need::Required, "a client name (an Atom)") ||
        !fields.atom("to", source.to, Need::Required, what_target) ||
        !parse_message(errors, fields.at(verb), true, source.message) ||
        !fields.duration("at", source.at) || !fields.u64("count", source.count, count) ||
        !fields.duration("every", source.every) ||
        !fields.enumeration("priority", source.priority) ||
        !fields.duration("timeout", source.timeout)) {
        return false;
    }
    context.messages += source.count;
    if (context.messages > context.limits.workload_total_max) {
        return errors.fail(entry.pointer, "workload sends more than " +
                                              std::to_string(context.limits.workload_total_max) +
                                              " messages in total (expected at most " +
                                              std::to_string(context.limits.workload_total_max) +
                                              ")");
    }
    return true;
}

} // namespace

bool parse_workload(LoadContext& context, const Located& at, std::vector<WorkloadSource>& out) {
    Errors& errors = context.errors;
    if (!expect_array(errors, at, "an array of workload entries")) {
        return false;
    }
    out.resize(at.json().size());
    bool ok = true;
    for (std::size_t i = 0; i < out.size(); i++) {
        const std::uint64_t before = errors.count();
        if (parse_source(context, at.element(i), out[i])) {
            continue;
        }
        ok = false;
        context.failed_parts.insert(out[i].pointer);
        if (context.messages > context.limits.workload_total_max) {
            return false; // every later entry would repeat the limit's error
        }
        // A client is known once `from` was read; an admin message is checked on its own.
        if (out[i].from.empty()) {
            context.name_errors += errors.count() - before;
        }
    }
    return ok;
}

bool parse_faults(LoadContext& context, const Located& at, Faults& out) {
    Errors& errors = context.errors;
    if (!expect_object(errors, at, "a faults object")) {
        return false;
    }
    // Each kind of fault is parsed whatever happened to the others.
    const Fields fields(errors, at);
    bool ok = fields.only({"kill", "crash", "spawn_fail", "terminate_cost", "admin", "aim"});
    ok = fields.boolean("aim", out.aim) && ok;
    if (fields.has("kill")) {
        ok = parse_kill(errors, fields.at("kill"), out.kill.emplace()) && ok;
    }
    if (fields.has("crash")) {
        ok = parse_chance(errors, fields.at("crash"), out.crash.emplace()) && ok;
    }
    if (fields.has("spawn_fail")) {
        ok = parse_chance(errors, fields.at("spawn_fail"), out.spawn_fail.emplace()) && ok;
    }
    if (fields.has("terminate_cost")) {
        ok =
            parse_terminate_cost(errors, fields.at("terminate_cost"), out.terminate_cost_max) && ok;
    }
    if (fields.has("admin")) {
        ok = parse_admin(errors, fields.at("admin"), out.admin.emplace()) && ok;
    }
    return ok;
}

} // namespace routesim::scenarios::detail
