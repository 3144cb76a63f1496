// Goal: a workload message made from its template (JsonMessage::from_template, issue 24) is
// the value the workload would have instantiated, and routing reads its top-level fields
// without making that value: the same routes and hashed keys as over the made JSON.
// Method: templates built by hand; each lazy message is compared with the JSON written out
// literally, and every rule kind is applied to the lazy message and to its made value.
#include <gtest/gtest.h>

#include "scenarios/run/json_message.hpp"
#include "scenarios/run/rules.hpp"

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

} // namespace
} // namespace routesim::scenarios
