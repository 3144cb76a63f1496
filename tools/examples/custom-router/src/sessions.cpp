// sticky_user and session_counter, registered by name (scenarios/run/registry.hpp).
#include "sessions.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/run/registry.hpp"

namespace sessions {
namespace {

using routesim::Json;

/// The user of a message (its `field`, "user" unless told), as text ("" when it names none).
std::string user_of(const Json& message, const std::string& field = "user") {
    const auto user = message.find(field);
    if (user == message.end()) {
        return "";
    }
    return user->is_string() ? user->get<std::string>() : user->dump();
}

/// Routes each user to routes[h(user) % n] with a hash of its own (FNV-1a 32), and messages
/// without a user to the route named by the "spill" knob (else the rule's default). The
/// "user_field" knob names the message field that holds the user ("user").
class StickyUser final : public routesim::RoutingRule {
public:
    explicit StickyUser(const routesim::RuleSpec& spec)
        : routes_(spec.routes), spill_(spec.knobs.value("spill", "")),
          field_(spec.knobs.value("user_field", "user")) {}

    std::string route(const Json& message) override {
        const std::string user = user_of(message, field_);
        if (user.empty() || routes_.empty()) {
            return spill_;
        }
        std::uint32_t h = 2166136261U;
        for (const char c : user) {
            h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
        }
        return routes_[h % routes_.size()];
    }
    // Traced: routesim's key_affinity invariant checks that a user keeps its route.
    std::optional<Json> key(const Json& message) const override {
        const std::string user = user_of(message, field_);
        return user.empty() ? std::nullopt : std::optional<Json>(user);
    }

private:
    std::vector<std::string> routes_;
    std::string spill_;
    std::string field_;
};

/// Counts messages per user (state lost when the worker restarts). Past the "quota" knob a
/// user's message is answered with OverQuota; a {"type": "Get", "user": u} call returns
/// {"type": "Count", "user": u, "count": n}.
class SessionCounter final : public routesim::WorkerLogic {
public:
    explicit SessionCounter(const routesim::WorkerSpec& spec)
        : quota_(spec.knobs.value("quota", std::uint64_t{0})) {}

    bool handle_message(routesim::WorkerIo& io, const Json& message) override {
        const std::uint64_t count = ++counts_[user_of(message)];
        if (quota_ > 0 && count > quota_) {
            (void)io.reply(Json{{"type", "OverQuota"}, {"user", user_of(message)}});
        }
        return true;
    }
    std::optional<Json> handle_call(routesim::WorkerIo&, const Json& request) override {
        const std::string user = user_of(request);
        const auto found = counts_.find(user);
        return Json{{"type", "Count"},
                    {"user", user},
                    {"count", found == counts_.end() ? 0 : found->second}};
    }
    routesim::runtime::Inspection inspect() const override {
        return {{"users", std::to_string(counts_.size())}};
    }

private:
    std::uint64_t quota_;
    std::map<std::string, std::uint64_t> counts_; // a std::map: deterministic order
};

} // namespace

void register_all() {
    routesim::register_rule(
        "sticky_user",
        [](const routesim::RuleSpec& spec) { return std::make_unique<StickyUser>(spec); },
        {"spill", "user_field"});
    // The loader checks the knob, so `validate` reports a bad quota at its JSON pointer.
    routesim::register_behavior(
        "session_counter",
        [](const routesim::WorkerSpec& spec) { return std::make_unique<SessionCounter>(spec); },
        {"quota"},
        [](const Json& knobs) -> std::optional<routesim::KnobError> {
            if (knobs.contains("quota") && !knobs["quota"].is_number_unsigned()) {
                return routesim::KnobError{"quota", "a number of messages (an integer >= 0)"};
            }
            return std::nullopt;
        });
}

} // namespace sessions
