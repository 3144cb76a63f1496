// Runtime-level invariant monitors and the message ledger.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/runtime_monitors.hpp"
#include "properties/event_layout.hpp"

#include <algorithm>

#include "runtime/trace_keys.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace trace = runtime::trace;
namespace {

// Events of higher layers that end a message the router or pool took.
constexpr sim::TraceKey kind_pool_forward{"pool_forward"};

constexpr std::uint64_t no_message = 0;

} // namespace

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

MessageConservation::Entry& MessageConservation::entry(std::uint64_t id) {
    if (id >= entries_.size()) {
        entries_.resize(std::max<std::size_t>(id + 1, entries_.size() * 2));
    }
    return entries_[id];
}

void MessageConservation::violation(const sim::TraceEvent& event, std::uint64_t id,
                                    const std::string& what) {
    report(event.at, "message " + std::to_string(id) + " " + what, {witness_of(event)});
}

void MessageConservation::end_taken(const sim::TraceEvent& event, std::uint64_t id,
                                    std::uint64_t& category) {
    Entry& item = entry(id);
    if (item.where != Where::Taken) {
        violation(event, id, "was ended by routing but is not held by a behaviour");
        return;
    }
    item.where = Where::Ended;
    category++;
}

bool MessageConservation::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::send, trace::forward, trace::take, trace::drop, trace::exit,
                                 trace::route, kind_pool_forward, trace::preserve});
}

void MessageConservation::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::send)) {
        const std::uint64_t id = field_uint(event, layout::send::id);
        Entry& item = entry(id);
        if (item.where != Where::Unknown) {
            violation(event, id, "was sent twice (its id was reused)");
            return;
        }
        item = Entry{Where::Queued, field_uint(event, layout::send::to), event.seq};
        ledger_.sent++;
    } else if (is_kind(event, trace::forward)) {
        const std::uint64_t id = field_uint(event, layout::forward::id);
        Entry& item = entry(id);
        // A behaviour forwards what it took; a supervisor hands over what it kept.
        if ((item.where != Where::Taken && item.where != Where::Kept) ||
            item.holder != field_uint(event, layout::forward::by)) {
            violation(event, id, "was forwarded by a process that does not hold it (duplicated)");
            return;
        }
        item = Entry{Where::Queued, field_uint(event, layout::forward::to), event.seq};
    } else if (is_kind(event, trace::take)) {
        const std::uint64_t id = field_uint(event, layout::take::id);
        Entry& item = entry(id);
        if (item.where != Where::Queued || item.holder != field_uint(event, layout::take::pid)) {
            violation(event, id, "was taken although it is not queued there (taken twice?)");
            return;
        }
        item = Entry{Where::Taken, item.holder, event.seq};
    } else if (is_kind(event, trace::drop)) {
        const std::uint64_t id = field_uint(event, layout::drop::id);
        Entry& item = entry(id);
        // A kept message is dropped under the pid of the dead child or of the incarnation
        // the hand-over failed to reach.
        if (item.where != Where::Kept &&
            (item.where != Where::Queued || item.holder != field_uint(event, layout::drop::pid))) {
            violation(event, id, "was dropped although it is not queued there");
            return;
        }
        item.where = Where::Ended;
        ledger_.dropped++;
        ledger_.dropped_by_reason[std::string(field_text(event, layout::drop::reason))]++;
    } else if (is_kind(event, trace::exit)) {
        const std::uint64_t pid = field_uint(event, trace::pid);
        exited_.insert(std::upper_bound(exited_.begin(), exited_.end(), pid), pid);
    } else if (is_kind(event, trace::route)) {
        const std::uint64_t id = field_uint(event, layout::route::id, no_message);
        const std::string_view resolution = field_text(event, layout::route::resolution);
        if (id != no_message && resolution == "discard") {
            end_taken(event, id, ledger_.discarded);
        } else if (id != no_message && resolution == "failed") {
            end_taken(event, id, ledger_.route_failed);
        }
    } else if (is_kind(event, kind_pool_forward)) {
        const std::uint64_t id = field_uint(event, trace::id, no_message);
        if (id != no_message && field_text(event, trace::outcome) == "unhandled") {
            end_taken(event, id, ledger_.unhandled);
        }
    } else if (is_kind(event, trace::preserve)) {
        // preserve_mailbox: the dead child's queued message is kept by its supervisor (the
        // event's parent), which forwards it to the next incarnation or drops it.
        const std::uint64_t id = field_uint(event, trace::id);
        Entry& item = entry(id);
        if (item.where != Where::Queued || item.holder != field_uint(event, trace::pid)) {
            violation(event, id, "was preserved although it is not queued there");
            return;
        }
        item = Entry{Where::Kept, field_uint(event, trace::parent), event.seq};
    }
}

