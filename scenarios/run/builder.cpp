// Scenario behaviours for pools, supervisors and routers; factories; target resolution.
// Part of scenarios/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "scenarios/run/builder.hpp"

#include <algorithm>
#include <typeinfo>

#include "runtime/events.hpp"
#include "runtime/pool.hpp"
#include "runtime/supervisor.hpp"
#include "scenarios/run/behaviours.hpp"
#include "scenarios/run/json_message.hpp"
#include "scenarios/run/rules.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {
namespace {

using runtime::act::CallReply;

runtime::Args args_of(const Json& args) {
    if (args.is_null()) {
        return {};
    }
    return runtime::Args{json_message(args)};
}

// -- pool -----------------------------------------------------------------------------------

class ScenarioPool final : public runtime::act::Pool {
public:
    ScenarioPool(const BuildContext& context, const Node& spec) : context_(context), spec_(spec) {}
    sim::Result<runtime::act::PoolOptions, runtime::Error> init(const runtime::Args&) override {
        context_.worker.specs.note_spawn(spec_, process().pid());
        context_.worker.draws.watch_spawn(spec_, process().pid());
        if (auto failure = context_.worker.draws.injected_init_failure(spec_)) {
            return sim::fail(runtime::Error::text(std::move(*failure)));
        }
        RS_ASSERT(spec_.children.size() == 1);
        runtime::act::PoolOptions options;
        options.pool_size = static_cast<std::int64_t>(spec_.pool.size);
        options.worker_mailbox_size = static_cast<std::int64_t>(spec_.pool.worker_mailbox_size);
        options.worker_factory = factory_for(context_, spec_.children[0]);
        options.worker_args = args_of(spec_.children[0].args);
        return options;
    }
    std::string_view behavior_name() const override { return "pool"; }

private:
    const BuildContext& context_;
    const Node& spec_;
};

// -- supervisor -----------------------------------------------------------------------------

runtime::act::SupervisorType supervisor_type(SupervisorType type) {
    switch (type) {
    case SupervisorType::OneForOne:
        return runtime::act::SupervisorType::OneForOne;
    case SupervisorType::AllForOne:
        return runtime::act::SupervisorType::AllForOne;
    case SupervisorType::RestForOne:
        return runtime::act::SupervisorType::RestForOne;
    case SupervisorType::SimpleOneForOne:
        return runtime::act::SupervisorType::SimpleOneForOne;
    }
    return runtime::act::SupervisorType::OneForOne;
}

runtime::act::SupervisorStrategy supervisor_strategy(RestartStrategy strategy) {
    switch (strategy) {
    case RestartStrategy::Transient:
        return runtime::act::SupervisorStrategy::Transient;
    case RestartStrategy::Temporary:
        return runtime::act::SupervisorStrategy::Temporary;
    case RestartStrategy::Permanent:
        return runtime::act::SupervisorStrategy::Permanent;
    }
    return runtime::act::SupervisorStrategy::Transient;
}

class ScenarioSupervisor final : public runtime::act::Supervisor {
public:
    ScenarioSupervisor(const BuildContext& context, const Node& spec)
        : context_(context), spec_(spec) {}
    sim::Result<runtime::act::SupervisorSpec, runtime::Error> init(const runtime::Args&) override {
        context_.worker.specs.note_spawn(spec_, process().pid());
        context_.worker.draws.watch_spawn(spec_, process().pid());
        if (auto failure = context_.worker.draws.injected_init_failure(spec_)) {
            return sim::fail(runtime::Error::text(std::move(*failure)));
        }
        runtime::act::SupervisorSpec spec;
        spec.type = supervisor_type(spec_.supervisor.type);
        spec.restart = restart_of(spec_);
        for (const Node& child : spec_.children) {
            runtime::act::SupervisorChildSpec entry;
            entry.name = runtime::Atom(child.name);
            entry.factory = factory_for(context_, child);
            entry.options = options_for(child);
            entry.args = args_of(child.args);
            spec.children.push_back(std::move(entry));
        }
        return spec;
    }
    std::string_view behavior_name() const override { return "supervisor"; }

private:
    const BuildContext& context_;
    const Node& spec_;
};

// -- router -----------------------------------------------------------------------------------

/// The owned route names of a router node, in the file's order, that a registered rule sees;
/// none for a built-in rule (a router is made at every spawn: no copies it does not need).
std::vector<std::string> route_names(const Node& spec, const Rule& rule) {
    std::vector<std::string> names;
    if (rule.kind != RuleKind::Custom) {
        return names;
    }
    names.reserve(spec.router.routes.size());
    for (const RouteSpec& route : spec.router.routes) {
        names.push_back(route.name);
    }
    return names;
}

class ScenarioRouter final : public runtime::act::Router {
public:
    ScenarioRouter(const BuildContext& context, const Node& spec)
        : context_(context), draws_(context.worker.draws), spec_(spec),
          classes_(context.worker.specs.classes(spec)),
          message_rule_(spec.router.route_message, spec.path,
                        route_names(spec, spec.router.route_message)),
          call_rule_(spec.router.route_call, spec.path, route_names(spec, spec.router.route_call)) {
    }

