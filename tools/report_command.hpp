// `routesim report FILE --out DIR` and `routesim run FILE --report DIR`: a run of the scenario
// written as index.html, topology.dot, topology.svg, topology.mmd and trace.json.
// Part of tools/: may use every layer's public headers.
#pragma once

#include <string>

#include "tools/commands.hpp"

namespace routesim::tools {

/// Options of `routesim report`: the run flags of `routesim run` (but --json) and --out.
struct ReportArgs {
    RunArgs run;
    std::string out_dir;
};

/// Runs the scenario with the settings of the run flags (as `routesim run` does: the same
/// flags give the same trace hash) and writes the report into `out_dir`. Prints the
/// seed, the trace hash, the verdict and the page written. Exit 0 when the report is
/// written (whatever the verdict: a failing run is what a report is often for), 2 for a bad
/// scenario or an unwritable directory, 1 when writing a file fails.
int report_command(const ReportArgs& args);

/// `routesim run` with `--report DIR`: the normal run and output, and the report of that same
/// run (one run, not two). An unwritable DIR is exit 2 before the run; report notes go to
/// stderr so that `--json` output stays clean.
int run_with_report(const RunArgs& args, const std::string& report_dir);

} // namespace routesim::tools
