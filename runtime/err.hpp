// Err: every Ergo error value of §7 (gen, act, and the Router's additions),
// with its Ergo spelling for output. Values are only ever appended.
// Part of runtime/: uses sim/ and the standard library only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace routesim::runtime {

/// An Ergo error value. Compared by identity, never by text (§7.1).
enum class Err : std::uint8_t {
    // gen package (§7.1)
    NameUnknown,
    ParentUnknown,
    NodeTerminated,
    ProcessMailboxFull,
    ProcessUnknown,
    ProcessIncarnation,
    ProcessTerminated,
    MetaUnknown,
    MetaMailboxFull,
    ApplicationUnknown,
    ApplicationDepends,
    ApplicationState,
    ApplicationLoadPanic,
    ApplicationEmpty,
    ApplicationName,
    ApplicationStopping,
    ApplicationRunning,
    TargetUnknown,
    TargetExist,
    RegistrarTerminated,
    AliasUnknown,
    AliasOwner,
    EventUnknown,
    EventOwner,
    Taken,
    AtomTooLong,
    Timeout,
    Unsupported,
    Unknown,
    NotAllowed,
    Incorrect,
    Malformed,
    ResponseIgnored,
    Unregistered,
    TooLarge,
    NetworkStopped,
    NoConnection,
    NoRoute,
    Internal,
    // act package (§7.2)
    SupervisorStrategyActive,
    SupervisorChildUnknown,
    SupervisorChildRunning,
    SupervisorChildDisabled,
    SupervisorRestartsExceeded,
    SupervisorChildDuplicate,
    PoolEmpty,
    // Router additions (§7.4)
    Disabled,
    Discarded,
    Busy,
    RouteDuplicate,
    RouteRunning,
};

/// Number of Err values (the last one plus one).
inline constexpr std::size_t err_count = static_cast<std::size_t>(Err::RouteRunning) + 1;

/// The Ergo spelling, package included: `"gen.ErrBusy"`, `"act.ErrRouteDuplicate"`.
std::string_view ergo_name(Err err);

/// The error text Ergo prints (§7; Router texts are the spec's proposals, §7.4).
std::string_view error_text(Err err);

/// The Err whose Ergo spelling is `name`, if any.
std::optional<Err> parse_ergo_name(std::string_view name);

} // namespace routesim::runtime