    sim::Result<runtime::act::RouterOptions, runtime::Error> init(const runtime::Args&) override {
        context_.worker.specs.note_spawn(spec_, process().pid());
        if (auto failure = draws_.injected_init_failure(spec_)) {
            return sim::fail(runtime::Error::text(std::move(*failure)));
        }
        for (const CompiledRule* rule : {&message_rule_, &call_rule_}) {
            if (!rule->error().empty()) {
                return sim::fail(runtime::Error::text(rule->error()));
            }
        }
        runtime::act::RouterOptions options;
        options.mailbox_size = static_cast<std::int64_t>(spec_.mailbox_size);
        RS_ASSERT(spec_.children.size() == spec_.router.routes.size());
        for (std::size_t i = 0; i < spec_.router.routes.size(); i++) {
            const RouteSpec& route = spec_.router.routes[i];
            options.routes.push_back(runtime::act::Route{runtime::Atom(route.name),
                                                         factory_for(context_, spec_.children[i]),
                                                         args_of(route.args)});
        }
        return options;
    }

    runtime::Atom route_message(const runtime::PID&, const runtime::Message& message) override {
        maybe_crash();
        return route_by(message_rule_, message);
    }

    runtime::Atom route_call(const runtime::PID&, const runtime::Ref&,
                             const runtime::Message& request) override {
        maybe_crash();
        return route_by(call_rule_, request);
    }

    runtime::Status handle_message(const runtime::PID& from,
                                   const runtime::Message& message) override;
    /// Keeps the route table as it was at the end, for the summary of a router that died.
    void terminate(const runtime::Error& reason) override {
        context_.routers.note_last_table(
            self().id,
            RouterLastTable{routes(), counters(), process().node().world().now(), reason.name()});
    }
    CallReply handle_call(const runtime::PID& from, const runtime::Ref& ref,
                          const runtime::Message& request) override;
    std::string_view behavior_name() const override { return "router"; }

private:
    void maybe_crash() {
        if (draws_.take_armed_crash(self()) || draws_.draw_crash(spec_, classes_, self())) {
            throw std::runtime_error("injected crash"); // becomes Panic at the actor boundary
        }
    }
    std::optional<std::string> admin(const runtime::Message& message);
    /// Counts a MessageRouteFailed by its reason's name (RouterRecords::failed_counts).
    void count_route_failed(const runtime::Error& reason) {
        if (route_failed_ == nullptr) {
            route_failed_ = &context_.routers.failed_counts(spec_.path); // a stable address
        }
        const std::optional<runtime::Err> err = reason.err();
        if (err.has_value() && err == last_failed_err_) {
            ++*last_failed_count_; // a run's failures mostly repeat one reason
            return;
        }
        std::uint64_t& count = (*route_failed_)[reason.name()];
        count++;
        last_failed_err_ = err;
        last_failed_count_ = &count; // std::map values are stable
    }
    // Applies the rule; a hash rule also traces the key it hashed and the route it picked
    // (the key_affinity monitor's input, properties/router_monitors.hpp).
    runtime::Atom route_by(CompiledRule& compiled, const runtime::Message& message) {
        const auto* json = message.get<JsonMessage>();
        if (json == nullptr || compiled.custom()) { // a registered rule: asked every time
            const Json* value = nullptr;
            const runtime::Atom name = compiled.apply(message_json(message), &value);
            if (value != nullptr) {
                const std::string key = key_text(*value);
                emit_route_key(key, sim::fnv1a64(key), name);
            }
            return name;
        }
        // The rule's result is a function of the rule and the immutable value: a message
        // routed again by this rule (shared by a campaign's runs) reuses it.
        JsonMessage::RouteMemo& memo = json->route_memo();
        if (memo.rule != &compiled.rule()) {
            const Json* value = nullptr;
            Json scratch; // a "$i" key's value, while key_text reads it
            memo.name = compiled.apply(*json, &value, scratch);
            memo.hashed = value != nullptr;
            memo.key = value != nullptr ? key_text(*value) : std::string();
            memo.key_hash = sim::fnv1a64(memo.key);
            memo.rule = &compiled.rule();
        }
        if (memo.hashed) {
            emit_route_key(memo.key, memo.key_hash, memo.name);
        }
        return memo.name;
    }

