// One way to name a process everywhere: its path in the tree (`r/a`, `sup/shard:0/#2`) and
// its PID (`<…1004>`), derived from a TopologyView.
// Part of properties/: uses runtime/ and sim/ only.
#pragma once

#include <cstdint>
#include <string>

#include "properties/topology_view.hpp"
#include "runtime/gen.hpp"

namespace routesim::properties {

/// The PID part of a label: `<…NNNN>` with the pid's id (the node and incarnation parts of
/// `<F055E218.0.1004>` left out). Pid id 0 (none) prints as `<…0>`.
std::string pid_part(std::uint64_t pid);
/// `pid_part` of a runtime PID, "" for the empty PID (no process): the form the run summary,
/// `--json` and the report print.
inline std::string pid_part(const runtime::PID& pid) {
    return pid.empty() ? std::string() : pid_part(pid.id);
}

/// The path of process `pid`: its parent's path, "/", then its own label: its registered
/// name, else the route it serves (a router's worker, named by the first route it served),
/// else its child name in a supervisor, else `#k`, its index among its parent's children in
/// spawn order (0-based, as the scenario format's `pool/#k` targets count a pool's workers;
/// this index counts every child spawned, so it stays the same when an earlier one dies).
/// A process whose parent the view never saw spawn (the root's children) starts the path.
/// "" when the view never saw `pid` spawn. Cost: one lookup per level; a `#k` label scans
/// the processes spawned before it.
std::string process_path(const TopologyView& view, std::uint64_t pid);

/// `process_path` + " " + `pid_part` (`r/a <…1004>`); a pid the view never saw spawn prints
/// as `pid_part` alone.
std::string process_label(const TopologyView& view, std::uint64_t pid);

} // namespace routesim::properties
