// Runner internals: building the tree, the workload and timeline driver, random faults.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/detail/run_state.hpp"

#include "runtime/router.hpp"
#include "runtime/trace_keys.hpp"
#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/builder.hpp"
#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

void Tally::count(const sim::TraceEvent& event) {
    if (const auto take = sim::decode<runtime::ev::Take>(event)) {
        if (!count_taken_) {
            return;
        }
        if (take->type == runtime::MailboxType::Regular ||
            take->type == runtime::MailboxType::Request) {
            const std::uint64_t pid = take->pid.value;
            if (pid < dense_max) {
                if (pid >= taken_dense_.size()) {
                    taken_dense_.resize(pid + 1 + pid / 2, 0);
                }
                taken_dense_[pid]++;
            } else {
                taken_sparse_[pid]++;
            }
        }
    } else if (const auto restart = sim::decode<runtime::ev::RouteRestart>(event)) {
        const std::uint64_t router = restart->router;
        const std::string_view name = restart->name.text;
        for (Restarts& entry : restarts_) {
            if (entry.router == router && entry.name == name) {
                entry.count++;
                return;
            }
        }
        restarts_.push_back(Restarts{router, std::string(name), 1});
    }
}

std::uint64_t Tally::restarts(std::uint64_t router, std::string_view name) const {
    for (const Restarts& entry : restarts_) {
        if (entry.router == router && entry.name == name) {
            return entry.count;
        }
    }
    return 0;
}

std::uint64_t Tally::taken(std::uint64_t pid) const {
    RS_ASSERT(count_taken_);
    if (pid < dense_max) {
        return pid < taken_dense_.size() ? taken_dense_[pid] : 0;
    }
    auto found = taken_sparse_.find(pid);
    return found == taken_sparse_.end() ? 0 : found->second;
}

} // namespace routesim::scenarios

