// Test support for the Router's tests: a Router whose callbacks are std::functions, worker
// factories that record what they take, and message types with a fixed route name.
// Part of runtime/: uses sim/ and the standard library only (test support, no GoogleTest).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/router.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime::testing {

/// A message whose route is named in it (the test routers route by `to`).
struct To {
    Atom to;
    std::string value;
    std::string_view message_type() const { return "To"; }
};

/// A Router whose callbacks are std::functions. Unset routing callbacks route a `To` message
/// to its `to` name and discard everything else; unset init returns `options`.
class LambdaRouter : public act::Router {
public:
    act::RouterOptions options;
    std::function<sim::Result<act::RouterOptions, Error>(LambdaRouter&, const Args&)> on_init;
    std::function<Atom(LambdaRouter&, const PID&, const Message&)> on_route_message;
    std::function<Atom(LambdaRouter&, const PID&, const Ref&, const Message&)> on_route_call;
    std::function<Status(LambdaRouter&, const PID&, const Message&)> on_message;
    std::function<act::CallReply(LambdaRouter&, const PID&, const Ref&, const Message&)> on_call;
    std::function<Inspection(LambdaRouter&, const std::vector<std::string>&)> on_inspect;
    std::function<void(LambdaRouter&, const Error&)> on_terminate;

    sim::Result<act::RouterOptions, Error> init(const Args& args) override {
        if (on_init) {
            return on_init(*this, args);
        }
        return options;
    }
    Atom route_message(const PID& from, const Message& message) override {
        if (on_route_message) {
            return on_route_message(*this, from, message);
        }
        const To* to = message.get<To>();
        return to != nullptr ? to->to : act::RouteDiscard;
    }
    Atom route_call(const PID& from, const Ref& ref, const Message& request) override {
        if (on_route_call) {
            return on_route_call(*this, from, ref, request);
        }
        const To* to = request.get<To>();
        return to != nullptr ? to->to : act::RouteDiscard;
    }
    Status handle_message(const PID& from, const Message& message) override {
        return on_message ? on_message(*this, from, message)
                          : Router::handle_message(from, message);
    }
    act::CallReply handle_call(const PID& from, const Ref& ref, const Message& request) override {
        return on_call ? on_call(*this, from, ref, request)
                       : Router::handle_call(from, ref, request);
    }
    Inspection handle_inspect(const PID& from, const std::vector<std::string>& items) override {
        return on_inspect ? on_inspect(*this, items) : Router::handle_inspect(from, items);
    }
    void terminate(const Error& reason) override {
        if (on_terminate) {
            on_terminate(*this, reason);
        }
    }
};

/// A factory for a LambdaRouter configured by `configure`; `out` (when given) receives a
/// pointer to the behaviour of the last spawn, for calling management methods.
inline Factory router_factory(std::function<void(LambdaRouter&)> configure,
                              LambdaRouter** out = nullptr) {
    return [configure, out]() -> std::unique_ptr<Behavior> {
        auto router = std::make_unique<LambdaRouter>();
        configure(*router);
        if (out != nullptr) {
            *out = router.get();
        }
        return router;
    };
}

/// What recording workers saw: per worker pid, the values taken (Text or To), in order.
struct Seen {
    std::map<std::uint64_t, std::vector<std::string>> by_worker;
    std::vector<std::pair<std::uint64_t, PID>> senders; // (worker pid id, from)
    std::vector<std::string> all;
};

/// A worker that records every message it takes, answers calls with its own pid id as
/// text, and stops with Normal on the value "die". `tag` is prefixed to recorded values.
inline Factory recording_worker(Seen& seen, std::string tag = "",
                                sim::Duration stop_delay = sim::Duration::zero()) {
    struct Worker : LambdaActor {
        sim::Duration delay;
        sim::Duration terminate_delay() const override { return delay; }
    };
    return [&seen, tag, stop_delay]() -> std::unique_ptr<Behavior> {
        auto worker = std::make_unique<Worker>();
        worker->delay = stop_delay;
        worker->name = "Worker";
        worker->on_message = [&seen, tag](LambdaActor& self, const PID& from, const Message& m) {
            std::string value =
                m.get<To>() ? m.get<To>()->value : (m.get<Text>() ? m.get<Text>()->value : "?");
            seen.by_worker[self.self().id].push_back(tag + value);
            seen.senders.emplace_back(self.self().id, from);
            seen.all.push_back(tag + value);
            return value == "die" ? stop(Error::normal()) : ok();
        };
        worker->on_call = [tag](LambdaActor& self, const PID&, const Ref&, const Message&) {
            return act::CallReply::value(Text{tag + std::to_string(self.self().id)});
        };
        return worker;
    };
}

