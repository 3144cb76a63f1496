// Goal: the runtime core keeps its global guarantees under any schedule (DESIGN.md
// invariants determinism, pair_fifo, call_outcome, message_conservation; runtime/SEMANTICS.md
// §1.4, §2.4, §3): the same seed gives the same trace hash; messages of one sender to one
// receiver are taken in the order sent (per queue, since queues drain by priority, §1.4);
// every call ends exactly once; no message is taken twice and every message ends.
// Method: rapidcheck generates a program (a vector of ops over up to 20 actors) as data;
// LambdaActors interpret it (each op is injected as a Step message into the actor that
// performs it, at a generated virtual time, so many race at one instant); the run uses the
// Random or PCT scheduling policy until idle, and a trace sink checks the invariants online.
#include <algorithm>
#include <deque>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "runtime/testing.hpp"
#include "runtime/trace_keys.hpp"

namespace routesim::runtime {
namespace {

using testing::lambda_factory;
using testing::LambdaActor;

constexpr std::size_t actors_max = 20;

// -- the program ----------------------------------------------------------------------------

enum class OpKind : std::uint8_t { Send, Call, Kill, Link, Monitor, Exit, Stop, Spawn };

/// One generated operation. Indices are taken modulo the current actor table.
struct Op {
    OpKind kind = OpKind::Send;
    std::uint8_t actor = 0;  // who performs it
    std::uint8_t target = 0; // whom it addresses
    std::uint8_t arg = 0;    // count, hops, reply mode, timeout choice, spawn links
    std::uint8_t at_ms = 0;  // virtual time of injection, in milliseconds
};

struct Program {
    std::vector<bool> trap; // one per initial actor
    std::vector<Op> ops;
};

std::string_view op_name(OpKind kind) {
    static constexpr std::string_view names[] = {"send",    "call", "kill", "link",
                                                 "monitor", "exit", "stop", "spawn"};
    return names[static_cast<std::size_t>(kind)];
}

std::ostream& operator<<(std::ostream& out, const Op& op) {
    return out << op_name(op.kind) << "(actor=" << int(op.actor) << " target=" << int(op.target)
               << " arg=" << int(op.arg) << " at=" << int(op.at_ms) << "ms)";
}

rc::Gen<Op> gen_op() {
    using rc::gen::inRange;
    return rc::gen::build<Op>(
        rc::gen::set(&Op::kind, rc::gen::weightedElement<OpKind>({{8, OpKind::Send},
                                                                  {5, OpKind::Call},
                                                                  {1, OpKind::Kill},
                                                                  {2, OpKind::Link},
                                                                  {2, OpKind::Monitor},
                                                                  {1, OpKind::Exit},
                                                                  {1, OpKind::Stop},
                                                                  {2, OpKind::Spawn}})),
        rc::gen::set(&Op::actor, inRange<std::uint8_t>(0, actors_max)),
        rc::gen::set(&Op::target, inRange<std::uint8_t>(0, actors_max)),
        rc::gen::set(&Op::arg, rc::gen::arbitrary<std::uint8_t>()),
        rc::gen::set(&Op::at_ms, inRange<std::uint8_t>(0, 40)));
}

/// Draws a program inside a property.
Program draw_program() {
    Program program;
    const int actors = *rc::gen::inRange(2, static_cast<int>(actors_max) + 1);
    program.trap = *rc::gen::container<std::vector<bool>>(static_cast<std::size_t>(actors),
                                                          rc::gen::arbitrary<bool>());
    program.ops = *rc::gen::resize(160, rc::gen::container<std::vector<Op>>(gen_op()));
    return program;
}

// -- payloads -------------------------------------------------------------------------------

struct Step {
    static constexpr std::string_view type_name = "Step";
    std::uint32_t op = 0;
};
struct Ping {
    static constexpr std::string_view type_name = "Ping";
    std::uint8_t hops = 0;
};
struct Request {
    static constexpr std::string_view type_name = "Request";
    std::uint8_t mode = 0;
};
struct Deferred {
    static constexpr std::string_view type_name = "Deferred";
    PID from;
    Ref ref;
};

// -- the checker ----------------------------------------------------------------------------

std::uint64_t field(const sim::TraceEvent& event, const sim::TraceKey& key) {
    for (std::size_t i = 0; i < event.field_count; i++) {
        if (event.fields[i].key.hash == key.hash) {
            return event.fields[i].value.as_uint();
        }
    }
    return UINT64_MAX;
}

bool is(const sim::TraceEvent& event, const sim::TraceKey& key) {
    return event.kind.hash == key.hash;
}

/// Checks the invariants online and keeps one list of failures per invariant.
class Checker final : public sim::TraceSink {
public:
    std::vector<std::string> fifo_failures;
    std::vector<std::string> call_failures;
    std::vector<std::string> message_failures;
    std::uint64_t takes = 0;
    std::uint64_t calls = 0;

