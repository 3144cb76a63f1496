// Goal: pin the trace view's words for the events a reader meets most (a take, a send, a
// route state change), the checks that keep a hand-edited trace from breaking the view, the
// filters of `routesim trace` and the --kinds parser.
// Method: feed lines read by TraceReader to a TraceLines and compare its texts.
#include "reports/trace_lines.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "reports/trace_reader.hpp"

namespace routesim::reports {
namespace {

struct Feed {
    std::istringstream in;
    TraceReader reader{in, "t.jsonl"};
    TraceLines lines;
    /// Parses, checks and applies `line`; returns the check's error or describe()'s text.
    std::string operator()(std::string_view line) {
        auto parsed = reader.parse(line);
        EXPECT_TRUE(parsed.has_value()) << parsed.error();
        if (auto checked = lines.check(reader.event()); !checked) {
            return checked.error();
        }
        lines.apply(reader.event());
        return lines.describe(reader.event());
    }
    void spawn(int pid, int parent, std::string_view name, std::string_view kind) {
        (*this)(R"({"seq":0,"t":0,"kind":"spawn","pid":)" + std::to_string(pid) + R"(,"parent":)" +
                std::to_string(parent) + R"(,"name":")" + std::string(name) +
                R"(","behavior":"b","_kind":")" + std::string(kind) + R"("})");
    }
    void router_with_route_a() {
        spawn(1001, 1, "r", "Router");
        spawn(1004, 1001, "", "Actor");
        (*this)(R"({"seq":0,"t":0,"kind":"route_init","router":1001,"name":"a","worker":1004})");
        spawn(1009, 1, "client", "Actor");
    }
};

TEST(TraceLines, TellsATakeWithTheMessageTypeAndBothProcesses) {
    Feed feed;
    feed.router_with_route_a();
    EXPECT_EQ(feed(R"({"seq":0,"t":0,"kind":"send","id":17,"from":1009,"to":1004,"queue":2,)"
                   R"("type":0,"msg":"order"})"),
              "client <\u20261009> sent user message #17 \"order\" to r/a <\u20261004>");
    EXPECT_EQ(feed(R"({"seq":0,"t":0,"kind":"take","pid":1004,"id":17,"queue":2,"type":0,)"
                   R"("from":1009})"),
              "r/a <\u20261004> took user message #17 \"order\" from client <\u20261009>");
    EXPECT_EQ(feed.lines.line(feed.reader.event()),
              "      0ns       0  r/a <\u20261004> took user message #17 \"order\" from client "
              "<\u20261009>");
}

TEST(TraceLines, TellsARouteStateChange) {
    Feed feed;
    feed.router_with_route_a();
    EXPECT_EQ(feed(R"({"seq":0,"t":0,"kind":"route_pending","router":1001,"name":"a",)"
                   R"("from_state":"running","to_state":"pending_replace","worker":1004})"),
              "router r <\u20261001>: route a running -> pending_replace, worker r/a <\u20261004>");
}

TEST(TraceLines, WritesAnUnlistedKindAsItsFields) {
    Feed feed;
    EXPECT_EQ(feed(R"({"seq":0,"t":0,"kind":"demo","a":1,"b":"x"})"), "demo a=1 b=x");
}

TEST(TraceLines, RefusesEventsThatWouldBreakTheView) {
    Feed feed;
    feed.spawn(1001, 1, "r", "Router");
    EXPECT_EQ(feed(R"({"seq":0,"t":0,"kind":"spawn","pid":1001,"parent":1,"name":"",)"
                   R"("behavior":"b","_kind":"Actor"})"),
              "/pid: expected a pid not seen before, got 1001 (a pid is spawned once)");
    EXPECT_EQ(feed(R"({"seq":0,"t":5,"kind":"exit","pid":1001,"reason":"r","name":""})"),
              "r <\u20261001> exited: r");
    EXPECT_EQ(feed(R"({"seq":0,"t":5,"kind":"exit","pid":1001,"reason":"r","name":""})"),
              "/pid: expected a pid that has not ended, got 1001 (a process exits once)");
    EXPECT_EQ(feed(R"({"seq":0,"t":4,"kind":"kill","pid":1001,"state":"s"})"),
              "/t: expected a time not before the previous event's (5), got 4");
    EXPECT_EQ(feed(R"({"seq":0,"t":5,"kind":"drop","pid":1001,"id":99999999999,"queue":2,)"
                   R"("reason":"x"})"),
              "/id: expected a message id of at most 1048704 this far into the trace, got "
              "99999999999");
}

TEST(TraceFilter, KeepsTheWindowTheKindsAndTheProcessWithItsDescendants) {
    Feed feed;
    feed.router_with_route_a();
    feed.spawn(1010, 1, "r2", "Actor"); // a sibling whose path starts like "r"
    feed(R"({"seq":0,"t":3000000,"kind":"kill","pid":1004,"state":"running"})");
    const sim::TraceEvent& kill = feed.reader.event();
    TraceFilter filter;
    EXPECT_TRUE(filter.keeps(feed.lines, kill));
    filter.around = sim::Instant::zero() + sim::Duration::milliseconds(13);
    EXPECT_TRUE(filter.keeps(feed.lines, kill)); // |3ms - 13ms| <= 10ms
    filter.window = sim::Duration::milliseconds(9);
    EXPECT_FALSE(filter.keeps(feed.lines, kill));
    filter = TraceFilter{};
    filter.kinds = {properties::EventKind::Send};
    EXPECT_FALSE(filter.keeps(feed.lines, kill));
    filter.kinds.push_back(properties::EventKind::Kill);
    EXPECT_TRUE(filter.keeps(feed.lines, kill));
    filter = TraceFilter{};
    for (const char* path : {"r", "r/a"}) {
        filter.process = path;
        EXPECT_TRUE(filter.keeps(feed.lines, kill)) << path;
    }
    for (const char* path : {"r2", "r/", "client"}) {
        filter.process = path;
        EXPECT_FALSE(filter.keeps(feed.lines, kill)) << path;
    }
}

TEST(TraceFilter, ParsesKindsAndNamesTheKnownOnes) {
    const auto kinds = parse_kinds("send,take");
    ASSERT_TRUE(kinds.has_value());
    EXPECT_EQ(kinds.value(),
              (std::vector{properties::EventKind::Send, properties::EventKind::Take}));
    const auto unknown = parse_kinds("send,x");
    ASSERT_FALSE(unknown.has_value());
    EXPECT_TRUE(unknown.error().starts_with("unknown event kind \"x\"; kinds are: spawn, "
                                            "spawn_failed, register,"))
        << unknown.error();
    EXPECT_TRUE(unknown.error().ends_with(", fault_aim, fault_kill")) << unknown.error();
    EXPECT_FALSE(parse_kinds("").has_value());
}

} // namespace
} // namespace routesim::reports
