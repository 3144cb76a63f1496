// Ergo spellings and texts of Err values.
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/err.hpp"

#include <array>

#include "sim/assert.hpp"

namespace routesim::runtime {
namespace {

struct ErrInfo {
    std::string_view name;
    std::string_view text;
};

// Indexed by Err; the order must follow the enum exactly (checked by a static_assert below).
constexpr std::array<ErrInfo, err_count> table = {{
    {"gen.ErrNameUnknown", "unknown name"},
    {"gen.ErrParentUnknown", "parent/leader is not set"},
    {"gen.ErrNodeTerminated", "node terminated"},
    {"gen.ErrProcessMailboxFull", "process mailbox is full"},
    {"gen.ErrProcessUnknown", "unknown process"},
    {"gen.ErrProcessIncarnation", "process ID belongs to the previous incarnation"},
    {"gen.ErrProcessTerminated", "process terminated"},
    {"gen.ErrMetaUnknown", "unknown meta process"},
    {"gen.ErrMetaMailboxFull", "meta process mailbox is full"},
    {"gen.ErrApplicationUnknown", "unknown application"},
    {"gen.ErrApplicationDepends", "dependency fail"},
    {"gen.ErrApplicationState", "application is in running/stopping state"},
    {"gen.ErrApplicationLoadPanic", "panic in application loading"},
    {"gen.ErrApplicationEmpty", "application has no items"},
    {"gen.ErrApplicationName", "application has no name"},
    {"gen.ErrApplicationStopping", "application stopping is in progress"},
    {"gen.ErrApplicationRunning", "application is still running"},
    {"gen.ErrTargetUnknown", "unknown target"},
    {"gen.ErrTargetExist", "target is already exist"},
    {"gen.ErrRegistrarTerminated", "registrar client terminated"},
    {"gen.ErrAliasUnknown", "unknown alias"},
    {"gen.ErrAliasOwner", "not an owner"},
    {"gen.ErrEventUnknown", "unknown event"},
    {"gen.ErrEventOwner", "not an owner"},
    {"gen.ErrTaken", "resource is taken"},
    {"gen.ErrAtomTooLong", "too long Atom (max: 255)"},
    {"gen.ErrTimeout", "timed out"},
    {"gen.ErrUnsupported", "not supported"},
    {"gen.ErrUnknown", "unknown"},
    {"gen.ErrNotAllowed", "not allowed"},
    {"gen.ErrIncorrect", "incorrect value or argument"},
    {"gen.ErrMalformed", "malformed value"},
    {"gen.ErrResponseIgnored", "response ignored"},
    {"gen.ErrUnregistered", "unregistered"},
    {"gen.ErrTooLarge", "too large"},
    {"gen.ErrNetworkStopped", "network stack is stopped"},
    {"gen.ErrNoConnection", "no connection"},
    {"gen.ErrNoRoute", "no route"},
    {"gen.ErrInternal", "internal error"},
    {"act.ErrSupervisorStrategyActive", "supervisor strategy is active"},
    {"act.ErrSupervisorChildUnknown", "unknown child"},
    {"act.ErrSupervisorChildRunning", "child process is already running"},
    {"act.ErrSupervisorChildDisabled", "child is disabled"},
    {"act.ErrSupervisorRestartsExceeded", "restart intensity is exceeded"},
    {"act.ErrSupervisorChildDuplicate", "duplicate child spec Name"},
    {"act.ErrPoolEmpty", "no worker process in the pool"},
    {"gen.ErrDisabled", "disabled"},
    {"gen.ErrDiscarded", "discarded"},
    {"gen.ErrBusy", "busy"},
    {"act.ErrRouteDuplicate", "duplicate route name"},
    {"act.ErrRouteRunning", "route is already running"},
}};

static_assert(table.size() == err_count);

} // namespace

std::string_view ergo_name(Err err) {
    const auto index = static_cast<std::size_t>(err);
    RS_ASSERT(index < table.size());
    return table[index].name;
}

std::string_view error_text(Err err) {
    const auto index = static_cast<std::size_t>(err);
    RS_ASSERT(index < table.size());
    return table[index].text;
}

std::optional<Err> parse_ergo_name(std::string_view name) {
    for (std::size_t i = 0; i < table.size(); i++) {
        if (table[i].name == name) {
            return static_cast<Err>(i);
        }
    }
    return std::nullopt;
}

} // namespace routesim::runtime
