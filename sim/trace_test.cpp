// Goal: the trace bus numbers events, hashes them with the documented algorithm, and writes
// canonical JSON Lines; the memory sink keeps owned copies.
// Method: emit known events and compare against hand-computed values.
#include "sim/trace.hpp"
#include "sim/trace_scheme.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace routesim::sim {
namespace {

constexpr TraceKey kind_send{"send"};
constexpr TraceKey key_to{"to"};
constexpr TraceKey key_n{"n"};

TEST(TraceBus, HashFollowsTheDocumentedAlgorithm) {
    TraceBus bus;
    bus.emit(Instant::from_ns(5), kind_send, {{key_to, "a"}, {key_n, std::int64_t{-1}}});
    // By hand, from the algorithm documented in trace.hpp.
    auto mix = [](std::uint64_t x) { return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL; };
    const std::uint64_t lane_to = mix((fnv1a64("a") ^ (fnv1a64("to") + 3)) + 0);
    const std::uint64_t lane_n =
        mix((static_cast<std::uint64_t>(std::int64_t{-1}) ^ (fnv1a64("n") + 0)) + 1);
    TraceHasher expected;
    expected.fold(fnv1a64("send") ^ (5 * 0x9e3779b97f4a7c15ULL));
    expected.fold(2 + lane_to + lane_n);
    EXPECT_EQ(bus.hash(), expected.value());
    EXPECT_EQ(bus.count(), 1U);
}

TEST(TraceBus, SchemeVersionPinsTheHashOfAFixedEvent) {
    // A change of the algorithm must bump trace_hash_scheme (routesim --version prints it):
    // then update both numbers here together.
    TraceBus bus;
    bus.emit(Instant::from_ns(5), kind_send, {{key_to, "a"}, {key_n, std::int64_t{-1}}});
    EXPECT_EQ(trace_hash_scheme, 2U);
    EXPECT_EQ(format_hash(bus.hash()), "b43c32b94574622b");
}

TEST(TraceBus, HashDependsOnOrderTimeAndValues) {
    auto hash_of = [](std::int64_t t, const char* value) {
        TraceBus bus;
        bus.emit(Instant::from_ns(t), kind_send, {{key_to, value}});
        return bus.hash();
    };
    EXPECT_EQ(hash_of(1, "a"), hash_of(1, "a"));
    EXPECT_NE(hash_of(1, "a"), hash_of(2, "a"));
    EXPECT_NE(hash_of(1, "a"), hash_of(1, "b"));
    TraceBus ab;
    ab.emit(Instant::zero(), kind_send, {{key_to, "a"}});
    ab.emit(Instant::zero(), kind_send, {{key_to, "b"}});
    TraceBus ba;
    ba.emit(Instant::zero(), kind_send, {{key_to, "b"}});
    ba.emit(Instant::zero(), kind_send, {{key_to, "a"}});
    EXPECT_NE(ab.hash(), ba.hash());
}

TEST(TraceBus, HashSeparatesFieldsByNameAndPosition) {
    constexpr TraceKey key_from{"from"};
    auto hash_of = [](std::initializer_list<TraceField> fields) {
        TraceBus bus;
        bus.emit(Instant::zero(), kind_send, fields);
        return bus.hash();
    };
    // Same values under other names, or the same name with values swapped, differ.
    EXPECT_NE(hash_of({{key_to, std::uint64_t{1}}, {key_from, std::uint64_t{2}}}),
              hash_of({{key_from, std::uint64_t{1}}, {key_to, std::uint64_t{2}}}));
    EXPECT_NE(hash_of({{key_to, std::uint64_t{1}}, {key_to, std::uint64_t{2}}}),
              hash_of({{key_to, std::uint64_t{2}}, {key_to, std::uint64_t{1}}}));
    // A missing field differs from a zero one.
    EXPECT_NE(hash_of({{key_to, std::uint64_t{1}}}),
              hash_of({{key_to, std::uint64_t{1}}, {key_from, std::uint64_t{0}}}));
}

TEST(TraceBus, TypeTagSeparatesIntFromUint) {
    TraceBus signed_bus;
    signed_bus.emit(Instant::zero(), kind_send, {{key_n, std::int64_t{1}}});
    TraceBus unsigned_bus;
    unsigned_bus.emit(Instant::zero(), kind_send, {{key_n, std::uint64_t{1}}});
    EXPECT_NE(signed_bus.hash(), unsigned_bus.hash());
}

TEST(JsonlSink, WritesCanonicalLines) {
    std::ostringstream out;
    JsonlSink sink(out);
    TraceBus bus;
    bus.add_sink(sink);
    bus.emit(Instant::from_ns(1500), kind_send,
             {{key_to, "q\"\n"}, {key_n, std::uint64_t{7}}, {TraceKey{"ok"}, true}});
    bus.emit(Instant::from_ns(1501), kind_send, {});
    EXPECT_EQ(out.str(),
              "{\"seq\":0,\"t\":1500,\"kind\":\"send\",\"to\":\"q\\\"\\n\",\"n\":7,\"ok\":true}\n"
              "{\"seq\":1,\"t\":1501,\"kind\":\"send\"}\n");
}

// A spawn's "kind" field would repeat the header's key: it is written as "_kind" (and a
// name that already starts with "_" gets one more), so each line parses to unique keys.
TEST(JsonlSink, WritesFieldsNamedLikeHeaderKeysWithALeadingUnderscore) {
    std::ostringstream out;
    JsonlSink sink(out);
    MemorySink memory;
    TraceBus bus;
    bus.add_sink(sink);
    bus.add_sink(memory);
    bus.emit(Instant::from_ns(2), TraceKey{"spawn"},
             {{TraceKey{"kind"}, "Router"},
              {TraceKey{"_kind"}, "x"},
              {TraceKey{"t"}, 1},
              {TraceKey{"seq"}, 2},
              {TraceKey{"kinds"}, 3}});
    const std::string line =
        "{\"seq\":0,\"t\":2,\"kind\":\"spawn\",\"_kind\":\"Router\",\"__kind\":\"x\","
        "\"_t\":1,\"_seq\":2,\"kinds\":3}";
    EXPECT_EQ(out.str(), line + "\n");
    EXPECT_EQ(memory.records().front().to_json(), line);
    EXPECT_EQ(memory.records().front().text("kind"), "Router"); // records keep the real name
}

TEST(JsonlSink, EscapesControlCharacters) {
    std::string out;
    append_json_string(out, std::string_view("\x01z", 2));
    EXPECT_EQ(out, "\"\\u0001z\"");
}

TEST(MemorySink, KeepsOwnedCopiesAndTheSameJson) {
    MemorySink memory;
    std::ostringstream out;
    JsonlSink jsonl(out);
    TraceBus bus;
    bus.add_sink(memory);
    bus.add_sink(jsonl);
    {
        std::string transient = "worker-1";
        bus.emit(Instant::from_ns(9), kind_send, {{key_to, std::string_view(transient)}});
        transient = "overwritten";
    }
    ASSERT_EQ(memory.records().size(), 1U);
    EXPECT_EQ(memory.records()[0].text("to"), "worker-1");
    EXPECT_EQ(memory.records()[0].to_json() + "\n", out.str());
    EXPECT_EQ(memory.records()[0].number("missing", 42), 42);
}

TEST(MemorySink, BoundedCapacityKeepsTheMostRecent) {
    MemorySink memory(2);
    TraceBus bus;
    bus.add_sink(memory);
    for (std::uint64_t i = 0; i < 5; i++) {
        bus.emit(Instant::zero(), kind_send, {{key_n, i}});
    }
    ASSERT_EQ(memory.records().size(), 2U);
    EXPECT_EQ(memory.records()[0].number("n"), 3);
    EXPECT_EQ(memory.records()[1].number("n"), 4);
}

TEST(TraceBus, RemovedSinkSeesNothingMore) {
    MemorySink memory;
    TraceBus bus;
    bus.add_sink(memory);
    bus.emit(Instant::zero(), kind_send, {});
    bus.remove_sink(memory);
    bus.emit(Instant::zero(), kind_send, {});
    EXPECT_EQ(memory.records().size(), 1U);
    EXPECT_EQ(bus.count(), 2U);
    EXPECT_EQ(format_hash(0x1aULL), "000000000000001a");
}

} // namespace
} // namespace routesim::sim
