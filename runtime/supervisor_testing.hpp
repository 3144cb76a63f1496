// Test support for act::Supervisor (beside runtime/testing.hpp): a supervisor whose spec and
// callbacks are set by the test, a recording child, and helpers to run management calls
// inside the supervisor's own callback (where §6.8 allows them).
// Part of runtime/: uses sim/ and the standard library only (test support, no GoogleTest).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/supervisor.hpp"
#include "runtime/testing.hpp"

namespace routesim::runtime::testing {

class TestSupervisor;

/// Runs `action` inside the supervisor's handle_message (see run_inside).
struct Do {
    std::function<void(TestSupervisor&)> action;
};

/// What a TestSupervisor saw: handle_child_* notices ("start:a", "stop:a:<reason>") and its
/// terminate reason.
struct SupervisorLog {
    std::vector<std::string> notices;
    std::vector<std::pair<Atom, PID>> started;
    std::vector<std::pair<PID, Error>> stopped;
    std::optional<Error> terminated;
};

/// A Supervisor that returns `spec` from init and records what happens into `log`.
class TestSupervisor : public act::Supervisor {
public:
    act::SupervisorSpec spec;
    std::optional<Error> init_error;
    SupervisorLog* log = nullptr;
    std::function<Status(TestSupervisor&, const PID&, const Message&)> on_message;
    std::function<Status(TestSupervisor&, Atom, const PID&)> on_child_start;
    std::function<act::CallReply(TestSupervisor&, const PID&, const Ref&, const Message&)> on_call;

    sim::Result<act::SupervisorSpec, Error> init(const Args&) override {
        if (init_error.has_value()) {
            return sim::fail(*init_error);
        }
        return spec;
    }
    Status handle_child_start(Atom name, const PID& pid) override {
        if (log != nullptr) {
            log->notices.push_back("start:" + std::string(name.text()));
            log->started.emplace_back(name, pid);
        }
        return on_child_start ? on_child_start(*this, name, pid) : ok();
    }
    Status handle_child_terminate(Atom name, const PID& pid, const Error& reason) override {
        if (log != nullptr) {
            log->notices.push_back("stop:" + std::string(name.text()) + ":" + reason.message());
            log->stopped.emplace_back(pid, reason);
        }
        return ok();
    }
    Status handle_message(const PID& from, const Message& message) override {
        if (const auto* work = message.get<Do>()) {
            work->action(*this);
            return ok();
        }
        return on_message ? on_message(*this, from, message) : ok();
    }
    act::CallReply handle_call(const PID& from, const Ref& ref, const Message& request) override {
        return on_call ? on_call(*this, from, ref, request)
                       : Supervisor::handle_call(from, ref, request);
    }
    void terminate(const Error& reason) override {
        if (log != nullptr) {
            log->terminated = reason;
        }
    }
};

/// A factory for a TestSupervisor with `spec`, recording into `log` (may be null).
inline Factory supervisor_factory(act::SupervisorSpec spec, SupervisorLog* log,
                                  std::function<void(TestSupervisor&)> configure = nullptr) {
    return [spec, log, configure]() -> std::unique_ptr<Behavior> {
        auto supervisor = std::make_unique<TestSupervisor>();
        supervisor->spec = spec;
        supervisor->log = log;
        if (configure) {
            configure(*supervisor);
        }
        return supervisor;
    };
}

/// The TestSupervisor behind `pid`. Precondition: alive.
inline TestSupervisor& supervisor_of(Node& node, const PID& pid) {
    Process* process = node.find(pid);
    RS_ASSERT(process != nullptr);
    return dynamic_cast<TestSupervisor&>(process->behavior());
}

/// Sends `action` to run inside the supervisor's own callback, then runs the world to idle.
inline void run_inside(Fixture& f, const PID& supervisor,
                       std::function<void(TestSupervisor&)> action) {
    const SendResult sent = f.node.send(supervisor, Do{std::move(action)});
    RS_ASSERT(sent.has_value());
    f.run();
}

/// Spawns an actor that calls `target` once with `request`, runs the world to idle, and
/// returns the call's result (empty if the call never ended).
inline std::optional<CallResult> call_once(Fixture& f, const PID& target, Message request,
                                           CallOptions options = {}) {
    std::optional<CallResult> result;
    auto caller = lambda_factory([&result, target, request, options](LambdaActor& actor) {
        actor.on_init = [](LambdaActor& self, const Args&) {
            (void)self.process().send(self.self(), Text{"go"});
            return ok();
        };
        actor.on_message = [&result, target, request, options](LambdaActor& self, const PID&,
                                                               const Message&) {
            const SendResult sent =
                self.process().call(target, request, options, [&result](CallResult reply) {
                    result = std::move(reply);
                    return ok();
                });
            RS_ASSERT(sent.has_value());
            return ok();
        };
    });
    const auto spawned = f.node.spawn(caller, {}, {});
    RS_ASSERT(spawned.has_value());
    f.run();
    return result;
}

/// A child that records each start (its args' Text values) and stops with any Error it is
/// sent as a message.
inline Factory recording_child(std::vector<std::string>* starts = nullptr) {
    return lambda_factory([starts](LambdaActor& actor) {
        actor.name = "Child";
        actor.on_init = [starts](LambdaActor&, const Args& args) {
            if (starts != nullptr) {
                starts->push_back(args.empty() || !args[0].is<Text>() ? ""
                                                                      : args[0].get<Text>()->value);
            }
            return ok();
        };
        actor.on_message = [](LambdaActor&, const PID&, const Message& message) -> Status {
            if (const auto* reason = message.get<Error>()) {
                return stop(*reason);
            }
            return ok();
        };
    });
}

/// A child spec with the recording child.
inline act::SupervisorChildSpec child_spec(std::string_view name,
                                           std::vector<std::string>* starts = nullptr) {
    return act::SupervisorChildSpec{.name = Atom(name), .factory = recording_child(starts)};
}

/// The PID of the child `name` as children() lists it (empty when stopped or unknown).
inline PID child_pid(Node& node, const PID& supervisor, std::string_view name) {
    for (const act::SupervisorChild& child : supervisor_of(node, supervisor).children()) {
        if (child.spec == Atom(name)) {
            return child.pid;
        }
    }
    return PID{};
}

} // namespace routesim::runtime::testing
