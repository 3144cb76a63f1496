// Test support for the Router's management tests: a Rig (one LambdaRouter whose workers take
// 10 ms to stop, so pending windows stay open), the route states it can enter, and helpers
// that run one management call and read a route's state.
// Part of runtime/: uses sim/ and the standard library only (test support, no GoogleTest).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/router_testing.hpp"
#include "sim/assert.hpp"

namespace routesim::runtime::testing {

using act::RoutePending;
using act::RouteResult;

/// The route states a Rig can put route "a" into (Unknown: use a name not in the table).
enum class Start {
    Running,
    Dead,
    Disabled,
    PendingDisable,
    PendingReplace,
    PendingRemove,
    Unknown
};
/// A management method.
enum class Op { Add, Remove, Disable, Enable, Replace, Respawn };

/// One router with routes "a" (and more when asked), workers tagged by spec ("v1:", "v2:").
struct Rig {
    explicit Rig(Semantics semantics = Semantics::Upstream, std::vector<std::string> names = {"a"})
        : f({}, NodeOptions{.semantics = semantics}) {
        auto factory = router_factory(
            [this, names](LambdaRouter& r) {
                for (const std::string& name : names) {
                    r.options.routes.push_back(act::Route{Atom(name), v1(), {}});
                }
                accept_admin_closures(r);
            },
            &router);
        pid = f.node.spawn(factory, {}, {}).value();
    }
    Factory v1() { return gated_worker(seen, &refuse, "v1:", delay); }
    Factory v2() { return gated_worker(seen, &refuse, "v2:", delay); }
    /// Runs `call` inside the router's admin path and settles the current instant.
    RouteResult inside(const std::function<RouteResult(LambdaRouter&)>& call) {
        std::optional<RouteResult> result;
        RS_ASSERT(f.node.send(pid, Admin{[&result, &call](LambdaRouter& r) { result = call(r); }},
                              MessagePriority::High));
        settle();
        RS_ASSERT(result.has_value());
        return *result;
    }
    void settle() { f.run(f.world.now()); }
    PID worker(const char* name = "a") const { return router->route(Atom(name))->pid; }

    Fixture f;
    Seen seen;
    bool refuse = false;
    sim::Duration delay = sim::Duration::milliseconds(10);
    LambdaRouter* router = nullptr;
    PID pid;
};

/// "ok" or the error's name.
inline std::string outcome(const RouteResult& result) {
    return result ? std::string("ok") : result.error().name();
}

/// The route's state as the trace spells it ("absent", "running", "pending_disable", ...).
inline std::string state_of(const LambdaRouter& router, Atom name) {
    const std::optional<act::RouterRouteInfo> info = router.route(name);
    return std::string(act::route_state_name(info ? info->state() : act::RouteState::Absent));
}

/// Runs one management call; Add and Replace use `spec`.
inline RouteResult apply(LambdaRouter& r, Op op, Atom name, const Factory& spec) {
    switch (op) {
    case Op::Add:
        return r.add_route(act::Route{name, spec, {}});
    case Op::Remove:
        return r.remove_route(name);
    case Op::Disable:
        return r.disable_route(name);
    case Op::Enable:
        return r.enable_route(name);
    case Op::Replace:
        return r.replace_route(name, act::Route{Atom(), spec, {}});
    case Op::Respawn:
        return r.respawn_route(name);
    }
    return {};
}

/// Puts route "a" of `rig` into `start` (Unknown leaves it alone; callers then use "zz").
inline void enter(Rig& rig, Start start) {
    const Atom a("a");
    switch (start) {
    case Start::Running:
    case Start::Unknown:
        return;
    case Start::Dead:
        rig.refuse = true;
        RS_ASSERT(rig.f.node.kill(rig.worker()));
        rig.settle();
        rig.refuse = false;
        return;
    case Start::Disabled:
        RS_ASSERT(rig.inside([a](LambdaRouter& r) { return r.disable_route(a); }));
        rig.f.run();
        return;
    case Start::PendingDisable:
        RS_ASSERT(rig.inside([a](LambdaRouter& r) { return r.disable_route(a); }));
        return;
    case Start::PendingReplace: {
        Factory spec = rig.v2();
        RS_ASSERT(rig.inside([a, spec](LambdaRouter& r) {
            return r.replace_route(a, act::Route{Atom(), spec, {}});
        }));
        return;
    }
    case Start::PendingRemove:
        RS_ASSERT(rig.inside([a](LambdaRouter& r) { return r.remove_route(a); }));
        return;
    }
}

} // namespace routesim::runtime::testing
