// Test support for the monitor tests: replaying a recorded trace (as recorded, or mutated)
// into a sink, and a bare bus for hand-built traces with the runtime's event formats.
// Part of properties/: uses runtime/ and sim/ only (test support, no GoogleTest).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/router.hpp"
#include "runtime/supervisor.hpp"
#include "runtime/trace_keys.hpp"
#include "sim/assert.hpp"
#include "sim/trace.hpp"

namespace routesim::properties::testing {

/// Feeds recorded events to `sink` exactly as the bus delivered them.
inline void replay(const std::deque<sim::TraceRecord>& records, sim::TraceSink& sink) {
    std::vector<sim::TraceKey> keys; // fields refer to their keys: keep them apart
    std::vector<sim::TraceField> fields;
    for (const sim::TraceRecord& record : records) {
        fields.clear();
        keys.clear();
        keys.reserve(record.fields.size()); // no reallocation while fields refer to keys
        for (const auto& [key, value] : record.fields) {
            keys.emplace_back(key);
            fields.push_back(sim::TraceField{
                keys.back(), std::visit([](const auto& v) { return sim::TraceValue(v); }, value)});
        }
        sink.on_event(sim::TraceEvent{record.seq, record.at, sim::TraceKey(record.kind),
                                      fields.data(), fields.size()});
    }
}

/// The index of the first record of `kind` for which `match` holds. Precondition: one exists.
inline std::size_t find_record(const std::deque<sim::TraceRecord>& records, std::string_view kind,
                               const std::function<bool(const sim::TraceRecord&)>& match) {
    for (std::size_t i = 0; i < records.size(); i++) {
        if (records[i].kind == kind && match(records[i])) {
            return i;
        }
    }
    RS_ASSERT(false);
    return 0;
}

/// Sets the existing field `key` of `record` to `value`.
inline void set_field(sim::TraceRecord& record, std::string_view key,
                      sim::TraceRecord::Value value) {
    for (auto& field : record.fields) {
        if (field.first == key) {
            field.second = std::move(value);
            return;
        }
    }
    RS_ASSERT(false);
}

/// A bare trace bus with a settable clock and one helper per event format used by the
/// router and supervisor monitors (fields in the order the runtime emits them).
struct HandTrace {
    using U = std::uint64_t;
    sim::TraceBus bus;
    sim::Instant now = sim::Instant::zero();

    void emit(sim::TraceKey kind, std::initializer_list<sim::TraceField> fields) {
        bus.emit(now, kind, fields);
    }
    void spawn(U pid, U parent, std::string_view kind = "Actor") {
        emit(runtime::trace::spawn, {{runtime::trace::pid, pid},
                                     {runtime::trace::parent, parent},
                                     {runtime::trace::name, ""},
                                     {runtime::trace::behavior, "test"},
                                     {runtime::trace::kind, kind}});
    }
    void spawn_failed(U pid, U parent) {
        emit(runtime::trace::spawn_failed, {{runtime::trace::pid, pid},
                                            {runtime::trace::parent, parent},
                                            {runtime::trace::name, ""},
                                            {runtime::trace::reason, "spawn refused"}});
    }
    void exit(U pid) {
        emit(runtime::trace::exit, {{runtime::trace::pid, pid},
                                    {runtime::trace::reason, "kill"},
                                    {runtime::trace::name, ""}});
    }
    /// A take; queue 2 is Main, type 0 Regular, 1 Request, 3 Exit (queue 0).
    void take(U pid, U id, U queue, U type, U from) {
        emit(runtime::trace::take, {{runtime::trace::pid, pid},
                                    {runtime::trace::id, id},
                                    {runtime::trace::queue, queue},
                                    {runtime::trace::type, type},
                                    {runtime::trace::from, from}});
    }
    void forward(U id, U by, U to, U from) {
        emit(runtime::trace::forward, {{runtime::trace::id, id},
                                       {runtime::trace::by, by},
                                       {runtime::trace::to, to},
                                       {runtime::trace::from, from},
                                       {runtime::trace::queue, U{2}}});
    }
    void route_init(U router, std::string_view name, U worker) {
        emit(runtime::trace::route_init, {{runtime::trace::router, router},
                                          {runtime::trace::name, name},
                                          {runtime::trace::worker, worker}});
    }
    void route(U router, U id, std::string_view name, std::string_view resolution, U worker) {
        emit(runtime::trace::route, {{runtime::trace::router, router},
                                     {runtime::trace::id, id},
                                     {runtime::trace::name, name},
                                     {runtime::trace::resolution, resolution},
                                     {runtime::trace::worker, worker}});
    }
    void route_admin(U router, std::string_view op, std::string_view name,
                     std::string_view result) {
        emit(runtime::trace::route_admin, {{runtime::trace::router, router},
                                           {runtime::trace::op, op},
                                           {runtime::trace::name, name},
                                           {runtime::trace::result, result}});
    }
    void route_pending(U router, std::string_view name, std::string_view from, std::string_view to,
                       U worker) {
        emit(runtime::trace::route_pending, {{runtime::trace::router, router},
                                             {runtime::trace::name, name},
                                             {runtime::trace::from_state, from},
                                             {runtime::trace::to_state, to},
                                             {runtime::trace::worker, worker}});
    }
    void route_restart(U router, std::string_view name, std::string_view restart, U worker,
                       U slot) {
        emit(runtime::trace::route_restart, {{runtime::trace::router, router},
                                             {runtime::trace::name, name},
                                             {runtime::trace::restart, restart},
                                             {runtime::trace::worker, worker},
                                             {runtime::trace::slot, slot}});
    }
    void sup_restart(U sup, std::string_view child, U pid, U intensity, std::int64_t period_ns) {
        emit(runtime::trace::sup_restart, {{runtime::trace::sup_key_sup, sup},
                                           {runtime::trace::sup_key_child, child},
                                           {runtime::trace::pid, pid},
                                           {runtime::trace::reason, "boom"},
                                           {runtime::trace::sup_key_intensity, intensity},
                                           {runtime::trace::sup_key_period_ns, period_ns}});
    }
    void sup_intensity_exceeded(U sup, std::string_view child, U pid) {
        emit(runtime::trace::sup_intensity_exceeded, {{runtime::trace::sup_key_sup, sup},
                                                      {runtime::trace::sup_key_child, child},
                                                      {runtime::trace::pid, pid},
                                                      {runtime::trace::reason, "boom"}});
    }
};

} // namespace routesim::properties::testing
