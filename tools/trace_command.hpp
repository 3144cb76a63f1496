// `routesim trace` (the readable timeline of a --trace file), `routesim diff` (two runs or
// two traces compared) and the event windows of `run --explain`.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/trace.hpp"

namespace routesim::scenarios {
struct RunResult;
} // namespace routesim::scenarios

namespace routesim::tools {

/// Options of `routesim trace`, as given (parsed by trace_command).
struct TraceArgs {
    std::string file;
    std::string around;  ///< a time ("5ms"), "" for the whole trace
    std::string window;  ///< a duration, "" for 10ms
    std::string process; ///< a process path, "" for any
    std::string kinds;   ///< "send,take", "" for every kind
};

/// `routesim trace FILE`: one line per event kept by the filters. Exit 0, or 2 with one
/// line on stderr for a bad flag, an unreadable file or a malformed line (`FILE:LINE: ...`).
int trace_command(const TraceArgs& args);

/// `routesim diff A B`: two `run --json` results (the changed fields) or two traces (the
/// first diverging event and the counts per kind that differ). Exit 0 identical, 1 they
/// differ, 2 bad input (with one line on stderr).
int diff_command(const std::string& left, const std::string& right);

/// A trace sink for `run --explain`: it tells every event in words (reports::TraceLines)
/// and keeps the lines within `window` of the failures' times, to print after the summary.
class ExplainSink final : public sim::TraceSink {
public:
    /// The failures' times come from `first`, the run being explained again (the same
    /// scenario and settings give the same events).
    explicit ExplainSink(const scenarios::RunResult& first);
    ~ExplainSink() override;
    void on_event(const sim::TraceEvent& event) override;
    /// The explanation: per failure time, the failures then the events around it.
    std::string text() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace routesim::tools
