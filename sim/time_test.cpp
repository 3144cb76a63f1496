// Goal: virtual time parses and prints exactly, with no floating point and no overflow.
// Method: table of inputs, round trips, and the error texts of bad inputs.
#include "sim/time.hpp"

#include <gtest/gtest.h>

namespace routesim::sim {
namespace {

TEST(Duration, ParsesEveryUnit) {
    EXPECT_EQ(parse_duration("250us").value(), Duration::microseconds(250));
    EXPECT_EQ(parse_duration("5s").value(), Duration::seconds(5));
    EXPECT_EQ(parse_duration("7ms").value(), Duration::milliseconds(7));
    EXPECT_EQ(parse_duration("13ns").value(), Duration::nanoseconds(13));
    EXPECT_EQ(parse_duration("0ms").value(), Duration::zero());
}

TEST(Duration, PrintsLargestExactUnit) {
    EXPECT_EQ(format_duration(Duration::seconds(5)), "5s");
    EXPECT_EQ(format_duration(Duration::microseconds(250)), "250us");
    EXPECT_EQ(format_duration(Duration::milliseconds(1500)), "1500ms");
    EXPECT_EQ(format_duration(Duration::nanoseconds(1001)), "1001ns");
    EXPECT_EQ(format_duration(Duration::zero()), "0ns");
}

TEST(Duration, RoundTripsThroughText) {
    for (std::int64_t ns :
         std::initializer_list<std::int64_t>{1, 999, 1000, 123456789, 3'000'000'000, INT64_MAX}) {
        const Duration span = Duration::nanoseconds(ns);
        EXPECT_EQ(parse_duration(format_duration(span)).value(), span) << ns;
    }
}

TEST(Duration, RejectsBadText) {
    EXPECT_FALSE(parse_duration("").has_value());
    EXPECT_FALSE(parse_duration("s").has_value());
    EXPECT_FALSE(parse_duration("-5s").has_value());
    EXPECT_FALSE(parse_duration("5").has_value());
    EXPECT_FALSE(parse_duration("5 s").has_value());
    EXPECT_FALSE(parse_duration("1.5s").has_value());
    EXPECT_NE(parse_duration("5min").error().find("unknown unit \"min\""), std::string::npos);
}

TEST(Duration, RejectsOverflow) {
    EXPECT_FALSE(parse_duration("9223372036854775808ns").has_value());
    EXPECT_FALSE(parse_duration("9223372037s").has_value());
    EXPECT_TRUE(parse_duration("9223372036s").has_value());
    EXPECT_NE(parse_duration("99999999999999999999s").error().find("overflows"), std::string::npos);
}

TEST(Instant, AdditionSaturatesAtMax) {
    EXPECT_EQ(Instant::max() + Duration::seconds(1), Instant::max());
    EXPECT_EQ(Instant::zero() + Duration::milliseconds(3), Instant::from_ns(3'000'000));
    EXPECT_EQ(Instant::from_ns(10) - Instant::from_ns(4), Duration::nanoseconds(6));
    EXPECT_EQ(format_instant(Instant::from_ns(1'500'000)), "1500us");
}

} // namespace
} // namespace routesim::sim
