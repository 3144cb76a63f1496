// MessageCache: campaign-shared workload messages, receipts and fault-worker specs.
// Part of scenarios/run/: uses runtime/ and sim/.
#include "scenarios/run/message_cache.hpp"

#include <utility>

#include "scenarios/run/spec_index.hpp"

namespace routesim::scenarios {

MessageCache::MessageCache(const Scenario& scenario) : scenario_(scenario) {
    sources_.resize(scenario.workload.size());
    for (std::size_t i = 0; i < scenario.workload.size(); i++) {
        // A source whose message draws a {"uniform": ...} value depends on the run.
        sources_[i].cacheable = JsonMessage::draws_nothing(scenario.workload[i].message);
    }
}

void MessageCache::index_workload(const runtime::Message& message) {
    const auto* json = message.get<JsonMessage>();
    RS_ASSERT(json != nullptr);
    RS_ASSERT(json->shared_index() == JsonMessage::unshared);
    json->mark_shared(shared_++); // its receipts are kept by this index (Receipts)
}

MessageCache::Receipts* MessageCache::receipts_of(std::string_view name, const runtime::PID& pid) {
    const bool full = receipts_by_name_.size() + receipts_by_pid_.size() >= identities_max;
    if (!name.empty()) {
        auto found = receipts_by_name_.find(name);
        if (found != receipts_by_name_.end()) {
            return &found->second;
        }
        return full ? nullptr
                    : &receipts_by_name_.try_emplace(std::string(name), *this).first->second;
    }
    auto found = receipts_by_pid_.find(pid);
    if (found != receipts_by_pid_.end()) {
        return &found->second;
    }
    return full ? nullptr : &receipts_by_pid_.try_emplace(pid, *this).first->second;
}

const Node* MessageCache::fault_worker(const Node& spec, const std::string& path) {
    auto found = fault_workers_.find(std::pair{path, &spec});
    if (found != fault_workers_.end()) {
        return found->second.get();
    }
    if (fault_workers_.size() >= fault_workers_max) {
        return nullptr;
    }
    return fault_workers_.emplace(std::pair{path, &spec}, spec_under(spec, path))
        .first->second.get();
}

void MessageCache::Receipts::store(const runtime::Message& of, runtime::Message receipt) {
    // Only a shared workload message keeps receipts: other messages die with their run.
    const auto* json = of.get<JsonMessage>();
    if (json == nullptr || json->shared_index() == JsonMessage::unshared ||
        cache_.stored_ >= stored_max) {
        return;
    }
    const std::uint32_t index = json->shared_index();
    RS_ASSERT(index < cache_.shared_);
    if (index >= by_message_.size()) {
        by_message_.resize(cache_.shared_); // every message shared so far
    }
    RS_ASSERT(by_message_[index].empty());
    RS_ASSERT(!receipt.empty());
    by_message_[index] = std::move(receipt);
    cache_.stored_++;
}

} // namespace routesim::scenarios
