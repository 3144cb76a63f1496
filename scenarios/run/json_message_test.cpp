// Goal: a workload message made from its template (JsonMessage::from_template, issue 24) is
// the value the workload would have instantiated, and routing reads its top-level fields
// without making that value: the same routes and hashed keys as over the made JSON. A message
// made from a JsonMessage::Template is stored inline in its runtime::Message and allocates
// nothing until its JSON is read; it names, hashes, routes and describes itself as the made
// JSON, and its route memo holds for one repetition at a time.
// Method: templates built by hand; each lazy message is compared with the JSON written out
// literally, and every rule kind is applied to the lazy message and to its made value. The
// allocations are counted by this test binary's global operator new, switched on around the
// code under test only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "scenarios/run/json_message.hpp"
#include "scenarios/run/rules.hpp"
#include "sim/prng.hpp"

namespace {
// Counts the allocations made while `counting` is set (this binary's tests run on one thread).
bool counting = false;
int allocations = 0;
} // namespace

void* operator new(std::size_t size) {
    if (counting) {
        allocations++;
    }
    if (void* memory = std::malloc(size == 0 ? 1 : size)) {
        return memory;
    }
    throw std::bad_alloc();
}
// Not inlined: GCC would otherwise pair a new-expression with free() and warn.
[[gnu::noinline]] void operator delete(void* memory) noexcept {
    std::free(memory);
}
[[gnu::noinline]] void operator delete(void* memory, std::size_t) noexcept {
    std::free(memory);
}

