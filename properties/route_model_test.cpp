// Goal: the pure route model predicts the R-table, R26, R55 and the four profile points, the
// exit transitions (R22, R23, R27) and routing (R12–R16, R45) exactly as §8
// states; its table keeps order, worker ids, the pending-exit set (R50) and counters (R42).
// Method: predictions are compared with expectations written from the spec's tables; the
// Router itself is checked against the model in route_model_props.cpp.
#include <gtest/gtest.h>

#include "properties/route_model.hpp"

namespace routesim::properties {
namespace {

using runtime::Atom;
using runtime::Err;
using runtime::Semantics;

RouteSlot slot(RouteState state) {
    return RouteSlot{state, 1, 0};
}

CallPrediction call(RouteState state, RouteOp op, CallEnv env = {}, CallArgs args = {}) {
    args.op = op;
    args.spec = 2;
    return predict_call(slot(state), args, env);
}

TEST(RouteModel, RTableUnderUpstream) {
    const CallEnv up{.semantics = Semantics::Upstream};
    struct Row {
        RouteState state;
        RouteOp op;
        CallOutcome outcome;
        RouteState after;
    };
    const std::vector<Row> rows = {
        {RouteState::Running, RouteOp::Add, CallOutcome::RouteDuplicate, RouteState::Running},
        {RouteState::Running, RouteOp::Remove, CallOutcome::Ok, RouteState::PendingRemove},
        {RouteState::Running, RouteOp::Disable, CallOutcome::Ok, RouteState::PendingDisable},
        {RouteState::Running, RouteOp::Enable, CallOutcome::Ok, RouteState::Running},
        {RouteState::Running, RouteOp::Replace, CallOutcome::Ok, RouteState::PendingReplace},
        {RouteState::Running, RouteOp::Respawn, CallOutcome::RouteRunning, RouteState::Running},
        {RouteState::Dead, RouteOp::Remove, CallOutcome::Ok, RouteState::Absent},
        {RouteState::Dead, RouteOp::Disable, CallOutcome::Ok, RouteState::Disabled},
        {RouteState::Dead, RouteOp::Enable, CallOutcome::Ok, RouteState::Dead},
        {RouteState::Dead, RouteOp::Replace, CallOutcome::Ok, RouteState::Running},
        {RouteState::Dead, RouteOp::Respawn, CallOutcome::Ok, RouteState::Running},
        {RouteState::Disabled, RouteOp::Remove, CallOutcome::Ok, RouteState::Absent},
        {RouteState::Disabled, RouteOp::Disable, CallOutcome::Ok, RouteState::Disabled},
        {RouteState::Disabled, RouteOp::Enable, CallOutcome::Ok, RouteState::Running},
        {RouteState::Disabled, RouteOp::Replace, CallOutcome::Ok, RouteState::Disabled},
        {RouteState::Disabled, RouteOp::Respawn, CallOutcome::Disabled, RouteState::Disabled},
        {RouteState::Absent, RouteOp::Add, CallOutcome::Ok, RouteState::Running},
        {RouteState::Absent, RouteOp::Remove, CallOutcome::Ok, RouteState::Absent},
        {RouteState::Absent, RouteOp::Disable, CallOutcome::NoRoute, RouteState::Absent},
        {RouteState::Absent, RouteOp::Enable, CallOutcome::NoRoute, RouteState::Absent},
        {RouteState::Absent, RouteOp::Replace, CallOutcome::NoRoute, RouteState::Absent},
        {RouteState::Absent, RouteOp::Respawn, CallOutcome::NoRoute, RouteState::Absent},
    };
    for (const Row& row : rows) {
        const CallPrediction p = call(row.state, row.op, up);
        EXPECT_EQ(p.outcome, row.outcome)
            << route_state_name(row.state) << " " << route_op_name(row.op);
        EXPECT_EQ(p.after.state, row.after)
            << route_state_name(row.state) << " " << route_op_name(row.op);
    }
    for (RouteState pending :
         {RouteState::PendingDisable, RouteState::PendingReplace, RouteState::PendingRemove}) {
        EXPECT_EQ(call(pending, RouteOp::Add, up).outcome, CallOutcome::RouteDuplicate); // R26
        for (RouteOp op : {RouteOp::Remove, RouteOp::Disable, RouteOp::Enable, RouteOp::Replace,
                           RouteOp::Respawn}) {
            EXPECT_EQ(call(pending, op, up).outcome, CallOutcome::Busy);
        }
    }
}

TEST(RouteModel, ProfilePointsOneTwoThree) {
    const CallEnv doc{.semantics = Semantics::Documented};
    const CallEnv up{.semantics = Semantics::Upstream};
    EXPECT_EQ(call(RouteState::PendingRemove, RouteOp::Add, doc).outcome, CallOutcome::Busy);
    CallEnv doc_fail = doc;
    doc_fail.spawn_ok = false;
    CallEnv up_fail = up;
    up_fail.spawn_ok = false;
    EXPECT_EQ(call(RouteState::Disabled, RouteOp::Enable, doc_fail).after.state,
              RouteState::Disabled);
    EXPECT_EQ(call(RouteState::Disabled, RouteOp::Enable, up_fail).after.state, RouteState::Dead);
    EXPECT_EQ(call(RouteState::Dead, RouteOp::Replace, doc_fail).after.spec, 1U); // old spec
    EXPECT_EQ(call(RouteState::Dead, RouteOp::Replace, up_fail).after.spec, 2U);  // new spec
    EXPECT_TRUE(predict_allowed(Semantics::Documented, runtime::ProcessState::Sleep, false));
    EXPECT_FALSE(predict_allowed(Semantics::Upstream, runtime::ProcessState::Sleep, false));
    EXPECT_FALSE(predict_allowed(Semantics::Upstream, runtime::ProcessState::Running, false));
    EXPECT_TRUE(predict_allowed(Semantics::Upstream, runtime::ProcessState::Running, true));
    EXPECT_FALSE(predict_allowed(Semantics::Documented, runtime::ProcessState::Init, true));
    CallEnv refused = up;
    refused.allowed = false;
    EXPECT_EQ(
        call(RouteState::Running, RouteOp::Add, refused, CallArgs{.name_empty = true}).outcome,
        CallOutcome::NotAllowed); // R55: the state first
}

TEST(RouteModel, CheckOrdersAndInlineCompletion) {
    EXPECT_EQ(call(RouteState::Absent, RouteOp::Add, {},
                   CallArgs{.name_empty = true, .factory_nil = true})
                  .outcome,
              CallOutcome::EmptyName);
    EXPECT_EQ(call(RouteState::PendingDisable, RouteOp::Replace, {}, CallArgs{.factory_nil = true})
                  .outcome,
              CallOutcome::NilFactory);
    EXPECT_EQ(
        call(RouteState::Absent, RouteOp::Replace, {}, CallArgs{.name_mismatch = true}).outcome,
        CallOutcome::NameMismatch);
    CallEnv gone{.semantics = Semantics::Upstream, .worker_alive = false};
    const CallPrediction remove = call(RouteState::Running, RouteOp::Remove, gone);
    EXPECT_EQ(remove.after.state, RouteState::Absent);
    EXPECT_TRUE(remove.drops_worker);
    const CallPrediction disable = call(RouteState::Running, RouteOp::Disable, gone);
    EXPECT_EQ(disable.after.state, RouteState::Disabled);
    const CallPrediction replace = call(RouteState::Running, RouteOp::Replace, gone);
    EXPECT_EQ(replace.after.state, RouteState::Running);
    EXPECT_EQ(replace.worker, WorkerChange::New);
}

TEST(RouteModel, ExitsAndRouting) {
    EXPECT_EQ(predict_exit(slot(RouteState::Running), true).after.state, RouteState::Running);
    EXPECT_TRUE(predict_exit(slot(RouteState::Running), true).counts_restart);
    EXPECT_EQ(predict_exit(slot(RouteState::Running), false).after.state, RouteState::Dead);
    EXPECT_EQ(predict_exit(slot(RouteState::PendingDisable), true).after.state,
              RouteState::Disabled);
    const RouteSlot replacing{RouteState::PendingReplace, 1, 7};
    EXPECT_EQ(predict_exit(replacing, false).after, (RouteSlot{RouteState::Dead, 7, 0}));
    EXPECT_FALSE(predict_exit(replacing, true).counts_restart);
    EXPECT_EQ(predict_exit(slot(RouteState::PendingRemove), true).after.state, RouteState::Absent);

    EXPECT_EQ(predict_route(slot(RouteState::PendingDisable), {}).reason, Err::Disabled);
    EXPECT_EQ(predict_route(slot(RouteState::PendingRemove), {}).reason, Err::NoRoute);
    const RouteEnv dead_doc{.semantics = Semantics::Documented, .worker_alive = false};
    const RouteEnv dead_up{.semantics = Semantics::Upstream,
                           .worker_alive = false,
                           .dead_error = Err::ProcessTerminated};
    EXPECT_EQ(predict_route(slot(RouteState::PendingReplace), dead_doc).reason, Err::Busy);
    EXPECT_EQ(predict_route(slot(RouteState::PendingReplace), dead_up).reason,
              Err::ProcessTerminated);
    const RoutePrediction retry = predict_route(slot(RouteState::Running), dead_up);
    EXPECT_TRUE(retry.forwarded);
    EXPECT_TRUE(retry.drops_worker);
    EXPECT_TRUE(retry.counts_restart);
    const RoutePrediction lazy_fail =
        predict_route(slot(RouteState::Dead), RouteEnv{.spawn_ok = false});
    EXPECT_TRUE(lazy_fail.spawn_error);
    EXPECT_FALSE(lazy_fail.counts_restart);
}

TEST(RouteModel, TableKeepsOrderWorkersAndThePendingExitSet) {
    RouteTable table;
    table.add_initial(Atom("a"), 1, 101);
    table.add_initial(Atom("b"), 1, 102);
    const CallEnv gone{.semantics = Semantics::Upstream, .worker_alive = false};
    const CallPrediction removal =
        table.predict_call(Atom("a"), CallArgs{.op = RouteOp::Remove}, gone);
    table.commit_call(Atom("a"), removal, 0);
    ASSERT_EQ(table.entries().size(), 1U);
    EXPECT_EQ(table.entries()[0].name, Atom("b"));
    EXPECT_EQ(table.classify_exit(101), RouteTable::ExitKind::PendingExit);
    table.commit_exit(101, ExitPrediction{}, 0);
    EXPECT_EQ(table.classify_exit(101), RouteTable::ExitKind::Stray);
    EXPECT_EQ(table.classify_exit(102), RouteTable::ExitKind::Recorded);
    const ExitPrediction eager = table.predict_exit(102, true);
    table.commit_exit(102, eager, 103);
    EXPECT_EQ(table.worker(Atom("b")), 103U);
    EXPECT_EQ(table.counters().restarts, 1U);
    table.commit_discard();
    table.commit_unowned(false);
    EXPECT_EQ(table.counters().discarded, 1U);
    EXPECT_EQ(table.counters().failed, 1U);
}

TEST(RouteModel, ClassifiesRealResults) {
    EXPECT_EQ(classify_result("ok"), CallOutcome::Ok);
    EXPECT_EQ(classify_result("gen.ErrBusy"), CallOutcome::Busy);
    EXPECT_EQ(classify_result("act.ErrRouteDuplicate"), CallOutcome::RouteDuplicate);
    EXPECT_EQ(classify_result("route name can not be empty"), CallOutcome::EmptyName);
    EXPECT_EQ(classify_result("route \"x\" has nil Factory"), CallOutcome::NilFactory);
    EXPECT_EQ(classify_result("ReplaceRoute name mismatch: spec Name \"a\" vs key \"b\""),
              CallOutcome::NameMismatch);
    EXPECT_EQ(classify_result("spawn refused"), CallOutcome::SpawnError);
    EXPECT_EQ(parse_route_state("pending_replace"), RouteState::PendingReplace);
    EXPECT_EQ(route_state_name(RouteState::Absent), "absent");
}

} // namespace
} // namespace routesim::properties
