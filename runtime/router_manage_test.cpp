// Goal: who may call the management methods, what an error leaves behind, the check orders
// and the whole R-table hold as §8 rules R36–R38 and R55 state, under both
// semantics profiles.
// Method: a Rig (one LambdaRouter whose workers take 10 ms to stop, so pending windows stay
// open) puts a route into each state; management calls run on the router's admin path
// (inside, as upstream requires) unless a test is about outside calls. The four profile
// differences have their own tests in router_profiles_test.cpp.
#include <gtest/gtest.h>

#include "runtime/router_rig.hpp"

namespace routesim::runtime {
namespace {

using act::RoutePending;
using act::RouteResult;
using testing::Admin;
using testing::apply;
using testing::enter;
using testing::Fixture;
using testing::LambdaRouter;
using testing::Op;
using testing::outcome;
using testing::Rig;
using testing::Seen;
using testing::Start;
using testing::state_of;
using testing::To;

// -- R36–R38: who may call, and what an error leaves -------------------------------------

TEST(RouterR36R37, UpstreamAllowsOnlyTheRoutersOwnCallbacks) {
    Rig rig(Semantics::Upstream);
    EXPECT_EQ(outcome(rig.router->disable_route(Atom("a"))), "gen.ErrNotAllowed"); // sleeping
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "queued"})); // Running, not executing
    EXPECT_EQ(outcome(rig.router->respawn_route(Atom("a"))), "gen.ErrNotAllowed");
    rig.f.run();
    // Inside the admin path the call gets past the state check.
    EXPECT_EQ(outcome(rig.inside([](LambdaRouter& r) { return r.respawn_route(Atom("zz")); })),
              "gen.ErrNoRoute");
    // From a routing callback too (R37).
    std::optional<RouteResult> from_routing;
    rig.router->on_route_message = [&from_routing](LambdaRouter& r, const PID&, const Message&) {
        from_routing = r.enable_route(Atom("a"));
        return Atom("a");
    };
    ASSERT_TRUE(rig.f.node.send(rig.pid, To{Atom("a"), "x"}));
    rig.f.run();
    ASSERT_TRUE(from_routing.has_value());
    EXPECT_TRUE(*from_routing);
}

TEST(RouterR36, ZombeeAndTerminatedRoutersAreNotAllowedUnderBothProfiles) {
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Rig rig(semantics);
        std::string zombee;
        std::string terminated;
        const Factory spec = rig.v2();
        Fixture& f = rig.f;
        const PID pid = rig.pid;
        rig.router->on_terminate = [&terminated, spec](LambdaRouter& r, const Error&) {
            terminated = outcome(r.add_route({Atom("b"), spec, {}}));
        };
        ASSERT_TRUE(f.node.send(pid, Admin{[&zombee, &f, pid, spec](LambdaRouter& r) {
                                    ASSERT_TRUE(f.node.kill(pid)); // Zombee until the step ends
                                    zombee = outcome(r.add_route({Atom("b"), spec, {}}));
                                }},
                                MessagePriority::High));
        f.run();
        EXPECT_EQ(zombee, "gen.ErrNotAllowed");
        EXPECT_EQ(terminated, "gen.ErrNotAllowed");
    }
}

TEST(RouterR36, NotAllowedDuringInitUnderBothProfiles) {
    for (Semantics semantics : {Semantics::Documented, Semantics::Upstream}) {
        Fixture f({}, NodeOptions{.semantics = semantics});
        Seen seen;
        std::string during_init;
        auto factory = testing::router_factory([&](LambdaRouter& r) {
            r.on_init = [&](LambdaRouter& self,
                            const Args&) -> sim::Result<act::RouterOptions, Error> {
                during_init =
                    outcome(self.add_route({Atom("a"), testing::recording_worker(seen), {}}));
                return act::RouterOptions{};
            };
        });
        ASSERT_TRUE(f.node.spawn(factory, {}, {}));
        EXPECT_EQ(during_init, "gen.ErrNotAllowed");
    }
}

