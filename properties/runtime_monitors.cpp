// Runtime-level invariant monitors and the message ledger.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/runtime_monitors.hpp"
#include "properties/event_text.hpp"
#include "properties/message_tracker.hpp"

#include <algorithm>

#include "runtime/trace_keys.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;

// -- message_conservation -----------------------------------------------------------------

Ledger MessageConservation::ledger() const {
    return view().ledger();
}

void MessageConservation::finish(sim::Instant end, bool) {
    std::vector<MessageTracker::Finding> findings;
    MessageTracker::finish_conservation(view(), end, findings);
    for (MessageTracker::Finding& finding : findings) {
        report(finding.at, std::move(finding.explanation), std::move(finding.witnesses));
    }
}

// -- call_outcome -------------------------------------------------------------------------

bool CallOutcomeMonitor::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::call, trace::call_result});
}

void CallOutcomeMonitor::on_event(const sim::TraceEvent& event) {
    on_kind_event(event_kind_of(event.kind), event);
}

void CallOutcomeMonitor::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    feed_own_view(kind, event);
    if (kind != EventKind::Call && kind != EventKind::CallResult) {
        return;
    }
    const CallChange change = view().last_call_change();
    if (change != CallChange::StartedTwice && change != CallChange::EndedUnopened) {
        return;
    }
    std::uint64_t caller = 0;
    std::uint64_t ref = 0;
    if (const auto* call = decoded<runtime::ev::Call>(event)) {
        caller = call->caller;
        ref = call->ref;
    } else if (const auto* result = decoded<runtime::ev::CallResult>(event)) {
        caller = result->caller;
        ref = result->ref;
    }
    if (change == CallChange::StartedTwice) {
        report(event.at, "call ref " + std::to_string(ref) + " was started twice",
               {witness(event)});
    } else {
        report(event.at,
               "call ref " + std::to_string(ref) + " of " + pid_text(caller, names()) +
                   " ended although it was not open (ended twice?)",
               {witness(event)});
    }
}

void CallOutcomeMonitor::finish(sim::Instant end, bool idle) {
    if (!idle) {
        return; // calls may legitimately be in flight when a run is cut at a time limit
    }
    std::vector<const PendingCall*> open = view().pending_calls();
    std::sort(open.begin(), open.end(), [](const PendingCall* left, const PendingCall* right) {
        return std::pair(left->caller, left->ref) < std::pair(right->caller, right->ref);
    });
    for (const PendingCall* call : open) {
        report(end,
               "call ref " + std::to_string(call->ref) + " of " + pid_text(call->caller, names()) +
                   " never ended (no response, error or timeout)",
               {call->event.witness(names())});
    }
}

} // namespace routesim::properties