    void emit_route_key(std::string_view key, std::uint64_t key_hash, runtime::Atom name) {
        process().node().world().emit(runtime::ev::RouteKey{
            self().id, runtime::ev::Text(key, key_hash), runtime::ev::text(name)});
    }

    const BuildContext& context_;
    FaultDraws& draws_; // (a reference of its own: every routed message draws)
    const Node& spec_;
    const FaultClasses& classes_; // looked up once: every routed message draws a crash
    CompiledRule message_rule_;
    CompiledRule call_rule_;
    /// This router's MessageRouteFailed counts in the RouterRecords, found at the first failure.
    std::map<std::string, std::uint64_t>* route_failed_ = nullptr;
    /// The named error counted last and its counter (set only for named errors).
    std::optional<runtime::Err> last_failed_err_;
    std::uint64_t* last_failed_count_ = nullptr;
    /// The text of the last failure logged (its buffer is reused).
    std::string log_text_;
};

/// The parsed worker of a router.admin message of the scenario with this route name and worker
/// JSON, or nullptr. Cost: linear in the scenario's message workers.
const Node* message_worker(const Scenario& scenario, const std::string& route, const Json& worker) {
    for (const MessageWorker& entry : scenario.message_workers) {
        if (entry.route == route && entry.spec == worker) {
            return &entry.worker;
        }
    }
    return nullptr;
}

std::optional<std::string> ScenarioRouter::admin(const runtime::Message& message) {
    if (const auto* order = message.get<AdminOrder>()) {
        std::string result =
            perform_admin(context_, *this, spec_, order->op, order->name, order->worker);
        if (order->action >= 0) {
            context_.outcomes.note_admin(order->action, result, process().node().world().now());
        }
        return result;
    }
    const auto* json = message.get<JsonMessage>();
    if (json == nullptr || json->message_type() != "router.admin") {
        return std::nullopt;
    }
    const Json& body = json->json();
    const auto op_text = body.value("op", std::string());
    const auto op = parse_spelling<Verb>(op_text);
    if (!op.has_value() || !is_management_verb(*op) || !body.contains("name") ||
        !body["name"].is_string()) {
        return std::string(runtime::ergo_name(runtime::Err::Incorrect));
    }
    const std::string& name = body["name"].get_ref<const std::string&>();
    if (*op != Verb::AddRoute && *op != Verb::ReplaceRoute) {
        return perform_admin(context_, *this, spec_, *op, name, nullptr);
    }
    // add_route / replace_route: the loader parsed the message's worker (Scenario::
    // message_workers); find it by route name and worker JSON.
    const auto worker = body.find("worker");
    const Node* spec =
        worker == body.end() ? nullptr : message_worker(context_.worker.scenario, name, *worker);
    if (spec == nullptr) {
        process().log("warning", "router.admin: " + std::string(spelling(*op)) + " " + name +
                                     " carries no worker that the scenario file declares");
        return std::string(runtime::ergo_name(runtime::Err::Incorrect));
    }
    context_.worker.specs.index_route_worker(*spec);
    return perform_admin(context_, *this, spec_, *op, name, spec);
}

runtime::Status ScenarioRouter::handle_message(const runtime::PID&,
                                               const runtime::Message& message) {
    if (const auto* failed = message.get<runtime::act::MessageRouteFailed>()) {
        count_route_failed(failed->reason);
        switch (spec_.router.on_route_failed) {
        case OnRouteFailed::Log: {
            // Into a buffer kept by the router: a busy run logs many failures.
            const std::optional<runtime::Err> err = failed->reason.err();
            log_text_.assign("route ");
            log_text_.append(failed->name.text());
            log_text_.append(" failed: ");
            if (err.has_value()) {
                log_text_.append(runtime::error_text(*err)); // Error::message of a named error
            } else {
                log_text_.append(failed->reason.message());
            }
            process().log("warning", log_text_);
            return runtime::ok();
        }
        case OnRouteFailed::Terminate:
            return runtime::stop(failed->reason);
        case OnRouteFailed::DeadLetter:
            if (auto target = context_.worker.targets.resolve(spec_.router.dead_letter)) {
                (void)process().send(
                    *target, json_message(Json{{"type", "DeadLetter"},
                                               {"route", std::string(failed->name.text())},
                                               {"reason", failed->reason.name()},
                                               {"message", message_json(failed->message)}}));
            }
            return runtime::ok();
        }
    }
    if (!admin(message).has_value()) {
        context_.routers.note_admin_ignored(spec_.path);
    }
    return runtime::ok();
}

CallReply ScenarioRouter::handle_call(const runtime::PID&, const runtime::Ref&,
                                      const runtime::Message& request) {
    if (auto result = admin(request)) {
        return CallReply::value(
            json_message(Json{{"type", "router.admin.result"}, {"result", *result}}));
    }
    context_.routers.note_admin_ignored(spec_.path);
    return CallReply::later();
}

} // namespace

