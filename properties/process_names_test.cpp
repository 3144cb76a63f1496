// Goal: pin how process_path and process_label name a process: registered name, route,
// supervisor child name or `#k` under its parent's path, and the `<…NNNN>` PID part; and
// that a witness made with a view names the processes of its event's pid fields.
// Method: feed hand-made traces (typed events through the codec) to a TopologyView and
// compare the names with the expected strings.
#include "properties/process_names.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "properties/event_text.hpp"
#include "properties/monitor_testing.hpp"
#include "runtime/events.hpp"

namespace routesim::properties {
namespace {

namespace ev = runtime::ev;
using U = std::uint64_t;

struct Fixture {
    testing::HandTrace hand;
    TopologyView view;
    Fixture() { hand.bus.add_sink(view); }
    ~Fixture() { hand.bus.remove_sink(view); }

    void spawn(U pid, U parent, std::string_view name, std::string_view kind = "Actor") {
        sim::emit_event(hand.bus, hand.now,
                        ev::Spawn{.pid = pid,
                                  .parent = parent,
                                  .name = ev::Text(name),
                                  .behavior = ev::Text("test"),
                                  .behavior_kind = ev::Text(kind)});
    }
};

TEST(ProcessNames, PidPartKeepsTheIdWithAnEllipsis) {
    EXPECT_EQ(pid_part(1004), "<\u20261004>");
    EXPECT_EQ(pid_part(0), "<\u20260>");
}

TEST(ProcessNames, ARouterWorkerIsNamedByItsRoute) {
    Fixture f;
    f.spawn(1001, 1, "r", "Router");
    f.spawn(1002, 1001, "");
    EXPECT_EQ(process_path(f.view, 1002), "r/#0"); // no route yet
    f.hand.route_init(1001, "a", 1002);
    EXPECT_EQ(process_path(f.view, 1001), "r");
    EXPECT_EQ(process_path(f.view, 1002), "r/a");
    EXPECT_EQ(process_label(f.view, 1002), "r/a <\u20261002>");
}

TEST(ProcessNames, ARegisteredNameWinsOverTheRoute) {
    Fixture f;
    f.spawn(1001, 1, "r", "Router");
    f.spawn(1002, 1001, "payments_worker");
    f.hand.route_init(1001, "payments", 1002);
    EXPECT_EQ(process_path(f.view, 1002), "r/payments_worker");
}

TEST(ProcessNames, PoolWorkersAreNumberedInSpawnOrder) {
    Fixture f;
    f.spawn(1001, 1, "sup_root", "Supervisor");
    f.spawn(1002, 1001, "shard:0", "Pool");
    f.spawn(1003, 1002, "");
    f.spawn(1004, 1002, "");
    f.spawn(1005, 1001, "shard:1", "Pool");
    f.spawn(1006, 1002, "");
    EXPECT_EQ(process_path(f.view, 1003), "sup_root/shard:0/#0");
    EXPECT_EQ(process_path(f.view, 1004), "sup_root/shard:0/#1");
    EXPECT_EQ(process_path(f.view, 1006), "sup_root/shard:0/#2");
    f.hand.exit(1003);
    EXPECT_EQ(process_path(f.view, 1006), "sup_root/shard:0/#2"); // stable after a death
}

TEST(ProcessNames, AnUnnamedSupervisorChildIsNumbered) {
    Fixture f;
    f.spawn(1001, 1, "sup", "Supervisor");
    f.spawn(1002, 1001, "");
    f.hand.exit(1002);
    f.hand.sup_restart(1001, "worker", 1002, 3, 1'000'000'000);
    f.spawn(1003, 1001, "");
    EXPECT_EQ(process_path(f.view, 1002),
              "sup/#0"); // the view links a child name to a pid only by its spawn
    EXPECT_EQ(process_path(f.view, 1003), "sup/#1");
}

TEST(ProcessNames, TheRootsChildrenStartThePath) {
    Fixture f;
    f.spawn(1001, 1, "shop");
    f.spawn(1002, 1, "");
    EXPECT_EQ(process_path(f.view, 1001), "shop");
    EXPECT_EQ(process_path(f.view, 1002), "#1");
    EXPECT_EQ(process_label(f.view, 1001), "shop <\u20261001>");
}

TEST(ProcessNames, AnUnseenPidIsItsPidAlone) {
    Fixture f;
    EXPECT_EQ(process_path(f.view, 4242), "");
    EXPECT_EQ(process_label(f.view, 4242), "<\u20264242>");
}

} // namespace
} // namespace routesim::properties

namespace routesim::properties {
namespace {

// A witness names the processes its event's pid fields hold when it has a view, and keeps the
// bare numbers without one (a monitor fed singly that reads no view).
TEST(ProcessNames, AWitnessNamesThePidFieldsOfItsEvent) {
    Fixture f;
    f.spawn(1001, 1, "r", "Router");
    f.spawn(1002, 1001, "");
    f.hand.route_init(1001, "a", 1002);
    struct Last final : sim::TraceSink {
        std::optional<Witness> named;
        std::optional<Witness> bare;
        const TopologyView* view = nullptr;
        void on_event(const sim::TraceEvent& event) override {
            named = witness_of(event, view);
            bare = witness_of(event);
        }
    } last;
    last.view = &f.view;
    f.hand.bus.add_sink(last);
    f.hand.take(1002, 7, 2, 0, 1001);
    f.hand.bus.remove_sink(last);
    ASSERT_TRUE(last.named.has_value() && last.bare.has_value());
    EXPECT_EQ(last.named->text,
              "take pid=r/a <\u20261002> id=7 queue=2 type=0 from=r <\u20261001>");
    EXPECT_EQ(last.bare->text, "take pid=1002 id=7 queue=2 type=0 from=1001");
}

TEST(ProcessNames, AKeptWitnessTooLongToKeepInlineStillNamesItsProcesses) {
    // A route event with a long route name does not fit KeptWitness's inline buffer; its
    // parts go to the heap and it is named when asked, like a short one.
    Fixture f;
    f.spawn(1001, 1, "r", "Router");
    f.spawn(1002, 1001, "");
    const std::string name(150, 'n');
    f.hand.route_init(1001, name, 1002);
    struct Kept final : sim::TraceSink {
        std::optional<KeptWitness> kept;
        void on_event(const sim::TraceEvent& event) override { kept.emplace(event); }
    } last;
    f.hand.bus.add_sink(last);
    f.hand.route(1001, 7, name, "owned", 1002);
    f.hand.bus.remove_sink(last);
    ASSERT_TRUE(last.kept.has_value());
    const std::string head = "route router=r <\u20261001> id=7 name=" + name;
    EXPECT_EQ(last.kept->witness(&f.view).text,
              head + " resolution=owned worker=r/" + name + " <\u20261002>");
    EXPECT_EQ(last.kept->witness().text,
              "route router=1001 id=7 name=" + name + " resolution=owned worker=1002");
}

} // namespace
} // namespace routesim::properties
