// Static target resolution: what a target string ("shard_router", "client:1",
// "event_router/payments", "shard:3/#2", "sup_root/shard_router") names in a scenario, before
// anything runs. Plain lookups over the typed model; must not depend on runtime/.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/format/model.hpp"
#include "sim/result.hpp"

namespace routesim::scenarios {

/// What a target names.
struct Resolved {
    /// The node spec the target reaches; null when it names a client. For a pool worker
    /// ("pool/#2") this is the pool's worker spec.
    const Node* node = nullptr;
    /// The client name when the target names a client; empty otherwise.
    std::string client;
};

/// Resolves targets against one scenario. A target equal to a registered name (a named node of
/// the topology or of a timeline worker) or to a client names that. Otherwise it is a path:
/// the first segment is a registered name or a client, and each further segment walks the
/// tree: a supervisor's child by name, a router's route by name (routes added or replaced by
/// timeline actions included), a pool's worker as "#<index>" (index below the effective pool
/// size) or "#*". The scenario must outlive the resolver and must not change meanwhile.
class TargetResolver {
public:
    /// Indexes the scenario. Cost: linear in the number of nodes and timeline actions.
    explicit TargetResolver(const Scenario& scenario);

    /// The node or client `target` names, or a one-line reason why it names nothing (which
    /// says what was expected). Cost: proportional to the path length times the candidates.
    sim::Result<Resolved, std::string> resolve(std::string_view target) const;

    /// Every route name a router node may have: its own entries, then the names that timeline
    /// actions add or replace on it, sorted and without duplicates.
    std::vector<std::string> route_names(const Node& router) const;

    /// The nodes registered under `name` (topology first, then timeline workers); empty when
    /// none.
    const std::vector<const Node*>& named(std::string_view name) const;

    /// Every registered name (topology, timeline and router.admin workers), sorted.
    std::vector<std::string_view> registered_names() const;

private:
    struct AddedRoute {
        std::string name;
        const Node* worker = nullptr;
    };

    void index_tree(const Node& root);
    void index_timeline_routes(const Scenario& scenario);
    std::string explain_unknown(std::string_view target, std::string_view first) const;
    sim::Result<Resolved, std::string> walk(std::string_view target,
                                            const std::vector<std::string_view>& segments) const;
    /// Children of `node` reached by `segment` (several when timeline actions add variants).
    std::vector<const Node*> step(const Node& node, std::string_view prefix,
                                  std::string_view segment, std::string& reason) const;
    std::vector<const Node*> step_router(const Node& node, std::string_view prefix,
                                         std::string_view segment, std::string& reason) const;

    std::map<std::string, std::vector<const Node*>, std::less<>> names_;
    std::set<std::string, std::less<>> clients_;
    /// Router path -> routes added or replaced by timeline actions.
    std::map<std::string, std::vector<AddedRoute>, std::less<>> added_routes_;
};

} // namespace routesim::scenarios
