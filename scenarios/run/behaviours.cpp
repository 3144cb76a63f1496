// The scenario behaviour library: workers and clients.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/behaviours.hpp"

#include <exception>

#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {
namespace {
const std::string key_field = "key"; // Worker::key_of

constexpr std::string_view call_order_type = "routesim.client.call";

} // namespace

/// What a registered behaviour can do from inside this worker (routesim::WorkerIo).
class Worker::Io final : public WorkerIo {
public:
    Io(Worker& worker, const runtime::PID& from) : worker_(worker), from_(from) {}
    const runtime::PID& from() const override { return from_; }
    const runtime::PID& self() const override { return worker_.self(); }
    sim::Instant now() const override { return worker_.process().now(); }
    bool reply(const Json& message) override {
        return !from_.empty() && worker_.process().send(from_, json_message(message)).has_value();
    }
    bool send(std::string_view target, const Json& message) override {
        const std::optional<runtime::PID> to = worker_.context_.targets.resolve(target);
        return to.has_value() && worker_.process().send(*to, json_message(message)).has_value();
    }
    void log(std::string_view level, std::string_view text) override {
        worker_.process().log(level, text);
    }
    runtime::Process& process() override { return worker_.process(); }

private:
    Worker& worker_;
    const runtime::PID& from_;
};

Worker::Worker(const WorkerContext& context, const Node& spec)
    : context_(context), draws_(context.draws), spec_(spec), classes_(context.specs.classes(spec)),
      terminate_delay_(context.draws.draw_terminate_delay(spec, classes_)) {
    RS_ASSERT(spec.kind == NodeKind::Actor);
    if (spec.behaviour.type == BehaviourType::Custom) {
        make_custom();
    }
}

void Worker::make_custom() {
    const BehaviorFactory* factory = registered_behavior(spec_.behaviour.custom);
    RS_ASSERT(factory != nullptr); // the loader accepted the name: it is registered
    const std::string what = "registered behavior \"" + spec_.behaviour.custom + "\": ";
    try {
        custom_ = (*factory)(WorkerSpec{spec_.name, spec_.path, spec_.args, spec_.behaviour.knobs});
    } catch (const std::exception& error) {
        custom_error_ = what + "the factory threw: " + error.what();
        return;
    }
    if (custom_ == nullptr) {
        custom_error_ = what + "the factory made no behavior";
    }
}

std::string_view Worker::behavior_name() const {
    return behaviour_name(spec_.behaviour);
}

bool Worker::custom_message(const runtime::PID& from, const runtime::Message& message) {
    RS_ASSERT(custom_ != nullptr); // else Init failed
    Io io(*this, from);
    return custom_->handle_message(io, message_json(message));
}

runtime::act::CallReply Worker::custom_call(const runtime::PID& from,
                                            const runtime::Message& request) {
    RS_ASSERT(custom_ != nullptr); // else Init failed
    Io io(*this, from);
    std::optional<Json> reply = custom_->handle_call(io, message_json(request));
    if (!reply.has_value()) {
        return runtime::act::CallReply::later();
    }
    return runtime::act::CallReply::value(json_message(std::move(*reply)));
}

runtime::Status Worker::init(const runtime::Args&) {
    NodeStats& stats = context_.specs.stats(spec_);
    stats_ = &stats; // std::map nodes are stable: no lookup per message
    const std::uint64_t inits = context_.specs.count_init(spec_);
    context_.specs.note_spawn(spec_, classes_, stats, self());
    const InitFailure& failure = spec_.behaviour.init;
    if (failure.fail || inits <= failure.fail_first) {
        return runtime::stop(runtime::Error::text("init failed (behavior.init)"));
    }
    if (stats.fail_next > 0) {
        stats.fail_next--;
        return runtime::stop(runtime::Error::text("init failed (fail_spawns)"));
    }
    if (draws_.draw_spawn_failure(spec_, classes_)) {
        return runtime::stop(runtime::Error::text("init failed (faults.spawn_fail)"));
    }
    if (!custom_error_.empty()) {
        return runtime::stop(runtime::Error::text(custom_error_));
    }
    if (custom_ != nullptr) {
        const runtime::PID none;
        Io io(*this, none);
        if (std::optional<std::string> error = custom_->init(io)) {
            return runtime::stop(runtime::Error::text(std::move(*error)));
        }
    }
    return runtime::ok();
}

