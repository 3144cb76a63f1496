// Runner internals: the workload driver and the clients' sends and calls.
// Part of scenarios/run/: uses runtime/, sim/ and nlohmann_json.
#include "scenarios/run/detail/workload.hpp"

#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios::detail {

Workload::Workload(const RunCore& core, const Targets& targets, ClientRecords& clients,
                   Outcomes& outcomes, MessageCache* cache)
    : world_(core.world), node_(core.node), scenario_(core.scenario), targets_(targets),
      clients_(clients), outcomes_(outcomes), cache_(cache), prng_(world_.stream("workload")) {
    RS_ASSERT(&node_.world() == &world_);
    RS_ASSERT(cache_ == nullptr || &cache_->scenario() == &scenario_);
    if (cache_ == nullptr) { // a campaign's cache knows it already (MessageCache::draws_nothing)
        templates_.reserve(scenario_.workload.size());
        for (const WorkloadSource& source : scenario_.workload) {
            templates_.push_back(JsonMessage::draws_nothing(source.message)
                                     ? std::make_unique<JsonMessage::Template>(source.message)
                                     : nullptr);
        }
        RS_ASSERT(templates_.size() == scenario_.workload.size());
    }
}

Json Workload::instantiate(const Json& message, std::uint64_t index) {
    // scenarios/FORMAT.md Values: a field value "$i" or {"uniform": [lo, hi]}, at any depth.
    Json out = message;
    walk_payload(out, [&](Json& value) {
        if (JsonMessage::put_index(value, index)) {
            return false;
        }
        if (is_uniform_generator(value)) {
            const Json& bounds = value["uniform"];
            const std::int64_t low = bounds[0].get<std::int64_t>();
            const std::int64_t high = bounds[1].get<std::int64_t>();
            value = prng_.between(low, high);
            return false;
        }
        return true;
    });
    return out;
}

runtime::Message Workload::workload_message(std::uint32_t source, std::uint64_t repetition) {
    const Json& message = scenario_.workload[source].message;
    if (cache_ != nullptr) {
        const runtime::Message* cached = cache_->workload(source, repetition, [&] {
            return runtime::Message(JsonMessage::from_template(message, repetition));
        }); // the cache keeps only the messages of sources that draw nothing
        if (cached != nullptr) {
            return *cached;
        }
        if (cache_->draws_nothing(source)) { // past what the cache keeps: a body of its own
            return runtime::Message(JsonMessage::from_template(message, repetition));
        }
    } else if (const JsonMessage::Template* tmpl = templates_[source].get()) {
        return runtime::Message(JsonMessage::from_template(*tmpl, repetition));
    }
    return json_message(instantiate(message, repetition));
}

std::string Workload::send_from(const std::string& from, const std::string& to,
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

void Workload::send_workload(std::uint32_t index, runtime::Message message) {
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

void Workload::call_from(const std::string& from, const std::string& to, runtime::Message message,
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

void Workload::schedule() {
    RS_ASSERT(source_clients_.empty()); // once per run
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

void Workload::schedule_source(std::uint32_t index, std::uint64_t repetition) {
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

} // namespace routesim::scenarios::detail
