// Loader internals: warnings about a scenario that loaded. A routing rule's route name that
// nothing in the scenario can ever provide (usually a typo), and a run.max_events that the
// delivered messages alone would exceed. Private to scenarios/; never throws.
#include <algorithm>
#include <set>

#include "scenarios/format/detail/parse.hpp"
#include "scenarios/format/resolve.hpp"

namespace routesim::scenarios::detail {
namespace {

/// Names looked up per hash prefix rule at most (a count beyond is checked up to here).
constexpr std::uint64_t prefix_names_max = 10'000;

class RuleChecker {
public:
    RuleChecker(const Scenario& scenario, std::vector<Warning>& out)
        : scenario_(scenario), resolver_(scenario), out_(out) {}

    void router(const Node& node) {
        for (const Rule* rule : {&node.router.route_message, &node.router.route_call}) {
            if (rule->kind != RuleKind::Discard) {
                check_rule(node, *rule);
            }
        }
    }

private:
    /// Whether the router's resolution (own routes, then the registry: router.md) can ever
    /// find `name`: a route of this router (timeline and router.admin additions included), a
    /// registered name, or a client.
    bool provided(const Node& node, std::string_view name) const {
        const std::vector<std::string> routes = resolver_.route_names(node);
        return name == discard_route ||
               std::find(routes.begin(), routes.end(), name) != routes.end() ||
               !resolver_.named(name).empty() ||
               std::find(scenario_.clients.begin(), scenario_.clients.end(), name) !=
                   scenario_.clients.end();
    }

    std::string near(const Node& node, std::string_view name) const {
        std::vector<std::string> names = resolver_.route_names(node);
        names.insert(names.end(), scenario_.clients.begin(), scenario_.clients.end());
        for (std::string_view candidate : resolver_.registered_names()) {
            names.emplace_back(candidate);
        }
        const std::vector<std::string_view> views(names.begin(), names.end());
        const auto found = closest(name, views);
        return found.has_value() ? "; did you mean " + quote(*found) + "?" : std::string();
    }

    void warn(const Node& node, const std::string& pointer, std::string_view name) {
        if (provided(node, name)) {
            return;
        }
        out_.push_back(Warning{pointer, "route " + quote(name) + " is no route of router " +
                                            quote(node.path) +
                                            ", no registered name and no client, so what the "
                                            "rule sends there fails with gen.ErrProcessUnknown" +
                                            near(node, name)});
    }

    void check_rule(const Node& node, const Rule& rule) {
        for (const auto& [type, route] : rule.by_type) {
            warn(node, rule.pointer + "/by_type/" + pointer_key(type), route);
        }
        for (std::size_t i = 0; i < rule.routes.size(); i++) {
            warn(node, rule.pointer + "/routes/" + std::to_string(i), rule.routes[i]);
        }
        if (rule.kind == RuleKind::Hash && rule.routes.empty()) {
            check_prefix(node, rule);
        }
        if (rule.kind == RuleKind::Route) {
            warn(node, rule.pointer + "/route", rule.route);
        }
        warn(node, rule.pointer + "/default", rule.default_route);
    }

    void check_prefix(const Node& node, const Rule& rule) {
        std::uint64_t missing = 0;
        std::string first;
        const std::uint64_t checked = std::min(rule.count, prefix_names_max);
        for (std::uint64_t i = 0; i < checked; i++) {
            const std::string name = rule.prefix + std::to_string(i);
            if (!provided(node, name)) {
                missing++;
                first = first.empty() ? name : first;
            }
        }
        if (missing > 0) {
            out_.push_back(
                Warning{rule.pointer + "/prefix",
                        std::to_string(missing) + " of the " + std::to_string(checked) +
                            " routes " + quote(rule.prefix + "0") + " to " +
                            quote(rule.prefix + std::to_string(checked - 1)) +
                            " are no route of router " + quote(node.path) +
                            ", no registered name and no client (the first is " + quote(first) +
                            "), so what the rule sends there fails with gen.ErrProcessUnknown"});
        }
    }

    const Scenario& scenario_;
    TargetResolver resolver_;
    std::vector<Warning>& out_;
};

/// Every node of the topology, timeline workers and router.admin workers, in file order.
std::vector<const Node*> every_node(const Scenario& scenario) {
    std::vector<const Node*> roots{&scenario.topology};
    for (const Action& action : scenario.timeline) {
        if (action.worker.has_value()) {
            roots.push_back(&*action.worker);
        }
    }
    for (const MessageWorker& message : scenario.message_workers) {
        roots.push_back(&message.worker);
    }
    std::vector<const Node*> nodes;
    for (const Node* root : roots) {
        std::vector<const Node*> stack{root};
        while (!stack.empty()) {
            const Node* node = stack.back();
            stack.pop_back();
            nodes.push_back(node);
            for (auto child = node->children.rbegin(); child != node->children.rend(); ++child) {
                stack.push_back(&*child);
            }
        }
    }
    return nodes;
}

} // namespace

std::vector<Warning> scenario_warnings(const Scenario& scenario) {
    std::vector<Warning> found;
    RuleChecker rules(scenario, found);
    for (const Node* node : every_node(scenario)) {
        if (node->kind == NodeKind::Router) {
            rules.router(*node);
        }
    }
    // validate.cpp rejects max_events <= the messages fired; a delivered one costs 2 events.
    const std::uint64_t messages = fired_messages(scenario);
    const std::uint64_t delivered = messages > UINT64_MAX / 2 ? UINT64_MAX : 2 * messages;
    if (scenario.run.max_events <= delivered) {
        found.push_back(Warning{
            // The default is only ever the value of an absent field.
            scenario.run.max_events != RunOptions{}.max_events ? "/run/max_events" : "",
            std::to_string(scenario.run.max_events) + " events cannot hold the " +
                std::to_string(messages) +
                " messages when each is delivered (2 events each: the timer that sends it and "
                "the receiver's step, " +
                std::to_string(delivered) +
                " in all), so the run fails at its event limit "
                "unless sends fail"});
    }
    // Repeat copies share pointers and say the same thing: keep the first of each.
    std::vector<Warning> unique;
    std::set<std::pair<std::string, std::string>> seen;
    for (Warning& warning : found) {
        if (unique.size() < warnings_max && seen.emplace(warning.pointer, warning.message).second) {
            unique.push_back(std::move(warning));
        }
    }
    return unique;
}

} // namespace routesim::scenarios::detail
