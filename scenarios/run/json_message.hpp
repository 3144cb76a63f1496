// JsonMessage: a scenario message (a JSON object with a string "type") as a runtime Message
// payload. Shared and immutable, so copying a message is a reference-count bump.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/gen.hpp"
#include "runtime/message.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/format/topology.hpp"
#include "sim/assert.hpp"

namespace routesim::scenarios {

/// A JSON message payload. `type` is read once when the message is made.
class JsonMessage {
public:
    /// What a routing rule made of this message, kept with it: the value is immutable, so a
    /// message routed again by the same rule (a campaign's shared workload message) skips
    /// the field lookup, the hash and the key text. `rule` identifies the rule (compared,
    /// never ordered or printed); null until a rule routed the message.
    struct RouteMemo {
        const void* rule = nullptr;
        runtime::Atom name;
        bool hashed = false; // a hash rule hashed a field; `key` is its key_text
        std::string key;
        std::uint64_t key_hash = 0; // FNV-1a 64 of `key`, as the trace hashes it
    };
    /// shared_index() of a message that no MessageCache shares.
    static constexpr std::uint32_t unshared = UINT32_MAX;

    explicit JsonMessage(Json value) {
        auto body = std::make_shared<Body>();
        auto found = value.find("type");
        if (found != value.end() && found->is_string()) {
            body->type = found->get<std::string>();
        }
        body->value = std::move(value);
        body_ = std::move(body);
    }

    /// Workload message `index` of a source whose message `tmpl` draws nothing (no
    /// {"uniform": ...}): the value with_index(tmpl, index), made on first use (json()).
    /// Routing reads its top-level fields from the template (field()), so a message that is
    /// only routed and counted never builds its JSON. `tmpl` outlives the message (it is the
    /// scenario's).
    static JsonMessage from_template(const Json& tmpl, std::uint64_t index) {
        auto body = std::make_shared<Body>();
        auto found = tmpl.find("type");
        if (found != tmpl.end() && found->is_string()) {
            body->type = found->get_ref<const std::string&>();
        }
        body->pending = true;
        body->tmpl = &tmpl;
        body->index = index;
        return JsonMessage(std::move(body));
    }
    /// True when workload message `tmpl` holds no {"uniform": ...} draw at any depth, as the
    /// workload instantiates it: its repetitions depend only on their index.
    static bool draws_nothing(const Json& tmpl) {
        bool draws = false;
        walk_payload(tmpl, [&draws](const Json& value) {
            draws = draws || is_uniform_generator(value);
            return !draws;
        });
        return !draws;
    }
    /// `tmpl` with every field value "$i" (at any depth) replaced by `index`, as
    /// scenarios/FORMAT.md "Values" defines it.
    static Json with_index(const Json& tmpl, std::uint64_t index) {
        Json out = tmpl;
        walk_payload(out, [index](Json& value) { return !put_index(value, index); });
        return out;
    }
    /// True when `value` is the text "$i" (scenarios/FORMAT.md "Values").
    static bool is_index(const Json& value) {
        return value.is_string() && value.get_ref<const std::string&>() == "$i";
    }
    /// Replaces `value` by `index` when it is the text "$i"; true when it did (a walk then
    /// does not descend into it).
    static bool put_index(Json& value, std::uint64_t index) {
        if (is_index(value)) {
            value = index;
            return true;
        }
        return false;
    }

    /// An echo's answer {"type": type, "of": <of's JSON>, "by": by}. Its JSON is made on
    /// first use (json(), describe()): most answers are only counted by type at a client,
    /// and the value made later from the same immutable parts is the same value.
    static JsonMessage answer(std::string_view type, runtime::Message of, Json by) {
        RS_ASSERT(!of.empty());
        auto body = std::make_shared<Body>();
        body->type = type;
        body->pending = true;
        body->of = std::move(of);
        body->by = std::move(by);
        return JsonMessage(std::move(body));
    }