/// A recording worker whose Init fails with "spawn refused" while `*fail` is true.
inline Factory gated_worker(Seen& seen, const bool* fail, std::string tag = "",
                            sim::Duration stop_delay = sim::Duration::zero()) {
    Factory inner = recording_worker(seen, std::move(tag), stop_delay);
    return [inner, fail]() -> std::unique_ptr<Behavior> {
        std::unique_ptr<Behavior> behavior = inner();
        auto* actor = static_cast<LambdaActor*>(behavior.get());
        actor->on_init = [fail](LambdaActor&, const Args&) -> Status {
            return *fail ? stop(Error::text("spawn refused")) : ok();
        };
        return behavior;
    };
}

/// A closure for a router to run on its admin path: send it with High priority to a
/// LambdaRouter configured by accept_admin_closures.
struct Admin {
    std::function<void(LambdaRouter&)> run;
    std::string_view message_type() const { return "Admin"; }
};

/// Configures `router` to run every `Admin` it receives on the admin path (inside its own
/// callback, as upstream requires for management methods, R37).
inline void accept_admin_closures(LambdaRouter& router) {
    router.on_message = [](LambdaRouter& self, const PID&, const Message& message) -> Status {
        if (const Admin* action = message.get<Admin>()) {
            action->run(self);
        }
        return ok();
    };
}

/// What a caller saw: one entry per finished call, the reply's text or the error's name,
/// with the virtual time it arrived.
struct CallLog {
    std::vector<std::string> results;
    std::vector<sim::Instant> at;
};

/// Spawns a process that, for every message it receives, calls `target` with that message
/// (with `options`) and appends the outcome to `log`.
inline PID spawn_caller(Fixture& f, Address target, CallLog& log, CallOptions options = {}) {
    auto factory = lambda_factory([target, &log, options](LambdaActor& actor) {
        actor.name = "Caller";
        actor.on_message = [target, &log, options](LambdaActor& self, const PID&,
                                                   const Message& message) -> Status {
            const SendResult sent = self.process().call(
                target, message, options, [&log, &self](CallResult result) -> Status {
                    if (result) {
                        const Text* text = result.value().get<Text>();
                        log.results.push_back(text != nullptr ? text->value : "reply");
                    } else {
                        log.results.push_back(result.error().name());
                    }
                    log.at.push_back(self.process().now());
                    return ok();
                });
            if (!sent) {
                log.results.push_back(std::string(ergo_name(sent.error())));
                log.at.push_back(self.process().now());
            }
            return ok();
        };
    });
    return f.node.spawn(factory, {}, {}).value();
}

/// Router options with one route per (name, factory), in order.
inline act::RouterOptions routes_of(std::vector<std::pair<std::string, Factory>> specs) {
    act::RouterOptions options;
    for (auto& [name, factory] : specs) {
        options.routes.push_back(act::Route{Atom(name), std::move(factory), {}});
    }
    return options;
}

/// True when some process logged exactly `text`.
inline bool has_log(const Fixture& f, std::string_view text) {
    for (const sim::TraceRecord& record : f.events("log")) {
        if (record.text("text") == text) {
            return true;
        }
    }
    return false;
}

/// How many records of `kind` have the text field `key` equal to `text`.
inline std::size_t count_events(const Fixture& f, std::string_view kind, std::string_view key,
                                std::string_view text) {
    std::size_t count = 0;
    for (const sim::TraceRecord& record : f.events(kind)) {
        count += record.text(key) == text ? 1U : 0U;
    }
    return count;
}

} // namespace routesim::runtime::testing
