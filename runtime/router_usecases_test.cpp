// Goal: every pattern of router.md's Use Cases section works end to end on the simulator:
// content dispatch, 16 sharded stateful workers, router + pool per shard under one
// supervisor, CQRS, router of routers, maintenance and circuit breaker, hot deploy via
// replace_route, and mixed-mode migration.
// Method: each test builds the topology the docs page shows (real act::Router subclasses,
// act::Pool and act::Supervisor where the page uses them), drives traffic from an actor or
// the node, and checks who handled what, who answered whom, and the router's counters.
#include <gtest/gtest.h>

#include <map>

#include "runtime/pool.hpp"
#include "runtime/router_testing.hpp"
#include "runtime/supervisor.hpp"

namespace routesim::runtime {
namespace {

using act::RouteDiscard;
using testing::CallLog;
using testing::Fixture;
using testing::lambda_factory;
using testing::LambdaActor;
using testing::LambdaRouter;
using testing::recording_worker;
using testing::Seen;
using testing::spawn_caller;
using testing::Text;
using testing::To;

// -- content-based dispatch ---------------------------------------------------------------

struct PaymentEvent {
    static constexpr std::string_view type_name = "PaymentEvent";
    int id = 0;
};
struct ShipmentEvent {
    static constexpr std::string_view type_name = "ShipmentEvent";
    int id = 0;
};
struct ReportEvent {
    static constexpr std::string_view type_name = "ReportEvent";
    int id = 0;
};
struct Receipt {
    static constexpr std::string_view type_name = "Receipt";
    std::string by;
    int id = 0;
};

// A worker that answers every event with a Receipt sent straight to the original sender.
Factory receipt_worker(std::string kind) {
    return lambda_factory([kind](LambdaActor& actor) {
        actor.on_message = [kind](LambdaActor& self, const PID& from, const Message& m) {
            int id = -1;
            if (const auto* p = m.get<PaymentEvent>()) {
                id = p->id;
            } else if (const auto* s = m.get<ShipmentEvent>()) {
                id = s->id;
            } else if (const auto* r = m.get<ReportEvent>()) {
                id = r->id;
            }
            (void)self.process().send(from, Receipt{kind, id});
            return ok();
        };
    });
}

class EventRouter : public act::Router {
public:
    sim::Result<act::RouterOptions, Error> init(const Args&) override {
        return act::RouterOptions{{{Atom("payments"), receipt_worker("payments"), {}},
                                   {Atom("shipments"), receipt_worker("shipments"), {}},
                                   {Atom("reports"), receipt_worker("reports"), {}}}};
    }
    Atom route_message(const PID&, const Message& message) override {
        if (message.is<PaymentEvent>()) {
            return Atom("payments");
        }
        if (message.is<ShipmentEvent>()) {
            return Atom("shipments");
        }
        if (message.is<ReportEvent>()) {
            return Atom("reports");
        }
        return RouteDiscard;
    }
    Atom route_call(const PID&, const Ref&, const Message&) override { return RouteDiscard; }
};

template <class R>
Factory make(R** out = nullptr) {
    return [out]() -> std::unique_ptr<Behavior> {
        auto behavior = std::make_unique<R>();
        if (out != nullptr) {
            *out = behavior.get();
        }
        return behavior;
    };
}

TEST(RouterUseCases, ContentBasedDispatch) {
    Fixture f;
    EventRouter* router = nullptr;
    const PID pid = f.node.spawn(make<EventRouter>(&router), {}, {}).value();
    std::vector<std::pair<std::string, PID>> receipts;
    auto sender = lambda_factory([&receipts, pid](LambdaActor& actor) {
        actor.on_message = [&receipts, pid](LambdaActor& self, const PID& from, const Message& m) {
            if (const auto* receipt = m.get<Receipt>()) {
                receipts.emplace_back(receipt->by + ":" + std::to_string(receipt->id), from);
            } else {
                (void)self.process().send(pid, PaymentEvent{1});
                (void)self.process().send(pid, ShipmentEvent{2});
                (void)self.process().send(pid, ReportEvent{3});
                (void)self.process().send(pid, Text{"unknown"});
            }
            return ok();
        };
    });
    ASSERT_TRUE(f.node.send(f.node.spawn(sender, {}, {}).value(), Text{"go"}));
    f.run();
    ASSERT_EQ(receipts.size(), 3U);
    EXPECT_EQ(receipts[0].first, "payments:1");
    EXPECT_EQ(receipts[1].first, "shipments:2");
    EXPECT_EQ(receipts[2].first, "reports:3");
    // Each receipt came from the route's worker, not from the router.
    EXPECT_EQ(receipts[0].second, router->route(Atom("payments"))->pid);
    EXPECT_EQ(receipts[2].second, router->route(Atom("reports"))->pid);
    EXPECT_EQ(router->counters().discarded, 1U);
}

// -- sharded stateful workers -------------------------------------------------------------

constexpr std::uint64_t shard_count = 16;

struct Keyed {
    static constexpr std::string_view type_name = "Keyed";
    std::uint64_t key = 0;
};

struct ShardLog {
    struct Entry {
        std::uint64_t key;
        std::string shard;
        PID worker;
        PID from;
        std::uint64_t count; // the worker's per-key state
    };
    std::vector<Entry> entries;
};

// A stateful shard worker: counts messages per key; its shard name comes from its args.
Factory shard_worker(ShardLog& log) {
    struct Worker : LambdaActor {
        std::string shard;
        std::map<std::uint64_t, std::uint64_t> counts;
    };
    return [&log]() -> std::unique_ptr<Behavior> {
        auto worker = std::make_unique<Worker>();
        Worker* self_ptr = worker.get();
        worker->on_init = [self_ptr](LambdaActor&, const Args& args) {
            self_ptr->shard = args.empty() ? "?" : args[0].get<Text>()->value;
            return ok();
        };
        worker->on_message = [self_ptr, &log](LambdaActor& self, const PID& from,
                                              const Message& m) {
            const std::uint64_t key = m.get<Keyed>()->key;
            const std::uint64_t count = ++self_ptr->counts[key];
            log.entries.push_back({key, self_ptr->shard, self.self(), from, count});
            (void)self.process().send(from, Text{"ack"});
            return ok();
        };
        return worker;
    };
}

class ShardRouter : public act::Router {
public:
    explicit ShardRouter(ShardLog* log = nullptr, bool owned = true) : log_(log), owned_(owned) {}
    sim::Result<act::RouterOptions, Error> init(const Args&) override {
        act::RouterOptions options;
        for (std::uint64_t i = 0; i < shard_count; i++) {
            const std::string name = "shard:" + std::to_string(i);
            shards_.emplace_back(name);
            if (owned_) {
                options.routes.push_back({Atom(name), shard_worker(*log_), {Text{name}}});
            }
        }
        return options; // free when not owned: the shards resolve through the registry
    }
    Atom route_message(const PID&, const Message& message) override {
        const Keyed* keyed = message.get<Keyed>();
        return keyed == nullptr ? RouteDiscard : shards_[keyed->key % shards_.size()];
    }
    Atom route_call(const PID&, const Ref&, const Message&) override { return RouteDiscard; }

private:
    ShardLog* log_;
    bool owned_;
    std::vector<Atom> shards_;
};

TEST(RouterUseCases, ShardedStatefulWorkersKeepKeyAffinityAcrossRestarts) {
    Fixture f;
    ShardLog log;
    ShardRouter* router = nullptr;
    auto factory = [&log, &router]() -> std::unique_ptr<Behavior> {
        auto behavior = std::make_unique<ShardRouter>(&log);
        router = behavior.get();
        return behavior;
    };
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_EQ(router->routes().size(), shard_count);
    auto send_round = [&f, pid] {
        for (std::uint64_t key = 0; key < 64; key++) {
            ASSERT_TRUE(f.node.send(pid, Keyed{key}));
        }
        f.run();
    };
    send_round();
    const PID before = router->route(Atom("shard:7"))->pid;
    ASSERT_TRUE(f.node.kill(before));
    ASSERT_TRUE(f.node.kill(router->route(Atom("shard:3"))->pid));
    f.run();
    send_round();
    ASSERT_EQ(log.entries.size(), 128U);
    for (const auto& entry : log.entries) {
        EXPECT_EQ(entry.shard, "shard:" + std::to_string(entry.key % shard_count)); // affinity
    }
    const PID after = router->route(Atom("shard:7"))->pid;
    EXPECT_NE(after, before);
    for (std::size_t i = 64; i < 128; i++) {
        const auto& entry = log.entries[i];
        if (entry.shard == "shard:7") {
            EXPECT_EQ(entry.worker, after); // the same slot, a new incarnation
            EXPECT_EQ(entry.count, 1U);     // its state did not survive the restart
        } else if (entry.shard != "shard:3") {
            EXPECT_EQ(entry.count, 2U);
        }
    }
    EXPECT_EQ(router->counters().restarts, 2U);
}

// -- router + pool per shard under one supervisor -----------------------------------------

class ShardPool : public act::Pool {
public:
    explicit ShardPool(ShardLog& log) : log_(log) {}
    sim::Result<act::PoolOptions, Error> init(const Args&) override {
        return act::PoolOptions{.pool_size = 4, .worker_factory = shard_worker(log_)};
    }

private:
    ShardLog& log_;
};

class SupRoot : public act::Supervisor {
public:
    explicit SupRoot(ShardLog& log) : log_(log) {}
    sim::Result<act::SupervisorSpec, Error> init(const Args&) override {
        act::SupervisorSpec spec;
        ShardLog* log = &log_;
        for (std::uint64_t i = 0; i < shard_count; i++) {
            spec.children.push_back({.name = Atom("shard:" + std::to_string(i)),
                                     .factory = [log]() -> std::unique_ptr<Behavior> {
                                         return std::make_unique<ShardPool>(*log);
                                     }});
        }
        spec.children.push_back(
            {.name = Atom("shard_router"), .factory = []() -> std::unique_ptr<Behavior> {
                 return std::make_unique<ShardRouter>(nullptr, false);
             }});
        spec.restart.strategy = act::SupervisorStrategy::Transient;
        return spec;
    }

private:
    ShardLog& log_;
};

TEST(RouterUseCases, RouterAndPoolPerShardUnderOneSupervisor) {
    Fixture f;
    ShardLog log;
    const PID root =
        f.node
            .spawn([&log]() -> std::unique_ptr<Behavior> { return std::make_unique<SupRoot>(log); },
                   {}, {})
            .value();
    std::vector<PID> acks;
    auto sender = lambda_factory([&acks](LambdaActor& actor) {
        actor.on_message = [&acks](LambdaActor& self, const PID& from, const Message& m) {
            if (const Text* text = m.get<Text>(); text != nullptr && text->value == "ack") {
                acks.push_back(from);
                return ok();
            }
            for (std::uint64_t key = 0; key < 32; key++) {
                (void)self.process().send(Atom("shard_router"), Keyed{key});
            }
            return ok();
        };
    });
    const PID sender_pid = f.node.spawn(sender, {}, {}).value();
    ASSERT_TRUE(f.node.send(sender_pid, Text{"go"}));
    f.run();
    ASSERT_EQ(log.entries.size(), 32U);
    for (const auto& entry : log.entries) {
        EXPECT_EQ(entry.from, sender_pid); // two forwards, the sender preserved
        const Process* worker = f.node.find(entry.worker);
        ASSERT_NE(worker, nullptr);
        // The worker's parent is the pool registered under the key's shard name.
        EXPECT_EQ(
            worker->parent(),
            f.node.process_pid(Atom("shard:" + std::to_string(entry.key % shard_count))).value());
    }
    EXPECT_EQ(acks.size(), 32U);
    // A pool dies: the supervisor restarts it, the name is rebound, the router follows.
    const PID old_pool = f.node.process_pid(Atom("shard:5")).value();
    ASSERT_TRUE(f.node.kill(old_pool));
    f.run();
    const PID new_pool = f.node.process_pid(Atom("shard:5")).value();
    EXPECT_NE(new_pool, old_pool);
    log.entries.clear();
    ASSERT_TRUE(f.node.send(sender_pid, Text{"go"}));
    f.run();
    for (const auto& entry : log.entries) {
        if (entry.key % shard_count == 5) {
            EXPECT_EQ(f.node.find(entry.worker)->parent(), new_pool);
        }
    }
    EXPECT_NE(f.node.find(root), nullptr);
}

// -- CQRS ---------------------------------------------------------------------------------

struct OrderCommand {
    static constexpr std::string_view type_name = "OrderCommand";
    std::uint64_t aggregate_id = 0;
};
struct OrderByIdQuery {
    static constexpr std::string_view type_name = "OrderByIdQuery";
};
struct OrdersByUserQuery {
    static constexpr std::string_view type_name = "OrdersByUserQuery";
};
struct OrderStatsQuery {
    static constexpr std::string_view type_name = "OrderStatsQuery";
};

Factory view_worker(std::string view) {
    return lambda_factory([view](LambdaActor& actor) {
        actor.on_call = [view](LambdaActor&, const PID&, const Ref&, const Message&) {
            return act::CallReply::value(Text{view});
        };
    });
}

class OrdersRouter : public act::Router {
public:
    explicit OrdersRouter(Seen& seen) : seen_(seen) {}
    sim::Result<act::RouterOptions, Error> init(const Args&) override {
        act::RouterOptions options;
        for (std::uint64_t i = 0; i < 16; i++) {
            const std::string name = "orders.write:" + std::to_string(i);
            write_shards_.emplace_back(name);
            options.routes.push_back({Atom(name), recording_worker(seen_, name + "/"), {}});
        }
        for (const char* view : {"orders.view", "user_orders.view", "stats.view"}) {
            options.routes.push_back({Atom(view), view_worker(view), {}});
        }
        return options;
    }
    Atom route_message(const PID&, const Message& message) override {
        const OrderCommand* command = message.get<OrderCommand>();
        return command == nullptr ? RouteDiscard
                                  : write_shards_[command->aggregate_id % write_shards_.size()];
    }
    Atom route_call(const PID&, const Ref&, const Message& request) override {
        if (request.is<OrderByIdQuery>()) {
            return Atom("orders.view");
        }
        if (request.is<OrdersByUserQuery>()) {
            return Atom("user_orders.view");
        }
        if (request.is<OrderStatsQuery>()) {
            return Atom("stats.view");
        }
        return RouteDiscard;
    }

private:
    Seen& seen_;
    std::vector<Atom> write_shards_;
};

TEST(RouterUseCases, CqrsCommandsByAggregateQueriesByView) {
    Fixture f;
    Seen seen;
    const PID pid = f.node
                        .spawn(
                            [&seen]() -> std::unique_ptr<Behavior> {
                                return std::make_unique<OrdersRouter>(seen);
                            },
                            {}, {})
                        .value();
    for (std::uint64_t id : {3U, 19U, 35U, 4U}) {
        ASSERT_TRUE(f.node.send(pid, OrderCommand{id}));
    }
    CallLog calls;
    const PID caller = spawn_caller(f, pid, calls);
    f.run();
    for (const Message& query : {Message(OrderByIdQuery{}), Message(OrdersByUserQuery{}),
                                 Message(OrderStatsQuery{}), Message(Text{"?"})}) {
        ASSERT_TRUE(f.node.send(caller, query));
        f.run();
    }
    // Aggregates 3, 19 and 35 share write shard 3; 4 has its own.
    EXPECT_EQ(seen.all, (std::vector<std::string>{"orders.write:3/?", "orders.write:3/?",
                                                  "orders.write:3/?", "orders.write:4/?"}));
    EXPECT_EQ(calls.results, (std::vector<std::string>{"orders.view", "user_orders.view",
                                                       "stats.view", "gen.ErrDiscarded"}));
}

// -- router of routers --------------------------------------------------------------------

struct DomainMessage {
    static constexpr std::string_view type_name = "DomainMessage";
    Atom domain;
    Atom kind;
};

Factory domain_router(Seen& seen, std::vector<std::string> kinds) {
    return testing::router_factory([&seen, kinds](LambdaRouter& r) {
        for (const std::string& kind : kinds) {
            r.options.routes.push_back({Atom(kind), recording_worker(seen, kind + "/"), {}});
        }
        r.on_route_message = [](LambdaRouter&, const PID&, const Message& m) {
            return m.get<DomainMessage>()->kind;
        };
        r.on_route_call = [](LambdaRouter&, const PID&, const Ref&, const Message& m) {
            return m.get<DomainMessage>()->kind;
        };
    });
}

TEST(RouterUseCases, RouterOfRoutersTwoHops) {
    Fixture f;
    Seen seen;
    LambdaRouter* top = nullptr;
    auto factory = testing::router_factory(
        [&seen](LambdaRouter& r) {
            r.options.routes = {
                {Atom("orders"), domain_router(seen, {"orders.create", "orders.query"}), {}},
                {Atom("billing"), domain_router(seen, {"billing.invoice", "billing.refund"}), {}},
                {Atom("shipping"), domain_router(seen, {"shipping.dispatch"}), {}},
            };
            r.on_route_message = [](LambdaRouter&, const PID&, const Message& m) {
                return m.get<DomainMessage>()->domain;
            };
            r.on_route_call = [](LambdaRouter&, const PID&, const Ref&, const Message& m) {
                return m.get<DomainMessage>()->domain;
            };
        },
        &top);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    ASSERT_TRUE(f.node.send(pid, DomainMessage{Atom("billing"), Atom("billing.refund")}));
    ASSERT_TRUE(f.node.send(pid, DomainMessage{Atom("orders"), Atom("orders.create")}));
    CallLog calls;
    ASSERT_TRUE(f.node.send(spawn_caller(f, pid, calls),
                            DomainMessage{Atom("shipping"), Atom("shipping.dispatch")}));
    f.run();
    EXPECT_EQ(seen.all, (std::vector<std::string>{"billing.refund/?", "orders.create/?"}));
    for (const auto& [worker, from] : seen.senders) {
        EXPECT_EQ(from, f.node.core_pid()); // the original sender, after two hops
    }
    ASSERT_EQ(calls.results.size(), 1U);
    EXPECT_EQ(calls.results[0].rfind("shipping.dispatch/", 0), 0U); // answered by the leaf
    EXPECT_EQ(top->counters().forwarded, 3U);
}

// -- maintenance and circuit breaker ------------------------------------------------------

struct Probe {
    static constexpr std::string_view type_name = "Probe";
};

TEST(RouterUseCases, MaintenanceAndCircuitBreaker) {
    Fixture f; // documented: the operator calls from outside
    Seen seen;
    bool downstream_down = false;
    std::vector<std::string> dead_letters;
    std::map<std::string, int> failures;
    LambdaRouter* router = nullptr;
    auto factory = testing::router_factory(
        [&](LambdaRouter& r) {
            r.options.routes = {
                {Atom("payments"), testing::gated_worker(seen, &downstream_down), {}}};
            r.on_message = [&](LambdaRouter& self, const PID&, const Message& m) -> Status {
                if (const auto* failed = m.get<act::MessageRouteFailed>()) {
                    dead_letters.push_back(failed->message.get<To>()->value); // a DLQ
                    const std::string name(failed->name.text());
                    if (!failed->reason.is(Err::Disabled) && ++failures[name] >= 3) {
                        (void)self.disable_route(failed->name); // open the breaker
                    }
                } else if (m.is<Probe>() && !downstream_down) {
                    failures.clear();
                    (void)self.enable_route(Atom("payments")); // close it again
                }
                return ok();
            };
        },
        &router);
    const PID pid = f.node.spawn(factory, {}, {}).value();
    // Planned maintenance from outside.
    ASSERT_TRUE(router->disable_route(Atom("payments")));
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "m1"}));
    f.run();
    ASSERT_TRUE(router->enable_route(Atom("payments")));
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "m2"}));
    f.run();
    EXPECT_EQ(dead_letters, (std::vector<std::string>{"m1"}));
    EXPECT_EQ(seen.all, (std::vector<std::string>{"m2"}));
    // The downstream fails: lazy spawns fail, the breaker opens after three failures.
    downstream_down = true;
    ASSERT_TRUE(f.node.kill(router->route(Atom("payments"))->pid));
    f.run();
    for (const char* value : {"f1", "f2", "f3", "f4"}) {
        ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), value}));
    }
    f.run();
    EXPECT_TRUE(router->route(Atom("payments"))->disabled);
    ASSERT_TRUE(f.node.send(pid, Probe{}, MessagePriority::High)); // still down: stays open
    f.run();
    EXPECT_TRUE(router->route(Atom("payments"))->disabled);
    downstream_down = false;
    ASSERT_TRUE(f.node.send(pid, Probe{}, MessagePriority::High));
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "m3"}));
    f.run();
    EXPECT_EQ(dead_letters, (std::vector<std::string>{"m1", "f1", "f2", "f3", "f4"}));
    EXPECT_EQ(seen.all, (std::vector<std::string>{"m2", "m3"}));
}