    const Json& json() const {
        if (body_->pending) [[unlikely]] {
            make_value();
        }
        return body_->value;
    }
    /// The value of top-level field `name`, or nullptr when absent (or the value is not an
    /// object). A message made from a template answers from it without making its value: a
    /// "$i" there is the index, put in `scratch`; a nested value is made as json() makes it.
    const Json* field(const std::string& name, Json& scratch) const {
        if (body_->tmpl == nullptr) {
            return member(json(), name);
        }
        const Json* found = member(*body_->tmpl, name);
        if (found == nullptr || !found->is_primitive()) {
            // An object or array may hold a "$i" deeper down: read it from the made value.
            return found == nullptr ? nullptr : member(json(), name);
        }
        if (!is_index(*found)) {
            return found;
        }
        scratch = body_->index;
        return &scratch;
    }
    /// False while the value is still to be made from its parts (an answer's, or a template
    /// message's); json() makes it.
    bool value_made() const { return !body_->pending; }
    /// The message's "type" field ("" when absent).
    std::string_view message_type() const { return body_->type; }
    /// Compact JSON with sorted keys (nlohmann's objects are ordered maps).
    std::string describe() const { return json().dump(); }
    /// The memo of the last rule that routed this message. Mutable state of a shared value:
    /// one thread only, as the runs that share messages (one campaign worker process).
    RouteMemo& route_memo() const { return body_->route_memo; }
    /// For a message that MessageCache shares between runs, its index among them (the cache
    /// keeps the receipts made for it by that index); else `unshared`.
    std::uint32_t shared_index() const { return body_->shared_index; }
    void mark_shared(std::uint32_t index) const {
        RS_ASSERT(index != unshared);
        body_->shared_index = index;
    }

private:
    struct Body {
        mutable Json value; // made by make_value while `pending`
        std::string type;
        mutable RouteMemo route_memo;
        mutable std::uint32_t shared_index = unshared;
        /// answer() or from_template(): the parts of `value`, until make_value makes it.
        mutable bool pending = false;
        mutable const Json* tmpl = nullptr; // from_template(): the source's message
        std::uint64_t index = 0;            // from_template(): the repetition
        mutable runtime::Message of;
        mutable Json by;
    };
    explicit JsonMessage(std::shared_ptr<Body> body) : body_(std::move(body)) {}
    /// The member `name` of `object`, or nullptr (also when it is not an object).
    static const Json* member(const Json& object, const std::string& name) {
        if (!object.is_object()) {
            return nullptr;
        }
        auto found = object.find(name);
        return found == object.end() ? nullptr : &*found;
    }
    /// Makes an answer's value from its parts (once).
    void make_value() const;

    // One pointer, so the payload is stored inline in runtime::Message.
    std::shared_ptr<const Body> body_;
};

/// Makes a runtime Message from JSON.
inline runtime::Message json_message(Json value) {
    return runtime::Message(JsonMessage(std::move(value)));
}

/// The JSON of a message: a JsonMessage's value, or {"type": <type name>} for other payloads.
inline Json message_json(const runtime::Message& message) {
    if (const auto* json = message.get<JsonMessage>()) {
        return json->json();
    }
    return Json{{"type", std::string(message.type_name())}};
}

inline void JsonMessage::make_value() const {
    const Body& body = *body_; // the members it sets are mutable
    RS_ASSERT(body.pending);
    if (body.tmpl != nullptr) {
        body.value = with_index(*body.tmpl, body.index);
        body.tmpl = nullptr;
        body.pending = false;
        return;
    }
    // Built member by member: nlohmann's initializer lists copy every value twice.
    Json value = Json::object();
    value["type"] = body.type;
    const auto* json = body.of.get<JsonMessage>();
    value["of"] = json != nullptr ? json->json() : message_json(body.of);
    value["by"] = std::move(body.by);
    body.value = std::move(value);
    body.of = runtime::Message();
    body.by = Json();
    body.pending = false;
}

} // namespace routesim::scenarios
