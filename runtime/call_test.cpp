// Goal: calls behave as Ergo's Call family (§2.4–§2.6, §4.2): responses,
// timeouts in virtual time, the blocked caller, late responses, callee death, Kill during the
// wait, SendResponseError, forwarded requests, and HandleCall's return conventions.
// Method: a caller actor calls on a trigger and records what its continuation sees; the trace
// confirms responses and drops.
#include <algorithm>

#include <gtest/gtest.h>

#include "runtime/testing.hpp"

namespace routesim::runtime {
namespace {

using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::Text;

/// What one caller's continuations saw, in order.
struct CallLog {
    std::vector<std::string> results; // "ok:<text>" or the error's name
    std::vector<sim::Instant> times;
    std::vector<std::string> handled; // regular messages the caller took, in order
    std::vector<ProcessState> states; // the caller's state inside each continuation
    std::optional<SendResult> started;
    std::optional<Error> reason; // what the caller's Terminate got
};

std::string summarize(const CallResult& result) {
    if (!result) {
        return result.error().name();
    }
    const Text* text = result.value().get<Text>();
    return "ok:" + (text != nullptr ? text->value : std::string(result.value().type_name()));
}

/// A caller: on Text{"go"} it calls `target` (the empty PID: itself) with Text{"req"}; other
/// texts are recorded.
Factory caller_of(Address target, CallLog& log, CallOptions options = {}) {
    return lambda_factory([target, &log, options](LambdaActor& actor) {
        actor.on_message = [target, &log, options](LambdaActor& self, const PID&,
                                                   const Message& message) -> Status {
            const Text* text = message.get<Text>();
            if (text == nullptr || text->value != "go") {
                log.handled.push_back(text != nullptr ? text->value : "?");
                return ok();
            }
            const bool to_self = !target.is_name() && target.pid().empty();
            log.started = self.process().call(to_self ? Address(self.self()) : target, Text{"req"},
                                              options, [&log, &self](CallResult result) {
                                                  log.results.push_back(summarize(result));
                                                  log.times.push_back(self.process().now());
                                                  log.states.push_back(self.process().state());
                                                  return ok();
                                              });
            return ok();
        };
        actor.on_terminate = [&log](LambdaActor&, const Error& reason) { log.reason = reason; };
    });
}

/// Spawns a server from `server_factory` and a caller of it, makes one call, runs until
/// idle, and returns the server's PID.
PID call_once(Fixture& f, const Factory& server_factory, CallLog& log, CallOptions options = {}) {
    const PID server = f.node.spawn(server_factory, {}, {}).value();
    const PID client = f.node.spawn(caller_of(server, log, options), {}, {}).value();
    EXPECT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    return server;
}

/// A callee whose HandleCall is `on_call`.
Factory callee(
    std::function<act::CallReply(LambdaActor&, const PID&, const Ref&, const Message&)> on_call) {
    return lambda_factory([on_call](LambdaActor& actor) { actor.on_call = on_call; });
}

/// A callee whose HandleCall returns `reply` and that records its Terminate reason.
Factory stopping_callee(const act::CallReply& reply, std::optional<Error>& reason) {
    return lambda_factory([reply, &reason](LambdaActor& actor) {
        actor.on_call = [reply](LambdaActor&, const PID&, const Ref&, const Message&) {
            return reply;
        };
        actor.on_terminate = [&reason](LambdaActor&, const Error& error) { reason = error; };
    });
}

act::CallReply reply_pong(LambdaActor&, const PID&, const Ref&, const Message&) {
    return act::CallReply::value(Text{"pong"});
}

act::CallReply reply_later(LambdaActor&, const PID&, const Ref&, const Message&) {
    return act::CallReply::later();
}

/// A deferred answer the callee sends itself or hands to a helper.
struct Pending {
    static constexpr std::string_view type_name = "Pending";
    PID from;
    Ref ref;
};

// §2.4, §4.2: HandleCall → (v, nil) replies v, the continuation sees it.
TEST(Call, ResponseArrives) {
    Fixture f;
    CallLog log;
    call_once(f, callee(reply_pong), log);
    ASSERT_TRUE(log.started.has_value() && log.started->has_value());
    EXPECT_EQ(log.results, (std::vector<std::string>{"ok:pong"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero());
    ASSERT_EQ(f.events("response").size(), 1U);
    EXPECT_EQ(f.events("call_result").at(0).text("outcome"), "ok");
}

// §2.4: the default timeout is 5 seconds of virtual time.
TEST(Call, TimesOutAfterDefaultFiveSeconds) {
    Fixture f;
    CallLog log;
    call_once(f, callee(reply_later), log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero() + sim::Duration::seconds(5));
    EXPECT_EQ(f.events("call").at(0).number("timeout_ns"), 5'000'000'000);
}

// §2.4: an explicit timeout is honoured in virtual time.
TEST(Call, TimesOutAfterGivenTimeout) {
    Fixture f;
    CallLog log;
    call_once(f, callee(reply_later), log, {.timeout = sim::Duration::milliseconds(250)});
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero() + sim::Duration::milliseconds(250));
}

// §2.4: CallWithTimeout with t < 1 means the default timeout.
TEST(Call, NonPositiveTimeoutMeansDefault) {
    Fixture f;
    CallLog log;
    call_once(f, callee(reply_later), log, {.timeout = sim::Duration::zero()});
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero() + sim::Duration::seconds(5));
}

/// A callee that answers each request 2 s later, from its own timer message.
Factory slow_callee(sim::Duration delay) {
    return lambda_factory([delay](LambdaActor& actor) {
        actor.on_call = [delay](LambdaActor& self, const PID& from, const Ref& ref,
                                const Message&) {
            EXPECT_TRUE(self.process().send_after(self.self(), Pending{from, ref}, delay));
            return act::CallReply::later();
        };
        actor.on_message = [](LambdaActor& self, const PID&, const Message& message) {
            const Pending* pending = message.get<Pending>();
            EXPECT_NE(pending, nullptr);
            (void)self.process().send_response(pending->from, pending->ref, Text{"slow"});
            return ok();
        };
    });
}

// §2.4: while waiting, nothing else in the caller's mailbox is handled; the messages pile up
// and are handled after the continuation.
TEST(Call, CallerTakesNoOtherMessageWhileWaiting) {
    Fixture f;
    CallLog log;
    const PID server = f.node.spawn(slow_callee(sim::Duration::seconds(2)), {}, {}).value();
    const PID client = f.node.spawn(caller_of(server, log), {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run(sim::Instant::zero() + sim::Duration::seconds(1));
    ASSERT_TRUE(f.node.send(client, Text{"m1"}));
    ASSERT_TRUE(f.node.send(client, Text{"m2"}, MessagePriority::Max));
    f.run(sim::Instant::zero() + sim::Duration::milliseconds(1500));
    EXPECT_TRUE(log.handled.empty());
    EXPECT_EQ(f.node.find(client)->state(), ProcessState::WaitResponse);
    EXPECT_EQ(f.node.find(client)->queue_length(Queue::Main), 1U);
    f.run();
    EXPECT_EQ(log.results, (std::vector<std::string>{"ok:slow"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero() + sim::Duration::seconds(2));
    EXPECT_EQ(log.handled, (std::vector<std::string>{"m2", "m1"}));
}

// §2.4: a response that arrives after the timeout is discarded (trace response_dropped), and
// the continuation runs exactly once.
TEST(Call, LateResponseAfterTimeoutIsDropped) {
    Fixture f;
    CallLog log;
    const PID server = call_once(f, slow_callee(sim::Duration::seconds(6)), log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    const auto dropped = f.events("response_dropped");
    ASSERT_EQ(dropped.size(), 1U);
    EXPECT_EQ(dropped.at(0).number("from"), static_cast<std::int64_t>(server.id));
    EXPECT_EQ(dropped.at(0).at, sim::Instant::zero() + sim::Duration::seconds(6));
    EXPECT_TRUE(f.events("response").empty());
}

// §2.4: a response with a stale Ref while a newer call waits is discarded; the wait goes on.
TEST(Call, ResponseWithOtherRefIsDiscardedAndWaitContinues) {
    Fixture f;
    CallLog log;
    std::optional<Pending> first;
    auto server_factory = lambda_factory([&first](LambdaActor& actor) {
        actor.on_call = [&first](LambdaActor& self, const PID& from, const Ref& ref,
                                 const Message&) {
            if (!first.has_value()) {
                first = Pending{from, ref}; // never answered in time
                return act::CallReply::later();
            }
            // Answer the stale first call, then the current one.
            EXPECT_TRUE(self.process().send_response(first->from, first->ref, Text{"stale"}));
            return act::CallReply::value(Text{"fresh"});
        };
    });
    const PID server = f.node.spawn(server_factory, {}, {}).value();
    const CallOptions options{.timeout = sim::Duration::seconds(1)};
    const PID client = f.node.spawn(caller_of(server, log, options), {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout", "ok:fresh"}));
    EXPECT_EQ(f.events("response_dropped").size(), 1U);
}

// §2.4: the callee dying does not wake the caller; it times out.
TEST(Call, TimesOutWhenCalleeDies) {
    Fixture f;
    CallLog log;
    const PID server = f.node.spawn(callee(reply_later), {}, {}).value();
    const PID client = f.node.spawn(caller_of(server, log), {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run(sim::Instant::zero() + sim::Duration::seconds(1));
    ASSERT_TRUE(f.node.kill(server));
    EXPECT_EQ(f.node.find(server), nullptr);
    f.run();
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(log.times.at(0), sim::Instant::zero() + sim::Duration::seconds(5));
}

// §2.4: calling one's own PID is NotAllowed; the continuation never runs.
TEST(Call, OwnPidIsNotAllowed) {
    Fixture f;
    CallLog log;
    const PID pid = f.node.spawn(caller_of(PID{}, log), {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"go"}));
    f.run();
    ASSERT_TRUE(log.started.has_value());
    EXPECT_EQ(log.started->error(), Err::NotAllowed);
    EXPECT_TRUE(log.results.empty());
    EXPECT_TRUE(f.events("call").empty());
}

// §2.4 step 2: calling one's own name is not detected; the request waits in one's own
// mailbox and the call times out, after which the request is handled.
TEST(Call, OwnNameTimesOut) {
    Fixture f;
    CallLog log;
    int requests_seen = 0;
    auto factory = lambda_factory([&log, &requests_seen](LambdaActor& actor) {
        actor.on_message = [&log](LambdaActor& self, const PID&, const Message&) {
            log.started = self.process().call(Atom("me"), Text{"req"}, {}, [&log](CallResult r) {
                log.results.push_back(summarize(r));
                return ok();
            });
            return ok();
        };
        actor.on_call = [&requests_seen](LambdaActor&, const PID&, const Ref&, const Message&) {
            requests_seen++;
            return act::CallReply::later();
        };
    });
    const PID pid = f.node.spawn_register(Atom("me"), factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, Text{"go"}));
    f.run();
    EXPECT_TRUE(log.started->has_value());
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_EQ(requests_seen, 1);
}

// §2.4 step 3: routing errors come back at once; no wait starts.
TEST(Call, UnknownTargetFailsAtOnce) {
    Fixture f;
    CallLog by_pid;
    CallLog by_name;
    const PID ghost{f.node.name(), 9999, 1};
    const PID a = f.node.spawn(caller_of(ghost, by_pid), {}, {}).value();
    const PID b = f.node.spawn(caller_of(Atom("nobody"), by_name), {}, {}).value();
    ASSERT_TRUE(f.node.send(a, Text{"go"}));
    ASSERT_TRUE(f.node.send(b, Text{"go"}));
    f.run();
    EXPECT_EQ(by_pid.started->error(), Err::ProcessUnknown);
    EXPECT_EQ(by_name.started->error(), Err::ProcessUnknown);
    EXPECT_TRUE(by_pid.results.empty());
    EXPECT_TRUE(by_name.results.empty());
    EXPECT_EQ(f.world.now(), sim::Instant::zero());
    EXPECT_TRUE(f.events("call").empty());
}

// §2.4, §3.3: Kill during the wait makes the call end with ErrProcessTerminated, then the
// process terminates with kill.
TEST(Call, KillDuringWaitEndsCallWithProcessTerminatedThenKill) {
    Fixture f;
    CallLog log;
    const PID server = f.node.spawn(callee(reply_later), {}, {}).value();
    const PID client = f.node.spawn(caller_of(server, log), {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run(sim::Instant::zero() + sim::Duration::seconds(1));
    ASSERT_TRUE(f.node.kill(client));
    EXPECT_EQ(f.node.find(client)->state(), ProcessState::Zombee);
    f.run();
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrProcessTerminated"}));
    EXPECT_EQ(log.states, (std::vector<ProcessState>{ProcessState::Zombee})); // not yet gone
    ASSERT_TRUE(log.reason.has_value());
    EXPECT_TRUE(log.reason->is(TerminateReason::Kill));
    EXPECT_EQ(f.node.find(client), nullptr);
}

// §2.5: SendResponseError makes the call return that error.
TEST(Call, SendResponseErrorDeliversTheError) {
    Fixture f;
    CallLog log;
    call_once(f, callee([](LambdaActor& self, const PID& from, const Ref& ref, const Message&) {
                  EXPECT_TRUE(self.process().send_response_error(from, ref, Error(Err::Busy)));
                  return act::CallReply::later();
              }),
              log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrBusy"}));
    EXPECT_EQ(f.events("response").at(0).text("outcome"), "gen.ErrBusy");
}

// §2.5: a response to a caller that is gone gives ProcessUnknown.
TEST(Call, SendResponseToDeadCallerIsProcessUnknown) {
    Fixture f;
    std::optional<SendResult> answered;
    auto responder = lambda_factory([&answered](LambdaActor& actor) {
        actor.on_message = [&answered](LambdaActor& self, const PID&, const Message& message) {
            const Pending* pending = message.get<Pending>();
            answered = self.process().send_response(pending->from, pending->ref, Text{"late"});
            return ok();
        };
    });
    const PID helper = f.node.spawn(responder, {}, {}).value();
    ASSERT_TRUE(f.node.send(helper, Pending{PID{f.node.name(), 4242, 1}, f.node.make_ref()}));
    f.run();
    ASSERT_TRUE(answered.has_value());
    EXPECT_EQ(answered->error(), Err::ProcessUnknown);
}

// §2.4: only 10 unclaimed responses are buffered; the 11th gives ResponseIgnored.
TEST(Call, ResponseBufferOverflowIsResponseIgnored) {
    Fixture f;
    std::vector<bool> accepted;
    const PID idle = f.node.spawn(lambda_factory([](LambdaActor&) {}), {}, {}).value();
    auto responder = lambda_factory([&accepted, idle](LambdaActor& actor) {
        actor.on_message = [&accepted, idle](LambdaActor& self, const PID&, const Message&) {
            for (int i = 0; i < 11; i++) {
                accepted.push_back(
                    self.process()
                        .send_response(idle, self.process().node().make_ref(), Text{"x"})
                        .has_value());
            }
            return ok();
        };
    });
    const PID helper = f.node.spawn(responder, {}, {}).value();
    ASSERT_TRUE(f.node.send(helper, Text{"go"}));
    f.run();
    ASSERT_EQ(accepted.size(), 11U);
    EXPECT_EQ(std::count(accepted.begin(), accepted.end(), true), 10);
    EXPECT_FALSE(accepted.back());
}

// §2.4: while a call waits, mismatched responses are read and discarded at once, so they
// never fill the 10-slot buffer.
TEST(Call, StaleResponsesDuringWaitDoNotFillBuffer) {
    Fixture f;
    CallLog log;
    std::vector<bool> accepted;
    const PID server = f.node.spawn(callee(reply_later), {}, {}).value();
    const PID client = f.node.spawn(caller_of(server, log), {}, {}).value();
    auto responder = lambda_factory([&accepted, client](LambdaActor& actor) {
        actor.on_message = [&accepted, client](LambdaActor& self, const PID&, const Message&) {
            for (int i = 0; i < 12; i++) {
                accepted.push_back(
                    self.process()
                        .send_response(client, self.process().node().make_ref(), Text{"stale"})
                        .has_value());
            }
            return ok();
        };
    });
    const PID helper = f.node.spawn(responder, {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run(sim::Instant::zero() + sim::Duration::seconds(1));
    ASSERT_TRUE(f.node.send(helper, Text{"go"}));
    f.run();
    EXPECT_EQ(accepted, std::vector<bool>(12, true));
    EXPECT_EQ(f.events("response_dropped").size(), 12U);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
}

// §2.6: a forwarded request keeps From and Ref; the final worker answers the caller directly.
TEST(Call, ForwardedRequestIsAnsweredByWorkerWithOriginalRef) {
    Fixture f;
    CallLog log;
    std::optional<PID> seen_from;
    std::optional<Ref> seen_ref;
    const PID worker = f.node
                           .spawn(callee([&seen_from, &seen_ref](LambdaActor&, const PID& from,
                                                                 const Ref& ref, const Message&) {
                                      seen_from = from;
                                      seen_ref = ref;
                                      return act::CallReply::value(Text{"from-worker"});
                                  }),
                                  {}, {})
                           .value();
    const PID front =
        f.node
            .spawn(callee([worker](LambdaActor& self, const PID&, const Ref&, const Message&) {
                       EXPECT_TRUE(
                           self.process().forward(worker, self.current(), MessagePriority::Normal));
                       return act::CallReply::later();
                   }),
                   {}, {})
            .value();
    const PID client = f.node.spawn(caller_of(front, log), {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    EXPECT_EQ(log.results, (std::vector<std::string>{"ok:from-worker"}));
    ASSERT_TRUE(seen_from.has_value());
    EXPECT_EQ(*seen_from, client);
    const auto call = f.events("call").at(0);
    EXPECT_EQ(static_cast<std::int64_t>(seen_ref->id), call.number("ref"));
    const auto response = f.events("response").at(0);
    EXPECT_EQ(response.number("from"), static_cast<std::int64_t>(worker.id));
    EXPECT_EQ(response.number("to"), static_cast<std::int64_t>(client.id));
    // The forward keeps the message id of the original request.
    std::int64_t request_id = -1;
    for (const auto& send : f.events("send")) {
        if (send.number("to") == static_cast<std::int64_t>(front.id) && send.number("type") == 1) {
            request_id = send.number("id");
        }
    }
    EXPECT_NE(request_id, -1);
    EXPECT_EQ(f.events("forward").at(0).number("id"), request_id);
}

// §4.2: HandleCall → (nil, nil) defers; another process may answer with the (from, ref).
TEST(Call, HandleCallLaterIsAnsweredByAnotherProcess) {
    Fixture f;
    CallLog log;
    auto helper_factory = lambda_factory([](LambdaActor& actor) {
        actor.on_message = [](LambdaActor& self, const PID&, const Message& message) {
            const Pending* pending = message.get<Pending>();
            EXPECT_NE(pending, nullptr);
            EXPECT_TRUE(self.process().send_response(pending->from, pending->ref, Text{"helper"}));
            return ok();
        };
    });
    const PID helper = f.node.spawn(helper_factory, {}, {}).value();
    const PID server = call_once(
        f, callee([helper](LambdaActor& self, const PID& from, const Ref& ref, const Message&) {
            EXPECT_TRUE(self.process().send(helper, Pending{from, ref}));
            return act::CallReply::later();
        }),
        log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"ok:helper"}));
    EXPECT_EQ(f.events("response").at(0).number("from"), static_cast<std::int64_t>(helper.id));
    EXPECT_NE(f.node.find(server), nullptr);
}

// §4.2: HandleCall → (v, Normal) replies v first, then terminates with Normal.
TEST(Call, HandleCallValueWithNormalRepliesThenStops) {
    Fixture f;
    CallLog log;
    std::optional<Error> server_reason;
    const auto reply = act::CallReply::stop(Error::normal(), Text{"bye"});
    const PID server = call_once(f, stopping_callee(reply, server_reason), log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"ok:bye"}));
    ASSERT_TRUE(server_reason.has_value());
    EXPECT_TRUE(server_reason->is(TerminateReason::Normal));
    EXPECT_EQ(f.node.find(server), nullptr);
}

// §4.2: HandleCall → (v, other error) sends no reply; the callee terminates and the caller
// times out.
TEST(Call, HandleCallValueWithOtherErrorDoesNotReply) {
    Fixture f;
    CallLog log;
    std::optional<Error> server_reason;
    const auto reply = act::CallReply::stop(Error::text("broken"), Text{"never-sent"});
    call_once(f, stopping_callee(reply, server_reason), log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    EXPECT_TRUE(f.events("response").empty());
    ASSERT_TRUE(server_reason.has_value());
    EXPECT_EQ(*server_reason, Error::text("broken"));
}

// §4.1: the default HandleCall logs a warning and replies nothing, so callers time out.
TEST(Call, DefaultHandleCallMakesCallerTimeOut) {
    Fixture f;
    CallLog log;
    call_once(f, lambda_factory([](LambdaActor&) {}), log);
    EXPECT_EQ(log.results, (std::vector<std::string>{"gen.ErrTimeout"}));
    const auto logs = f.events("log");
    ASSERT_EQ(logs.size(), 1U);
    EXPECT_EQ(logs.at(0).text("level"), "warning");
}

// §2.4: one call at a time; a second call while the first waits gives NotAllowed.
TEST(Call, SecondCallWhileWaitingIsNotAllowed) {
    Fixture f;
    std::optional<SendResult> second;
    const PID server = f.node.spawn(callee(reply_later), {}, {}).value();
    auto factory = lambda_factory([&second, server](LambdaActor& actor) {
        actor.on_message = [&second, server](LambdaActor& self, const PID&, const Message&) {
            auto ignore = [](CallResult) { return ok(); };
            EXPECT_TRUE(self.process().call(server, Text{"1"}, {}, ignore));
            second = self.process().call(server, Text{"2"}, {}, ignore);
            return ok();
        };
    });
    const PID client = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->error(), Err::NotAllowed);
}

// A callback that starts a call and then returns an error terminates at once; the call ends
// exactly once in the trace (outcome "abandoned") and its continuation never runs
// (DESIGN.md call_outcome).
TEST(Call, CallbackErrorAfterCallAbandonsTheCallOnce) {
    Fixture f;
    bool continuation_ran = false;
    const PID server = f.node.spawn(callee(reply_later), {}, {}).value();
    auto factory = lambda_factory([&continuation_ran, server](LambdaActor& actor) {
        actor.on_message = [&continuation_ran, server](LambdaActor& self, const PID&,
                                                       const Message&) {
            EXPECT_TRUE(
                self.process().call(server, Text{"req"}, {}, [&continuation_ran](CallResult) {
                    continuation_ran = true;
                    return ok();
                }));
            return stop(Error::text("changed my mind"));
        };
    });
    const PID client = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    EXPECT_FALSE(continuation_ran);
    EXPECT_EQ(f.node.find(client), nullptr);
    const auto results = f.events("call_result");
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results.at(0).text("outcome"), "abandoned");
    EXPECT_EQ(results.at(0).number("ref"), f.events("call").at(0).number("ref"));
    EXPECT_EQ(f.world.now(), sim::Instant::zero()); // the timeout timer was cancelled
}

// §1.2: Call is not allowed during Init.
TEST(Call, NotAllowedDuringInit) {
    Fixture f;
    std::optional<SendResult> during_init;
    const PID server = f.node.spawn(callee(reply_pong), {}, {}).value();
    auto factory = lambda_factory([&during_init, server](LambdaActor& actor) {
        actor.on_init = [&during_init, server](LambdaActor& self, const Args&) {
            during_init =
                self.process().call(server, Text{"req"}, {}, [](CallResult) { return ok(); });
            return ok();
        };
    });
    ASSERT_TRUE(f.node.spawn(factory, {}, {}));
    ASSERT_TRUE(during_init.has_value());
    EXPECT_EQ(during_init->error(), Err::NotAllowed);
}

// §2.4: a continuation's error terminates the caller with that error.
TEST(Call, ContinuationErrorTerminatesCaller) {
    Fixture f;
    std::optional<Error> reason;
    const PID server = f.node.spawn(callee(reply_pong), {}, {}).value();
    auto factory = lambda_factory([&reason, server](LambdaActor& actor) {
        actor.on_message = [server](LambdaActor& self, const PID&, const Message&) {
            EXPECT_TRUE(self.process().call(
                server, Text{"req"}, {}, [](CallResult) { return stop(Error(Err::Incorrect)); }));
            return ok();
        };
        actor.on_terminate = [&reason](LambdaActor&, const Error& error) { reason = error; };
    });
    const PID client = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(client, Text{"go"}));
    f.run();
    ASSERT_TRUE(reason.has_value());
    EXPECT_TRUE(reason->is(Err::Incorrect));
}

} // namespace
} // namespace routesim::runtime
