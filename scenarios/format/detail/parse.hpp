// Loader internals: the shared state of one load and the section parsers (topology, run,
// workload, timeline, faults, expect) plus the cross-reference validation.
// Private to scenarios/; every parser returns false after recording its first error, and the
// lists (workload, timeline, topology children, expect sections) go on with the next item.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenarios/format/detail/reader.hpp"
#include "scenarios/format/loader.hpp"
#include "scenarios/format/model.hpp"

namespace routesim::scenarios::detail {

/// The error sink, the limits and the running budgets of one load.
struct LoadContext {
    Errors errors;
    LoadLimits limits;
    /// Topology and timeline-worker nodes created so far (after repeat expansion).
    std::uint64_t nodes = 0;
    /// JSON values created by repeat copies so far.
    std::uint64_t repeat_values = 0;
    /// Messages of the workload and of timeline sends and calls so far.
    std::uint64_t messages = 0;
    /// Errors that may have lost a registered name or a client (in the topology, a worker, a
    /// workload entry without its `from`, an action whose verb may add a route or a client).
    /// The cross-reference passes run only when there are none.
    std::uint64_t name_errors = 0;
    /// JSON pointers of the parts that had an error and that the cross-reference passes skip:
    /// workload entries, timeline actions, expect sections ("/expect/alive"), "/faults",
    /// "/run".
    std::set<std::string, std::less<>> failed_parts;
    /// Whether the file sets run.max_events (the event budget error points at it then).
    bool max_events_given = false;
};

/// What the root of a parsed tree is.
enum class TreeRoot : std::uint8_t {
    /// The topology root: registered under its name, if any.
    Topology,
    /// The worker of a route (timeline add_route/replace_route, router.admin message): spawned
    /// unnamed (R5), so it may not carry a `name`; `path` is its "<router>/<route>" address.
    RouteWorker,
};

/// Parses one node and its subtree (expanding `repeat` in children and route lists).
/// `path` is the node's tree path; nullopt uses its name (the topology root).
/// Cost: linear in the expanded subtree; iterative, depth checked against the limit.
bool parse_node_tree(LoadContext& context, const Located& at, std::optional<std::string> path,
                     Node& out, TreeRoot root = TreeRoot::Topology);

/// Parses a routing rule (`"discard"` or an object with by_type, hash, field or route).
bool parse_rule(Errors& errors, const Located& at, Rule& out);

/// Parses a behaviour object (`behavior`).
bool parse_behaviour(Errors& errors, const Located& at, Behaviour& out);

/// Parses a message object with a non-empty string `type`. With `generators`, the top-level
/// payload values "$i" and {"uniform": [lo, hi]} are allowed and their shape is checked.
bool parse_message(Errors& errors, const Located& at, bool generators, Json& out);

bool parse_run(LoadContext& context, const Located& at, RunOptions& out);
bool parse_workload(LoadContext& context, const Located& at, std::vector<WorkloadSource>& out);
bool parse_timeline(LoadContext& context, const Located& at, std::vector<Action>& out);
bool parse_faults(LoadContext& context, const Located& at, Faults& out);
/// Parses an expect object; each section is parsed whatever happened to the others, and a
/// section with an error is added to `context.failed_parts`.
bool parse_expect(LoadContext& context, const Located& at, Expect& out);

/// A warning about a scenario that loaded: legitimate input that is most likely a mistake.
struct Warning {
    std::string pointer;
    std::string message;
};

/// At most this many warnings are reported.
inline constexpr std::size_t warnings_max = 50;

/// The warnings of a loaded scenario (validate_warnings.cpp): routing-rule names that
/// nothing in the scenario provides, and a run.max_events below what the delivered messages
/// take. Deduplicated, at most warnings_max, in file order. Cost: rules x route names.
std::vector<Warning> scenario_warnings(const Scenario& scenario);

/// Messages whose timer fires by run.until: workload repetitions and timed timeline sends and
/// calls, one event each (validate.cpp). Saturates.
std::uint64_t fired_messages(const Scenario& scenario);

/// Checks names and targets across the whole scenario and fills `scenario.clients`:
/// unique registered names, clients that collide with no node, targets that resolve,
/// routers that are routers, and the static process count.
bool validate_scenario(LoadContext& context, Scenario& scenario);

} // namespace routesim::scenarios::detail