const Json& Worker::identity() {
    if (identity_.is_null()) {
        identity_ = spec_.name.empty() ? Json(runtime::to_string(self())) : Json(spec_.name);
    }
    return identity_;
}

bool Worker::take(const runtime::Message& message) {
    taken_++;
    stats_->processed++;
    const Behaviour& knobs = spec_.behaviour;
    if (knobs.crash_on.has_value()) {
        if (knobs.crash_on->nth.has_value() && taken_ == *knobs.crash_on->nth) {
            return false;
        }
        if (knobs.crash_on->type.has_value() && message.type_name() == *knobs.crash_on->type) {
            return false;
        }
    }
    if (draws_.take_armed_crash(self()) || draws_.draw_crash(spec_, classes_, self())) {
        return false;
    }
    const sim::Duration cost = knobs.cost.value_or(context_.scenario.run.cost);
    if (cost > sim::Duration::zero()) {
        process().busy_for(cost);
    }
    return true;
}

std::string Worker::key_of(const runtime::Message& message) const {
    // Other payloads have no fields (message_json gives them only a "type").
    const auto* json = message.get<JsonMessage>();
    Json scratch;
    const Json* key = json != nullptr ? json->field(key_field, scratch) : nullptr;
    if (key == nullptr) {
        return "";
    }
    return key->is_string() ? key->get<std::string>() : key->dump();
}

MessageCache::Receipts* Worker::receipts() {
    if (!receipts_found_ && context_.cache != nullptr) {
        // As identity() says it: the node's name, else the printed PID.
        receipts_ = context_.cache->receipts_of(spec_.name, self());
        receipts_found_ = true;
    }
    return receipts_;
}

runtime::Message Worker::echo_reply(const runtime::Message& of, std::string_view type) {
    MessageCache::Receipts* receipts = this->receipts();
    const runtime::Message* cached = receipts != nullptr ? receipts->find(of) : nullptr;
    // A message's bodies are all sent or all called, so its stored answers all have one type;
    // the check only guards that.
    if (cached != nullptr && cached->type_name() == type) {
        return *cached;
    }
    runtime::Message made(JsonMessage::answer(type, of, identity()));
    if (receipts != nullptr && cached == nullptr) {
        receipts->store(of, made);
    }
    return made;
}

runtime::Status Worker::handle_message(const runtime::PID& from, const runtime::Message& message) {
    if (!take(message)) {
        return runtime::stop(runtime::Error::panic());
    }
    switch (spec_.behaviour.type) {
    case BehaviourType::Echo:
        if (spec_.behaviour.reply) {
            (void)process().send(from, echo_reply(message, "Receipt"));
        }
        break;
    case BehaviourType::Sink:
        break;
    case BehaviourType::KeyedState:
        counts_[key_of(message)]++;
        break;
    case BehaviourType::Forward:
        if (auto target = context_.targets.resolve(spec_.behaviour.to)) {
            (void)process().forward(*target, current(), runtime::MessagePriority::Normal);
        } else {
            process().log("warning", "forward: target " + spec_.behaviour.to + " is not running");
        }
        break;
    case BehaviourType::Custom:
        if (!custom_message(from, message)) {
            return runtime::stop(runtime::Error::panic());
        }
        break;
    }
    return runtime::ok();
}

runtime::act::CallReply Worker::handle_call(const runtime::PID& from, const runtime::Ref&,
                                            const runtime::Message& request) {
    if (!take(request)) {
        return runtime::act::CallReply::stop(runtime::Error::panic());
    }
    const Behaviour& knobs = spec_.behaviour;
    if (knobs.type == BehaviourType::Forward) {
        if (auto target = context_.targets.resolve(knobs.to)) {
            (void)process().forward(*target, current(), runtime::MessagePriority::Normal);
        }
        return runtime::act::CallReply::later();
    }
    if (knobs.type == BehaviourType::KeyedState) {
        counts_[key_of(request)]++;
    }
    if (knobs.ignore_calls) {
        return runtime::act::CallReply::later();
    }
    switch (knobs.type) {
    case BehaviourType::Custom:
        return custom_call(from, request);
    case BehaviourType::Echo:
        return runtime::act::CallReply::value(echo_reply(request, "Reply"));
    case BehaviourType::Sink:
        return runtime::act::CallReply::value(json_message(Json{{"type", "Ack"}}));
    case BehaviourType::KeyedState: {
        const std::string key = key_of(request);
        return runtime::act::CallReply::value(
            json_message(Json{{"type", "Count"}, {"key", key}, {"count", counts_[key]}}));
    }
    case BehaviourType::Forward:
        break;
    }
    return runtime::act::CallReply::later();
}

