// Goal: under random sequences of management calls (from inside the router's admin path, and
// from outside), worker kills, worker exits that arrive late, spawn failures and traffic,
// under random scheduling and both semantics profiles, the Router behaves exactly as the pure
// route model (properties/route_model.hpp) predicts (§8).
// Method: a hand-rolled command sequence drawn by rapidcheck. A CheckedRouter wraps every
// router step: before it, the model predicts the step's effect from the world's facts (is the
// recorded worker alive, does a spawn succeed); after it, the prediction is committed and the
// whole table (names, order, states, worker PIDs and their specs), the counters and each
// failure reason are compared. Management calls are predicted and compared the same way.
// Workers take 0–2 ms to stop, so exits arrive late and pending windows stay open.
// Lives in properties/ (it needs the model) and runs in routesim_router_tests.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <ostream>

#include "properties/route_model.hpp"
#include "runtime/router.hpp"
#include "runtime/testing.hpp"

namespace routesim::properties {
namespace {

using namespace routesim::runtime; // NOLINT: the suite drives the runtime throughout

// -- commands -----------------------------------------------------------------------------

enum class Kind : std::uint8_t {
    OutsideCall,
    InsideCall,
    KillWorker,
    Traffic,
    ToggleSpawn,
    Advance
};

struct Command {
    Kind kind = Kind::Advance;
    RouteOp op = RouteOp::Add;
    int name = 0;            // index into route_names (calls, kills, traffic)
    int invalid = 0;         // calls: 0 valid, 1 empty name, 2 nil factory, 3 name mismatch
    int count = 1;           // traffic: messages
    bool kill_first = false; // traffic: route_message kills the recorded worker first
    bool die = false;        // traffic: the worker stops (Normal) when it takes the message
    int advance_us = 0;
};

constexpr const char* route_names[] = {"r0", "r1", "r2", "r3", "ext", "nobody", ""};

void showValue(const Command& c, std::ostream& os) {
    static constexpr const char* kinds[] = {"outside", "inside", "kill",
                                            "traffic", "toggle", "advance"};
    os << kinds[static_cast<int>(c.kind)];
    switch (c.kind) {
    case Kind::OutsideCall:
    case Kind::InsideCall:
        os << " " << properties::route_op_name(c.op) << "(" << route_names[c.name] << ")"
           << (c.invalid != 0 ? " invalid#" + std::to_string(c.invalid) : "");
        break;
    case Kind::KillWorker:
        os << " " << route_names[c.name];
        break;
    case Kind::Traffic:
        os << " " << c.count << "x" << route_names[c.name] << (c.kill_first ? " kill-first" : "")
           << (c.die ? " die" : "");
        break;
    case Kind::Advance:
        os << " " << c.advance_us << "us";
        break;
    case Kind::ToggleSpawn:
        break;
    }
}

rc::Gen<Command> gen_command() {
    return rc::gen::apply(
        [](int kind, int op, int name, int flags, int amount) {
            Command c;
            c.kind = kind < 18   ? Kind::OutsideCall
                     : kind < 40 ? Kind::InsideCall
                     : kind < 48 ? Kind::KillWorker
                     : kind < 72 ? Kind::Traffic
                     : kind < 80 ? Kind::ToggleSpawn
                                 : Kind::Advance;
            c.op = static_cast<RouteOp>(op);
            c.name = c.kind == Kind::Traffic ? name : name % 5;
            c.invalid = flags % 6 == 0 ? flags / 6 % 3 + 1 : 0;
            c.count = amount % 3 + 1;
            c.kill_first = flags % 4 == 1;
            c.die = flags % 5 == 2;
            c.advance_us = amount * 150;
            return c;
        },
        rc::gen::inRange(0, 100), rc::gen::inRange(0, 6), rc::gen::inRange(0, 7),
        rc::gen::inRange(0, 24), rc::gen::inRange(0, 20));
}

// -- the system under test ----------------------------------------------------------------

struct PropMsg {
    static constexpr std::string_view type_name = "PropMsg";
    Atom to;
    bool kill_first = false;
    bool die = false;
};

class CheckedRouter;

struct RunAdmin {
    static constexpr std::string_view type_name = "RunAdmin";
    std::function<void(CheckedRouter&)> run;
};

struct Harness;

// A worker labelled with its spec; its Init fails while the harness refuses spawns.
class SpecWorker final : public act::Actor {
public:
    SpecWorker(Harness& harness, std::uint32_t spec) : harness_(harness), spec_(spec) {}
    Status init(const Args&) override;
    Status handle_message(const PID&, const Message& message) override {
        const PropMsg* m = message.get<PropMsg>();
        return m != nullptr && m->die ? stop(Error::normal()) : ok();
    }
    sim::Duration terminate_delay() const override {
        return sim::Duration::milliseconds(spec_ % 3); // exits arrive late
    }

private:
    Harness& harness_;
    std::uint32_t spec_;
};

class CheckedRouter final : public act::Router {
public:
    explicit CheckedRouter(Harness& harness) : harness_(harness) {}
    sim::Result<act::RouterOptions, Error> init(const Args&) override;
    Atom route_message(const PID& from, const Message& message) override;
    Atom route_call(const PID&, const Ref&, const Message&) override { return act::RouteDiscard; }
    Status handle_message(const PID& from, const Message& message) override;
    Status process_message(Queue queue, MailboxMessage& message) override;

private:
    Harness& harness_;
};

// What the model predicted for the router step in progress.
struct StepExpectation {
    enum class Kind : std::uint8_t { None, Exit, Owned, Unowned, Discard } kind = Kind::None;
    Atom name;
    std::uint64_t pid = 0;
    properties::ExitPrediction exit;
    properties::RoutePrediction route;
    bool unowned_forwarded = false;
};

struct Harness {
    Harness(Semantics profile, std::uint64_t seed)
        : world(sim::WorldOptions{
              .seed = seed, .scheduler = sim::SchedulerOptions{.policy = sim::Policy::Random}}),
          node(world, NodeOptions{.semantics = profile}), semantics(profile) {
        ext = node.spawn_register(
                      Atom("ext"),
                      runtime::testing::lambda_factory([](runtime::testing::LambdaActor& a) {
                          a.on_message = [](runtime::testing::LambdaActor&, const PID&,
                                            const Message&) { return ok(); };
                      }),
                      {}, {})
                  .value();
        router_pid = node.spawn(
                             [this]() -> std::unique_ptr<Behavior> {
                                 return std::make_unique<CheckedRouter>(*this);
                             },
                             {}, {})
                         .value();
        router = &dynamic_cast<CheckedRouter&>(node.find(router_pid)->behavior());
        for (const act::RouterRouteInfo& info : router->routes()) {
            model.add_initial(info.name, spawned_spec.at(info.pid.id), info.pid.id);
        }
    }

