// Monitor base, the monitor set and event helpers.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/monitor.hpp"

#include "sim/assert.hpp"

namespace routesim::properties {

std::string Violation::to_string() const {
    std::string text = invariant + " violated at " + sim::format_instant(at) + ": " + explanation;
    for (const Witness& witness : witnesses) {
        text += "\n    #" + std::to_string(witness.seq) + " @" + sim::format_instant(witness.at) +
                " " + witness.text;
    }
    return text;
}

void Monitor::report(sim::Instant at, std::string explanation, std::vector<Witness> witnesses) {
    if (violations_.size() >= violations_max) {
        return;
    }
    violations_.push_back(
        Violation{std::string(name()), at, std::move(explanation), std::move(witnesses)});
}

void MonitorSet::add(std::unique_ptr<Monitor> monitor) {
    RS_ASSERT(monitor != nullptr);
    RS_ASSERT(find(monitor->name()) == nullptr);
    monitors_.push_back(std::move(monitor));
}

void MonitorSet::on_event(const sim::TraceEvent& event) {
    for (const auto& monitor : monitors_) {
        monitor->on_event(event);
    }
    if (world_ == nullptr) {
        return;
    }
    std::size_t reported = 0;
    for (const auto& monitor : monitors_) {
        reported += monitor->violations().size();
    }
    if (reported > reported_) {
        reported_ = reported;
        const Violation* first = first_violation();
        RS_ASSERT(first != nullptr);
        world_->request_stop(first->invariant + " violated");
    }
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

std::uint64_t field_uint(const sim::TraceEvent& event, const sim::TraceKey& key,
                         std::uint64_t fallback) {
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (field.key.hash == key.hash && field.key.name == key.name) {
            if (field.value.type() == sim::TraceValue::Type::Int ||
                field.value.type() == sim::TraceValue::Type::Uint ||
                field.value.type() == sim::TraceValue::Type::Bool) {
                return field.value.as_uint();
            }
            return fallback;
        }
    }
    return fallback;
}

std::string_view field_text(const sim::TraceEvent& event, const sim::TraceKey& key) {
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        if (field.key.hash == key.hash && field.key.name == key.name &&
            field.value.type() == sim::TraceValue::Type::Text) {
            return field.value.as_text();
        }
    }
    return {};
}

std::string describe_event(const sim::TraceEvent& event) {
    std::string text(event.kind.name);
    for (std::size_t i = 0; i < event.field_count; i++) {
        const sim::TraceField& field = event.fields[i];
        text += " ";
        text += field.key.name;
        text += "=";
        switch (field.value.type()) {
        case sim::TraceValue::Type::Int:
            text += std::to_string(field.value.as_int());
            break;
        case sim::TraceValue::Type::Uint:
            text += std::to_string(field.value.as_uint());
            break;
        case sim::TraceValue::Type::Bool:
            text += field.value.as_bool() ? "true" : "false";
            break;
        case sim::TraceValue::Type::Text:
            text += field.value.as_text();
            break;
        }
    }
    return text;
}

Witness witness_of(const sim::TraceEvent& event) {
    return Witness{event.seq, event.at, describe_event(event)};
}

} // namespace routesim::properties