TEST(RouterR38, ValidationErrorsLeaveTheTableUnchanged) {
    Rig rig(Semantics::Upstream, {"a", "b"});
    enter(rig, Start::PendingDisable);
    const auto before = rig.router->routes();
    const Factory spec = rig.v2();
    const std::vector<std::function<RouteResult(LambdaRouter&)>> calls = {
        [spec](LambdaRouter& r) {
            return r.add_route({Atom("b"), spec, {}});
        },
        [](LambdaRouter& r) {
            return r.add_route({Atom(), Factory(), {}});
        },
        [](LambdaRouter& r) {
            return r.add_route({Atom("c"), Factory(), {}});
        },
        [](LambdaRouter& r) { return r.disable_route(Atom("a")); },
        [](LambdaRouter& r) { return r.enable_route(Atom("zz")); },
        [](LambdaRouter& r) { return r.respawn_route(Atom("b")); },
        [spec](LambdaRouter& r) {
            return r.replace_route(Atom("b"), {Atom("x"), spec, {}});
        },
    };
    for (const auto& call : calls) {
        EXPECT_FALSE(rig.inside(call));
        EXPECT_EQ(rig.router->routes(), before);
    }
    EXPECT_EQ(outcome(rig.router->disable_route(Atom("b"))), "gen.ErrNotAllowed");
    EXPECT_EQ(rig.router->routes(), before);
}

// -- R55: check orders --------------------------------------------------------------------

TEST(RouterR55, FirstFailingCheckWins) {
    Rig rig(Semantics::Upstream, {"a", "b"});
    enter(rig, Start::PendingDisable); // "a" is pending
    const Factory spec = rig.v2();
    struct Case {
        std::function<RouteResult(LambdaRouter&)> call;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {[](LambdaRouter& r) {
             return r.add_route({Atom(), Factory(), {}});
         },
         "route name can not be empty"},
        {[](LambdaRouter& r) {
             return r.add_route({Atom("a"), Factory(), {}});
         },
         "route \"a\" has nil Factory"},
        {[](LambdaRouter& r) { return r.remove_route(Atom("zz")); }, "ok"},
        {[](LambdaRouter& r) { return r.remove_route(Atom("a")); }, "gen.ErrBusy"},
        {[](LambdaRouter& r) { return r.disable_route(Atom("zz")); }, "gen.ErrNoRoute"},
        {[](LambdaRouter& r) { return r.enable_route(Atom("a")); }, "gen.ErrBusy"},
        {[](LambdaRouter& r) { return r.enable_route(Atom("b")); }, "ok"},
        {[spec](LambdaRouter& r) {
             return r.replace_route(Atom("zz"), {Atom("q"), spec, {}});
         },
         "ReplaceRoute name mismatch: spec Name \"q\" vs key \"zz\""},
        {[spec](LambdaRouter& r) {
             return r.replace_route(Atom("a"), {Atom(), spec, {}});
         },
         "gen.ErrBusy"},
        {[](LambdaRouter& r) { return r.respawn_route(Atom("a")); }, "gen.ErrBusy"},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(outcome(rig.inside(c.call)), c.expected);
    }
    // The state check comes first of all.
    EXPECT_EQ(outcome(rig.router->add_route({Atom(), Factory(), {}})), "gen.ErrNotAllowed");
    EXPECT_EQ(outcome(rig.router->replace_route(Atom("zz"), {Atom(), Factory(), {}})),
              "gen.ErrNotAllowed");
}

// -- the R-table --------------------------------------------------------------------------

struct TableRow {
    Start start;
    Op op;
    bool spawn_fails;
    std::string result;
    std::string after;
    std::string documented_result = ""; // when the documented profile differs
    std::string documented_after = "";
};