    Factory spec_factory(std::uint32_t spec) {
        return [this, spec]() -> std::unique_ptr<Behavior> {
            return std::make_unique<SpecWorker>(*this, spec);
        };
    }
    bool router_alive() const { return node.find(router_pid) != nullptr; }
    void fail(std::string what) {
        if (failures.empty()) {
            failures.push_back(std::move(what) + " at t=" + std::to_string(world.now().ns()));
        }
    }

    // Facts about a recorded worker: alive, and what a forward to it returns when dead.
    std::pair<bool, Err> worker_facts(std::uint64_t worker, bool killed_first) const {
        const Process* p = node.find(PID{node.name(), worker, 1});
        if (p == nullptr) {
            return {false, Err::ProcessUnknown};
        }
        if (killed_first) {
            // Node.Kill tears a sleeping process down at once; otherwise it is a Zombee.
            return {false, p->state() == ProcessState::Sleep ? Err::ProcessUnknown
                                                             : Err::ProcessTerminated};
        }
        return {p->is_alive(), Err::ProcessTerminated};
    }

    void expect_step(Queue queue, const MailboxMessage& message);
    void check_step();
    void checked_call(const Command& c, bool inside);
    void compare_table(std::string_view where);
    void apply(const Command& c);

    sim::World world;
    Node node;
    Semantics semantics;
    bool refuse = false;
    std::uint32_t next_spec = 2;
    std::map<std::uint64_t, std::uint32_t> spawned_spec; // worker pid id → spec label
    RouteTable model;
    CheckedRouter* router = nullptr;
    PID router_pid;
    PID ext;
    StepExpectation expectation;
    std::optional<Error> last_failure;
    std::vector<std::string> failures;
};

Status SpecWorker::init(const Args&) {
    if (harness_.refuse) {
        return stop(Error::text("spawn refused"));
    }
    harness_.spawned_spec[self().id] = spec_;
    return ok();
}

sim::Result<act::RouterOptions, Error> CheckedRouter::init(const Args&) {
    return act::RouterOptions{
        {{Atom("r0"), harness_.spec_factory(1), {}}, {Atom("r1"), harness_.spec_factory(1), {}}}};
}

Atom CheckedRouter::route_message(const PID&, const Message& message) {
    const PropMsg* m = message.get<PropMsg>();
    if (m == nullptr) {
        return act::RouteDiscard;
    }
    if (m->kill_first) {
        if (const std::optional<act::RouterRouteInfo> info = route(m->to);
            info && !info->pid.empty()) {
            (void)harness_.node.kill(info->pid); // the stale-death race (R45, R16)
        }
    }
    return m->to;
}

Status CheckedRouter::handle_message(const PID&, const Message& message) {
    if (const auto* failed = message.get<act::MessageRouteFailed>()) {
        harness_.last_failure = failed->reason;
    } else if (const RunAdmin* admin = message.get<RunAdmin>()) {
        admin->run(*this);
    }
    return ok();
}

Status CheckedRouter::process_message(Queue queue, MailboxMessage& message) {
    harness_.expect_step(queue, message);
    const Status status = Router::process_message(queue, message);
    harness_.check_step();
    return status;
}

// -- predictions and checks ---------------------------------------------------------------

void Harness::expect_step(Queue queue, const MailboxMessage& message) {
    expectation = StepExpectation{};
    last_failure.reset();
    if (const auto* exit = message.message.get<MessageExitPID>();
        exit != nullptr && message.type == MailboxType::Exit) {
        expectation.kind = StepExpectation::Kind::Exit;
        expectation.pid = exit->pid.id;
        switch (model.classify_exit(exit->pid.id)) {
        case RouteTable::ExitKind::Recorded:
            expectation.name = model.route_of(exit->pid.id);
            expectation.exit = model.predict_exit(exit->pid.id, !refuse);
            break;
        case RouteTable::ExitKind::PendingExit:
            break;
        case RouteTable::ExitKind::Stray:
            fail("stray exit from " + to_string(exit->pid));
            break;
        }
        return;
    }
    const PropMsg* m = message.message.get<PropMsg>();
    if (queue != Queue::Main || m == nullptr) {
        return;
    }
    expectation.name = m->to;
    if (m->to.empty()) {
        expectation.kind = StepExpectation::Kind::Discard;
    } else if (model.slot(m->to).state == properties::RouteState::Absent) {
        expectation.kind = StepExpectation::Kind::Unowned;
        const Process* target = node.find(m->to);
        expectation.unowned_forwarded = target != nullptr && target->is_alive();
    } else {
        expectation.kind = StepExpectation::Kind::Owned;
        const std::uint64_t worker = model.worker(m->to);
        const auto [alive, dead_error] = worker_facts(worker, m->kill_first && worker != 0);
        expectation.route =
            model.predict_route(m->to, properties::RouteEnv{semantics, alive, dead_error, !refuse});
    }
}

void Harness::check_step() {
    const StepExpectation e = expectation;
    expectation = StepExpectation{};
    const auto new_worker = [this, &e](WorkerChange change) -> std::uint64_t {
        const std::optional<act::RouterRouteInfo> info = router->route(e.name);
        return change == WorkerChange::New && info ? info->pid.id : 0;
    };
    switch (e.kind) {
    case StepExpectation::Kind::None:
        break;
    case StepExpectation::Kind::Exit:
        if (model.classify_exit(e.pid) != RouteTable::ExitKind::Stray) {
            model.commit_exit(e.pid, e.exit, new_worker(e.exit.worker));
        }
        break;
    case StepExpectation::Kind::Discard:
        model.commit_discard();
        break;
    case StepExpectation::Kind::Unowned:
        model.commit_unowned(e.unowned_forwarded);
        break;
    case StepExpectation::Kind::Owned: {
        model.commit_route(e.name, e.route, new_worker(e.route.worker));
        if (!e.route.forwarded) {
            const Error expected =
                e.route.spawn_error ? Error::text("spawn refused") : Error(*e.route.reason);
            if (!last_failure || !(*last_failure == expected)) {
                fail("route " + std::string(e.name.text()) + ": expected " + expected.name() +
                     ", got " + (last_failure ? last_failure->name() : std::string("no failure")));
            }
        }
        break;
    }
    }
    compare_table("after a router step");
}

void Harness::compare_table(std::string_view where) {
    const std::vector<act::RouterRouteInfo> real = router->routes();
    const auto& entries = model.entries();
    if (real.size() != entries.size()) {
        fail(std::string(where) + ": table size " + std::to_string(real.size()) + " vs model " +
             std::to_string(entries.size()));
        return;
    }
    for (std::size_t i = 0; i < real.size(); i++) {
        const auto& want = entries[i];
        const std::string label = std::string(where) + " route " + std::string(want.name.text());
        if (real[i].name != want.name) {
            fail(label + ": name " + std::string(real[i].name.text()));
        } else if (properties::state_of(real[i]) != want.slot.state) {
            fail(label + ": state " +
                 std::string(properties::route_state_name(properties::state_of(real[i]))) +
                 " vs model " + std::string(properties::route_state_name(want.slot.state)));
        } else if (real[i].pid.id != want.worker) {
            fail(label + ": worker " + std::to_string(real[i].pid.id) + " vs model " +
                 std::to_string(want.worker));
        } else if (want.worker != 0 && spawned_spec[want.worker] != want.slot.spec) {
            fail(label + ": worker spec " + std::to_string(spawned_spec[want.worker]) +
                 " vs model " + std::to_string(want.slot.spec));
        }
    }
    if (!(router->counters() == model.counters())) {
        const auto& c = router->counters();
        const auto& m = model.counters();
        fail(std::string(where) + ": counters f/d/x/r " + std::to_string(c.forwarded) + "/" +
             std::to_string(c.discarded) + "/" + std::to_string(c.failed) + "/" +
             std::to_string(c.restarts) + " vs model " + std::to_string(m.forwarded) + "/" +
             std::to_string(m.discarded) + "/" + std::to_string(m.failed) + "/" +
             std::to_string(m.restarts));
    }
}

act::RouteResult invoke(CheckedRouter& r, RouteOp op, Atom name, act::Route spec) {
    switch (op) {
    case RouteOp::Add:
        return r.add_route(std::move(spec));
    case RouteOp::Remove:
        return r.remove_route(name);
    case RouteOp::Disable:
        return r.disable_route(name);
    case RouteOp::Enable:
        return r.enable_route(name);
    case RouteOp::Replace:
        return r.replace_route(name, std::move(spec));
    case RouteOp::Respawn:
        return r.respawn_route(name);
    }
    return {};
}

void Harness::checked_call(const Command& c, bool inside) {
    const Atom name(route_names[c.name]);
    const std::uint32_t spec = next_spec++;
    CallArgs args{.op = c.op, .spec = spec};
    act::Route route{c.op == RouteOp::Add ? name : Atom(), spec_factory(spec), {}};
    if (c.invalid == 1 && c.op == RouteOp::Add) {
        args.name_empty = true;
        route.name = Atom();
    } else if (c.invalid == 2 && (c.op == RouteOp::Add || c.op == RouteOp::Replace)) {
        args.factory_nil = true;
        route.factory = Factory();
    } else if (c.invalid == 3 && c.op == RouteOp::Replace) {
        args.name_mismatch = true;
        route.name = Atom("other");
    }
    const Process* self = node.find(router_pid);
    const auto [alive, unused] = worker_facts(model.worker(name), false);
    (void)unused;
    const CallEnv env{semantics, properties::predict_allowed(semantics, self->state(), inside),
                      alive, !refuse};
    const properties::CallPrediction prediction = model.predict_call(name, args, env);
    const act::RouteResult result = invoke(*router, c.op, name, std::move(route));
    const properties::CallOutcome got = properties::classify_result(result);
    if (got != prediction.outcome) {
        fail(std::string(inside ? "inside " : "outside ") +
             std::string(properties::route_op_name(c.op)) + "(" + std::string(name.text()) +
             "): got " + std::string(properties::call_outcome_name(got)) + ", model " +
             std::string(properties::call_outcome_name(prediction.outcome)));
        return;
    }
    const std::optional<act::RouterRouteInfo> info = router->route(name);
    model.commit_call(name, prediction,
                      prediction.worker == WorkerChange::New && info ? info->pid.id : 0);
    compare_table("after a call");
}

void Harness::apply(const Command& c) {
    switch (c.kind) {
    case Kind::OutsideCall:
        checked_call(c, false);
        break;
    case Kind::InsideCall:
        (void)node.send(router_pid, RunAdmin{[this, c](CheckedRouter&) { checked_call(c, true); }},
                        MessagePriority::High);
        break;
    case Kind::KillWorker:
        if (const auto info = router->route(Atom(route_names[c.name]));
            info && !info->pid.empty()) {
            (void)node.kill(info->pid);
        }
        break;
    case Kind::Traffic:
        for (int i = 0; i < c.count; i++) {
            (void)node.send(router_pid, PropMsg{Atom(route_names[c.name]), c.kill_first, c.die});
        }
        break;
    case Kind::ToggleSpawn:
        refuse = !refuse;
        break;
    case Kind::Advance:
        world.run(world.now() + sim::Duration::microseconds(c.advance_us));
        break;
    }
}

RC_GTEST_PROP(RouterProps, RouterMatchesTheRouteModel, ()) {
    const std::string profile = *rc::gen::element<std::string>("documented", "upstream");
    const Semantics semantics = parse_semantics(profile).value();
    const std::uint64_t seed = *rc::gen::inRange<std::uint64_t>(1, 1'000'000);
    const auto commands = *rc::gen::container<std::vector<Command>>(gen_command());
    Harness h(semantics, seed);
    for (const Command& c : commands) {
        h.apply(c);
        RC_ASSERT(h.router_alive());
        if (!h.failures.empty()) {
            RC_FAIL(h.failures.front());
        }
    }
    h.refuse = false;
    h.world.run();
    RC_ASSERT(h.router_alive());
    h.compare_table("at the end");
    if (!h.failures.empty()) {
        RC_FAIL(h.failures.front());
    }
    RC_TAG(semantics_name(semantics));
}

} // namespace
} // namespace routesim::properties
