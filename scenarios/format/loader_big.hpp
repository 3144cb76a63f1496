// Generated 10,000-node scenarios for the loader benchmark (loader_bench.cpp) and its
// correctness test (loader_big_test.cpp): the JSON text, made in memory, and the node and
// process counts a correct load and build must give.
// Test and benchmark support; plain JSON, no runtime.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace routesim::scenarios::big {

/// A generated scenario and what loading and building it must give.
struct Generated {
    std::string text;
    /// Topology nodes after `repeat` (the root included).
    std::uint64_t nodes = 0;
    /// Topology processes when built (pools multiply their worker).
    std::uint64_t processes = 0;
    /// Clients (workload `from` names).
    std::uint64_t clients = 0;
    /// Registered names after the build (named topology processes and clients).
    std::uint64_t registered = 0;
};

/// A supervisor of `routers` routers (one `repeat` entry), each with `routes` routes (one
/// `repeat` route entry) whose worker is a pool of `pool_size` echo actors; hash routing by
/// prefix, one client sending to every router.
/// Nodes: 1 + routers x (1 + 2 x routes). Processes: 1 + routers x (1 + routes x (1 + pool_size)).
inline Generated tree(std::uint64_t routers = 100, std::uint64_t routes = 50,
                      std::uint64_t pool_size = 2) {
    using nlohmann::json;
    json router = {
        {"kind", "router"},
        {"name", "router:{i}"},
        {"repeat", routers},
        {"routes",
         json::array({{{"repeat", routes},
                       {"name", "shard:{i}"},
                       {"worker",
                        {{"kind", "pool"},
                         {"size", pool_size},
                         {"worker", {{"kind", "actor"}, {"behavior", {{"type", "echo"}}}}}}}}})},
        {"route_message", {{"hash", "key"}, {"prefix", "shard:"}, {"count", routes}}},
        {"route_call", {{"route", "shard:0"}}},
    };
    json workload = json::array();
    for (std::uint64_t i = 0; i < routers; i++) {
        workload.push_back({{"from", "client"},
                            {"to", "router:" + std::to_string(i)},
                            {"send", {{"type", "Order"}, {"key", "$i"}}},
                            {"count", 10}});
    }
    const json scenario = {
        {"name", "big-tree"},
        {"topology",
         {{"kind", "supervisor"},
          {"name", "root"},
          {"type", "one_for_one"},
          {"children", json::array({router})}}},
        {"workload", workload},
        {"expect", {{"routes", {{"router:0", {{"shard:0", {{"state", "running"}}}}}}}}},
    };
    Generated out;
    out.text = scenario.dump();
    out.nodes = 1 + routers * (1 + 2 * routes);
    out.processes = 1 + routers * (1 + routes * (1 + pool_size));
    out.clients = 1;
    out.registered = 1 + routers + out.clients;
    return out;
}

/// A supervisor with `children` named sink actors, written out one object each (no `repeat`),
/// so the text is large and the parser does all the work.
/// Nodes and processes: 1 + children.
inline Generated flat(std::uint64_t children = 9'999) {
    using nlohmann::json;
    json list = json::array();
    for (std::uint64_t i = 0; i < children; i++) {
        list.push_back({{"kind", "actor"},
                        {"name", "worker:" + std::to_string(i)},
                        {"behavior", {{"type", "sink"}}}});
    }
    const json scenario = {
        {"name", "big-flat"},
        {"topology",
         {{"kind", "supervisor"},
          {"name", "root"},
          {"type", "one_for_one"},
          {"restart", {{"intensity", 10}}},
          {"children", list}}},
        {"workload", json::array({{{"from", "client"},
                                   {"to", "worker:" + std::to_string(children - 1)},
                                   {"send", {{"type", "Ping"}}}}})},
    };
    Generated out;
    out.text = scenario.dump();
    out.nodes = 1 + children;
    out.processes = 1 + children;
    out.clients = 1;
    out.registered = 1 + children + out.clients;
    return out;
}

/// One router with `routes` owned routes written out one entry each, each worker a sink
/// actor; by_type routing over all of them.
/// Nodes and processes: 1 + routes.
inline Generated flat_router(std::uint64_t routes = 9'999) {
    using nlohmann::json;
    json list = json::array();
    json by_type = json::object();
    for (std::uint64_t i = 0; i < routes; i++) {
        const std::string name = "route:" + std::to_string(i);
        list.push_back(
            {{"name", name}, {"worker", {{"kind", "actor"}, {"behavior", {{"type", "sink"}}}}}});
        by_type["Type" + std::to_string(i)] = name;
    }
    const json scenario = {
        {"name", "big-flat-router"},
        {"topology",
         {{"kind", "router"},
          {"name", "router"},
          {"routes", list},
          {"route_message", {{"by_type", by_type}}}}},
        {"workload",
         json::array(
             {{{"from", "client"}, {"to", "router/route:0"}, {"send", {{"type", "Type0"}}}}})},
    };
    Generated out;
    out.text = scenario.dump();
    out.nodes = 1 + routes;
    out.processes = 1 + routes;
    out.clients = 1;
    out.registered = 1 + out.clients;
    return out;
}

} // namespace routesim::scenarios::big
