// Error: an Ergo error value as callbacks return it and exits carry it: a named Err, a
// terminate reason (normal, kill, panic, shutdown), an ad-hoc text, or a wrapped error
// "<origin>: <inner>" that unwraps one level (§3.1, §3.2, §4.3).
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/err.hpp"
#include "sim/result.hpp"

namespace routesim::runtime {

/// Ergo's TerminateReason values (§3.1).
enum class TerminateReason : std::uint8_t { Normal, Kill, Panic, Shutdown };

/// An error value. Cheap to copy (texts are shared). Equality is identity as Ergo compares
/// errors: same Err, same terminate reason, same ad-hoc text, or same wrapping of an equal
/// inner error.
class Error {
public:
    /// A named Ergo error.
    Error(Err err) : kind_(Kind::Named), code_(static_cast<std::uint8_t>(err)) {}
    /// A terminate reason.
    Error(TerminateReason reason)
        : kind_(Kind::Terminate), code_(static_cast<std::uint8_t>(reason)) {}
    /// An ad-hoc error with a text (Go's errors.New / fmt.Errorf without %w).
    static Error text(std::string message);
    /// A wrapped error `"<origin>: <inner>"` that unwraps to `inner` (fmt.Errorf with %w).
    static Error wrap(std::string origin, Error inner);

    static Error normal() { return TerminateReason::Normal; }
    static Error kill() { return TerminateReason::Kill; }
    static Error panic() { return TerminateReason::Panic; }
    static Error shutdown() { return TerminateReason::Shutdown; }

    // -- queries ------------------------------------------------------------------------
    bool is(Err err) const {
        return kind_ == Kind::Named && code_ == static_cast<std::uint8_t>(err);
    }
    bool is(TerminateReason reason) const {
        return kind_ == Kind::Terminate && code_ == static_cast<std::uint8_t>(reason);
    }
    bool is_wrapped() const { return kind_ == Kind::Wrapped; }
    bool is_text() const { return kind_ == Kind::Text; }
    /// Normal or Shutdown, compared after one unwrap (§3.1, §6.3).
    bool is_clean() const;
    /// The inner error of a wrapped one, or this error itself (errors.Unwrap, one level).
    Error unwrap() const;
    /// The Err of a named error, if it is one.
    std::optional<Err> err() const;
    /// Ergo's text: `"unknown process"`, `"normal"`, `"<a.b.c>: shutdown"`.
    std::string message() const;
    /// For reports: the Ergo spelling of named errors (`"gen.ErrBusy"`), the reason name of
    /// terminate reasons (`"normal"`), the text of others.
    std::string name() const;
    /// name() with no copy: a constant or the error's own text; only a wrapped error's name
    /// is built, in `scratch`. Valid while this error and `scratch` are.
    std::string_view name(std::string& scratch) const;

    bool operator==(const Error& other) const;

private:
    enum class Kind : std::uint8_t { Named, Terminate, Text, Wrapped };
    struct Detail;
    Error(Kind kind, std::shared_ptr<const Detail> detail)
        : kind_(kind), code_(0), detail_(std::move(detail)) {}

    Kind kind_;
    std::uint8_t code_;
    std::shared_ptr<const Detail> detail_;
};

/// What a callback reports: nothing (keep going) or the reason to terminate.
using Status = sim::Result<void, Error>;

/// Keep going.
inline Status ok() {
    return {};
}

/// Terminate with `reason`.
inline Status stop(Error reason) {
    return sim::fail(std::move(reason));
}

/// Parses a reason as scenario files write it: "normal", "shutdown", "kill", "panic", an
/// Ergo spelling ("gen.ErrTimeout"), or any other text as an ad-hoc error.
Error parse_reason(std::string_view text);

} // namespace routesim::runtime
