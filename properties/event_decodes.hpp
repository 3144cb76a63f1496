// EventDecodes: the typed decodes of the event being dispatched, each made at most once, so that
// the view and every monitor of a MonitorSet read one decode of an event between them.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "properties/event_kind.hpp"
#include "runtime/events.hpp"
#include "sim/assert.hpp"
#include "sim/trace.hpp"

namespace routesim::properties {

/// See the file comment. begin() starts an event; get<E>() decodes it as E the first time it
/// is asked during that event (read_event: nothing when it does not decode) and hands out the
/// same decode after that. A decode's texts are the event's: read them only while it is
/// dispatched. Cost: begin() one increment; get<E>() one decode in place (sim::decode_into),
/// then one comparison.
class EventDecodes {
public:
    /// Starts `event`: the decodes of the previous event are forgotten.
    void begin(const sim::TraceEvent& event) {
        stamp_++;
        current_ = &event;
    }
    /// The event begun last as E, or nullptr when it does not decode as E. Precondition:
    /// `event` is the one begun last.
    template <class E>
    const E* get(const sim::TraceEvent& event) {
        RS_ASSERT(&event == current_);
        Slot<E>& slot = std::get<Slot<E>>(slots_);
        if (slot.stamp != stamp_) {
            decode(slot, event);
        }
        return slot.ok ? &slot.value : nullptr;
    }
    /// begin(event) then get<E>(event): a decode for a reader fed singly.
    template <class E>
    const E* fresh(const sim::TraceEvent& event) {
        begin(event);
        return get<E>(event);
    }

    /// The decodes made so far (a measure: how often the readers did not share one).
    std::uint64_t made() const { return made_; }

private:
    template <class E>
    struct Slot {
        E value{};
        bool ok = false;         // value is the decode of the event stamped
        std::uint64_t stamp = 0; // the event it was decoded for (stamps start at 1)
    };
    template <class... Events>
    static std::tuple<Slot<Events>...> slots_for(runtime::ev::EventList<Events...>);

    // The first get<E> of an event, out of line: the readers' later gets stay a comparison
    // (a decode inline would make every get save and restore registers).
    template <class E>
    [[gnu::noinline]] void decode(Slot<E>& slot, const sim::TraceEvent& event) {
        slot.ok = sim::decode_into(event, slot.value); // in place: no copy of the struct
        slot.stamp = stamp_;
        made_++;
    }

    decltype(slots_for(runtime::ev::AllEvents{})) slots_;
    std::uint64_t stamp_ = 0;
    const sim::TraceEvent* current_ = nullptr;
    std::uint64_t made_ = 0;
};

} // namespace routesim::properties
