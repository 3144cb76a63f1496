// MessageTracker: the message checks of message_conservation, pair_fifo and
// sender_preservation over one record per message id, and MessageMonitor, their shared base.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/message_tracker.hpp"

#include <algorithm>

#include "properties/event_text.hpp"
#include "properties/process_names.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace ev = runtime::ev;
namespace {

// Events of higher layers that end a message the router or pool took.
constexpr sim::TraceKey kind_pool_forward{"pool_forward"};

constexpr std::uint64_t no_message = 0;

} // namespace

MessageTracker::MessageTracker(std::uint32_t checks) : checks_(checks) {
    records_.reserve(message_ids_reserved);
    slots_.resize(64);
}

bool MessageTracker::watches(const sim::TraceKey& kind) const {
    return watches(event_kind_of(kind));
}

bool MessageTracker::watches(EventKind kind) const {
    constexpr EventKinds every_check{EventKind::Send, EventKind::Forward, EventKind::Take};
    // Exit: the lost-message check reads exits (from the view, which every set feeds them).
    constexpr EventKinds conservation{EventKind::Drop, EventKind::Exit, EventKind::Route,
                                      EventKind::PoolForward, EventKind::Preserve};
    constexpr EventKinds pair_fifo{EventKind::Drop, EventKind::Preserve};
    constexpr EventKinds sender{EventKind::Call, EventKind::Response, EventKind::ResponseDropped};
    return every_check.has(kind) || (runs(MessageCheck::Conservation) && conservation.has(kind)) ||
           (runs(MessageCheck::PairFifo) && pair_fifo.has(kind)) ||
           (runs(MessageCheck::Sender) && sender.has(kind));
}

void MessageTracker::reset() {
    records_.clear();
    findings_.clear();
    pairs_.clear();
    std::fill(slots_.begin(), slots_.end(), Slot{}); // the table keeps its size
    caller_of_.clear();
}

void MessageTracker::add(MessageCheck check, const sim::TraceEvent& event, std::string explanation,
                         std::vector<Witness> witnesses) {
    findings_.push_back(Finding{check, event.at, std::move(explanation), std::move(witnesses)});
}

MessageTracker::Record& MessageTracker::grow_to(std::uint64_t id) {
    RS_ASSERT(id >= records_.size());
    records_.resize(std::max<std::size_t>(id + 1, records_.size() * 2));
    return records_[id];
}

void MessageTracker::on_other(EventKind kind, const sim::TraceEvent& event,
                              const TopologyView& view, EventDecodes& decodes) {
    if (runs(MessageCheck::Sender)) {
        if (kind == EventKind::Call) {
            if (const auto* call = decodes.get<ev::Call>(event)) {
                caller_of_[call->ref] = call->caller;
            }
            return;
        }
        if (kind == EventKind::Response) {
            if (const auto* response = decodes.get<ev::Response>(event)) {
                check_response(event, response->ref, response->to);
            }
            return;
        }
        if (kind == EventKind::ResponseDropped) {
            if (const auto* dropped = decodes.get<ev::ResponseDropped>(event)) {
                check_response(event, dropped->ref, dropped->to);
            }
            return;
        }
    }
    if (runs(MessageCheck::Conservation) && view.last_ledger_fault() == LedgerFault::EndNotTaken) {
        // a route (discard, failed) or pool_forward (unhandled) ended a message not taken
        std::uint64_t id = no_message;
        if (const auto* routed = decodes.get<ev::Route>(event)) {
            id = routed->id;
        } else if (const auto* forward = decodes.get<ev::PoolForward>(event)) {
            id = forward->id;
        }
        conservation_violation(event, id, LedgerFault::EndNotTaken);
    }
}

// -- message_conservation -----------------------------------------------------------------

void MessageTracker::conservation_violation(const sim::TraceEvent& event, std::uint64_t id,
                                            LedgerFault fault) {
    RS_ASSERT(fault != LedgerFault::None);
    const char* what = "";
    switch (fault) {
    case LedgerFault::SentTwice:
        what = "was sent twice (its id was reused)";
        break;
    case LedgerFault::ForwardNotHeld:
        what = "was forwarded by a process that does not hold it (duplicated)";
        break;
    case LedgerFault::TakeNotQueued:
        what = "was taken although it is not queued there (taken twice?)";
        break;
    case LedgerFault::DropNotQueued:
        what = "was dropped although it is not queued there";
        break;
    case LedgerFault::PreserveNotQueued:
        what = "was preserved although it is not queued there";
        break;
    case LedgerFault::EndNotTaken:
    case LedgerFault::None:
        what = "was ended by routing but is not held by a behaviour";
        break;
    }
    add(MessageCheck::Conservation, event, "message " + std::to_string(id) + " " + what,
        {witness_of(event, names_)});
}

