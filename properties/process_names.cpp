// Naming processes by path and PID from a TopologyView.
// Part of properties/: uses runtime/ and sim/ only.
#include "properties/process_names.hpp"

#include <algorithm>
#include <vector>

#include "sim/assert.hpp"

namespace routesim::properties {
namespace {

// A process's own label: registered name, route, supervisor child name, else `#k`.
std::string own_label(const TopologyView& view, const ProcessView& process) {
    if (!process.name.empty()) {
        return process.name;
    }
    if (!process.route.empty()) {
        return process.route;
    }
    if (const SupervisorView* sup = view.supervisor(process.parent); sup != nullptr) {
        for (const SupervisorChild& child : sup->children) {
            if (child.pid == process.pid && !child.name.empty()) {
                return child.name;
            }
        }
    }
    // processes() is in spawn order and `process` is one of its elements.
    const std::vector<ProcessView>& all = view.processes();
    const auto index = static_cast<std::size_t>(&process - all.data());
    RS_ASSERT(index < all.size());
    const auto siblings =
        std::count_if(all.begin(), all.begin() + static_cast<long>(index),
                      [&](const ProcessView& earlier) { return earlier.parent == process.parent; });
    RS_ASSERT(siblings >= 0);
    return "#" + std::to_string(siblings);
}

} // namespace

std::string pid_part(std::uint64_t pid) {
    return "<\u2026" + std::to_string(pid) + ">";
}

std::string process_path(const TopologyView& view, std::uint64_t pid) {
    const ProcessView* at = view.process(pid);
    if (at == nullptr) {
        return {};
    }
    // Walk up to the first ancestor the view never saw spawn; a hand-made trace may loop, so
    // the walk stops after as many steps as there are processes.
    std::vector<std::string> labels;
    const std::size_t depth_max = view.processes().size();
    while (at != nullptr && labels.size() < depth_max) {
        labels.push_back(own_label(view, *at));
        at = at->parent == at->pid ? nullptr : view.process(at->parent);
    }
    RS_ASSERT(!labels.empty());
    std::string path;
    for (auto label = labels.rbegin(); label != labels.rend(); ++label) {
        path += (path.empty() ? "" : "/") + *label;
    }
    RS_ASSERT(!path.empty());
    return path;
}

std::string process_label(const TopologyView& view, std::uint64_t pid) {
    const std::string path = process_path(view, pid);
    return path.empty() ? pid_part(pid) : path + " " + pid_part(pid);
}

} // namespace routesim::properties
