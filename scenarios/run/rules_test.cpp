// Goal: a compiled routing rule picks the route scenarios/FORMAT.md "Routing rules" defines for
// every rule kind, with names interned once: hash over a route list and over prefix/count
// (inside and beyond the cached range), by_type, field and route, each falling back to its
// default, and "discard" as RouteDiscard (the empty Atom, R3).
// Method: rules built by hand, applied to JSON messages; expected names computed from the
// documented hash (hash_value) independently of the rule code.
#include <gtest/gtest.h>

#include "scenarios/run/rules.hpp"

namespace routesim::scenarios {
namespace {

Rule hash_rule(std::string field) {
    Rule rule;
    rule.kind = RuleKind::Hash;
    rule.field = std::move(field);
    rule.default_route = "fallback";
    return rule;
}

TEST(CompiledRule, HashOverARouteListPicksRoutesByTheDocumentedHash) {
    Rule rule = hash_rule("user");
    rule.routes = {"a", "b", "c"};
    CompiledRule compiled(rule);
    for (const char* user : {"u1", "u2", "u3", "u4", "u5", "u6"}) {
        const Json message = {{"user", user}};
        const std::uint64_t h = hash_value(message["user"]);
        EXPECT_EQ(compiled.apply(message).text(), rule.routes[h % 3]) << user;
    }
    EXPECT_EQ(compiled.apply(Json{{"user", 7}}).text(), rule.routes[7 % 3]);
    EXPECT_EQ(compiled.apply(Json{{"other", 1}}).text(), "fallback");
    EXPECT_EQ(compiled.apply(Json{{"user", nullptr}}).text(), "fallback");
}

// The router traces the key a hash rule hashed (route_key); apply says which field that was,
// and says nothing when the rule fell back to its default or is not a hash rule.
TEST(CompiledRule, HashRulePointsAtTheFieldItHashedAndOnlyThen) {
    Rule rule = hash_rule("user");
    rule.routes = {"a", "b"};
    CompiledRule compiled(rule);
    const Json message = {{"type", "Order"}, {"user", "u1"}};
    const Json* hashed = nullptr;
    compiled.apply(message, &hashed);
    EXPECT_EQ(hashed, &message["user"]);
    for (const Json& fallback : {Json{{"other", 1}}, Json{{"user", nullptr}}, Json::array({1})}) {
        hashed = nullptr;
        EXPECT_EQ(compiled.apply(fallback, &hashed).text(), "fallback") << fallback.dump();
        EXPECT_EQ(hashed, nullptr) << fallback.dump();
    }
    Rule by_type;
    by_type.kind = RuleKind::ByType;
    by_type.by_type = {{"Order", "orders"}};
    CompiledRule typed(by_type);
    hashed = nullptr;
    EXPECT_EQ(typed.apply(message, &hashed).text(), "orders");
    EXPECT_EQ(hashed, nullptr);
}

TEST(CompiledRule, HashWithPrefixAndCountNamesRoutesInsideAndBeyondTheCachedRange) {
    for (const std::uint64_t count : {std::uint64_t{16}, std::uint64_t{100'000}}) {
        Rule rule = hash_rule("key");
        rule.prefix = "shard-";
        rule.count = count;
        CompiledRule compiled(rule);
        for (std::uint64_t key : {std::uint64_t{3}, std::uint64_t{4097}, std::uint64_t{99'999},
                                  std::uint64_t{123'456'789}}) {
            const std::string expected = "shard-" + std::to_string(key % count);
            // Twice: the second pick of a cached name must give the same Atom.
            EXPECT_EQ(compiled.apply(Json{{"key", key}}).text(), expected) << count << " " << key;
            EXPECT_EQ(compiled.apply(Json{{"key", key}}), runtime::Atom(expected));
        }
    }
}

TEST(CompiledRule, ByTypeFieldRouteAndDiscardFollowTheirDefaults) {
    Rule by_type;
    by_type.kind = RuleKind::ByType;
    by_type.by_type = {{"Order", "orders"}, {"Spam", "discard"}};
    by_type.default_route = "misc";
    CompiledRule compiled_type(by_type);
    EXPECT_EQ(compiled_type.apply(Json{{"type", "Order"}}).text(), "orders");
    EXPECT_TRUE(compiled_type.apply(Json{{"type", "Spam"}}).empty()); // RouteDiscard (R3)
    EXPECT_EQ(compiled_type.apply(Json{{"type", "Other"}}).text(), "misc");
    EXPECT_EQ(compiled_type.apply(Json{{"type", 5}}).text(), "misc");

    Rule field;
    field.kind = RuleKind::Field;
    field.field = "to";
    CompiledRule compiled_field(field); // default "discard"
    EXPECT_EQ(compiled_field.apply(Json{{"to", "w9"}}).text(), "w9");
    EXPECT_TRUE(compiled_field.apply(Json{{"to", ""}}).empty());
    EXPECT_TRUE(compiled_field.apply(Json{{"to", std::string(300, 'x')}}).empty());

    Rule route;
    route.kind = RuleKind::Route;
    route.route = "only";
    EXPECT_EQ(CompiledRule(route).apply(Json::object()).text(), "only");

    Rule discard;
    EXPECT_TRUE(CompiledRule(discard).apply(Json{{"type", "Order"}}).empty());
}

} // namespace
} // namespace routesim::scenarios