    void on_event(const sim::TraceEvent& event) override {
        if (is(event, trace::send)) {
            on_send(event);
        } else if (is(event, trace::take)) {
            on_take(event);
        } else if (is(event, trace::drop)) {
            on_drop(event);
        } else if (is(event, trace::call)) {
            calls++;
            const auto key = std::make_pair(field(event, trace::caller), field(event, trace::ref));
            if (!open_calls_.emplace(key, event.seq).second) {
                call_failures.push_back("call started twice: ref " + std::to_string(key.second));
            }
        } else if (is(event, trace::call_result)) {
            const auto key = std::make_pair(field(event, trace::caller), field(event, trace::ref));
            if (open_calls_.erase(key) != 1) {
                call_failures.push_back("call ended twice or never started: ref " +
                                        std::to_string(key.second));
            }
        }
    }

    /// End-of-run checks for a run that went idle.
    void finish() {
        for (const auto& [key, seq] : open_calls_) {
            call_failures.push_back("call ref " + std::to_string(key.second) +
                                    " never ended (started at event " + std::to_string(seq) + ")");
        }
        for (const auto& [pair, ids] : pending_) {
            for (std::uint64_t id : ids) {
                message_failures.push_back("message " + std::to_string(id) + " never ended");
            }
        }
    }

private:
    using Pair = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>; // from, to, queue
    struct Sent {
        Pair pair;
        bool ended = false;
    };

    void on_send(const sim::TraceEvent& event) {
        const std::uint64_t id = field(event, trace::id);
        const Pair pair{field(event, trace::from), field(event, trace::to),
                        field(event, trace::queue)};
        if (!sent_.emplace(id, Sent{pair}).second) {
            message_failures.push_back("message id " + std::to_string(id) + " sent twice");
            return;
        }
        pending_[pair].push_back(id);
    }

    void on_take(const sim::TraceEvent& event) {
        takes++;
        const std::uint64_t id = field(event, trace::id);
        auto found = sent_.find(id);
        if (found == sent_.end() || found->second.ended) {
            message_failures.push_back("message " + std::to_string(id) +
                                       " taken twice or never sent");
            return;
        }
        found->second.ended = true;
        const auto& [from, to, queue] = found->second.pair;
        if (field(event, trace::pid) != to || field(event, trace::from) != from ||
            field(event, trace::queue) != queue) {
            message_failures.push_back("message " + std::to_string(id) +
                                       " taken with other pid/from/queue than sent");
        }
        std::deque<std::uint64_t>& ids = pending_[found->second.pair];
        if (ids.empty() || ids.front() != id) {
            fifo_failures.push_back("message " + std::to_string(id) + " from <" +
                                    std::to_string(from) + "> taken by <" + std::to_string(to) +
                                    "> before an earlier message on the same pair and queue");
        }
        erase(found->second.pair, id);
    }

    void on_drop(const sim::TraceEvent& event) {
        const std::uint64_t id = field(event, trace::id);
        auto found = sent_.find(id);
        if (found == sent_.end() || found->second.ended) {
            message_failures.push_back("message " + std::to_string(id) +
                                       " dropped after it ended or never sent");
            return;
        }
        found->second.ended = true;
        erase(found->second.pair, id);
    }

