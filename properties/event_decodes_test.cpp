// Goal: EventDecodes hands every reader of one event the same decode, made once per kind asked,
// and decodes the next event anew even when it reuses the seq and field array of the last one
// (a campaign's next run); a kind the event is not gives nothing.
// Decodes are made in place, so an optional field an event lacks is absent even where the
// last event had it.
// Method: take events built by hand over one field array, changed in place between events;
// route events emitted through sim::emit_event to a sink.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "properties/event_decodes.hpp"
#include "runtime/events.hpp"
#include "sim/event_codec.hpp"

namespace routesim::properties {
namespace {

namespace ev = runtime::ev;

// A take event over `fields`, with seq 7 whatever it holds (queue 2 is Main, type 0 Regular).
struct TakeEvent {
    std::array<sim::TraceField, 5> fields;
    sim::TraceEvent event;
    explicit TakeEvent(std::uint64_t pid)
        : fields{sim::TraceField{ev::key::pid, sim::TraceValue(pid)},
                 sim::TraceField{ev::key::id, sim::TraceValue(std::uint64_t{11})},
                 sim::TraceField{ev::key::queue, sim::TraceValue(std::uint64_t{2})},
                 sim::TraceField{ev::key::type, sim::TraceValue(std::uint64_t{0})},
                 sim::TraceField{ev::key::from, sim::TraceValue(std::uint64_t{5})}},
          event{7, sim::Instant::zero(), ev::Take::kind, fields.data(), fields.size()} {}
    // Changes the pid in place: the event keeps its seq and its field array.
    void set_pid(std::uint64_t pid) {
        std::destroy_at(&fields[0]); // a field holds a reference: rebuilt, not assigned
        std::construct_at(&fields[0], sim::TraceField{ev::key::pid, sim::TraceValue(pid)});
    }
};

TEST(EventDecodes, DecodesAnEventOnceForEveryReader) {
    TakeEvent take(3);
    EventDecodes decodes;
    decodes.begin(take.event);
    const ev::Take* first = decodes.get<ev::Take>(take.event);
    const ev::Take* second = decodes.get<ev::Take>(take.event);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first, second);
    EXPECT_EQ(first->pid.value, 3U);
    EXPECT_EQ(first->queue, runtime::Queue::Main);
    EXPECT_EQ(decodes.made(), 1U);
}

TEST(EventDecodes, ANewEventIsDecodedAnewAtTheSameSeqAndFieldArray) {
    TakeEvent take(3);
    EventDecodes decodes;
    decodes.begin(take.event);
    ASSERT_NE(decodes.get<ev::Take>(take.event), nullptr);
    take.set_pid(4); // the next run's event: same seq, same array, another value
    decodes.begin(take.event);
    const ev::Take* again = decodes.get<ev::Take>(take.event);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->pid.value, 4U);
    EXPECT_EQ(decodes.made(), 2U);
}

TEST(EventDecodes, AKindTheEventIsNotGivesNothingOnce) {
    TakeEvent take(3);
    EventDecodes decodes;
    decodes.begin(take.event);
    EXPECT_EQ(decodes.get<ev::Send>(take.event), nullptr);
    EXPECT_EQ(decodes.get<ev::Send>(take.event), nullptr);
    EXPECT_EQ(decodes.made(), 1U);
    EXPECT_NE(decodes.fresh<ev::Take>(take.event), nullptr);
    EXPECT_EQ(decodes.made(), 2U);
}

// An event whose optional last field is absent decodes without it, also into a slot that
// held the last event's value for that field (decodes are made in place).
TEST(EventDecodes, AnAbsentOptionalFieldIsAbsentAfterAnEventThatHadIt) {
    sim::TraceBus bus;
    struct RouteReader final : sim::TraceSink {
        EventDecodes decodes;
        std::vector<std::optional<std::string>> reasons;
        void on_event(const sim::TraceEvent& event) override {
            decodes.begin(event);
            const ev::Route* routed = decodes.get<ev::Route>(event);
            ASSERT_NE(routed, nullptr);
            reasons.push_back(routed->reason ? std::optional<std::string>(routed->reason->text)
                                             : std::nullopt);
        }
    } reader;
    bus.add_sink(reader);
    ev::Route failed{sim::PremixedId(1), 5, ev::Text("a"), ev::Resolution::Failed, 0, {}};
    failed.reason = ev::Text("route_failed");
    sim::emit_event(bus, sim::Instant::zero(), failed);
    const ev::Route owned{sim::PremixedId(1), 6, ev::Text("a"), ev::Resolution::Owned, 2, {}};
    sim::emit_event(bus, sim::Instant::zero(), owned);
    bus.remove_sink(reader);
    ASSERT_EQ(reader.reasons.size(), 2U);
    EXPECT_EQ(reader.reasons[0], std::optional<std::string>("route_failed"));
    EXPECT_EQ(reader.reasons[1], std::nullopt);
    EXPECT_EQ(reader.decodes.made(), 2U);
}

} // namespace
} // namespace routesim::properties
