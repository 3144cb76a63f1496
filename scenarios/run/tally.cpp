// Tally: counting restarts per route and items taken per process from the trace.
// Part of scenarios/run/: uses runtime/ and sim/.
#include "scenarios/run/tally.hpp"

#include "sim/assert.hpp"

namespace routesim::scenarios {

void Tally::count(const sim::TraceEvent& event) {
    if (const auto take = sim::decode<runtime::ev::Take>(event)) {
        if (!count_taken_) {
            return;
        }
        if (take->type == runtime::MailboxType::Regular ||
            take->type == runtime::MailboxType::Request) {
            const std::uint64_t pid = take->pid.value;
            if (pid < dense_max) {
                if (pid >= taken_dense_.size()) {
                    taken_dense_.resize(pid + 1 + pid / 2, 0);
                }
                taken_dense_[pid]++;
            } else {
                taken_sparse_[pid]++;
            }
        }
    } else if (const auto restart = sim::decode<runtime::ev::RouteRestart>(event)) {
        const std::uint64_t router = restart->router;
        const std::string_view name = restart->name.text;
        for (Restarts& entry : restarts_) {
            if (entry.router == router && entry.name == name) {
                entry.count++;
                return;
            }
        }
        restarts_.push_back(Restarts{router, std::string(name), 1});
    }
}

std::uint64_t Tally::restarts(std::uint64_t router, std::string_view name) const {
    for (const Restarts& entry : restarts_) {
        if (entry.router == router && entry.name == name) {
            return entry.count;
        }
    }
    return 0;
}

std::uint64_t Tally::taken(std::uint64_t pid) const {
    RS_ASSERT(count_taken_);
    if (pid < dense_max) {
        return pid < taken_dense_.size() ? taken_dense_[pid] : 0;
    }
    auto found = taken_sparse_.find(pid);
    return found == taken_sparse_.end() ? 0 : found->second;
}

} // namespace routesim::scenarios