    void erase(const Pair& pair, std::uint64_t id) {
        auto ids = pending_.find(pair);
        auto at = std::find(ids->second.begin(), ids->second.end(), id);
        ids->second.erase(at);
        if (ids->second.empty()) {
            pending_.erase(ids);
        }
    }

    std::unordered_map<std::uint64_t, Sent> sent_; // lookups only
    std::map<Pair, std::deque<std::uint64_t>> pending_;
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> open_calls_;
};

// -- the interpreter ------------------------------------------------------------------------

/// One run of a program under a seed and a policy.
class ProgramRun {
public:
    ProgramRun(const Program& program, std::uint64_t seed, sim::Policy policy)
        : program_(program),
          world_(sim::WorldOptions{
              .seed = seed,
              .scheduler = sim::SchedulerOptions{.policy = policy, .pct_steps_expected = 2000}}),
          node_(world_, NodeOptions{}) {
        world_.trace().add_sink(checker_);
    }
    ~ProgramRun() { world_.trace().remove_sink(checker_); }
    ProgramRun(const ProgramRun&) = delete;
    ProgramRun& operator=(const ProgramRun&) = delete;

    sim::RunOutcome run() {
        for (bool trap : program_.trap) {
            pids_.push_back(node_.spawn(factory(trap), {}, {}).value());
        }
        for (std::uint32_t k = 0; k < program_.ops.size(); k++) {
            const sim::Instant at =
                sim::Instant::zero() + sim::Duration::milliseconds(program_.ops[k].at_ms);
            world_.schedule_at(at, [this, k] { inject(k); });
        }
        sim::RunOutcome outcome = world_.run();
        checker_.finish();
        return outcome;
    }

    std::uint64_t hash() { return world_.trace().hash(); }
    std::uint64_t event_count() { return world_.trace().count(); }
    const Checker& checker() const { return checker_; }

private:
    PID pick(std::uint64_t index) const { return pids_[index % pids_.size()]; }

    void inject(std::uint32_t k) {
        const Op& op = program_.ops[k];
        if (op.kind == OpKind::Kill) {
            (void)node_.kill(pick(op.target)); // Node.Kill works from anywhere (§3.3)
            return;
        }
        (void)node_.send(pick(op.actor), Step{k});
    }

    Factory factory(bool trap) {
        return lambda_factory([this, trap](LambdaActor& actor) {
            actor.set_trap_exit(trap);
            actor.on_message = [this](LambdaActor& self, const PID&, const Message& message) {
                return on_message(self, message);
            };
            actor.on_call = [this](LambdaActor& self, const PID& from, const Ref& ref,
                                   const Message& request) {
                return on_call(self, from, ref, request);
            };
        });
    }

    Status on_message(LambdaActor& self, const Message& message) {
        if (const Step* step = message.get<Step>()) {
            return perform(self, program_.ops[step->op]);
        }
        if (const Ping* ping = message.get<Ping>(); ping != nullptr && ping->hops > 0) {
            // A cascade whose path depends on who took what first.
            const auto hops = static_cast<std::uint8_t>(ping->hops - 1);
            (void)self.process().send(pick(self.self().id + ping->hops), Ping{hops});
            return ok();
        }
        if (const Deferred* deferred = message.get<Deferred>()) {
            (void)self.process().send_response(deferred->from, deferred->ref, Ping{});
        }
        return ok(); // trapped exits, downs, plain pings
    }

    act::CallReply on_call(LambdaActor& self, const PID& from, const Ref& ref,
                           const Message& request) {
        const Request* call = request.get<Request>();
        switch (call != nullptr ? call->mode : 2) {
        case 0:
            return act::CallReply::value(Ping{});
        case 1: // reply later, from a timer message (sometimes after the caller timed out)
            (void)self.process().send_after(self.self(), Deferred{from, ref},
                                            sim::Duration::milliseconds(700));
            return act::CallReply::later();
        case 3:
            (void)self.process().send_response_error(from, ref, Error(Err::Busy));
            return act::CallReply::later();
        default: // never reply: the caller times out
            return act::CallReply::later();
        }
    }