void MessageTracker::finish_conservation(const TopologyView& view, sim::Instant end,
                                         std::vector<Finding>& out) {
    const std::vector<MessageRecord>& messages = view.messages();
    for (std::uint64_t id = 0; id < messages.size(); id++) {
        const MessageRecord& item = messages[id];
        if (item.where != MessageWhere::Queued && item.where != MessageWhere::Kept) {
            continue;
        }
        const ProcessView* holder = view.process(item.holder);
        if (holder != nullptr && holder->exited && !holder->init_failed) {
            out.push_back(
                Finding{MessageCheck::Conservation,
                        end,
                        "message " + std::to_string(id) + " was lost: its holder " +
                            pid_text(item.holder, &view) + " ended without dropping or handling it",
                        {Witness{item.last_seq, end,
                                 "last seen queued at " + process_label(view, item.holder)}}});
        }
    }
    const Ledger ledger = view.ledger();
    if (!ledger.balanced()) {
        out.push_back(Finding{MessageCheck::Conservation,
                              end,
                              "the ledger does not balance: " + ledger.to_string(),
                              {}});
    }
}

// -- pair_fifo ----------------------------------------------------------------------------

Witness MessageTracker::flight_witness(std::uint64_t id) const {
    const Record& item = records_[id];
    const PairKey& pair = pairs_[item.pair_index].key;
    return Witness{item.flight_seq, item.flight_at,
                   std::string(item.forwarded ? "forward id=" : "send id=") + std::to_string(id) +
                       (item.forwarded ? " by=" : " from=") + pid_field_text(pair.sender, names_) +
                       " to=" + pid_field_text(pair.receiver, names_) +
                       " queue=" + std::to_string(pair.queue)};
}

[[gnu::always_inline]] inline std::uint32_t MessageTracker::pair_index(const PairKey& pair) {
    // The common case inline: the pair sits in its home slot.
    const Slot& home = slots_[pair.hash() & (slots_.size() - 1)];
    return home.used && home.pair == pair ? home.index : add_pair(pair);
}

std::uint32_t MessageTracker::add_pair(const PairKey& pair) {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t at = pair.hash() & mask;; at = (at + 1) & mask) {
        Slot& slot = slots_[at];
        if (slot.used && slot.pair == pair) {
            return slot.index;
        }
        if (slot.used) {
            continue;
        }
        if (2 * (pairs_.size() + 1) > slots_.size()) { // grow, then probe again
            std::vector<Slot> old(2 * slots_.size());
            old.swap(slots_);
            mask = slots_.size() - 1;
            for (const Slot& moved : old) {
                if (moved.used) {
                    std::size_t to = moved.pair.hash() & mask;
                    while (slots_[to].used) {
                        to = (to + 1) & mask;
                    }
                    slots_[to] = moved;
                }
            }
            return add_pair(pair);
        }
        slot = Slot{pair, static_cast<std::uint32_t>(pairs_.size()), true};
        pairs_.push_back(Pair{pair});
        return slot.index;
    }
}

[[gnu::always_inline]] inline void MessageTracker::unlink(std::uint64_t id) {
    Record& item = records_[id];
    Pair& pair = pairs_[item.pair_index];
    (item.prev == unlinked ? pair.head : records_[item.prev].next) = item.next;
    (item.next == unlinked ? pair.tail : records_[item.next].prev) = item.prev;
    item.prev = item.next = unlinked;
    item.in_flight = false;
}

[[gnu::always_inline]] inline void MessageTracker::enqueue(const sim::TraceEvent& event,
                                                           std::uint64_t id, Record& item,
                                                           PairKey pair, bool forwarded) {
    if (item.in_flight) {
        unlink(id); // enqueued again without leaving: it now counts at its new place
    }
    const std::uint32_t index = pair_index(pair);
    Pair& list = pairs_[index];
    item.in_flight = true;
    item.forwarded = forwarded;
    item.pair_index = index;
    item.prev = list.tail;
    item.next = unlinked;
    item.flight_seq = event.seq;
    item.flight_at = event.at;
    (list.tail == unlinked ? list.head : records_[list.tail].next) = id;
    list.tail = id;
}

