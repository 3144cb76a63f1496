// The routesim command line (run, validate, fuzz, report, trace, diff, demo) as a function, so
// that a program with its own behaviours and routing rules (scenarios/run/registry.hpp) is a
// routesim CLI that knows them:
//     int main(int c, char** v) { my::register_all(); return routesim::cli_main(c, v); }
// Part of tools/ (library routesim::cli).
#pragma once

namespace routesim {

/// Parses the arguments as the routesim binary does, runs the command and returns its exit
/// code (0 pass, 1 failed, 2 invalid input). Never throws.
int cli_main(int argc, char** argv);

} // namespace routesim
