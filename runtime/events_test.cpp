// Goal: the typed events (runtime/events.hpp, sim/events.hpp) are the trace format: each
// struct encodes to exactly the fields today's emitters hashed (names, order, value types), a
// decoded event re-encodes to the same bytes, every kind decodes to its code, and the one
// RouteState name table round-trips.
// Method: one fixed sample per kind, emitted through the codec and, beside it, as the
// hand-written field array of the emitter it replaces (keys spelt as literals here, so that a
// renamed, reordered or retyped field changes the hash); decoding inside a sink and
// re-emitting must give the same hash and JSONL line.
#include "runtime/events.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/route_state.hpp"
#include "sim/trace.hpp"

namespace routesim::runtime {
namespace {

using sim::TraceBus;
using sim::TraceKey;
using sim::TraceValue;

constexpr sim::Instant at = sim::Instant::from_ns(1234);
constexpr std::uint64_t u7 = 7;
constexpr std::uint64_t u9 = 9;
constexpr std::uint64_t u11 = 11;

// One kind's sample through the codec, and the same event as its former emitter built it.
struct Case {
    std::string kind;
    std::function<void(TraceBus&)> typed;
    std::function<void(TraceBus&)> by_hand;
};

template <class E>
std::function<void(TraceBus&)> typed(E event) {
    return [event](TraceBus& bus) { sim::emit_event(bus, at, event); };
}

// Keys as literals: independent of the constants the codec uses.
std::function<void(TraceBus&)> by_hand(std::string kind,
                                       std::vector<std::pair<std::string, TraceValue>> fields) {
    return [kind, fields](TraceBus& bus) {
        const TraceKey kind_key{kind};
        std::vector<TraceKey> keys;
        for (const auto& [name, value] : fields) {
            keys.emplace_back(std::string_view(name));
        }
        std::vector<sim::TraceField> array;
        for (std::size_t i = 0; i < fields.size(); i++) {
            array.push_back(sim::TraceField{keys[i], fields[i].second});
        }
        bus.emit(at, kind_key, array.data(), array.size());
    };
}

TraceValue text(std::string_view value) {
    return TraceValue(value);
}

/// Adds one case: the typed event and the field array its former emitter built by hand.
class CaseList {
public:
    template <class Event>
    void add(std::string kind, const Event& event,
             std::vector<std::pair<std::string, TraceValue>> fields) {
        cases_.push_back(Case{kind, typed(event), by_hand(kind, std::move(fields))});
    }
    std::vector<Case> take() { return std::move(cases_); }

private:
    std::vector<Case> cases_;
};

/// The process, mailbox and call kinds.
void add_process_cases(CaseList& list) {
    auto add = [&list](std::string kind, auto event,
                       std::vector<std::pair<std::string, TraceValue>> fields) {
        list.add(std::move(kind), event, std::move(fields));
    };
    add("spawn", ev::Spawn{u7, u9, "w1", "Echo", "actor"},
        {{"pid", u7},
         {"parent", u9},
         {"name", text("w1")},
         {"behavior", text("Echo")},
         {"kind", text("actor")}});
    add("spawn_failed", ev::SpawnFailed{u7, u9, "w1", "boom"},
        {{"pid", u7}, {"parent", u9}, {"name", text("w1")}, {"reason", text("boom")}});
    add("register", ev::Register{u7, "w1"}, {{"pid", u7}, {"name", text("w1")}});
    add("unregister", ev::Unregister{u7, "w1"}, {{"pid", u7}, {"name", text("w1")}});
    add("send",
        ev::Send{u11, u7, sim::premixed_id<&ev::Send::to>(u9), Queue::Main, MailboxType::Request,
                 "Ping"},
        {{"id", u11},
         {"from", u7},
         {"to", u9},
         {"queue", std::uint64_t{2}},
         {"type", std::uint64_t{1}},
         {"msg", text("Ping")}});
    add("send_failed",
        ev::SendFailed{u7, "gen.Atom(\"x\")", "regular", "Ping", "ErrProcessUnknown"},
        {{"from", u7},
         {"to", text("gen.Atom(\"x\")")},
         {"type", text("regular")},
         {"msg", text("Ping")},
         {"err", text("ErrProcessUnknown")}});
    add("send_failed", ev::SendFailed{u7, u9, "regular", "Ping", "ErrProcessMailboxFull"},
        {{"from", u7},
         {"to", u9},
         {"type", text("regular")},
         {"msg", text("Ping")},
         {"err", text("ErrProcessMailboxFull")}});
    add("take",
        ev::Take{sim::premixed_id<&ev::Take::pid>(u9), u11, Queue::System, MailboxType::Exit, u7},
        {{"pid", u9},
         {"id", u11},
         {"queue", std::uint64_t{1}},
         {"type", std::uint64_t{3}},
         {"from", u7}});
    add("forward",
        ev::Forward{u11, sim::premixed_id<&ev::Forward::by>(u7),
                    sim::premixed_id<&ev::Forward::to>(u9), u7, Queue::Main},
        {{"id", u11}, {"by", u7}, {"to", u9}, {"from", u7}, {"queue", std::uint64_t{2}}});
    add("call", ev::Call{u7, u11, std::int64_t{5000000000}},
        {{"caller", u7}, {"ref", u11}, {"timeout_ns", std::int64_t{5000000000}}});
    add("call_result", ev::CallResult{u7, u11, "ok"},
        {{"caller", u7}, {"ref", u11}, {"outcome", text("ok")}});
    add("response", ev::Response{u9, u7, u11, "ok"},
        {{"from", u9}, {"to", u7}, {"ref", u11}, {"outcome", text("ok")}});
    add("response_dropped", ev::ResponseDropped{u9, u7, u11, "no matching call"},
        {{"from", u9}, {"to", u7}, {"ref", u11}, {"why", text("no matching call")}});
    add("exit", ev::Exit{u7, "normal", "w1"},
        {{"pid", u7}, {"reason", text("normal")}, {"name", text("w1")}});
    add("drop", ev::Drop{u7, u11, Queue::Log, "terminated"},
        {{"pid", u7}, {"id", u11}, {"queue", std::uint64_t{3}}, {"reason", text("terminated")}});
    add("preserve", ev::Preserve{u7, u11, Queue::Main, u9},
        {{"pid", u7}, {"id", u11}, {"queue", std::uint64_t{2}}, {"parent", u9}});
    add("signal_lost", ev::SignalLost{u7, u9, "urgent queue full"},
        {{"from", u7}, {"to", u9}, {"reason", text("urgent queue full")}});
    add("kill", ev::Kill{u7, "sleep"}, {{"pid", u7}, {"state", text("sleep")}});
    add("link", ev::Link{u7, "<1.0.9>", true},
        {{"consumer", u7}, {"target", text("<1.0.9>")}, {"monitor", true}});
    add("timer", ev::Timer{u7, "send_after"}, {{"from", u7}, {"what", text("send_after")}});
    add("log", ev::Log{u7, "error", "panic in callback"},
        {{"pid", u7}, {"level", text("error")}, {"text", text("panic in callback")}});
    add("busy", ev::Busy{u7, std::int64_t{250}}, {{"pid", u7}, {"cost_ns", std::int64_t{250}}});
}

/// The router, pool and supervisor kinds.
void add_component_cases(CaseList& list) {
    using act::RouteState;
    using ev::Resolution;
    auto add = [&list](std::string kind, auto event,
                       std::vector<std::pair<std::string, TraceValue>> fields) {
        list.add(std::move(kind), event, std::move(fields));
    };
    add("route",
        ev::Route{sim::premixed_id<&ev::Route::router>(u7), u11, "r1", Resolution::Owned, u9, {}},
        {{"router", u7},
         {"id", u11},
         {"name", text("r1")},
         {"resolution", text("owned")},
         {"worker", u9}});
    add("route", ev::Route{u7, u11, "r1", Resolution::Failed, 0, ev::Text("ErrProcessUnknown")},
        {{"router", u7},
         {"id", u11},
         {"name", text("r1")},
         {"resolution", text("failed")},
         {"worker", std::uint64_t{0}},
         {"reason", text("ErrProcessUnknown")}});
    add("route_init", ev::RouteInit{u7, "r1", u9},
        {{"router", u7}, {"name", text("r1")}, {"worker", u9}});
    add("route_admin", ev::RouteAdmin{u7, "disable", "r1", "ok"},
        {{"router", u7}, {"op", text("disable")}, {"name", text("r1")}, {"result", text("ok")}});
    add("route_pending",
        ev::RoutePending{u7, "r1", RouteState::Running, RouteState::PendingDisable, u9},
        {{"router", u7},
         {"name", text("r1")},
         {"from_state", text("running")},
         {"to_state", text("pending_disable")},
         {"worker", u9}});
    add("route_restart", ev::RouteRestart{u7, "r1", "eager", u9, std::uint64_t{2}},
        {{"router", u7},
         {"name", text("r1")},
         {"restart", text("eager")},
         {"worker", u9},
         {"slot", std::uint64_t{2}}});
    add("route_key", ev::RouteKey{u7, "\"k\"", "r1"},
        {{"router", u7}, {"key", text("\"k\"")}, {"name", text("r1")}});
    add("pool_forward", ev::PoolForward{u7, u11, u9, "full"},
        {{"pool", u7}, {"id", u11}, {"worker", u9}, {"outcome", text("full")}});
    add("pool_workers", ev::PoolWorkers{u7, "add", u9, std::uint64_t{3}},
        {{"pool", u7}, {"what", text("add")}, {"worker", u9}, {"size", std::uint64_t{3}}});
    add("sup_child_exit", ev::SupChildExit{u7, "c1", u9, "normal", "restart"},
        {{"sup", u7},
         {"child", text("c1")},
         {"pid", u9},
         {"reason", text("normal")},
         {"decision", text("restart")}});
    add("sup_restart", ev::SupRestart{u7, "c1", u9, "crash", std::uint64_t{5}, std::int64_t{1000}},
        {{"sup", u7},
         {"child", text("c1")},
         {"pid", u9},
         {"reason", text("crash")},
         {"intensity", std::uint64_t{5}},
         {"period_ns", std::int64_t{1000}}});
    add("sup_intensity_exceeded", ev::SupIntensityExceeded{u7, "c1", u9, "crash"},
        {{"sup", u7}, {"child", text("c1")}, {"pid", u9}, {"reason", text("crash")}});
    add("sup_shutdown", ev::SupShutdown{u7, "shutdown", std::uint64_t{2}},
        {{"sup", u7}, {"reason", text("shutdown")}, {"waiting", std::uint64_t{2}}});
}

/// The kernel's kinds and those emitted above runtime (fault aiming and kills).
void add_kernel_cases(CaseList& list) {
    auto add = [&list](std::string kind, auto event,
                       std::vector<std::pair<std::string, TraceValue>> fields) {
        list.add(std::move(kind), event, std::move(fields));
    };
    add("fault", ev::Fault{"take_panic", std::uint64_t{3}, "t1", "<1.0.7>"},
        {{"site", text("take_panic")},
         {"occurrence", std::uint64_t{3}},
         {"tag", text("t1")},
         {"detail", text("<1.0.7>")}});
    add("limit", ev::Limit{"event_limit"}, {{"what", text("event_limit")}});
    add("fault_aim", ev::FaultAim{"aim:race", "kill", u7, {}},
        {{"origin", text("aim:race")}, {"what", text("kill")}, {"pid", u7}});
    add("fault_aim", ev::FaultAim{"aim:race", "disable", u7, ev::Text("r1")},
        {{"origin", text("aim:race")},
         {"what", text("disable")},
         {"pid", u7},
         {"name", text("r1")}});
    add("fault_kill", ev::FaultKill{u7}, {{"pid", u7}});
}

std::vector<Case> runtime_cases() {
    CaseList list;
    add_process_cases(list);
    add_component_cases(list);
    add_kernel_cases(list);
    return list.take();
}

// Decodes every event it sees and emits it again into `out`.
class Reencoder final : public sim::TraceSink {
public:
    explicit Reencoder(TraceBus& out) : out_(out) {}
    void on_event(const sim::TraceEvent& event) override {
        decoded_ += ev::visit(event,
                              [this](const auto& typed_event) {
                                  sim::emit_event(out_, event_at_, typed_event);
                              })
                        ? 1
                        : 0;
    }
    int decoded() const { return decoded_; }

private:
    TraceBus& out_;
    sim::Instant event_at_ = at;
    int decoded_ = 0;
};

std::string jsonl_of(const std::function<void(TraceBus&)>& emit) {
    std::ostringstream out;
    sim::JsonlSink sink(out);
    TraceBus bus;
    bus.add_sink(sink);
    emit(bus);
    bus.remove_sink(sink);
    return out.str();
}

TEST(Events, EachKindHashesAsItsFormerEmitterDid) {
    const std::vector<Case> cases = runtime_cases();
    for (const Case& each : cases) {
        TraceBus typed_bus;
        TraceBus hand_bus;
        each.typed(typed_bus);
        each.by_hand(hand_bus);
        EXPECT_EQ(typed_bus.hash(), hand_bus.hash()) << each.kind;
        EXPECT_EQ(jsonl_of(each.typed), jsonl_of(each.by_hand)) << each.kind;
    }
}

TEST(Events, EveryKindHasACase) {
    std::vector<std::string> kinds;
    for (const Case& each : runtime_cases()) {
        kinds.push_back(each.kind);
    }
    for (std::size_t code = 1; code <= ev::kind_count; code++) {
        const std::string_view name = ev::kind_name(static_cast<ev::Kind>(code));
        EXPECT_NE(std::find(kinds.begin(), kinds.end(), name), kinds.end()) << name;
    }
}

TEST(Events, DecodedEventsReencodeToTheSameBytes) {
    for (const Case& each : runtime_cases()) {
        TraceBus again;
        std::ostringstream again_text;
        sim::JsonlSink again_sink(again_text);
        again.add_sink(again_sink);
        Reencoder reencoder(again);
        TraceBus first;
        first.add_sink(reencoder);
        each.typed(first);
        first.remove_sink(reencoder);
        again.remove_sink(again_sink);
        EXPECT_EQ(reencoder.decoded(), 1) << each.kind;
        EXPECT_EQ(again.hash(), first.hash()) << each.kind;
        EXPECT_EQ(again_text.str(), jsonl_of(each.typed)) << each.kind;
    }
}

template <class E>
void expect_kind_decodes() {
    EXPECT_EQ(ev::kind_of(E::kind), ev::kind_code<E>) << E::kind.name;
    // A key with the same text elsewhere (a hand-built trace) decodes the same.
    const std::string copy(E::kind.name);
    EXPECT_EQ(ev::kind_of(TraceKey(copy)), ev::kind_code<E>) << E::kind.name;
    EXPECT_EQ(ev::kind_name(ev::kind_code<E>), E::kind.name);
    EXPECT_NE(ev::kind_code<E>, ev::Kind::Other);
}

template <class... Events>
std::size_t expect_kinds_decode(ev::EventList<Events...>) {
    (expect_kind_decodes<Events>(), ...);
    return sizeof...(Events);
}

TEST(Events, KindOfEveryStructDecodesToItsCode) {
    EXPECT_EQ(expect_kinds_decode(ev::AllEvents{}), ev::kind_count);
    EXPECT_EQ(ev::kind_of(TraceKey("hop")), ev::Kind::Other);
    EXPECT_EQ(ev::kind_of(TraceKey("")), ev::Kind::Other);
}

TEST(Events, DecodeRefusesAnotherKindAndTryDecodeAHandBuiltLayout) {
    TraceBus bus;
    struct Capture final : sim::TraceSink {
        std::vector<std::optional<ev::Take>> takes;
        std::vector<std::optional<ev::Send>> sends;
        void on_event(const sim::TraceEvent& event) override {
            takes.push_back(ev::decode<ev::Take>(event));
            sends.push_back(sim::try_decode<ev::Send>(event));
        }
    } capture;
    bus.add_sink(capture);
    sim::emit_event(bus, at, ev::Take{u9, u11, Queue::Main, MailboxType::Regular, u7});
    static constexpr TraceKey hand_send{"send"};
    static constexpr TraceKey hand_id{"id"};
    bus.emit(at, hand_send, {{hand_id, u11}}); // too few fields for a send
    bus.remove_sink(capture);
    ASSERT_EQ(capture.takes.size(), 2U);
    ASSERT_TRUE(capture.takes[0].has_value());
    EXPECT_EQ(capture.takes[0]->pid.value, u9);
    EXPECT_EQ(capture.takes[0]->queue, Queue::Main);
    EXPECT_EQ(capture.takes[0]->from, u7);
    EXPECT_FALSE(capture.takes[1].has_value());
    EXPECT_FALSE(capture.sends[0].has_value());
    EXPECT_FALSE(capture.sends[1].has_value());
}

TEST(Events, DecodeAnyIndexesTheVariantByKindCode) {
    struct Capture final : sim::TraceSink {
        std::vector<ev::Event> events;
        void on_event(const sim::TraceEvent& event) override {
            events.push_back(ev::decode_any(event));
        }
    } capture;
    TraceBus bus;
    bus.add_sink(capture);
    sim::emit_event(bus, at, ev::Route{u7, u11, "r1", ev::Resolution::Failed, 0, ev::Text("x")});
    static constexpr TraceKey hop{"hop"};
    bus.emit(at, hop, {});
    bus.remove_sink(capture);
    ASSERT_EQ(capture.events.size(), 2U);
    EXPECT_EQ(capture.events[0].index(), static_cast<std::size_t>(ev::Kind::Route));
    const auto& route = std::get<ev::Route>(capture.events[0]);
    EXPECT_EQ(route.resolution, ev::Resolution::Failed);
    ASSERT_TRUE(route.reason.has_value());
    EXPECT_EQ(route.reason->text, "x");
    EXPECT_EQ(capture.events[1].index(), 0U);
}

TEST(Events, PremixedIdsCarryTheLaneOfTheirField) {
    // The premix is that of the field's key and position: the bus would assert otherwise.
    EXPECT_EQ(sim::event_field_index<&ev::Take::pid>(), 0U);
    EXPECT_EQ(sim::event_field_index<&ev::Send::to>(), 2U);
    EXPECT_EQ(sim::field_premix<&ev::Forward::by>(u7),
              sim::TraceHasher::premix(sim::fnv1a64("by"), TraceValue::Type::Uint, u7, 1));
}

// The manual's row of `E`: "| `kind` | `field` type, ... |" (runtime/EVENTS.md).
template <class E>
std::string manual_row() {
    const auto names = sim::event_field_names<E>();
    const auto types = sim::event_field_types<E>();
    std::string row = "| `" + std::string(E::kind.name) + "` | ";
    for (std::size_t i = 0; i < names.size(); i++) {
        row += (i == 0 ? "`" : ", `") + std::string(names[i]) + "` " + types[i];
    }
    return row + " |";
}

template <class... Events>
std::vector<std::string> manual_rows(ev::EventList<Events...>) {
    return {manual_row<Events>()...};
}

TEST(Events, ManualTableListsEveryKindWithItsFields) {
    // runtime/EVENTS.md has one row per kind whose first two columns are exactly the struct's
    // kind and fields (a third column explains them); a row for an unknown kind fails too.
    std::ifstream file(std::string(ROUTESIM_SOURCE_DIR) + "/runtime/EVENTS.md");
    ASSERT_TRUE(file.good());
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) {
        lines.push_back(line);
    }
    std::string missing;
    for (const std::string& row : manual_rows(ev::AllEvents{})) {
        const bool found = std::any_of(lines.begin(), lines.end(), [&row](const std::string& line) {
            return line.starts_with(row);
        });
        if (!found) {
            missing += row + "\n";
        }
    }
    EXPECT_EQ(missing, "") << "rows runtime/EVENTS.md lacks (or spells otherwise)";
    for (const std::string& line : lines) {
        if (!line.starts_with("| `")) {
            continue;
        }
        const std::size_t end = line.find('`', 3);
        ASSERT_NE(end, std::string::npos) << line;
        const std::string kind = line.substr(3, end - 3);
        EXPECT_NE(ev::kind_of(TraceKey(kind)), ev::Kind::Other) << "not a kind: " << line;
    }
}

TEST(RouteState, NamesRoundTripOverEveryValue) {
    const std::vector<std::string> expected = {
        "running",         "dead",           "disabled", "pending_disable",
        "pending_replace", "pending_remove", "absent"};
    ASSERT_EQ(expected.size(), act::route_state_count);
    for (std::size_t i = 0; i < act::route_state_count; i++) {
        const auto state = static_cast<act::RouteState>(i);
        EXPECT_EQ(act::route_state_name(state), expected[i]);
        EXPECT_EQ(act::route_state_from_name(expected[i]), state);
    }
    EXPECT_EQ(act::route_state_from_name("pending"), std::nullopt);
    EXPECT_EQ(act::route_state_from_name(""), std::nullopt);
}

} // namespace
} // namespace routesim::runtime