void MessageConservation::finish(sim::Instant end, bool) {
    ledger_.handled = 0;
    ledger_.queued = 0;
    for (std::uint64_t id = 0; id < entries_.size(); id++) {
        const Entry& item = entries_[id];
        if (item.where == Where::Taken) {
            ledger_.handled++;
        } else if (item.where == Where::Queued || item.where == Where::Kept) {
            ledger_.queued++;
            if (std::binary_search(exited_.begin(), exited_.end(), item.holder)) {
                report(end, "message " + std::to_string(id) + " was lost: its holder <" +
                                std::to_string(item.holder) +
                                "> ended without dropping or handling it",
                       {Witness{item.last_seq, end, "last seen queued at pid " +
                                                        std::to_string(item.holder)}});
            }
        }
    }
    if (!ledger_.balanced()) {
        report(end, "the ledger does not balance: " + ledger_.to_string(), {});
    }
}

// -- pair_fifo ----------------------------------------------------------------------------

Witness PairFifo::InFlight::witness(std::uint64_t id) const {
    return Witness{seq, at,
                   std::string(forwarded ? "forward id=" : "send id=") + std::to_string(id) +
                       (forwarded ? " by=" : " from=") + std::to_string(pair.sender) +
                       " to=" + std::to_string(pair.receiver) +
                       " queue=" + std::to_string(pair.queue)};
}

PairFifo::InFlight* PairFifo::flight_of(std::uint64_t id) {
    return id < in_flight_.size() && in_flight_[id].live ? &in_flight_[id] : nullptr;
}

std::uint32_t PairFifo::pair_index(const PairKey& pair) {
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
            return pair_index(pair);
        }
        slot = Slot{pair, static_cast<std::uint32_t>(pairs_.size()), true};
        pairs_.emplace_back();
        return slot.index;
    }
}

void PairFifo::unlink(std::uint64_t id) {
    InFlight& flight = in_flight_[id];
    Pair& pair = pairs_[flight.pair_index];
    (flight.prev == unlinked ? pair.head : in_flight_[flight.prev].next) = flight.next;
    (flight.next == unlinked ? pair.tail : in_flight_[flight.next].prev) = flight.prev;
    flight.prev = flight.next = unlinked;
    flight.live = false;
}

void PairFifo::enqueue(const sim::TraceEvent& event, std::uint64_t id, PairKey pair) {
    if (id == unlinked) {
        return; // not a message id any emitter hands out
    }
    if (id >= in_flight_.size()) {
        in_flight_.resize(std::max<std::size_t>(id + 1, 2 * in_flight_.size()));
    } else if (in_flight_[id].live) {
        unlink(id); // enqueued again without leaving: it now counts at its new place
    }
    const std::uint32_t index = pair_index(pair);
    Pair& list = pairs_[index];
    in_flight_[id] = InFlight{pair,     index, event.seq, event.at, list.tail,
                              unlinked, is_kind(event, trace::forward), true};
    (list.tail == unlinked ? list.head : in_flight_[list.tail].next) = id;
    list.tail = id;
}

bool PairFifo::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::send, trace::forward, trace::take, trace::drop, trace::preserve});
}

