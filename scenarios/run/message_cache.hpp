// MessageCache: the messages, receipts and fault-worker specs that the runs of one campaign
// share (RunSettings::cache), made on first use. A campaign-scope object owned by the caller.
// Part of scenarios/run/: uses runtime/ and sim/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/message.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/run/json_message.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

/// Messages shared by the runs of one campaign (RunSettings::cache), so that a fuzz run does
/// not rebuild and free the same JSON thousands of times: the workload messages that do not
/// depend on the run (no {"uniform": ...} draw), made on first use, and the echo receipts
/// and call replies made for those messages (by worker identity, Receipts). Messages are immutable
/// shared payloads, so a run that takes one from here sends exactly the value it would have built:
/// results and traces are unchanged. It also keeps the worker specs of random add_route /
/// replace_route faults (fault_worker). One cache serves one scenario; one thread (a campaign
/// worker process). Bounded: past its caps it stores nothing more and callers build messages as
/// without a cache.
class MessageCache {
public:
    explicit MessageCache(const Scenario& scenario);
    MessageCache(const MessageCache&) = delete;
    MessageCache& operator=(const MessageCache&) = delete;

    const Scenario& scenario() const { return scenario_; }
    /// True when source `source`'s message draws nothing (JsonMessage::draws_nothing): its
    /// messages are cached, and made from the template.
    bool draws_nothing(std::uint32_t source) const {
        RS_ASSERT(source < sources_.size());
        return sources_[source].cacheable;
    }

    /// Workload message `repetition` of source `source`, made by `make` on first use; nullptr
    /// when this source's messages depend on the run or the cache is full (then the caller
    /// makes the message itself, drawing what it draws).
    template <class Make>
    const runtime::Message* workload(std::uint32_t source, std::uint64_t repetition, Make&& make) {
        RS_ASSERT(source < sources_.size());
        Source& entry = sources_[source];
        if (!entry.cacheable) {
            return nullptr;
        }
        if (repetition < entry.messages.size()) {
            return &entry.messages[repetition];
        }
        if (repetition != entry.messages.size() || stored_ >= stored_max) {
            return nullptr; // only in order, so that the vector stays dense
        }
        entry.messages.push_back(make());
        index_workload(entry.messages.back());
        stored_++;
        return &entry.messages.back();
    }

    /// The receipts and call replies that one worker identity made, by workload message. An
    /// echo's answer is a function of its type, the message and the identity's "by" text, so
    /// a worker finds the table of its identity once and then each answer by the message's
    /// index (JsonMessage::shared_index): no search per message.
    class Receipts {
    public:
        explicit Receipts(MessageCache& cache) : cache_(cache) {}
        /// The answer stored for `of`, or nullptr (none yet, or `of` is not shared).
        const runtime::Message* find(const runtime::Message& of) const {
            const auto* json = of.get<JsonMessage>();
            if (json == nullptr || json->shared_index() >= by_message_.size()) {
                return nullptr; // unshared messages have the largest index
            }
            const runtime::Message& stored = by_message_[json->shared_index()];
            return stored.empty() ? nullptr : &stored;
        }
        /// Stores the answer made for `of` when `of` is a shared workload message (other
        /// messages die with their run). Precondition: none stored for `of` yet.
        void store(const runtime::Message& of, runtime::Message receipt);

    private:
        MessageCache& cache_;
        std::vector<runtime::Message> by_message_; // empty: none stored
    };
    /// The receipts of a worker identity, made on first use (the address is stable): a named
    /// node's `name`, else the process `pid` (which prints as its "by"); nullptr once the
    /// cache holds identities_max identities.
    Receipts* receipts_of(std::string_view name, const runtime::PID& pid);

    /// The worker spec of a random add_route / replace_route fault at `path` (a copy of
    /// `spec`, a node of this cache's scenario, under that path), made on first use; stable
    /// address. nullptr past fault_workers_max paths (the run then makes its own copy).
    const Node* fault_worker(const Node& spec, const std::string& path);

private:
    struct Source {
        bool cacheable = false;
        std::vector<runtime::Message> messages;
    };
    static constexpr std::size_t stored_max = std::size_t{1} << 16;
    static constexpr std::size_t identities_max = 1024;
    void index_workload(const runtime::Message& message);

    const Scenario& scenario_;
    std::vector<Source> sources_;
    /// Messages and receipts stored (at most stored_max), and workload messages shared.
    std::size_t stored_ = 0;
    std::uint32_t shared_ = 0;
    /// By identity (looked up once per worker incarnation; never iterated). Map nodes are
    /// stable: workers keep a pointer.
    std::map<std::string, Receipts, std::less<>> receipts_by_name_;
    /// PIDs by id first: a PID's own order compares the node name's text first, the same in
    /// every PID of a campaign.
    struct IdFirst {
        bool operator()(const runtime::PID& a, const runtime::PID& b) const {
            if (a.id != b.id) {
                return a.id < b.id;
            }
            if (a.creation != b.creation) {
                return a.creation < b.creation;
            }
            return a.node != b.node && a.node < b.node;
        }
    };
    std::map<runtime::PID, Receipts, IdFirst> receipts_by_pid_;
    /// fault_worker() copies by (path, spec); never iterated.
    std::map<std::pair<std::string, const Node*>, std::unique_ptr<Node>> fault_workers_;
    static constexpr std::size_t fault_workers_max = 1024;
};

} // namespace routesim::scenarios
