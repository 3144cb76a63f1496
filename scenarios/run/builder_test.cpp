// Goal: the hash rule's traced key text (scenarios/run/builder.hpp key_text) is exactly what
// nlohmann's dump() prints, for every kind of key value, so the fast path changes no trace.
// Method: compare key_text with dump() over integers, booleans, plain and escaped strings,
// and other JSON values.
#include <gtest/gtest.h>

#include "scenarios/run/builder.hpp"

namespace routesim::scenarios {
namespace {

TEST(HashRuleKey, TextIsExactlyTheJsonDumpOfTheValue) {
    const Json values[] = {
        Json(0),
        Json(-42),
        Json(std::int64_t{-9223372036854775807LL - 1}),
        Json(std::uint64_t{18446744073709551615ULL}),
        Json(true),
        Json(false),
        Json("user-17"),
        Json(""),
        Json("with \"quotes\" and \\ backslash"),
        Json("tab\there"),
        Json("caf\xc3\xa9"),
        Json(1.5),
        Json::array({1, "a"}),
        Json::object({{"k", 1}}),
    };
    for (const Json& value : values) {
        EXPECT_EQ(key_text(value), value.dump()) << value.dump();
    }
}

} // namespace
} // namespace routesim::scenarios
