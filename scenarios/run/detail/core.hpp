// Runner internals: where a run happens (its World, Node, scenario and step clock), the
// sink its parts send verdicts to (Checks), and the step clock itself. Private to
// scenarios/run/.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/node.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/assert.hpp"
#include "sim/world.hpp"

namespace routesim::scenarios::detail {

/// Wraps the node's step runner to count the process steps taken at the current instant, so
/// that a fault can be placed "after the k-th step at time t" and pinned there.
class StepClock final : public sim::StepRunner {
public:
    StepClock(sim::World& world, sim::StepRunner& inner) : world_(world), inner_(inner) {}
    void run_step(sim::TaskId task) override;
    /// Steps completed at the current instant (inside a step: the ones before it).
    std::uint64_t steps_now() const { return world_.now().ns() == instant_ns_ ? steps_ : 0; }
    bool in_step() const { return in_step_; }
    /// Runs after every step (set only when pinned actions wait for a step count).
    std::function<void()> after_step;

private:
    sim::World& world_;
    sim::StepRunner& inner_;
    std::int64_t instant_ns_ = -1;
    std::uint64_t steps_ = 0;
    bool in_step_ = false;
};

/// Where a run happens, lent to each of its parts at construction (all owned by the Runner).
struct RunCore {
    sim::World& world;
    runtime::Node& node;
    const Scenario& scenario;
    StepClock& clock;
};

/// What a check is about, so that the events deciding it can be found when it fails
/// (check_witnesses.hpp): a topic, the scenario target it names and, per topic, a name.
struct CheckSubject {
    enum class Topic : std::uint8_t {
        None,        ///< nothing to look for (a timeline action not reached, a missed pin)
        Process,     ///< `alive` / `dead`: the target's spawns, exits and kills
        Route,       ///< `routes.<r>.<name>.state` and timeline management outcomes
        Restarts,    ///< `routes.<r>.<name>.restarts`
        RouteFailed, ///< `route_failed.<r>.<reason>`
        Client,      ///< `clients.<c>.received` / `.types.<T>`: the client's calls and replies
        ClientError, ///< `clients.<c>.errors.<E>`: what ended its calls or sends with E
        Takes,       ///< `processed`: the messages the target took
        Inspect,     ///< `inspect`: its exit and its children's spawns and exits, else its takes
    };
    Topic topic = Topic::None;
    /// The target as the file writes it: a process, router or client. Views of the
    /// scenario's own strings (which outlive the run): a check costs no copy for them.
    std::string_view target;
    /// Route: the route; RouteFailed: the reason; ClientError: the error; else "".
    std::string_view name;
};

/// The checked expectations of a run, in the order they were made (timeline outcomes as
/// they arrive, then the end-of-run `expect`), each stamped with the virtual time it was made.
class Checks {
public:
    explicit Checks(const sim::World& world) : world_(world) {}
    Checks(const Checks&) = delete;
    Checks& operator=(const Checks&) = delete;

    /// Adds a check that holds when `actual` equals `expected`.
    void add(std::string what, std::string expected, std::string actual, std::string pointer,
             CheckSubject subject = {}) {
        const bool ok = expected == actual;
        add(std::move(what), std::move(expected), std::move(actual), std::move(pointer), ok,
            std::move(subject));
    }
    /// The same, with the verdict given (the actual text may say more than the value).
    void add(std::string what, std::string expected, std::string actual, std::string pointer,
             bool ok) {
        add(std::move(what), std::move(expected), std::move(actual), std::move(pointer), ok, {});
    }
    /// The same, saying what the check is about (its witnesses are found from `subject`).
    void add(std::string what, std::string expected, std::string actual, std::string pointer,
             bool ok, CheckSubject subject) {
        RS_ASSERT(!what.empty());
        RS_ASSERT(!pointer.empty());
        checks_.push_back(Check{std::move(what),
                                std::move(expected),
                                std::move(actual),
                                ok,
                                std::move(pointer),
                                world_.now(),
                                {}});
        subjects_.push_back(std::move(subject));
        RS_ASSERT(subjects_.size() == checks_.size());
    }
    /// Every check so far.
    const std::vector<Check>& all() const { return checks_; }
    /// What each check is about, in the order of all().
    const std::vector<CheckSubject>& subjects() const { return subjects_; }
    /// Hands the checks over (take() leaves the subjects, for witnesses of the checks taken).
    std::vector<Check> take() { return std::move(checks_); }

private:
    const sim::World& world_;
    std::vector<Check> checks_;
    std::vector<CheckSubject> subjects_; // one per check, in the same order
};

} // namespace routesim::scenarios::detail