std::vector<TableRow> r_table() {
    const std::string dup = "act.ErrRouteDuplicate";
    const std::string busy = "gen.ErrBusy";
    const std::string none = "gen.ErrNoRoute";
    std::vector<TableRow> rows = {
        {Start::Running, Op::Add, false, dup, "running"},
        {Start::Running, Op::Remove, false, "ok", "pending_remove"},
        {Start::Running, Op::Disable, false, "ok", "pending_disable"},
        {Start::Running, Op::Enable, false, "ok", "running"},
        {Start::Running, Op::Replace, false, "ok", "pending_replace"},
        {Start::Running, Op::Respawn, false, "act.ErrRouteRunning", "running"},
        {Start::Dead, Op::Add, false, dup, "dead"},
        {Start::Dead, Op::Remove, false, "ok", "absent"},
        {Start::Dead, Op::Disable, false, "ok", "disabled"},
        {Start::Dead, Op::Enable, false, "ok", "dead"},
        {Start::Dead, Op::Replace, false, "ok", "running"},
        {Start::Dead, Op::Replace, true, "spawn refused", "dead"},
        {Start::Dead, Op::Respawn, false, "ok", "running"},
        {Start::Dead, Op::Respawn, true, "spawn refused", "dead"},
        {Start::Disabled, Op::Add, false, dup, "disabled"},
        {Start::Disabled, Op::Remove, false, "ok", "absent"},
        {Start::Disabled, Op::Disable, false, "ok", "disabled"},
        {Start::Disabled, Op::Enable, false, "ok", "running"},
        {Start::Disabled, Op::Enable, true, "spawn refused", "dead", "", "disabled"},
        {Start::Disabled, Op::Replace, false, "ok", "disabled"},
        {Start::Disabled, Op::Respawn, false, "gen.ErrDisabled", "disabled"},
        {Start::Unknown, Op::Add, false, "ok", "running"},
        {Start::Unknown, Op::Add, true, "spawn refused", "absent"},
        {Start::Unknown, Op::Remove, false, "ok", "absent"},
        {Start::Unknown, Op::Disable, false, none, "absent"},
        {Start::Unknown, Op::Enable, false, none, "absent"},
        {Start::Unknown, Op::Replace, false, none, "absent"},
        {Start::Unknown, Op::Respawn, false, none, "absent"},
    };
    for (auto [start, state] : {std::pair{Start::PendingDisable, "pending_disable"},
                                std::pair{Start::PendingReplace, "pending_replace"},
                                std::pair{Start::PendingRemove, "pending_remove"}}) {
        rows.push_back({start, Op::Add, false, dup, state, busy, state}); // R26 / profile point 1
        for (Op op : {Op::Remove, Op::Disable, Op::Enable, Op::Replace, Op::Respawn}) {
            rows.push_back({start, op, false, busy, state});
        }
    }
    return rows;
}

TEST(RouterRTable, EveryCallInEveryStateUnderBothProfiles) {
    for (Semantics semantics : {Semantics::Upstream, Semantics::Documented}) {
        for (const TableRow& row : r_table()) {
            Rig rig(semantics);
            enter(rig, row.start);
            const Atom name(row.start == Start::Unknown ? "zz" : "a");
            rig.refuse = row.spawn_fails;
            const Factory spec = rig.v2();
            const RouteResult result = rig.inside(
                [&row, name, spec](LambdaRouter& r) { return apply(r, row.op, name, spec); });
            const bool documented = semantics == Semantics::Documented;
            const std::string& result_expected =
                documented && !row.documented_result.empty() ? row.documented_result : row.result;
            const std::string& after_expected =
                documented && !row.documented_after.empty() ? row.documented_after : row.after;
            SCOPED_TRACE(std::string(semantics_name(semantics)) + " row " +
                         std::to_string(static_cast<int>(row.start)) + "/" +
                         std::to_string(static_cast<int>(row.op)));
            EXPECT_EQ(outcome(result), result_expected);
            EXPECT_EQ(state_of(*rig.router, name), after_expected);
        }
    }
}

} // namespace
} // namespace routesim::runtime
