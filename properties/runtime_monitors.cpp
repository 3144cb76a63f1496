// Runtime-level invariant monitors and the message ledger.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/runtime_monitors.hpp"
#include "properties/message_tracker.hpp"

#include <algorithm>

#include "runtime/trace_keys.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;

std::string Ledger::to_string() const {
    std::string text = "sent " + std::to_string(sent) + ": handled " + std::to_string(handled) +
                       ", discarded " + std::to_string(discarded) + ", route_failed " +
                       std::to_string(route_failed) + ", unhandled " + std::to_string(unhandled) +
                       ", dropped " + std::to_string(dropped);
    if (!dropped_by_reason.empty()) {
        text += " (";
        bool first = true;
        for (const auto& [reason, count] : dropped_by_reason) {
            text += (first ? "" : ", ") + reason + " " + std::to_string(count);
            first = false;
        }
        text += ")";
    }
    text += ", queued " + std::to_string(queued);
    return text;
}

// -- message_conservation -----------------------------------------------------------------

const Ledger& MessageConservation::ledger() const {
    return tracker().ledger();
}

void MessageConservation::finish(sim::Instant end, bool) {
    std::vector<MessageTracker::Finding> findings;
    tracker().finish_conservation(end, findings);
    for (MessageTracker::Finding& finding : findings) {
        report(finding.at, std::move(finding.explanation), std::move(finding.witnesses));
    }
}

// -- call_outcome -------------------------------------------------------------------------

bool CallOutcomeMonitor::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::call, trace::call_result});
}

void CallOutcomeMonitor::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::call)) {
        const auto key =
            std::make_pair(field_uint(event, trace::caller), field_uint(event, trace::ref));
        if (!open_.try_emplace(key, event).second) {
            report(event.at, "call ref " + std::to_string(key.second) + " was started twice",
                   {witness_of(event)});
        }
        return;
    }
    if (is_kind(event, trace::call_result)) {
        const auto key =
            std::make_pair(field_uint(event, trace::caller), field_uint(event, trace::ref));
        auto found = open_.find(key);
        if (found == open_.end()) {
            report(event.at,
                   "call ref " + std::to_string(key.second) + " of <" + std::to_string(key.first) +
                       "> ended although it was not open (ended twice?)",
                   {witness_of(event)});
            return;
        }
        open_.erase(found);
    }
}

void CallOutcomeMonitor::finish(sim::Instant end, bool idle) {
    if (!idle) {
        return; // calls may legitimately be in flight when a run is cut at a time limit
    }
    for (const auto& [key, started] : open_) {
        report(end,
               "call ref " + std::to_string(key.second) + " of <" + std::to_string(key.first) +
                   "> never ended (no response, error or timeout)",
               {started.witness()});
    }
}

} // namespace routesim::properties
