// Monitor base, the monitor set and event helpers.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/monitor.hpp"

#include <algorithm>

#include "properties/topology_view.hpp"
#include "sim/assert.hpp"

namespace routesim::properties {
namespace {

// The taker of a take (0 when it does not decode, as no process has pid 0).
std::uint64_t take_pid(EventDecodes& decodes, const sim::TraceEvent& event) {
    const runtime::ev::Take* take = decodes.get<runtime::ev::Take>(event);
    return take != nullptr ? take->pid.value : 0;
}

} // namespace

std::string Witness::line() const {
    return "#" + std::to_string(seq) + " @" + sim::format_instant(at) + " " + text;
}

std::string Violation::to_string() const {
    std::string text = invariant + " violated at " + sim::format_instant(at) + ": " + explanation;
    for (const Witness& witness : witnesses) {
        text += "\n    " + witness.line();
    }
    return text;
}

Monitor::Monitor() = default;

Monitor::~Monitor() = default;

void Monitor::start_over() {
    violations_.clear();
    follow_every_take(false);
    if (own_view_ != nullptr) {
        own_view_->reset();
    }
    reset();
}

const TopologyView& Monitor::own_view() const {
    if (own_view_ == nullptr) {
        own_view_ = std::make_unique<TopologyView>();
    }
    return *own_view_;
}

void Monitor::feed_own_view_slow(EventKind kind, const sim::TraceEvent& event) {
    RS_ASSERT(set_ == nullptr);
    if (own_view_ == nullptr) {
        own_view_ = std::make_unique<TopologyView>();
        names_changed(); // names() is the new view from now on
    }
    own_view_->apply(kind, event);
}

void Monitor::report(sim::Instant at, std::string explanation, std::vector<Witness> witnesses) {
    if (violations_.size() >= violations_max) {
        return;
    }
    violations_.push_back(
        Violation{std::string(name()), at, std::move(explanation), std::move(witnesses)});
    if (recorded_ != nullptr) {
        ++*recorded_;
    }
}

void Monitor::change_every_take(bool on) {
    follows_every_take_ = on;
    if (set_ != nullptr && followed_takes_only_) {
        set_->every_take_ = on ? set_->every_take_ + 1 : set_->every_take_ - 1;
        set_->narrowing_ = set_->narrows_takes_ && set_->every_take_ == 0;
    }
}

MonitorSet::MonitorSet() : view_(std::make_unique<TopologyView>()) {
}

MonitorSet::~MonitorSet() = default;

void MonitorSet::keep_view() {
    RS_ASSERT(view_->processes().empty()); // before the first event
    feeds_view_ = true;
    kinds_.clear(); // slots are recomputed per kind
    kinds_mask_ = 0;
    kinds_used_ = 0;
    for (const auto& monitor : monitors_) {
        monitor->names_changed(); // names() is the fed view from now on
    }
}

void MonitorSet::add(std::unique_ptr<Monitor> monitor) {
    RS_ASSERT(monitor != nullptr);
    RS_ASSERT(find(monitor->name()) == nullptr);
    RS_ASSERT(monitor->violations().empty() && monitor->recorded_ == nullptr);
    RS_ASSERT(monitor->set_ == nullptr);
    for (const auto& earlier : monitors_) {
        monitor->share_state_with(*earlier);
    }
    monitor->recorded_ = &recorded_;
    monitor->set_ = this;
    narrows_takes_ = narrows_takes_ || monitor->followed_takes_only_;
    feeds_view_ = feeds_view_ || monitor->reads_view();
    narrowing_ = narrows_takes_ && every_take_ == 0;
    monitors_.push_back(std::move(monitor));
    for (const auto& joined : monitors_) {
        joined->names_changed(); // the new one's set, and the view if it now feeds it
    }
    kinds_.clear(); // watchers are recomputed per kind
    kinds_mask_ = 0;
    kinds_used_ = 0;
}

void MonitorSet::index_kinds(std::size_t slots) {
    RS_ASSERT(slots > 0 && (slots & (slots - 1)) == 0);
    std::vector<KindSlot> old = std::move(kinds_);
    kinds_.assign(slots, KindSlot{});
    kinds_mask_ = slots - 1;
    kinds_used_ = 0;
    for (KindSlot& slot : old) {
        if (!slot.used) {
            continue;
        }
        std::size_t at = slot.hash & (slots - 1);
        while (kinds_[at].used) {
            at = (at + 1) & (slots - 1);
        }
        kinds_[at] = std::move(slot);
        kinds_used_++;
    }
}

const MonitorSet::KindSlot& MonitorSet::slot_of(const sim::TraceKey& kind) {
    if (kinds_.empty()) {
        index_kinds(64);
    }
    const std::size_t mask = kinds_.size() - 1;
    for (std::size_t at = kind.hash & mask;; at = (at + 1) & mask) {
        KindSlot& slot = kinds_[at];
        if (!slot.used) {
            // A kind not seen yet (once per kind per run): keep the table at most half full.
            if (2 * (kinds_used_ + 1) > kinds_.size()) {
                index_kinds(2 * kinds_.size());
                return slot_of(kind);
            }
            slot.used = true;
            slot.hash = kind.hash;
            slot.name = std::string(kind.name);
            slot.code = event_kind_of(kind);
            slot.last_text = kind.name.data();
            slot.feeds_view = feeds_view_ && TopologyView::watches(slot.code);
            slot.watchers.reserve(monitors_.size());
            for (const auto& monitor : monitors_) {
                if (monitor->watches(kind)) {
                    slot.watchers.push_back(monitor.get());
                    if (!monitor->followed_takes_only_) {
                        slot.watchers_of_unfollowed.push_back(monitor.get());
                    }
                }
            }
            kinds_used_++;
            return slot;
        }
        if (same_kind_address(slot, kind)) {
            return slot;
        }
        if (slot.hash == kind.hash && slot.name == kind.name) {
            slot.last_text = kind.name.data(); // the kind arrived with another text: remember it
            return slot;
        }
    }
}

void MonitorSet::on_event(const sim::TraceEvent& event) {
    // The common case inline: the kind's home slot holds it, matched by hash and text address.
    const KindSlot* found = nullptr;
    if (!kinds_.empty()) {
        const KindSlot& home = kinds_[event.kind.hash & kinds_mask_];
        if (same_kind_address(home, event.kind)) {
            found = &home;
        }
    }
    const KindSlot& slot = found != nullptr ? *found : slot_of(event.kind);
    decodes_.begin(event); // the view and the monitors share each decode of this event
    // A take by a process no monitor follows skips the monitors that read followed takes only
    // (the pid read as they read it, so that a take they would act on is never skipped).
    const bool unfollowed =
        slot.code == EventKind::Take && narrowing_ && !is_followed(take_pid(decodes_, event));
    const std::vector<Monitor*>& watchers =
        unfollowed ? slot.watchers_of_unfollowed : slot.watchers;
    // The code and the bounds in locals: a monitor's call could change memory, so members read
    // in the loop would be read again after every call.
    const EventKind code = slot.code;
    if (slot.feeds_view) {
        view_->apply(code, event, decodes_); // before the monitors, which read it
    }
    Monitor* const* next = watchers.data();
    Monitor* const* const end = next + watchers.size();
    for (; next != end; ++next) {
        // A monitor that follows a process during this take has missed none of its takes that
        // matter: it follows a process before that process's first take it reads.
        (*next)->on_kind_event(code, event);
    }
    if (world_ == nullptr || recorded_ == stopped_) {
        return; // the common path: nothing new was recorded
    }
    stop_world();
}

// Out of line, so that on_event saves no registers and keeps no stack for the message.
[[gnu::noinline]] void MonitorSet::stop_world() {
    stopped_ = recorded_;
    const Violation* first = first_violation();
    RS_ASSERT(first != nullptr);
    world_->request_stop(first->invariant + " violated");
}

bool MonitorSet::is_followed_slow(std::uint64_t pid) const {
    return std::binary_search(followed_.begin(), followed_.end(), pid);
}

void MonitorSet::follow(std::uint64_t pid) {
    if (is_followed(pid)) {
        return;
    }
    followed_.insert(std::upper_bound(followed_.begin(), followed_.end(), pid), pid);
    followed_low_ = followed_.front();
    followed_high_ = followed_.back();
    RS_ASSERT(is_followed(pid));
}

void MonitorSet::reset() {
    for (const auto& monitor : monitors_) {
        monitor->start_over();
    }
    view_->reset();
    followed_.clear(); // keeps its capacity for the next run
    followed_low_ = UINT64_MAX;
    followed_high_ = 0;
    world_ = nullptr;
    recorded_ = 0;
    stopped_ = 0;
}

void MonitorSet::finish(sim::Instant end, bool idle) {
    for (const auto& monitor : monitors_) {
        monitor->finish(end, idle);
    }
}

const Violation* MonitorSet::first_violation() const {
    const Violation* first = nullptr;
    for (const auto& monitor : monitors_) {
        for (const Violation& violation : monitor->violations()) {
            if (first == nullptr || violation.at < first->at) {
                first = &violation;
            }
            break;
        }
    }
    return first;
}

Monitor* MonitorSet::find(std::string_view name) const {
    for (const auto& monitor : monitors_) {
        if (monitor->name() == name) {
            return monitor.get();
        }
    }
    return nullptr;
}

} // namespace routesim::properties