    Status perform(LambdaActor& self, const Op& op) {
        Process& process = self.process();
        const PID target = pick(op.target);
        switch (op.kind) {
        case OpKind::Send:
            for (int i = 0; i <= op.arg % 4; i++) {
                (void)process.send(target, Ping{static_cast<std::uint8_t>(op.arg % 3)});
            }
            return ok();
        case OpKind::Call: {
            // Zero means the default timeout (5 s); otherwise 1 s.
            const CallOptions options{.timeout = (op.arg & 4U) != 0 ? sim::Duration::seconds(1)
                                                                    : sim::Duration::zero()};
            (void)process.call(target, Request{static_cast<std::uint8_t>(op.arg % 4)}, options,
                               [](CallResult) { return ok(); });
            return ok();
        }
        case OpKind::Link:
            (void)process.link(target);
            return ok();
        case OpKind::Monitor:
            (void)process.monitor(target);
            return ok();
        case OpKind::Exit:
            (void)process.send_exit(target, Error::text("exit"));
            return ok();
        case OpKind::Stop:
            return stop((op.arg & 1U) != 0 ? Error::normal() : Error::text("stop"));
        case OpKind::Spawn:
            return spawn_child(process, op);
        case OpKind::Kill:
            break;
        }
        return ok();
    }

    Status spawn_child(Process& process, const Op& op) {
        if (pids_.size() >= actors_max) {
            return ok();
        }
        const ProcessOptions options{.link_parent = (op.arg & 2U) != 0,
                                     .link_child = (op.arg & 4U) != 0};
        auto child = process.spawn(factory((op.arg & 1U) != 0), options, {});
        if (child) {
            pids_.push_back(child.value());
        }
        return ok();
    }