namespace routesim::scenarios::detail {
namespace trace = runtime::trace;

RunResult RunState::execute() {
    result_.seed = world_.seed();
    result_.scheduler = world_.scheduler().policy();
    result_.semantics = settings_.semantics.value_or(scenario_.run.semantics);
    // "via": "admin" results and timeline call outcomes are compared with `expect` at the
    // virtual time they arrive, not when the run ends.
    outcomes_.on_outcome = [this](std::int64_t index, const TimedOutcome& outcome) {
        check_outcome(scenario_.timeline[static_cast<std::size_t>(index)], outcome.result);
    };
    build();
    schedule_workload();
    schedule_timeline();
    schedule_faults();
    const std::optional<sim::Instant> until = settings_.until_idle          ? std::nullopt
                                              : settings_.until.has_value() ? settings_.until
                                                                            : scenario_.run.until;
    result_.outcome = world_.run(until);
    outcomes_.on_outcome = nullptr;
    report_unresolved_calls();
    report_actions_not_reached();
    report_missed_pins();
    const bool idle = result_.outcome.reason == sim::StopReason::Idle;
    monitors_->set.finish(result_.outcome.end, idle);
    if (monitors_->ledger_only) {
        monitors_->ledger_only->finish(result_.outcome.end, idle);
    }
    evaluate(scenario_.expect);
    judge_invariants();
    result_.trace_hash = world_.trace().hash();
    result_.trace_events = world_.trace().count();
    if (settings_.summarise_passing || !result_.passed() || !result_.violations.empty()) {
        summarise();
        result_.decisions = world_.scheduler().decisions();
        for (const auto& [index, outcome] : outcomes_.admin_results()) {
            result_.admin_results[index] = outcome.result;
        }
        result_.clients = clients_.all();
    }
    if (observer_) {
        result_.coverage = Coverage(observer_->coverage());
    }
    return std::move(result_);
}

void RunState::build() {
    // The root first (it spawns its subtree as its kind does), then the clients (§ "How time
    // and order work"): both before time 0's first action.
    const Node& root = scenario_.topology;
    const runtime::Factory factory = factory_for(build_context_, root);
    const auto spawned = root.name.empty() ? node_.spawn(factory, options_for(root), {})
                                           : node_.spawn_register(runtime::Atom(root.name), factory,
                                                                  options_for(root), {});
    if (!spawned) {
        result_.root_failure = spawned.error().message();
    }
    for (const std::string& client : scenario_.clients) {
        const auto pid = node_.spawn_register(runtime::Atom(client),
                                              client_factory(client_context_, client), {}, {});
        RS_ASSERT(pid.has_value());
    }
}

// -- workload ---------------------------------------------------------------------------------

Json RunState::instantiate(const Json& message, std::uint64_t index) {
    // scenarios/FORMAT.md Values: a field value "$i" or {"uniform": [lo, hi]}, at any depth.
    Json out = message;
    walk_payload(out, [&](Json& value) {
        if (value.is_string() && value.get_ref<const std::string&>() == "$i") {
            value = index;
            return false;
        }
        if (is_uniform_generator(value)) {
            const Json& bounds = value["uniform"];
            const std::int64_t low = bounds[0].get<std::int64_t>();
            const std::int64_t high = bounds[1].get<std::int64_t>();
            value = workload_prng_.between(low, high);
            return false;
        }
        return true;
    });
    return out;
}

runtime::Message RunState::workload_message(std::uint32_t source, std::uint64_t repetition) {
    const Json& message = scenario_.workload[source].message;
    if (cache_ != nullptr) {
        const runtime::Message* cached = cache_->workload(
            source, repetition, [&] { return json_message(instantiate(message, repetition)); });
        if (cached != nullptr) {
            return *cached;
        }
    }
    return json_message(instantiate(message, repetition));
}

std::string RunState::send_from(const std::string& from, const std::string& to,
                                runtime::Message message, Priority priority) {
    ClientRecord& record = clients_.record(from);
    const auto fail = [&record](runtime::Err err) {
        std::string name(runtime::ergo_name(err));
        record.errors[name]++;
        return name;
    };
    runtime::Process* client = node_.find(runtime::Atom(from));
    if (client == nullptr) {
        // A client that a timeline kill or exit stopped: §2.1, a sender that
        // is not alive gets ErrNotAllowed (scenarios/FORMAT.md: an outcome, not a crash).
        return fail(runtime::Err::NotAllowed);
    }
    const auto target = targets_.resolve(to);
    if (!target.has_value()) {
        return fail(runtime::Err::ProcessUnknown);
    }
    const runtime::SendResult sent =
        client->send_with_priority(*target, std::move(message), runtime_priority(priority));
    return sent ? std::string("ok") : fail(sent.error());
}

void RunState::send_workload(std::uint32_t index, runtime::Message message) {
    // As send_from, without the per-message name lookups.
    const WorkloadSource& source = scenario_.workload[index];
    RS_ASSERT(index < source_clients_.size());
    SourceClient& client = source_clients_[index];
    if (client.record == nullptr) {
        client.from = runtime::Atom(source.from);
        client.record = &clients_.record(source.from); // std::map nodes are stable
        if (!source.to.empty() && source.to.size() <= runtime::atom_length_max &&
            source.to.find('/') == std::string::npos) {
            client.to_name = runtime::Atom(source.to);
        }
    }
    // Names are unique, and a process's own name is set and cleared with its registry entry
    // (a terminated one is never found): the cached PID answers as the registry would.
    runtime::Process* process = node_.find(client.from_pid);
    if (process == nullptr || process->name() != client.from) {
        process = node_.find(client.from);
        client.from_pid = process != nullptr ? process->pid() : runtime::PID{};
    }
    if (process == nullptr) {
        // The client was stopped by a timeline kill or exit (§2.1: a sender
        // that is not alive gets ErrNotAllowed).
        client.record->errors[std::string(runtime::ergo_name(runtime::Err::NotAllowed))]++;
        return;
    }
    std::optional<runtime::PID> target;
    if (client.to_name.has_value()) {
        const runtime::Process* cached = node_.find(client.to_pid);
        if (cached != nullptr && cached->name() == *client.to_name) {
            target = client.to_pid;
        } else if (auto pid = node_.process_pid(*client.to_name)) {
            target = pid.value();
            client.to_pid = pid.value();
        }
    } else {
        target = targets_.resolve(source.to);
    }
    if (!target.has_value()) {
        if (client.unknown_count == nullptr) { // std::map values are stable
            client.unknown_count =
                &client.record
                     ->errors[std::string(runtime::ergo_name(runtime::Err::ProcessUnknown))];
        }
        ++*client.unknown_count;
        return;
    }
    const runtime::SendResult sent =
        process->send_with_priority(*target, std::move(message), runtime_priority(source.priority));
    if (!sent) {
        client.record->errors[std::string(runtime::ergo_name(sent.error()))]++;
    }
}

void RunState::call_from(const std::string& from, const std::string& to, runtime::Message message,
                         Priority priority, sim::Duration timeout, std::int64_t action) {
    // The client makes the call itself, from its own step (a caller blocks, so its calls are
    // made one after another), ordered by an urgent control message.
    runtime::Message order = call_order(to, std::move(message), timeout, priority, action);
    const runtime::SendResult sent =
        node_.send(runtime::Atom(from), std::move(order), runtime::MessagePriority::Max);
    if (sent) {
        return;
    }
    // Only a client stopped by a timeline kill or exit refuses the order: runtime/SEMANTICS.md
    // §2.4 step 1, a caller that is not running gets ErrNotAllowed.
    RS_ASSERT(sent.error() == runtime::Err::ProcessUnknown ||
              sent.error() == runtime::Err::ProcessTerminated);
    const std::string not_allowed(runtime::ergo_name(runtime::Err::NotAllowed));
    clients_.record(from).errors[not_allowed]++;
    if (action >= 0) {
        outcomes_.note_call(action, not_allowed, world_.now());
    }
}

void RunState::schedule_workload() {
    source_clients_.resize(scenario_.workload.size());
    for (std::uint32_t index = 0; index < scenario_.workload.size(); index++) {
        const WorkloadSource& source = scenario_.workload[index];
        if (source.count > 0) {
            world_.schedule_at(
                sim::Instant::zero() + source.at, [this, index] { schedule_source(index, 0); },
                sim::TimerLane::Workload, index);
        }
    }
}

void RunState::schedule_source(std::uint32_t index, std::uint64_t repetition) {
    // Fires repetition `repetition` of source `index`, then chains the next one, so a source
    // of a million messages holds one timer at a time.
    const WorkloadSource& source = scenario_.workload[index];
    runtime::Message message = workload_message(index, repetition);
    if (source.is_call) {
        call_from(source.from, source.to, std::move(message), source.priority, source.timeout, -1);
    } else {
        send_workload(index, std::move(message));
    }
    if (repetition + 1 < source.count) {
        // Two words of capture fit std::function's inline buffer (no allocation per message):
        // the count is at most LoadLimits::workload_count_max, far below 2^32.
        RS_ASSERT(repetition + 1 < (std::uint64_t{1} << 32));
        const std::uint64_t next = (std::uint64_t{index} << 32) | (repetition + 1);
        world_.schedule_after(
            source.every,
            [this, next] {
                schedule_source(static_cast<std::uint32_t>(next >> 32), next & 0xffffffffU);
            },
            sim::TimerLane::Workload, index);
    }
}

// -- timeline ---------------------------------------------------------------------------------

void RunState::schedule_timeline() {
    performed_.assign(scenario_.timeline.size(), false);
    for (std::uint32_t index = 0; index < scenario_.timeline.size(); index++) {
        if (scenario_.timeline[index].step.has_value()) {
            schedule_pinned(index); // between two process steps (run_faults.cpp)
            continue;
        }
        world_.schedule_at(
            sim::Instant::zero() + scenario_.timeline[index].at, [this, index] { perform(index); },
            sim::TimerLane::Actions, index);
    }
}

void RunState::check_outcome(const Action& action, const std::string& actual) {
    if (!action.expect.has_value()) {
        return;
    }
    // "(due T)": the summary adds the time the outcome was checked ("at T2").
    result_.checks.push_back(Check{"timeline " + std::string(spelling(action.verb)) + " (due " +
                                       sim::format_duration(action.at) + ")",
                                   *action.expect, actual, actual == *action.expect,
                                   action.pointer + "/expect", world_.now()});
}

void RunState::report_unresolved_calls() {
    // scenarios/FORMAT.md `timeline`: `expect` is "the outcome the call must return; a mismatch
    // fails the run". A call still waiting when the run stops (or whose order died with its
    // client) returned nothing, which is not the outcome expected.
    for (const std::uint32_t index : calls_made_) {
        const Action& action = scenario_.timeline[index];
        if (action.expect.has_value() && !outcomes_.call_results().contains(index)) {
            check_outcome(action, "no result by the end of the run");
        }
    }
}

void RunState::report_actions_not_reached() {
    if (result_.outcome.reason != sim::StopReason::Until) {
        return; // an idle run performs every timed action; other stops already fail the run
    }
    for (std::uint32_t index = 0; index < scenario_.timeline.size(); index++) {
        const Action& action = scenario_.timeline[index];
        if (performed_[index] || action.step.has_value() ||
            (!action.expect.has_value() && !action.check.has_value())) {
            continue; // pinned actions: report_missed_pins
        }
        add_check("timeline " + std::string(spelling(action.verb)) + " (due " +
                      sim::format_duration(action.at) + ")",
                  action.expect.value_or("evaluated"),
                  "not reached: the run stopped at run.until (" +
                      sim::format_instant(result_.outcome.end) + ")",
                  action.pointer + "/at");
    }
}

std::string RunState::perform_management(std::uint32_t index, const Action& action) {
    const auto router_pid = targets_.resolve(action.router);
    if (!router_pid.has_value()) {
        return std::string(runtime::ergo_name(runtime::Err::ProcessUnknown));
    }
    runtime::act::Router* router = router_of(node_, *router_pid);
    const Node* router_spec = specs_.spec_of(*router_pid);
    if (router == nullptr || router_spec == nullptr) {
        return std::string(runtime::ergo_name(runtime::Err::ProcessUnknown));
    }
    const Node* worker = action.worker.has_value() ? &*action.worker : nullptr;
    if (action.via == Via::Call) {
        return perform_admin(build_context_, *router, *router_spec, action.verb, action.route,
                             worker);
    }
    AdminOrder order{action.verb, action.route, worker, static_cast<std::int64_t>(index)};
    const runtime::SendResult sent = node_.send(*router_pid, order, runtime::MessagePriority::High);
    return sent ? std::string() : std::string(runtime::ergo_name(sent.error()));
}

void RunState::perform(std::uint32_t index) {
    performed_[index] = true;
    const Action& action = scenario_.timeline[index];
    std::string outcome = "ok";
    if (is_management_verb(action.verb)) {
        outcome = perform_management(index, action);
        if (outcome.empty()) {
            return; // via admin: the router reports the result when it runs the operation
        }
        check_outcome(action, outcome);
        return;
    }
    const auto target = action.target.empty() ? std::nullopt : targets_.resolve(action.target);
    const std::string unknown(runtime::ergo_name(runtime::Err::ProcessUnknown));
    switch (action.verb) {
    case Verb::Kill:
        outcome = !target ? unknown : [&] {
            const auto killed = node_.kill(*target);
            return killed ? std::string("ok") : std::string(runtime::ergo_name(killed.error()));
        }();
        break;
    case Verb::Exit:
        outcome = !target ? unknown : [&] {
            const auto sent = node_.send_exit(*target, runtime::parse_reason(action.reason));
            return sent ? std::string("ok") : std::string(runtime::ergo_name(sent.error()));
        }();
        break;
    case Verb::Crash:
        if (target) {
            draws_.arm_crash(*target);
        } else {
            outcome = unknown;
        }
        break;
    case Verb::FailSpawns:
        specs_.stats_by_path(action.node).fail_next += action.count;
        break;
    case Verb::Send:
        // scenarios/FORMAT.md `timeline`: `expect` is the outcome the send returns.
        outcome = send_from(action.from, action.to, json_message(action.message), action.priority);
        break;
    case Verb::Call:
        // The call's outcome is known when its response or error arrives; execute() compares
        // it with `expect` then, as for admin-path management calls.
        call_from(action.from, action.to, json_message(action.message), action.priority,
                  action.timeout, static_cast<std::int64_t>(index));
        calls_made_.insert(index);
        return;
    case Verb::Check:
        if (action.check.has_value()) {
            evaluate(*action.check);
        }
        break;
    default:
        break;
    }
    check_outcome(action, outcome);
}

} // namespace routesim::scenarios::detail