// -- hot deploy ---------------------------------------------------------------------------

TEST(RouterUseCases, HotDeployViaReplaceRoute) {
    Fixture f;
    Seen seen;
    auto slow = [&seen](std::string tag) {
        return lambda_factory([&seen, tag](LambdaActor& actor) {
            actor.on_message = [&seen, tag](LambdaActor& self, const PID&, const Message& m) {
                seen.all.push_back(tag + m.get<To>()->value);
                self.process().busy_for(sim::Duration::milliseconds(1));
                return ok();
            };
        });
    };
    LambdaRouter* router = nullptr;
    const PID pid = f.node
                        .spawn(testing::router_factory(
                                   [&](LambdaRouter& r) {
                                       r.options.routes = {{Atom("payments"), slow("v1:"), {}}};
                                   },
                                   &router),
                               {}, {})
                        .value();
    for (const char* value : {"a", "b", "c"}) {
        ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), value}));
    }
    f.run(f.world.now()); // all three forwarded; v1 is busy with "a"
    ASSERT_TRUE(router->replace_route(Atom("payments"), {Atom(), slow("v2:"), {}}));
    f.run();
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "d"}));
    f.run();
    // In flight: v1 takes the exit before "b" and "c", which die with it; new traffic is v2's.
    EXPECT_EQ(seen.all, (std::vector<std::string>{"v1:a", "v2:d"}));
    // Strict draining: disable, wait, replace, enable.
    ASSERT_TRUE(router->disable_route(Atom("payments")));
    f.run();
    ASSERT_TRUE(router->replace_route(Atom("payments"), {Atom(), slow("v3:"), {}}));
    ASSERT_TRUE(router->enable_route(Atom("payments")));
    ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), "e"}));
    f.run();
    EXPECT_EQ(seen.all.back(), "v3:e");
    EXPECT_EQ(router->counters().restarts, 0U);
}