    const Program& program_;
    sim::World world_;
    Node node_;
    Checker checker_;
    std::vector<PID> pids_;
};

sim::Policy draw_policy() {
    return *rc::gen::element(sim::Policy::Random, sim::Policy::Pct);
}

std::string joined(const std::vector<std::string>& failures) {
    std::string text;
    for (std::size_t i = 0; i < failures.size() && i < 5; i++) {
        text += failures[i] + "\n";
    }
    return text;
}

/// Runs `program` to idle under both policies with two seeds each and hands every run's
/// checker to `check` (more schedules per generated program).
template <class Check>
void for_schedules(const Program& program, std::uint64_t seed, Check check) {
    for (std::uint64_t k = 0; k < 4; k++) {
        const sim::Policy policy = k % 2 == 0 ? sim::Policy::Random : sim::Policy::Pct;
        ProgramRun run(program, seed + k / 2, policy);
        RC_ASSERT(run.run().reason == sim::StopReason::Idle);
        check(run.checker());
    }
}

// DESIGN.md determinism: the same program, seed and policy give the same trace hash twice.
RC_GTEST_PROP(RuntimeProps, SameSeedGivesSameTraceHash, ()) {
    const Program program = draw_program();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const sim::Policy policy = draw_policy();
    ProgramRun first(program, seed, policy);
    ProgramRun second(program, seed, policy);
    RC_ASSERT(first.run().reason == sim::StopReason::Idle);
    RC_ASSERT(second.run().reason == sim::StopReason::Idle);
    RC_ASSERT(first.event_count() == second.event_count());
    RC_ASSERT(first.hash() == second.hash());
}

// DESIGN.md pair_fifo, §1.4: per sender, receiver and queue, messages are taken in the order
// sent, under random and PCT schedules.
RC_GTEST_PROP(RuntimeProps, PairFifoHolds, ()) {
    const Program program = draw_program();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    for_schedules(program, seed, [](const Checker& checker) {
        RC_LOG() << joined(checker.fifo_failures);
        RC_ASSERT(checker.fifo_failures.empty());
    });
}

// DESIGN.md call_outcome, §2.4: every call ends exactly once (response, error, timeout, or
// abandoned with its caller); the run goes until idle so every wait has ended.
RC_GTEST_PROP(RuntimeProps, EveryCallEndsExactlyOnce, ()) {
    const Program program = draw_program();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    for_schedules(program, seed, [](const Checker& checker) {
        RC_LOG() << joined(checker.call_failures);
        RC_ASSERT(checker.call_failures.empty());
    });
    const bool has_calls = std::any_of(program.ops.begin(), program.ops.end(),
                                       [](const Op& op) { return op.kind == OpKind::Call; });
    RC_TAG(has_calls ? "with calls" : "no calls");
}

// DESIGN.md message_conservation, §3.2: no message id is taken twice, a take matches its
// send, and every message ends (taken or dropped with a dead mailbox).
RC_GTEST_PROP(RuntimeProps, NoMessageTakenTwiceAndEveryMessageEnds, ()) {
    const Program program = draw_program();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    for_schedules(program, seed, [](const Checker& checker) {
        RC_LOG() << joined(checker.message_failures);
        RC_ASSERT(checker.message_failures.empty());
    });
    RC_TAG(program.ops.size() > 20 ? "long program" : "short program");
}

// The generated programs really race: one fixed program gives several different traces over
// a few seeds under the Random policy (guards against a schedule-blind interpreter).
TEST(RuntimeProps, SchedulesMatter) {
    Program program;
    program.trap.assign(6, true);
    for (std::uint8_t i = 0; i < 12; i++) {
        program.ops.push_back(Op{.kind = i % 3 == 2 ? OpKind::Call : OpKind::Send,
                                 .actor = i,
                                 .target = static_cast<std::uint8_t>(i + 1),
                                 .arg = static_cast<std::uint8_t>(i * 5),
                                 .at_ms = 0});
    }
    std::set<std::uint64_t> hashes;
    for (std::uint64_t seed = 1; seed <= 8; seed++) {
        ProgramRun run(program, seed, sim::Policy::Random);
        EXPECT_EQ(run.run().reason, sim::StopReason::Idle);
        EXPECT_TRUE(run.checker().fifo_failures.empty());
        hashes.insert(run.hash());
    }
    EXPECT_GT(hashes.size(), 4U);
}

// The checker can fail: a take out of order is reported (guards against a vacuous property).
TEST(RuntimeProps, CheckerReportsOutOfOrderTake) {
    sim::TraceBus bus;
    Checker checker;
    bus.add_sink(checker);
    const auto at = sim::Instant::zero();
    for (std::uint64_t id : {1U, 2U}) {
        bus.emit(at, trace::send,
                 {{trace::id, id},
                  {trace::from, std::uint64_t{7}},
                  {trace::to, std::uint64_t{8}},
                  {trace::queue, std::uint64_t{2}}});
    }
    bus.emit(at, trace::take,
             {{trace::pid, std::uint64_t{8}},
              {trace::id, std::uint64_t{2}},
              {trace::queue, std::uint64_t{2}},
              {trace::from, std::uint64_t{7}}});
    bus.emit(at, trace::take,
             {{trace::pid, std::uint64_t{8}},
              {trace::id, std::uint64_t{2}},
              {trace::queue, std::uint64_t{2}},
              {trace::from, std::uint64_t{7}}});
    bus.emit(at, trace::call, {{trace::caller, std::uint64_t{7}}, {trace::ref, std::uint64_t{1}}});
    checker.finish();
    bus.remove_sink(checker);
    EXPECT_EQ(checker.fifo_failures.size(), 1U);
    EXPECT_EQ(checker.message_failures.size(), 2U); // taken twice; id 1 never ended
    EXPECT_EQ(checker.call_failures.size(), 1U);
}

} // namespace
} // namespace routesim::runtime