std::string AdminOrder::describe() const {
    return "router.admin{" + std::string(spelling(op)) + " " + name + "}";
}

std::string perform_admin(const BuildContext& context, runtime::act::Router& router,
                          const Node& router_spec, Verb op, const std::string& name,
                          const Node* worker) {
    (void)router_spec;
    if (name.empty() || name.size() > runtime::atom_length_max) {
        return std::string(runtime::ergo_name(runtime::Err::Incorrect));
    }
    const runtime::Atom atom(name);
    runtime::act::RouteResult result;
    auto route_of = [&]() {
        runtime::act::Route route;
        route.name = atom;
        if (worker != nullptr) {
            route.factory = factory_for(context, *worker);
            route.args = args_of(worker->args);
        }
        return route;
    };
    switch (op) {
    case Verb::AddRoute:
        result = router.add_route(route_of());
        break;
    case Verb::RemoveRoute:
        result = router.remove_route(atom);
        break;
    case Verb::DisableRoute:
        result = router.disable_route(atom);
        break;
    case Verb::EnableRoute:
        result = router.enable_route(atom);
        break;
    case Verb::RespawnRoute:
        result = router.respawn_route(atom);
        break;
    case Verb::ReplaceRoute:
        result = router.replace_route(atom, route_of());
        break;
    default:
        return std::string(runtime::ergo_name(runtime::Err::Incorrect));
    }
    return result ? std::string("ok") : result.error().name();
}

runtime::ProcessOptions options_for(const Node& spec) {
    runtime::ProcessOptions options;
    options.mailbox_size = static_cast<std::int64_t>(spec.mailbox_size);
    return options;
}

runtime::act::SupervisorRestart restart_of(const Node& spec) {
    RS_ASSERT(spec.kind == NodeKind::Supervisor);
    runtime::act::SupervisorRestart restart;
    restart.strategy = supervisor_strategy(spec.supervisor.strategy);
    restart.intensity =
        static_cast<std::uint16_t>(std::min<std::uint64_t>(spec.supervisor.intensity, 65535));
    restart.period = spec.supervisor.period;
    restart.keep_order = spec.supervisor.keep_order;
    return restart;
}

runtime::Factory factory_for(const BuildContext& context, const Node& spec) {
    switch (spec.kind) {
    case NodeKind::Actor:
        return worker_factory(context.worker, spec);
    case NodeKind::Pool:
        return [&context, &spec]() -> std::unique_ptr<runtime::Behavior> {
            return std::make_unique<ScenarioPool>(context, spec);
        };
    case NodeKind::Supervisor:
        return [&context, &spec]() -> std::unique_ptr<runtime::Behavior> {
            return std::make_unique<ScenarioSupervisor>(context, spec);
        };
    case NodeKind::Router:
        return [&context, &spec]() -> std::unique_ptr<runtime::Behavior> {
            return std::make_unique<ScenarioRouter>(context, spec);
        };
    }
    RS_ASSERT(false);
    return {};
}

