// routesim trace and the event windows of run --explain.
// Part of tools/: may use every layer's public headers.
#include "tools/trace_command.hpp"

#include <fstream>
#include <iostream>
#include <map>

#include "reports/trace_lines.hpp"
#include "reports/trace_reader.hpp"
#include "scenarios/run/runner.hpp"
#include "sim/assert.hpp"
#include "tools/commands.hpp"

namespace routesim::tools {
namespace {

int bad(const std::string& message) {
    std::cerr << "routesim trace: " << message << "\n";
    return exit_bad_input;
}

// The filter of `args`, or the flag error.
sim::Result<reports::TraceFilter, std::string> filter_of(const TraceArgs& args) {
    reports::TraceFilter filter;
    if (!args.around.empty()) {
        auto around = sim::parse_duration(args.around);
        if (!around) {
            return sim::fail("--around: " + around.error());
        }
        filter.around = sim::Instant::zero() + around.value();
    }
    if (!args.window.empty()) {
        if (args.around.empty()) {
            return sim::fail(std::string("--window: needs --around (the time it is around)"));
        }
        auto window = sim::parse_duration(args.window);
        if (!window) {
            return sim::fail("--window: " + window.error());
        }
        filter.window = window.value();
    }
    if (!args.kinds.empty()) {
        auto kinds = reports::parse_kinds(args.kinds);
        if (!kinds) {
            return sim::fail("--kinds: " + kinds.error());
        }
        filter.kinds = std::move(kinds).value();
    }
    filter.process = args.process;
    return filter;
}

} // namespace

int trace_command(const TraceArgs& args) {
    auto filter = filter_of(args);
    if (!filter) {
        return bad(filter.error());
    }
    std::ifstream in(args.file, std::ios::binary);
    if (!in) {
        return bad("cannot open " + args.file);
    }
    reports::TraceReader reader(in, args.file);
    reports::TraceLines lines;
    for (;;) {
        auto more = reader.next();
        if (!more) {
            std::cout.flush();
            std::cerr << more.error() << "\n";
            return exit_bad_input;
        }
        if (!more.value()) {
            break;
        }
        const sim::TraceEvent& event = reader.event();
        if (auto checked = lines.check(event); !checked) {
            std::cout.flush();
            std::cerr << args.file << ":" << reader.line_number() << ": " << checked.error()
                      << "\n";
            return exit_bad_input;
        }
        lines.apply(event);
        if (filter.value().keeps(lines, event)) {
            std::cout << lines.line(event) << "\n";
        }
    }
    if (in.bad()) {
        return bad("reading " + args.file + " failed");
    }
    return exit_ok;
}

// -- run --explain ----------------------------------------------------------------------------

namespace {

constexpr sim::Duration explain_window = sim::Duration::milliseconds(10);
constexpr std::size_t explain_lines_max = 200;

/// The failures at one time and the lines around it.
struct FailureWindow {
    sim::Instant at;
    std::vector<std::string> failures;
    std::vector<std::string> lines;
    std::uint64_t left_out = 0;
};

} // namespace

struct ExplainSink::State {
    reports::TraceLines lines;
    std::vector<FailureWindow> windows; // by time
};

ExplainSink::ExplainSink(const scenarios::RunResult& first) : state_(std::make_unique<State>()) {
    std::map<sim::Instant, FailureWindow> by_time;
    const auto add = [&](sim::Instant at, std::string what) {
        FailureWindow& window = by_time[at];
        window.at = at;
        window.failures.push_back(std::move(what));
    };
    for (const scenarios::Check& check : first.checks) {
        if (!check.ok) {
            add(check.at, "FAIL " + check.what + " at " + sim::format_instant(check.at) +
                              ": expected " + check.expected + ", got " + check.actual);
        }
    }
    for (const properties::Violation& violation : first.violations) {
        add(violation.at, "VIOLATION " + violation.invariant + " at " +
                              sim::format_instant(violation.at) + ": " + violation.explanation);
    }
    if (first.outcome.reason == sim::StopReason::EventLimit ||
        first.outcome.reason == sim::StopReason::TimeLimit) {
        add(first.outcome.end, "LIMIT " + std::string(sim::stop_reason_name(first.outcome.reason)) +
                                   " at " + sim::format_instant(first.outcome.end));
    }
    for (auto& [at, window] : by_time) {
        state_->windows.push_back(std::move(window));
    }
}

ExplainSink::~ExplainSink() = default;

void ExplainSink::on_event(const sim::TraceEvent& event) {
    State& state = *state_;
    state.lines.apply(event);
    std::string line;
    for (FailureWindow& window : state.windows) {
        const sim::Duration off =
            event.at >= window.at ? event.at - window.at : window.at - event.at;
        if (off > explain_window) {
            continue;
        }
        if (window.lines.size() == explain_lines_max) {
            window.left_out++;
            continue;
        }
        if (line.empty()) {
            line = state.lines.line(event);
        }
        window.lines.push_back(line);
    }
}

std::string ExplainSink::text() const {
    std::string out;
    for (const FailureWindow& window : state_->windows) {
        RS_ASSERT(!window.failures.empty());
        out += "explain:";
        for (const std::string& failure : window.failures) {
            out += "\n  " + failure;
        }
        const sim::Duration since = window.at - sim::Instant::zero();
        const sim::Duration start =
            since > explain_window ? since - explain_window : sim::Duration::nanoseconds(0);
        out += "\n  events from " + sim::format_duration(start) + " to " +
               sim::format_instant(window.at + explain_window) + ":\n";
        for (const std::string& line : window.lines) {
            out += line + "\n";
        }
        if (window.left_out > 0) {
            out += "  (" + std::to_string(window.left_out) +
                   " more events in this window; routesim trace --around " +
                   sim::format_instant(window.at) + " shows them all)\n";
        }
    }
    return out;
}

} // namespace routesim::tools
