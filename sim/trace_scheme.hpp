// The version of the trace-hash algorithm documented in sim/trace.hpp (TraceHasher), printed by
// `routesim --version`. Part of sim/: standard library only.
#pragma once

#include <cstdint>

namespace routesim::sim {

/// Bumped whenever a change to TraceHasher, to what TraceBus folds, or to the events the
/// runtime emits makes the same scenario and seed give another hash. Scheme 2: independent
/// per-field lanes and two folds per event. sim/trace_test.cpp pins the hash of one fixed
/// event to this number, so the algorithm cannot change without it.
inline constexpr std::uint32_t trace_hash_scheme = 2;

} // namespace routesim::sim
