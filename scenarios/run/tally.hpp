// Tally: the trace counts the summary and expectations read (restarts per route, items taken
// per process). A run's own sink, or fed by the run's instrument (RunContext::tally).
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/events.hpp"
#include "sim/trace.hpp"

namespace routesim::scenarios {

/// Counts what the summary and expectations need from the trace: restarts per route and
/// messages handed to behaviours per process.
class Tally final : public sim::TraceSink {
public:
    /// `count_taken`: count the items each process takes (only `processed` expectations read
    /// them, and `take` is the most frequent event).
    explicit Tally(bool count_taken) : count_taken_(count_taken) {}
    void on_event(const sim::TraceEvent& event) override {
        // Every event of the run comes here: the common ones (another kind, or a take that is
        // not counted) leave after a compare or two.
        const std::uint64_t kind = event.kind.hash;
        if (kind == runtime::ev::Take::kind.hash ? !count_taken_
                                                 : kind != runtime::ev::RouteRestart::kind.hash)
            [[likely]] {
            return;
        }
        count(event);
    }
    /// Regular and Request items taken by pid id (0 when not counted).
    std::uint64_t taken(std::uint64_t pid) const;
    /// True when take events are counted (else only route_restart events matter here).
    bool counts_taken() const { return count_taken_; }
    /// route_restart events of router pid id `router`'s route `name`.
    std::uint64_t restarts(std::uint64_t router, std::string_view name) const;

private:
    /// The counting part of on_event, out of line (the common events return before it).
    void count(const sim::TraceEvent& event);

    bool count_taken_;
    /// By pid id: ids come from a node counter, so a dense vector (ids past `dense_max` go to
    /// the map).
    static constexpr std::uint64_t dense_max = std::uint64_t{1} << 20;
    std::vector<std::uint64_t> taken_dense_;
    std::map<std::uint64_t, std::uint64_t> taken_sparse_;
    /// route_restart counts: a run restarts a few routes, so a short list instead of a tree
    /// of strings.
    struct Restarts {
        std::uint64_t router;
        std::string name;
        std::uint64_t count;
    };
    std::vector<Restarts> restarts_;
};

} // namespace routesim::scenarios
