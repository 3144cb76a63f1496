// Probe actors for the runtime's own tests (exit, link, names, spawn): a probe runs `Do`
// commands inside its own callback (so the process is Running, §1.2) and records every other
// message it handles and the reason Terminate got. Test-only.
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/testing.hpp"

namespace routesim::runtime::testing::probes {

/// A command a probe runs inside its own callback, so the process is Running (§1.2).
struct Do {
    static constexpr std::string_view type_name = "Do";
    std::function<Status(LambdaActor&)> run;
};

/// One message a probe handled.
struct Seen {
    PID from;
    Message message;
};

/// What a probe saw: the messages it handled and the reason Terminate got.
struct ProbeLog {
    std::vector<Seen> seen;
    std::optional<Error> reason;
    bool alive_in_terminate = true;

    template <class T>
    std::vector<T> all() const {
        std::vector<T> found;
        for (const Seen& item : seen) {
            if (const T* value = item.message.get<T>()) {
                found.push_back(*value);
            }
        }
        return found;
    }
};

/// An actor that runs Do commands and records everything else; `trap` sets trap-exit.
inline Factory probe(ProbeLog& log, bool trap = false) {
    return lambda_factory([&log, trap](LambdaActor& actor) {
        actor.set_trap_exit(trap);
        actor.on_message = [&log](LambdaActor& self, const PID& from, const Message& message) {
            if (const Do* command = message.get<Do>()) {
                return command->run(self);
            }
            log.seen.push_back(Seen{from, message});
            return ok();
        };
        actor.on_terminate = [&log](LambdaActor& self, const Error& reason) {
            log.reason = reason;
            log.alive_in_terminate = self.process().node().find(self.self()) != nullptr;
        };
    });
}

/// Runs `command` inside `pid`'s callback and runs the world until idle.
inline void run_in(Fixture& f, const PID& pid, std::function<Status(LambdaActor&)> command) {
    ASSERT_TRUE(f.node.send(pid, Do{std::move(command)}));
    f.run();
}

} // namespace routesim::runtime::testing::probes
