// Test fixture shared by the runtime's tests: a World, a Node, an in-memory trace, and small
// helpers to spawn behaviours built from lambdas.
// Part of runtime/: uses sim/ and the standard library only (test support, no GoogleTest).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/node_impl.hpp"
#include "sim/world.hpp"

namespace routesim::runtime::testing {

/// A world, a node and a memory trace, with a fixed seed.
struct Fixture {
    explicit Fixture(sim::WorldOptions options = {}, NodeOptions node_options = {})
        : world(std::move(options)), node(world, std::move(node_options)) {
        world.trace().add_sink(memory);
    }
    ~Fixture() { world.trace().remove_sink(memory); }

    /// Runs until idle (or `until`).
    sim::RunOutcome run(std::optional<sim::Instant> until = std::nullopt) {
        return world.run(until);
    }

    /// The records of one kind, in order.
    std::vector<sim::TraceRecord> events(std::string_view kind) const {
        std::vector<sim::TraceRecord> found;
        for (const sim::TraceRecord& record : memory.records()) {
            if (record.kind == kind) {
                found.push_back(record);
            }
        }
        return found;
    }

    sim::World world;
    Node node;
    sim::MemorySink memory;
};

/// An Actor whose callbacks are std::functions (unset ones keep Ergo's defaults).
class LambdaActor : public act::Actor {
public:
    std::function<Status(LambdaActor&, const Args&)> on_init;
    std::function<Status(LambdaActor&, const PID&, const Message&)> on_message;
    std::function<act::CallReply(LambdaActor&, const PID&, const Ref&, const Message&)> on_call;
    std::function<void(LambdaActor&, const Error&)> on_terminate;
    std::function<Inspection(LambdaActor&)> on_inspect;
    std::string name = "LambdaActor";

    Status init(const Args& args) override {
        return on_init ? on_init(*this, args) : act::Actor::init(args);
    }
    Status handle_message(const PID& from, const Message& message) override {
        return on_message ? on_message(*this, from, message)
                          : act::Actor::handle_message(from, message);
    }
    act::CallReply handle_call(const PID& from, const Ref& ref, const Message& request) override {
        return on_call ? on_call(*this, from, ref, request)
                       : act::Actor::handle_call(from, ref, request);
    }
    Inspection handle_inspect(const PID& from, const std::vector<std::string>& items) override {
        return on_inspect ? on_inspect(*this) : act::Actor::handle_inspect(from, items);
    }
    void terminate(const Error& reason) override {
        if (on_terminate) {
            on_terminate(*this, reason);
        }
    }
    std::string_view behavior_name() const override { return name; }
};

/// A factory that builds a LambdaActor and lets `configure` set its callbacks.
inline Factory lambda_factory(std::function<void(LambdaActor&)> configure) {
    return [configure]() -> std::unique_ptr<Behavior> {
        auto actor = std::make_unique<LambdaActor>();
        configure(*actor);
        return actor;
    };
}

/// A plain message with a fixed type name, for tests.
struct Text {
    std::string value;
    std::string_view message_type() const { return "Text"; }
    std::string describe() const { return "Text{" + value + "}"; }
};

} // namespace routesim::runtime::testing