runtime::Inspection Worker::handle_inspect(const runtime::PID&, const std::vector<std::string>&) {
    runtime::Inspection items{{"behavior", std::string(behavior_name())},
                              {"processed", std::to_string(taken_)}};
    if (custom_ != nullptr) {
        items.merge(custom_->inspect()); // the built-in keys stay
    }
    return items;
}

runtime::Factory worker_factory(const WorkerContext& context, const Node& spec) {
    return [&context, &spec]() -> std::unique_ptr<runtime::Behavior> {
        return std::make_unique<Worker>(context, spec);
    };
}

// -- clients ------------------------------------------------------------------------------

/// A typed control message (no JSON to build and parse back per call).
struct Client::CallOrder {
    static constexpr std::string_view type_name = call_order_type;
    std::string to;
    runtime::Message request;
    sim::Duration timeout;
    Priority priority = Priority::Normal;
    /// Timeline action index, or -1 for a workload call.
    std::int64_t action = -1;
};

runtime::Message call_order(const std::string& to, runtime::Message request, sim::Duration timeout,
                            Priority priority, std::int64_t action) {
    RS_ASSERT(request.get<JsonMessage>() != nullptr);
    RS_ASSERT(action >= -1);
    return runtime::Message(Client::CallOrder{to, std::move(request), timeout, priority, action});
}

ClientRecord& Client::record() {
    if (record_ == nullptr) {
        record_ = &context_.clients.record(name_); // std::map nodes are stable
    }
    return *record_;
}

runtime::Status Client::handle_message(const runtime::PID& from, const runtime::Message& message) {
    const auto* order = message.get<CallOrder>();
    if (order != nullptr && from == process().node().core_pid()) {
        return start_call(*order);
    }
    ClientRecord& record = this->record();
    record.received++;
    const std::string_view type = message.type_name();
    if (last_type_count_ == nullptr || type != last_type_) {
        last_type_.assign(type);
        last_type_count_ = &record.types[last_type_]; // std::map values are stable
    }
    ++*last_type_count_;
    // Timeline `crash` on a client: it received the message, then panics, as a worker does.
    if (context_.draws.take_armed_crash(self())) {
        return runtime::stop(runtime::Error::panic());
    }
    return runtime::ok();
}

runtime::Status Client::start_call(const CallOrder& order) {
    ClientRecord& record = this->record();
    const ClientContext& context = context_;
    const std::int64_t action = order.action;
    // A timeline call's outcome, for its `expect` (scenarios/FORMAT.md `timeline`).
    const auto note_outcome = [&context, action](const std::string& outcome) {
        if (action >= 0) {
            context.outcomes.note_call(action, outcome, context.node.world().now());
        }
    };
    const auto target = context_.targets.resolve(order.to);
    if (!target.has_value()) {
        const std::string unknown(runtime::ergo_name(runtime::Err::ProcessUnknown));
        record.errors[unknown]++;
        note_outcome(unknown);
        return runtime::ok();
    }
    runtime::CallOptions options;
    options.timeout = order.timeout;
    options.priority = runtime_priority(order.priority);
    const std::string name = name_;
    const runtime::SendResult sent =
        process().call(*target, order.request, options,
                       [&context, name, note_outcome](runtime::CallResult result) {
                           ClientRecord& rec = context.clients.record(name);
                           if (result) {
                               rec.received++;
                               rec.types[std::string(result.value().type_name())]++;
                               note_outcome("ok");
                           } else {
                               rec.errors[result.error().name()]++;
                               note_outcome(result.error().name());
                           }
                           return runtime::ok();
                       });
    if (!sent) {
        const std::string error(runtime::ergo_name(sent.error()));
        record.errors[error]++;
        note_outcome(error);
    }
    return runtime::ok();
}

runtime::Factory client_factory(const ClientContext& context, const std::string& name) {
    return [&context, name]() -> std::unique_ptr<runtime::Behavior> {
        return std::make_unique<Client>(context, name);
    };
}

} // namespace routesim::scenarios