runtime::act::Router* as_router(runtime::Behavior& behavior) {
    // The final classes of a scenario's own processes by their exact type first: the cast
    // walks the class hierarchy, a failed one all of it.
    const std::type_info& type = typeid(behavior);
    if (type == typeid(ScenarioRouter)) {
        return static_cast<ScenarioRouter*>(&behavior);
    }
    if (type == typeid(Worker) || type == typeid(Client)) {
        return nullptr;
    }
    return dynamic_cast<runtime::act::Router*>(&behavior);
}

runtime::act::Router* router_of(runtime::Node& node, const runtime::PID& pid) {
    runtime::Process* process = node.find(pid);
    if (process == nullptr) {
        return nullptr;
    }
    return as_router(process->behavior());
}

namespace {

std::optional<runtime::PID> step_into(runtime::Node& node, SpecIndex& specs, const runtime::PID& at,
                                      std::string_view segment) {
    runtime::Process* process = node.find(at);
    if (process == nullptr || segment.empty()) {
        return std::nullopt;
    }
    runtime::Behavior& behavior = process->behavior();
    if (auto* router = as_router(behavior)) {
        if (segment.size() > runtime::atom_length_max) {
            return std::nullopt;
        }
        auto info = router->route(runtime::Atom(segment));
        if (!info.has_value() || info->pid.empty()) {
            return std::nullopt;
        }
        return info->pid;
    }
    if (auto* supervisor = dynamic_cast<runtime::act::Supervisor*>(&behavior)) {
        for (const auto& child : supervisor->children()) {
            if (child.spec.text() == segment && !child.pid.empty()) {
                return child.pid;
            }
        }
        return std::nullopt;
    }
    if (dynamic_cast<runtime::act::Pool*>(&behavior) != nullptr && segment.front() == '#') {
        // "#k": the k-th live worker of this pool in spawn order.
        const Node* pool_spec = specs.spec_of(at);
        if (pool_spec == nullptr || pool_spec->children.empty()) {
            return std::nullopt;
        }
        std::uint64_t index = 0;
        for (char c : segment.substr(1)) {
            if (c < '0' || c > '9') {
                return std::nullopt;
            }
            index = index * 10 + static_cast<std::uint64_t>(c - '0');
        }
        std::uint64_t live = 0;
        for (const runtime::PID& pid : specs.stats(pool_spec->children[0]).incarnations) {
            runtime::Process* worker = node.find(pid);
            if (worker == nullptr || worker->parent() != at || !worker->is_alive()) {
                continue;
            }
            if (live++ == index) {
                return pid;
            }
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<runtime::PID> resolve_target(runtime::Node& node, SpecIndex& specs,
                                           std::string_view target) {
    const std::size_t slash = target.find('/');
    const std::string_view first = target.substr(0, slash);
    if (first.empty() || first.size() > runtime::atom_length_max) {
        return std::nullopt;
    }
    auto found = node.process_pid(runtime::Atom(first));
    if (!found) {
        return std::nullopt;
    }
    runtime::PID at = found.value();
    std::string_view rest =
        slash == std::string_view::npos ? std::string_view() : target.substr(slash + 1);
    while (!rest.empty()) {
        const std::size_t next = rest.find('/');
        const auto pid = step_into(node, specs, at, rest.substr(0, next));
        if (!pid.has_value()) {
            return std::nullopt;
        }
        at = *pid;
        rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
    }
    return at;
}

std::string key_text(const Json& value) {
    switch (value.type()) {
    case Json::value_t::number_integer:
        return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
        return std::to_string(value.get<std::uint64_t>());
    case Json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
        const auto& text = value.get_ref<const std::string&>();
        const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
            return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        });
        if (plain) {
            std::string quoted;
            quoted.reserve(text.size() + 2);
            quoted.push_back('"');
            quoted += text;
            quoted.push_back('"');
            return quoted;
        }
        return value.dump();
    }
    default:
        return value.dump();
    }
}

} // namespace routesim::scenarios