[[gnu::always_inline]] inline void
MessageTracker::fifo(const HopEvent& hop, const sim::TraceEvent& event, Record& item) {
    if (hop.kind == Hop::Send || hop.kind == Hop::Forward) {
        enqueue(event, hop.id, item, PairKey{hop.by, hop.to, hop.queue}, hop.kind == Hop::Forward);
        return;
    }
    if (!item.in_flight) {
        return; // message_conservation reports unknown ids
    }
    const bool taken = hop.kind == Hop::Take;
    const std::uint64_t earlier = taken ? pairs_[item.pair_index].head : hop.id;
    RS_ASSERT(earlier != unlinked);
    unlink(hop.id);
    if (earlier == hop.id) {
        return;
    }
    std::vector<Witness> witnesses;
    if (records_[earlier].in_flight) {
        witnesses.push_back(flight_witness(earlier));
    }
    witnesses.push_back(flight_witness(hop.id));
    witnesses.push_back(witness_of(event, names_));
    const PairKey& pair = pairs_[item.pair_index].key;
    add(MessageCheck::PairFifo, event,
        "message " + std::to_string(hop.id) + " from " + pid_text(pair.sender, names_) +
            " was taken by " + pid_text(pair.receiver, names_) + " before message " +
            std::to_string(earlier) + " sent earlier on the same pair",
        std::move(witnesses));
}

// -- sender_preservation ------------------------------------------------------------------

[[gnu::always_inline]] inline void
MessageTracker::check_sender(const HopEvent& hop, const sim::TraceEvent& event, Record& item) {
    if (hop.kind == Hop::Send) {
        item.has_origin = true;
        item.origin_from = hop.by;
        item.origin_to = hop.to;
        item.origin_seq = event.seq;
        item.origin_at = event.at;
        return;
    }
    if ((hop.kind != Hop::Forward && hop.kind != Hop::Take) || !item.has_origin ||
        hop.from == item.origin_from) {
        return;
    }
    add(MessageCheck::Sender, event,
        "message " + std::to_string(hop.id) + " arrived with From " + pid_text(hop.from, names_) +
            " instead of the original sender " + pid_text(item.origin_from, names_),
        {Witness{item.origin_seq, item.origin_at,
                 "send id=" + std::to_string(hop.id) +
                     " from=" + pid_field_text(item.origin_from, names_) +
                     " to=" + pid_field_text(item.origin_to, names_)},
         witness_of(event, names_)});
}

void MessageTracker::check_response(const sim::TraceEvent& event, std::uint64_t ref,
                                    std::uint64_t to) {
    auto found = caller_of_.find(ref);
    if (found == caller_of_.end()) {
        return;
    }
    if (to != found->second) {
        add(MessageCheck::Sender, event,
            "the response to ref " + std::to_string(found->first) + " went to " +
                pid_text(to, names_) + " instead of the caller " + pid_text(found->second, names_),
            {witness_of(event, names_)});
    }
}

// -- dispatch -----------------------------------------------------------------------------

// Inlined, with the checks above, into apply: an event is one call into the tracker.
[[gnu::always_inline]] inline void MessageTracker::on_hop(const HopEvent& hop,
                                                          const sim::TraceEvent& event,
                                                          const TopologyView& view) {
    if (hop.id == unlinked) {
        return; // not a message id any emitter hands out
    }
    Record& item = record(hop.id);
    if (runs(MessageCheck::Conservation) && view.last_ledger_fault() != LedgerFault::None) {
        conservation_violation(event, hop.id, view.last_ledger_fault());
    }
    if (runs(MessageCheck::PairFifo)) {
        fifo(hop, event, item);
    }
    if (runs(MessageCheck::Sender)) {
        check_sender(hop, event, item);
    }
}

// Inlined into MessageMonitor::on_kind_event (below): an event is one call into the message
// checks.
[[gnu::always_inline]] inline void MessageTracker::apply(EventKind kind,
                                                         const sim::TraceEvent& event,
                                                         const TopologyView& view,
                                                         EventDecodes& decodes) {
    switch (kind) {
    case EventKind::Take:
    case EventKind::Send:
    case EventKind::Forward:
    case EventKind::Drop:
    case EventKind::Preserve:
        // The view applied this event first and decoded it once for every reader.
        on_hop(view.last_hop(), event, view);
        return;
    default:
        on_other(kind, event, view, decodes);
        return;
    }
}

// -- the message monitors -----------------------------------------------------------------

MessageMonitor::MessageMonitor(MessageCheck check)
    : check_(check), tracker_(std::make_shared<MessageTracker>(static_cast<std::uint32_t>(check))) {
}

MessageMonitor::~MessageMonitor() = default;

void MessageMonitor::names_changed() {
    tracker_->name_processes_with(names());
}

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
    on_kind_event(event_kind_of(event.kind), event);
}

void MessageMonitor::on_kind_event(EventKind kind, const sim::TraceEvent& event) {
    if (!feeds_) {
        return; // the lead reports this monitor's findings (a MonitorSet sends it no events)
    }
    feed_own_view(kind, event);
    tracker_->apply(kind, event, view(), decodes_for(event));
    if (!tracker_->findings().empty()) {
        hand_over_findings();
    }
}

// Out of line, so that the common path (no finding) saves no registers for it.
[[gnu::noinline]] void MessageMonitor::hand_over_findings() {
    std::vector<MessageTracker::Finding>& findings = tracker_->findings();
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

} // namespace routesim::properties