// -- mixed mode ---------------------------------------------------------------------------

TEST(RouterUseCases, MixedModeMigration) {
    Fixture f;
    Seen external;
    Seen owned;
    ASSERT_TRUE(
        f.node.spawn_register(Atom("payments"), recording_worker(external, "ext:"), {}, {}));
    ASSERT_TRUE(f.node.spawn_register(Atom("reports"), recording_worker(external, "ext:"), {}, {}));
    LambdaRouter* router = nullptr;
    const PID pid =
        f.node.spawn(testing::router_factory([](LambdaRouter&) {}, &router), {}, {}).value();
    auto send_both = [&f, pid](const char* value) {
        ASSERT_TRUE(f.node.send(pid, To{Atom("payments"), value}));
        ASSERT_TRUE(f.node.send(pid, To{Atom("reports"), value}));
        f.run();
    };
    send_both("before");
    // Promote payments into an owned slot; senders and route_message stay as they are.
    ASSERT_TRUE(router->add_route({Atom("payments"), recording_worker(owned, "own:"), {}}));
    send_both("after");
    EXPECT_EQ(external.all, (std::vector<std::string>{"ext:before", "ext:before", "ext:after"}));
    EXPECT_EQ(owned.all, (std::vector<std::string>{"own:after"}));
    // And back out: removing the owned route falls through to the registry again.
    ASSERT_TRUE(router->remove_route(Atom("payments")));
    f.run();
    send_both("again");
    EXPECT_EQ(external.all.size(), 5U);
    EXPECT_EQ(router->counters().failed, 0U);
}

} // namespace
} // namespace routesim::runtime