void PairFifo::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::send)) {
        enqueue(event, field_uint(event, layout::send::id),
                PairKey{field_uint(event, layout::send::from), field_uint(event, layout::send::to),
                        field_uint(event, layout::send::queue)});
        return;
    }
    if (is_kind(event, trace::forward)) {
        enqueue(event, field_uint(event, layout::forward::id),
                PairKey{field_uint(event, layout::forward::by),
                        field_uint(event, layout::forward::to),
                        field_uint(event, layout::forward::queue)});
        return;
    }
    const bool taken = is_kind(event, trace::take);
    if (!taken && !is_kind(event, trace::drop) && !is_kind(event, trace::preserve)) {
        return;
    }
    // take, drop and preserve all put the id second.
    const std::uint64_t id = field_uint(event, layout::take::id);
    InFlight* found = flight_of(id);
    if (found == nullptr) {
        return; // message_conservation reports unknown ids
    }
    const InFlight flight = *found;
    const std::uint64_t earlier = taken ? pairs_[flight.pair_index].head : id;
    RS_ASSERT(earlier != unlinked);
    unlink(id);
    if (earlier != id) {
        std::vector<Witness> witnesses;
        if (const InFlight* earlier_flight = flight_of(earlier)) {
            witnesses.push_back(earlier_flight->witness(earlier));
        }
        witnesses.push_back(flight.witness(id));
        witnesses.push_back(witness_of(event));
        report(event.at,
               "message " + std::to_string(id) + " from <" + std::to_string(flight.pair.sender) +
                   "> was taken by <" + std::to_string(flight.pair.receiver) +
                   "> before message " + std::to_string(earlier) + " sent earlier on the same pair",
               std::move(witnesses));
    }
}

// -- call_outcome -------------------------------------------------------------------------

bool CallOutcomeMonitor::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::call, trace::call_result});
}

void CallOutcomeMonitor::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::call)) {
        const auto key = std::make_pair(field_uint(event, trace::caller), field_uint(event, trace::ref));
        if (!open_.emplace(key, witness_of(event)).second) {
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
               {started});
    }
}

// -- sender_preservation ------------------------------------------------------------------

bool SenderPreservation::watches(const sim::TraceKey& kind) const {
    return kind_is_one_of(kind, {trace::send, trace::call, trace::forward, trace::take,
                                 trace::response, trace::response_dropped});
}

void SenderPreservation::on_event(const sim::TraceEvent& event) {
    if (is_kind(event, trace::send)) {
        const std::uint64_t id = field_uint(event, layout::send::id);
        if (id >= origin_.size()) {
            origin_.resize(std::max<std::size_t>(id + 1, 2 * origin_.size()));
        }
        origin_[id] = Origin{field_uint(event, layout::send::from),
                             field_uint(event, layout::send::to), event.seq, event.at, true};
        return;
    }
    if (is_kind(event, trace::call)) {
        caller_of_[field_uint(event, trace::ref)] = field_uint(event, trace::caller);
        return;
    }
    const bool forwarded = is_kind(event, trace::forward);
    if (forwarded || is_kind(event, trace::take)) {
        const std::uint64_t id =
            field_uint(event, forwarded ? layout::forward::id : layout::take::id);
        if (id >= origin_.size() || !origin_[id].live) {
            return;
        }
        const Origin& origin = origin_[id];
        const std::uint64_t from =
            field_uint(event, forwarded ? layout::forward::from : layout::take::from);
        if (from != origin.from) {
            report(event.at,
                   "message " + std::to_string(id) + " arrived with From <" +
                       std::to_string(from) + "> instead of the original sender <" +
                       std::to_string(origin.from) + ">",
                   {Witness{origin.seq, origin.at,
                            "send id=" + std::to_string(id) + " from=" +
                                std::to_string(origin.from) + " to=" + std::to_string(origin.to)},
                    witness_of(event)});
        }
        return;
    }
    if (is_kind(event, trace::response) || is_kind(event, trace::response_dropped)) {
        auto found = caller_of_.find(field_uint(event, trace::ref));
        if (found == caller_of_.end()) {
            return;
        }
        const std::uint64_t to = field_uint(event, trace::to);
        if (to != found->second) {
            report(event.at,
                   "the response to ref " + std::to_string(found->first) + " went to <" +
                       std::to_string(to) + "> instead of the caller <" +
                       std::to_string(found->second) + ">",
                   {witness_of(event)});
        }
    }
}

} // namespace routesim::properties
