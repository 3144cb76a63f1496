// Goal: pin how a --trace line is read back: the fields get their kind's value types (so the
// typed reads decode them), a `_kind` key is read as `kind`, an unlisted kind keeps what the
// line says, and every malformed line gets one clear error with its file and line.
// Method: parse hand-written lines with TraceReader and decode them with read_event.
#include "reports/trace_reader.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "properties/event_kind.hpp"
#include "runtime/events.hpp"

namespace routesim::reports {
namespace {

namespace ev = runtime::ev;
using properties::read_event;

struct Parsed {
    std::istringstream in;
    TraceReader reader{in, "t.jsonl"};
    /// The error of `line`, or "" when it parses.
    std::string error(std::string_view line) {
        auto parsed = reader.parse(line);
        return parsed ? std::string() : parsed.error();
    }
};

TEST(TraceReader, ReadsALineIntoAnEventTheTypedReadsDecode) {
    Parsed p;
    ASSERT_EQ(p.error(R"({"seq":2,"t":5000,"kind":"spawn","pid":1002,"parent":1001,)"
                      R"("name":"","behavior":"echo","_kind":"Actor"})"),
              "");
    const sim::TraceEvent& event = p.reader.event();
    EXPECT_EQ(event.seq, 2U);
    EXPECT_EQ(event.at.ns(), 5000);
    const auto spawn = read_event<ev::Spawn>(event);
    ASSERT_TRUE(spawn.has_value());
    EXPECT_EQ(spawn->pid, 1002U);
    EXPECT_EQ(spawn->parent, 1001U);
    EXPECT_EQ(spawn->behavior.text, "echo");
    EXPECT_EQ(spawn->behavior_kind.text, "Actor");
}

TEST(TraceReader, ReadsEnumsOptionalFieldsAndTextOrIds) {
    Parsed p;
    ASSERT_EQ(p.error(R"({"seq":1,"t":0,"kind":"route","router":1,"id":7,"name":"a",)"
                      R"("resolution":"owned","worker":4})"),
              "");
    auto route = read_event<ev::Route>(p.reader.event());
    ASSERT_TRUE(route.has_value());
    EXPECT_EQ(route->resolution, ev::Resolution::Owned);
    EXPECT_FALSE(route->reason.has_value());
    ASSERT_EQ(p.error(R"({"seq":1,"t":0,"kind":"route","router":1,"id":7,"name":"a",)"
                      R"("resolution":"failed","worker":0,"reason":"gen.ErrBusy"})"),
              "");
    route = read_event<ev::Route>(p.reader.event());
    ASSERT_TRUE(route.has_value() && route->reason.has_value());
    EXPECT_EQ(route->reason->text, "gen.ErrBusy");
    ASSERT_EQ(p.error(R"({"seq":1,"t":0,"kind":"send_failed","from":3,"to":1005,)"
                      R"("type":"regular","msg":"M","err":"gen.ErrProcessMailboxFull"})"),
              "");
    const auto failed = read_event<ev::SendFailed>(p.reader.event());
    ASSERT_TRUE(failed.has_value());
    EXPECT_FALSE(failed->to.is_text);
    EXPECT_EQ(failed->to.id, 1005U);
    ASSERT_EQ(p.error(R"({"seq":1,"t":0,"kind":"busy","pid":3,"cost_ns":250})"), "");
    EXPECT_EQ(read_event<ev::Busy>(p.reader.event())->cost_ns, 250);
}

TEST(TraceReader, KeepsWhatAnUnlistedKindSays) {
    Parsed p;
    ASSERT_EQ(p.error(R"({"seq":0,"t":1,"kind":"demo","a":1,"b":-2,"c":true,"d":"x"})"), "");
    const sim::TraceEvent& event = p.reader.event();
    EXPECT_EQ(event.kind.name, "demo");
    ASSERT_EQ(event.field_count, 4U);
    EXPECT_EQ(event.fields[0].value.type(), sim::TraceValue::Type::Uint);
    EXPECT_EQ(event.fields[1].value.as_int(), -2);
    EXPECT_TRUE(event.fields[2].value.as_bool());
    EXPECT_EQ(event.fields[3].value.as_text(), "x");
    EXPECT_EQ(p.error(R"({"seq":0,"t":1,"kind":"demo","a":1.5})"),
              "/a: expected an integer, a boolean or a string, got 1.5");
}

TEST(TraceReader, RefusesEachMalformedLine) {
    Parsed p;
    EXPECT_EQ(p.error(""), "expected a JSON object, got an empty line");
    EXPECT_EQ(p.error("{\"seq\":"), "expected a JSON object (one event)");
    EXPECT_EQ(p.error(R"({"t":0,"kind":"exit"})"),
              "/seq: expected an unsigned integer, got nothing");
    EXPECT_EQ(p.error(R"({"seq":0,"t":-1,"kind":"exit"})"),
              "/t: expected a time in ns (an integer from 0 to 2^63-1), got -1");
    EXPECT_EQ(p.error(R"({"seq":0,"t":0,"kind":7})"),
              "/kind: expected an event kind (a string), got 7");
    EXPECT_EQ(p.error(R"({"seq":0,"t":0,"kind":"exit","pid":"x","reason":"r","name":""})"),
              "/pid: expected an unsigned integer, got \"x\"");
    EXPECT_EQ(p.error(R"({"seq":0,"t":0,"kind":"exit","pid":1,"name":"","reason":"r"})"),
              "/name: expected field \"reason\" of a exit event (its fields: pid, reason, name)");
    EXPECT_EQ(p.error(R"({"seq":0,"t":0,"kind":"exit","pid":1,"reason":"r"})"),
              "/name: expected field \"name\" of a exit event (its fields: pid, reason, name), "
              "got nothing");
    EXPECT_EQ(p.error(R"({"seq":0,"t":0,"kind":"kill","pid":1,"state":"s","more":1})"),
              "/more: expected no more fields of a kill event (its fields: pid, state)");
}

TEST(TraceReader, StreamsLinesAndNamesTheFileAndLine) {
    std::istringstream in("{\"seq\":0,\"t\":0,\"kind\":\"kill\",\"pid\":1,\"state\":\"s\"}\n"
                          "{\"seq\":1,\"t\":0,\"kind\":\"kill\",\"pid\":true,\"state\":\"s\"}\n");
    TraceReader reader(in, "t.jsonl");
    auto first = reader.next();
    ASSERT_TRUE(first.has_value() && first.value());
    EXPECT_EQ(reader.line_number(), 1U);
    auto second = reader.next();
    ASSERT_FALSE(second.has_value());
    EXPECT_EQ(second.error(), "t.jsonl:2: /pid: expected an unsigned integer, got true");
    std::istringstream empty;
    TraceReader none(empty, "e.jsonl");
    auto end = none.next();
    ASSERT_TRUE(end.has_value());
    EXPECT_FALSE(end.value());
}

TEST(TraceReader, SameEventComparesEverythingButTheSequenceNumber) {
    Parsed a;
    Parsed b;
    ASSERT_EQ(a.error(R"({"seq":0,"t":0,"kind":"kill","pid":1,"state":"s"})"), "");
    ASSERT_EQ(b.error(R"({"seq":9,"t":0,"kind":"kill","pid":1,"state":"s"})"), "");
    EXPECT_TRUE(same_event(a.reader.event(), b.reader.event()));
    ASSERT_EQ(b.error(R"({"seq":0,"t":0,"kind":"kill","pid":1,"state":"t"})"), "");
    EXPECT_FALSE(same_event(a.reader.event(), b.reader.event()));
    ASSERT_EQ(b.error(R"({"seq":0,"t":1,"kind":"kill","pid":1,"state":"s"})"), "");
    EXPECT_FALSE(same_event(a.reader.event(), b.reader.event()));
}

} // namespace
} // namespace routesim::reports
