// Monitors of the runtime-level invariants of DESIGN.md: message_conservation (with its
// ledger), pair_fifo, call_outcome and sender_preservation. They read the runtime's trace
// events (runtime/trace_keys.hpp) plus the routing and pool events that end a message.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "properties/event_text.hpp"
#include "properties/monitor.hpp"
#include "properties/topology_view.hpp"

namespace routesim::properties {

/// Monitors indexed by message id reserve this many entries up front, so that a short run
/// does not regrow (and copy) its tables several times.
inline constexpr std::size_t message_ids_reserved = 512;

// Declared only: message_tracker.hpp is needed by runtime_monitors.cpp alone.
class MessageTracker;

/// The message checks of a MessageTracker, one per message monitor (a bit set).
enum class MessageCheck : std::uint8_t {
    Conservation = 1, ///< message_conservation
    PairFifo = 2,     ///< pair_fifo
    Sender = 4,       ///< sender_preservation
};

/// Base of the monitors that follow message ids (message_conservation, pair_fifo,
/// sender_preservation): feeds a MessageTracker and reports the findings of its own check.
/// In a MonitorSet they share a single tracker, as the route-table monitors do: the first (the
/// lead) feeds it every event with the union of their checks and hands each finding to the
/// monitor that owns its check; the others watch no events (one lookup of a message id per
/// event instead of three).
class MessageMonitor : public Monitor {
public:
    ~MessageMonitor() override;
    void on_event(const sim::TraceEvent& event) final;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) final;
    bool watches(const sim::TraceKey& kind) const final;
    void share_state_with(Monitor& earlier) final;
    /// Hands names() to the tracker, which renders the witnesses of its findings.
    void names_changed() final;
    bool reads_view() const final { return feeds_; }
    void reset() final;

protected:
    explicit MessageMonitor(MessageCheck check);
    const MessageTracker& tracker() const { return *tracker_; }
    MessageTracker& tracker() { return *tracker_; }

private:
    /// Reports each of the tracker's findings through the monitor that owns its check.
    void hand_over_findings();

    MessageCheck check_;                      // the check this monitor reports
    std::shared_ptr<MessageTracker> tracker_; // possibly shared with earlier message monitors
    bool feeds_ = true;                       // this monitor applies events to tracker_
    std::vector<MessageMonitor*> followers_;  // the lead's: monitors sharing its tracker
};

/// message_conservation: every message sent ends exactly once (handled, discarded, reported
/// failed, unhandled, dropped with a dead mailbox, or still queued); none is taken, forwarded
/// or dropped twice, and none vanishes from a mailbox whose process ended.
class MessageConservation final : public MessageMonitor {
public:
    MessageConservation() : MessageMonitor(MessageCheck::Conservation) {}
    std::string_view name() const override { return "message_conservation"; }
    void finish(sim::Instant end, bool idle) override;
    /// The ledger (the view's, TopologyView::ledger()).
    Ledger ledger() const;
};

/// pair_fifo: messages from one sender to one receiver through one queue are taken in the
/// order they were enqueued (a forward is a hop from the forwarder).
class PairFifo final : public MessageMonitor {
public:
    PairFifo() : MessageMonitor(MessageCheck::PairFifo) {}
    std::string_view name() const override { return "pair_fifo"; }
};

/// call_outcome: every call ends exactly once (a response, an error or a timeout); when the
/// run ends idle, none is left open. (Named apart from the route model's CallOutcome, the
/// result of a management call: one name for two types would break the one-definition rule.)
class CallOutcomeMonitor final : public Monitor {
public:
    std::string_view name() const override { return "call_outcome"; }
    void on_event(const sim::TraceEvent& event) override;
    void on_kind_event(EventKind kind, const sim::TraceEvent& event) override;
    bool watches(const sim::TraceKey& kind) const override;
    bool reads_view() const override { return true; }
    void finish(sim::Instant end, bool idle) override;
    void reset() override {} // the open calls are the view's (TopologyView::pending_calls)
};

/// sender_preservation: a message reaching a worker through routers and pools still carries
/// the original From (and Ref for calls), and a response goes straight to the caller.
class SenderPreservation final : public MessageMonitor {
public:
    SenderPreservation() : MessageMonitor(MessageCheck::Sender) {}
    std::string_view name() const override { return "sender_preservation"; }
};

} // namespace routesim::properties
