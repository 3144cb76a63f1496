// SharedDecodes: the route monitors' one decode of each take and route event per MonitorSet,
// and ReadsSharedDecodes, the part of a monitor that reads through one.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "properties/event_kind.hpp"
#include "properties/monitor.hpp"
#include "runtime/events.hpp"
#include "sim/assert.hpp"
#include "sim/trace.hpp"

namespace routesim::properties {

/// The route monitors' decode of the two events they read most, takes and route events,
/// shared by the monitors of one MonitorSet (Monitor::share_state_with): the first of them to
/// read an event decodes it (read_event) and the others, in the same sink call, find it by the
/// event's seq and field array; each such event is decoded once per set, not once per monitor.
/// Sound while seqs do not repeat in the stream fed (one run); clear() between runs.
class SharedDecodes {
public:
    /// `event` (a take) as ev::Take, or nullptr when it does not decode.
    const runtime::ev::Take* take(const sim::TraceEvent& event) { return take_.read(event); }
    /// `event` (a route event) as ev::Route, or nullptr when it does not decode.
    const runtime::ev::Route* route(const sim::TraceEvent& event) { return route_.read(event); }
    /// Forgets the events decoded (MonitorSet::reset: the next run's seqs start again).
    void clear() {
        take_.clear();
        route_.clear();
    }

private:
    template <class E>
    class Slot { // the last event of E's kind decoded, by its seq and field array
    public:
        const E* read(const sim::TraceEvent& event) {
            if (!held_ || seq_ != event.seq || fields_ != event.fields) {
                decoded_ = read_event<E>(event);
                seq_ = event.seq;
                fields_ = event.fields;
                held_ = true;
            }
            return decoded_ ? &*decoded_ : nullptr;
        }
        void clear() {
            held_ = false;
            decoded_.reset();
        }

    private:
        std::optional<E> decoded_; // its texts are the event's: read only in its sink call
        std::uint64_t seq_ = 0;
        const sim::TraceField* fields_ = nullptr;
        bool held_ = false;
    };
    Slot<runtime::ev::Take> take_;
    Slot<runtime::ev::Route> route_;
};

/// A monitor that reads takes and route events through a SharedDecodes, one per MonitorSet:
/// route_stability, pending_exclusivity, no_forward_to_disabled, key_affinity and
/// counter_consistency (router_monitors.hpp) decode each such event once between them.
class ReadsSharedDecodes {
public:
    virtual ~ReadsSharedDecodes() = default;
    ReadsSharedDecodes(const ReadsSharedDecodes&) = delete;
    ReadsSharedDecodes& operator=(const ReadsSharedDecodes&) = delete;
    /// The decodes this monitor reads through (one object for every reader of a set).
    const SharedDecodes* shared_decodes() const { return decodes_.get(); }

protected:
    ReadsSharedDecodes() : decodes_(std::make_shared<SharedDecodes>()) {}
    /// From share_state_with: takes `earlier`'s decodes when it reads them too (every reader
    /// of a set then holds the first reader's). Returns whether it did.
    bool adopt_decodes(const Monitor& earlier) {
        const auto* reader = dynamic_cast<const ReadsSharedDecodes*>(&earlier);
        if (reader == nullptr || reader->decodes_ == decodes_) {
            return false;
        }
        RS_ASSERT(reader->decodes_ != nullptr);
        decodes_ = reader->decodes_;
        return true;
    }
    /// For reset(): forgets the events decoded (shared: each reader of a set clears it).
    void clear_decodes() { decodes_->clear(); }
    SharedDecodes& decodes() { return *decodes_; }
    const std::shared_ptr<SharedDecodes>& decodes_ptr() const { return decodes_; }

private:
    std::shared_ptr<SharedDecodes> decodes_; // never null
};

} // namespace routesim::properties
