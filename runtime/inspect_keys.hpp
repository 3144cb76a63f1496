// The keys of the built-in Inspect maps, per process kind: Router::stats (router.cpp),
// Pool::statistics (pool.cpp) and the supervisor strategies (supervisor*.cpp). The loader checks
// expect.inspect keys against these tables; *_inspect_keys_test.cpp pin them to the maps.
// Part of runtime/: standard library only.
#pragma once

#include <array>
#include <string_view>

namespace routesim::runtime::inspect_keys {

/// Router (R40): the fixed keys.
inline constexpr std::array<std::string_view, 10> router = {
    "ergo:discarded",    "ergo:failed",        "ergo:forwarded",       "ergo:mailbox_size",
    "ergo:restarts",     "ergo:routes_active", "ergo:routes_disabled", "ergo:routes_pending",
    "ergo:routes_total", "ergo:type"};
/// Router: one key per route, `ergo:route:<name>:<field>` ("pending" only while pending).
inline constexpr std::string_view router_route_prefix = "ergo:route:";
inline constexpr std::array<std::string_view, 3> router_route_fields = {"disabled", "pending",
                                                                        "pid"};

/// Pool (§5, newer upstream).
inline constexpr std::array<std::string_view, 6> pool = {
    "ergo:messages_forwarded", "ergo:messages_unhandled",  "ergo:pool_size",
    "ergo:worker_behavior",    "ergo:worker_mailbox_size", "ergo:worker_restarts"};

/// Every supervisor type.
inline constexpr std::array<std::string_view, 5> supervisor = {
    "intensity", "period", "restarts_count", "strategy", "type"};
/// One-for-one, all-for-one and rest-for-one add these.
inline constexpr std::array<std::string_view, 4> supervisor_named = {
    "auto_shutdown", "children_disabled", "children_running", "children_total"};
/// All-for-one and rest-for-one add this one too.
inline constexpr std::string_view supervisor_keep_order = "keep_order";
/// Simple-one-for-one adds these, and `child:<spec name>` per child spec.
inline constexpr std::array<std::string_view, 3> supervisor_simple = {
    "instances_total", "specs_disabled", "specs_total"};
inline constexpr std::string_view supervisor_simple_child_prefix = "child:";

} // namespace routesim::runtime::inspect_keys