namespace routesim::scenarios {
namespace {

const Json job = {{"type", "Job"}, {"key", "$i"}, {"nested", {{"deep", "$i"}}}, {"c", 3}};

TEST(JsonMessage, ATemplateMessageIsTheValueTheWorkloadWouldInstantiate) {
    const JsonMessage message = JsonMessage::from_template(job, 7);
    EXPECT_EQ(message.message_type(), "Job");
    EXPECT_FALSE(message.value_made());
    const Json expected = {{"type", "Job"}, {"key", 7U}, {"nested", {{"deep", 7U}}}, {"c", 3}};
    EXPECT_EQ(message.json(), expected);
    EXPECT_TRUE(message.json()["key"].is_number_unsigned()); // as instantiate puts it
    EXPECT_TRUE(message.value_made());
    EXPECT_EQ(message.describe(), expected.dump());
}

TEST(JsonMessage, TopLevelFieldsOfATemplateAreReadWithoutMakingTheValue) {
    const JsonMessage message = JsonMessage::from_template(job, 41);
    Json scratch;
    const Json* key = message.field("key", scratch);
    ASSERT_NE(key, nullptr);
    EXPECT_EQ(*key, Json(41U));
    const Json* constant = message.field("c", scratch);
    ASSERT_NE(constant, nullptr);
    EXPECT_EQ(*constant, Json(3));
    EXPECT_EQ(message.field("absent", scratch), nullptr);
    EXPECT_FALSE(message.value_made());
    // A nested value may hold a "$i" deeper down: it is read from the made value.
    const Json* nested = message.field("nested", scratch);
    ASSERT_NE(nested, nullptr);
    EXPECT_EQ(*nested, Json({{"deep", 41U}}));
    EXPECT_TRUE(message.value_made());
}

TEST(JsonMessage, ATemplateDrawsSomethingWhenAUniformLiesAtAnyDepth) {
    EXPECT_TRUE(JsonMessage::draws_nothing(job));
    const Json top = {{"type", "T"}, {"n", {{"uniform", {1, 5}}}}};
    const Json deep = {{"type", "T"}, {"a", {{"b", {{"uniform", {1, 5}}}}}}};
    EXPECT_FALSE(JsonMessage::draws_nothing(top));
    EXPECT_FALSE(JsonMessage::draws_nothing(deep));
}

TEST(CompiledRule, RoutesATemplateMessageAsItsMadeValue) {
    Rule hash;
    hash.kind = RuleKind::Hash;
    hash.field = "key";
    hash.prefix = "shard:";
    hash.count = 16;
    Rule by_type;
    by_type.kind = RuleKind::ByType;
    by_type.by_type = {{"Job", "jobs"}};
    by_type.default_route = "other";
    Rule field;
    field.kind = RuleKind::Field;
    field.field = "c";
    field.default_route = "none";
    for (const Rule* rule : {&hash, &by_type, &field}) {
        CompiledRule lazy(*rule);
        CompiledRule made(*rule);
        for (std::uint64_t i = 0; i < 64; i++) {
            const JsonMessage message = JsonMessage::from_template(job, i);
            const Json value = JsonMessage::with_index(job, i);
            Json scratch;
            const Json* lazy_key = nullptr;
            const Json* made_key = nullptr;
            EXPECT_EQ(lazy.apply(message, &lazy_key, scratch), made.apply(value, &made_key));
            ASSERT_EQ(lazy_key == nullptr, made_key == nullptr);
            if (lazy_key != nullptr) {
                EXPECT_EQ(*lazy_key, *made_key);
            }
            EXPECT_FALSE(message.value_made()) << "routing made the value";
        }
    }
}

/// Counts the allocations made by `work`.
template <class Work>
int allocations_of(Work&& work) {
    allocations = 0;
    counting = true;
    work();
    counting = false;
    return allocations;
}

TEST(JsonMessageTemplate, AMessageMadeFromATemplateAllocatesNothingUntilItsJsonIsRead) {
    const JsonMessage::Template tmpl(job);
    Rule hash;
    hash.kind = RuleKind::Hash;
    hash.field = "key";
    hash.prefix = "shard:";
    hash.count = 16;
    CompiledRule rule(hash);
    (void)rule.apply(JsonMessage::with_index(job, 9), nullptr); // interns the route first
    Json scratch;
    std::string_view name;
    std::uint64_t name_hash = 0;
    const int made = allocations_of([&] {
        runtime::Message message(JsonMessage::from_template(tmpl, 9));
        runtime::Message copy = message;
        runtime::Message moved = std::move(copy);
        name = moved.type_name();
        name_hash = moved.type_name_hash();
        const JsonMessage* json = moved.get<JsonMessage>();
        ASSERT_NE(json, nullptr);
        const Json* key = nullptr;
        (void)rule.apply(*json, &key, scratch);
        ASSERT_NE(key, nullptr);
        EXPECT_EQ(*key, Json(9U));
        EXPECT_FALSE(json->value_made());
    });
    EXPECT_EQ(made, 0);
    EXPECT_EQ(name, "Job");
    EXPECT_EQ(name_hash, sim::fnv1a64("Job"));
    // The counter does count: a message with a body of its own allocates it, and reading a
    // template message's JSON makes one.
    EXPECT_GE(allocations_of([] { (void)JsonMessage::from_template(job, 9); }), 1);
    EXPECT_GE(allocations_of([&] { (void)JsonMessage::from_template(tmpl, 9).json(); }), 1);
}

TEST(JsonMessageTemplate, ATemplateMessageNamesRoutesAndDescribesItselfAsTheMadeJson) {
    const JsonMessage::Template tmpl(job);
    Rule hash;
    hash.kind = RuleKind::Hash;
    hash.field = "key";
    hash.prefix = "shard:";
    hash.count = 16;
    Rule by_type;
    by_type.kind = RuleKind::ByType;
    by_type.by_type = {{"Job", "jobs"}};
    by_type.default_route = "other";
    Rule nested;
    nested.kind = RuleKind::Field;
    nested.field = "nested";
    nested.default_route = "none";
    for (const Rule* rule : {&hash, &by_type, &nested}) {
        CompiledRule lazy(*rule);
        CompiledRule made(*rule);
        for (std::uint64_t i = 0; i < 64; i++) {
            const runtime::Message message(JsonMessage::from_template(tmpl, i));
            const JsonMessage& json = *message.get<JsonMessage>();
            const Json value = JsonMessage::with_index(job, i);
            EXPECT_EQ(message.type_name(), "Job");
            EXPECT_EQ(message.type_name_hash(), sim::fnv1a64("Job"));
            Json scratch;
            const Json* lazy_key = nullptr;
            const Json* made_key = nullptr;
            EXPECT_EQ(lazy.apply(json, &lazy_key, scratch), made.apply(value, &made_key));
            ASSERT_EQ(lazy_key == nullptr, made_key == nullptr);
            if (lazy_key != nullptr) {
                EXPECT_EQ(*lazy_key, *made_key);
            }
            EXPECT_EQ(json.json(), value);
            EXPECT_EQ(message.describe(), value.dump());
            EXPECT_EQ(message_json(message), value);
        }
    }
}

TEST(JsonMessageTemplate, ATemplateWithoutAStringTypeNamesItsMessagesEmpty) {
    const Json untyped = {{"key", "$i"}};
    const JsonMessage::Template tmpl(untyped);
    const runtime::Message message(JsonMessage::from_template(tmpl, 2));
    EXPECT_EQ(message.type_name(), "");
    EXPECT_EQ(message.type_name_hash(), sim::fnv1a64(""));
    EXPECT_EQ(message.get<JsonMessage>()->json(), Json({{"key", 2U}}));
}

TEST(JsonMessageTemplate, EachCopyMakesTheSameValueAndAnAnswerCarriesIt) {
    const JsonMessage::Template tmpl(job);
    const JsonMessage first = JsonMessage::from_template(tmpl, 3);
    const JsonMessage second = first; // copied before either made its value
    EXPECT_EQ(first.json(), JsonMessage::with_index(job, 3));
    EXPECT_FALSE(second.value_made());
    EXPECT_EQ(second.json(), first.json());
    EXPECT_TRUE(second.from_a_template());
    EXPECT_EQ(second.shared_index(), JsonMessage::unshared);
    const JsonMessage answer = JsonMessage::answer(
        "Receipt", runtime::Message(JsonMessage::from_template(tmpl, 4)), Json("w"));
    const Json expected = {
        {"type", "Receipt"}, {"of", JsonMessage::with_index(job, 4)}, {"by", "w"}};
    EXPECT_EQ(answer.json(), expected);
    EXPECT_EQ(answer.message_type_hash(), sim::fnv1a64("Receipt"));
}

TEST(JsonMessageTemplate, TheRouteMemoHoldsForOneRepetitionAtATime) {
    const JsonMessage::Template tmpl(job);
    const JsonMessage five = JsonMessage::from_template(tmpl, 5);
    const JsonMessage six = JsonMessage::from_template(tmpl, 6);
    const int rule = 0;
    EXPECT_EQ(five.route_memo().rule, nullptr);
    five.route_memo().rule = &rule;
    five.route_memo().key = "5";
    EXPECT_EQ(five.route_memo().rule, &rule); // routed again: the memo holds
    EXPECT_EQ(JsonMessage::from_template(tmpl, 5).route_memo().rule, &rule); // same value
    EXPECT_EQ(six.route_memo().rule, nullptr); // another repetition: cleared
    EXPECT_EQ(five.route_memo().rule, nullptr);
}

TEST(JsonMessage, CopiesOfABodyMessageShareItsValue) {
    const JsonMessage original(Json{{"type", "T"}, {"n", 1}});
    const JsonMessage copy = original;
    EXPECT_EQ(&copy.json(), &original.json());
    EXPECT_EQ(copy.message_type(), "T");
    EXPECT_EQ(copy.message_type_hash(), sim::fnv1a64("T"));
    EXPECT_FALSE(copy.from_a_template());
    JsonMessage assigned = JsonMessage::from_template(job, 1);
    assigned = copy;
    EXPECT_EQ(&assigned.json(), &original.json());
}

} // namespace
} // namespace routesim::scenarios
