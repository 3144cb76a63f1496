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

// -- the message monitors -----------------------------------------------------------------

MessageMonitor::MessageMonitor(MessageCheck check)
    : check_(check), tracker_(std::make_shared<MessageTracker>(static_cast<std::uint32_t>(check))) {
}

MessageMonitor::~MessageMonitor() = default;

void MessageMonitor::share_state_with(Monitor& earlier) {
    auto* lead = dynamic_cast<MessageMonitor*>(&earlier);
    if (lead == nullptr || !lead->feeds_ || !feeds_) {
        return;
    }
    lead->tracker_->add_checks(static_cast<std::uint32_t>(check_));
    lead->followers_.push_back(this);
    tracker_ = lead->tracker_;
    feeds_ = false;
}

void MessageMonitor::reset() {
    if (feeds_) {
        tracker_->reset(); // a follower's tracker is the lead's: reset once, by the lead
    }
}

bool MessageMonitor::watches(const sim::TraceKey& kind) const {
    return feeds_ && tracker_->watches(kind); // a follower gets its findings from the lead
}

void MessageMonitor::on_event(const sim::TraceEvent& event) {
    if (!feeds_) {
        return; // the lead reports this monitor's findings (a MonitorSet sends it no events)
    }
    tracker_->on_event(event);
    std::vector<MessageTracker::Finding>& findings = tracker_->findings();
    if (findings.empty()) {
        return;
    }
    for (MessageTracker::Finding& finding : findings) {
        MessageMonitor* owner = this;
        for (MessageMonitor* follower : followers_) {
            if (follower->check_ == finding.check) {
                owner = follower;
            }
        }
        RS_ASSERT(owner->check_ == finding.check);
        owner->report(finding.at, std::move(finding.explanation), std::move(finding.witnesses));
    }
    findings.clear();
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
        const auto key = std::make_pair(field_uint(event, trace::caller), field_uint(event, trace::ref));
        if (!open_.try_emplace(key, event).second) {
            report(event.at, "call ref " + std::to_string(key.second) + " was started twice",
                   {witness_of(event)});
        }
        return;
    }
    if (is_kind(event, trace::call_result)) {
        const auto key = std::make_pair(field_uint(event, trace::caller), field_uint(event, trace::ref));
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
