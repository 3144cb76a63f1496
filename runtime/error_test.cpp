// Goal: error values behave as Ergo's (§3.1, §3.2, §7): equality by
// identity (not text), one-level wrap/unwrap, clean reasons, Ergo spellings and texts for every
// Err, and parse_reason for scenario files.
// Method: direct checks over every Err value and over small hand-built wrappings.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "runtime/error.hpp"

namespace routesim::runtime {
namespace {

Err err_at(std::size_t index) {
    return static_cast<Err>(index);
}

// §7.1: AliasOwner and EventOwner share a text but are different values.
TEST(Error, EqualityIsIdentityNotText) {
    EXPECT_EQ(error_text(Err::AliasOwner), error_text(Err::EventOwner));
    EXPECT_NE(Error(Err::AliasOwner), Error(Err::EventOwner));
    EXPECT_EQ(Error(Err::AliasOwner), Error(Err::AliasOwner));
    // A terminate reason is not the named error or ad-hoc text with the same words.
    EXPECT_NE(Error::normal(), Error::text("normal"));
    EXPECT_NE(Error(Err::Timeout), Error::text("timed out"));
    EXPECT_NE(Error::kill(), Error::panic());
    EXPECT_EQ(Error::shutdown(), Error(TerminateReason::Shutdown));
}

// name(scratch) is name() without the copy: only a wrapped error's name is built, in scratch.
TEST(Error, NameViewMatchesNameAndBuildsOnlyWrappedNames) {
    const Error wrapped = Error::wrap("spawn route \"a\"", Error(Err::Timeout));
    for (const Error& error : {Error(Err::ProcessUnknown), Error::kill(),
                               Error::text("a text longer than a short string"), wrapped}) {
        std::string scratch;
        EXPECT_EQ(error.name(scratch), error.name());
        EXPECT_EQ(scratch.empty(), !error.is_wrapped()) << error.name();
    }
    for (std::size_t i = 0; i < err_count; i++) {
        std::string scratch;
        EXPECT_EQ(Error(err_at(i)).name(scratch), Error(err_at(i)).name());
    }
}

// Equality of every pair of distinct Err values is false, and of each with itself true.
TEST(Error, EveryErrIsDistinct) {
    for (std::size_t i = 0; i < err_count; i++) {
        EXPECT_EQ(Error(err_at(i)), Error(err_at(i)));
        EXPECT_TRUE(Error(err_at(i)).is(err_at(i)));
        EXPECT_EQ(Error(err_at(i)).err(), err_at(i));
        for (std::size_t j = i + 1; j < err_count; j++) {
            EXPECT_NE(Error(err_at(i)), Error(err_at(j)));
        }
    }
}

// §3.2, §4.3: wrap gives "<origin>: <inner>" and unwraps exactly one level.
TEST(Error, WrapUnwrapsOneLevel) {
    const Error inner = Error::text("custom");
    const Error once = Error::wrap("<A.0.1001>", inner);
    const Error twice = Error::wrap("outer", once);
    EXPECT_TRUE(once.is_wrapped());
    EXPECT_EQ(once.message(), "<A.0.1001>: custom");
    EXPECT_EQ(once.unwrap(), inner);
    EXPECT_EQ(twice.message(), "outer: <A.0.1001>: custom");
    EXPECT_EQ(twice.unwrap(), once);
    EXPECT_NE(twice.unwrap(), inner);
    // Unwrapping a plain error gives the error itself.
    EXPECT_EQ(inner.unwrap(), inner);
    EXPECT_EQ(Error::kill().unwrap(), Error::kill());
    // Wrapped errors compare by origin and inner.
    EXPECT_EQ(once, Error::wrap("<A.0.1001>", Error::text("custom")));
    EXPECT_NE(once, Error::wrap("<B.0.1002>", inner));
    EXPECT_NE(once, inner);
    EXPECT_FALSE(once.err().has_value());
}

// §3.1: Normal and Shutdown are clean, compared after one unwrap only.
TEST(Error, IsCleanAfterOneUnwrap) {
    EXPECT_TRUE(Error::normal().is_clean());
    EXPECT_TRUE(Error::shutdown().is_clean());
    EXPECT_FALSE(Error::kill().is_clean());
    EXPECT_FALSE(Error::panic().is_clean());
    EXPECT_FALSE(Error(Err::Timeout).is_clean());
    EXPECT_FALSE(Error::text("normal").is_clean());
    EXPECT_TRUE(Error::wrap("<p>", Error::shutdown()).is_clean());
    EXPECT_TRUE(Error::wrap("<p>", Error::normal()).is_clean());
    EXPECT_FALSE(Error::wrap("<q>", Error::wrap("<p>", Error::normal())).is_clean());
}

// §7: every Err has a unique Ergo spelling in gen or act, and ergo_name/parse_ergo_name
// round-trip.
TEST(Error, ErgoNameRoundTripsForEveryErr) {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < err_count; i++) {
        const std::string_view name = ergo_name(err_at(i));
        EXPECT_TRUE(name.starts_with("gen.Err") || name.starts_with("act.Err")) << name;
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(parse_ergo_name(name), err_at(i)) << name;
        EXPECT_FALSE(error_text(err_at(i)).empty()) << name;
        EXPECT_EQ(Error(err_at(i)).name(), name);
        EXPECT_EQ(Error(err_at(i)).message(), error_text(err_at(i)));
        EXPECT_EQ(parse_reason(name), Error(err_at(i))) << name;
    }
    EXPECT_FALSE(parse_ergo_name("gen.ErrNope").has_value());
    EXPECT_FALSE(parse_ergo_name("ErrTimeout").has_value());
}

// §7.1, §7.2, §7.4: spot checks of spellings and texts against the spec's tables.
TEST(Error, SpellingsAndTextsMatchSpec) {
    EXPECT_EQ(ergo_name(Err::ProcessUnknown), "gen.ErrProcessUnknown");
    EXPECT_EQ(error_text(Err::ProcessUnknown), "unknown process");
    EXPECT_EQ(error_text(Err::ProcessMailboxFull), "process mailbox is full");
    EXPECT_EQ(error_text(Err::TargetExist), "target is already exist");
    EXPECT_EQ(error_text(Err::AtomTooLong), "too long Atom (max: 255)");
    EXPECT_EQ(error_text(Err::Timeout), "timed out");
    EXPECT_EQ(ergo_name(Err::PoolEmpty), "act.ErrPoolEmpty");
    EXPECT_EQ(error_text(Err::PoolEmpty), "no worker process in the pool");
    EXPECT_EQ(ergo_name(Err::SupervisorRestartsExceeded), "act.ErrSupervisorRestartsExceeded");
    EXPECT_EQ(ergo_name(Err::Busy), "gen.ErrBusy");
    EXPECT_EQ(ergo_name(Err::Disabled), "gen.ErrDisabled");
    EXPECT_EQ(ergo_name(Err::Discarded), "gen.ErrDiscarded");
    EXPECT_EQ(ergo_name(Err::RouteDuplicate), "act.ErrRouteDuplicate");
    EXPECT_EQ(ergo_name(Err::NoRoute), "gen.ErrNoRoute");
    EXPECT_EQ(error_text(Err::NoRoute), "no route");
}

// §3.1: terminate reasons print as normal, kill, panic and shutdown.
TEST(Error, TerminateReasonTexts) {
    EXPECT_EQ(Error::normal().message(), "normal");
    EXPECT_EQ(Error::kill().message(), "kill");
    EXPECT_EQ(Error::panic().message(), "panic");
    EXPECT_EQ(Error::shutdown().message(), "shutdown");
    EXPECT_EQ(Error::shutdown().name(), "shutdown");
    EXPECT_TRUE(Error::kill().is(TerminateReason::Kill));
    EXPECT_FALSE(Error::kill().is(Err::Unknown));
    EXPECT_FALSE(Error::kill().err().has_value());
}

// parse_reason accepts the terminate reasons, Ergo spellings, and any other text as an
// ad-hoc error; message() of the result gives the text back.
TEST(Error, ParseReason) {
    EXPECT_EQ(parse_reason("normal"), Error::normal());
    EXPECT_EQ(parse_reason("kill"), Error::kill());
    EXPECT_EQ(parse_reason("panic"), Error::panic());
    EXPECT_EQ(parse_reason("shutdown"), Error::shutdown());
    EXPECT_EQ(parse_reason("gen.ErrTimeout"), Error(Err::Timeout));
    EXPECT_EQ(parse_reason("act.ErrPoolEmpty"), Error(Err::PoolEmpty));
    const Error custom = parse_reason("disk on fire");
    EXPECT_TRUE(custom.is_text());
    EXPECT_EQ(custom.message(), "disk on fire");
    EXPECT_EQ(custom, Error::text("disk on fire"));
    // Texts are case-sensitive: "Normal" is an ad-hoc error, not the reason.
    EXPECT_TRUE(parse_reason("Normal").is_text());
}

// Copies share the detail and stay equal; an error can be passed around freely.
TEST(Error, CopiesCompareEqual) {
    const Error wrapped = Error::wrap("<x>", Error(Err::Busy));
    const Error copy = wrapped; // NOLINT(performance-unnecessary-copy-initialization)
    EXPECT_EQ(copy, wrapped);
    EXPECT_EQ(copy.unwrap(), Error(Err::Busy));
    EXPECT_EQ(copy.name(), "<x>: busy");
}

} // namespace
} // namespace routesim::runtime
