// JsonMessage: a scenario message (a JSON object with a string "type") as a runtime Message
// payload, stored inline in the Message: a workload repetition is its source's Template and its
// index (no allocation); other messages share an immutable body (copying one is a count bump).
// Part of scenarios/: uses runtime/ and nlohmann_json.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "runtime/gen.hpp"
#include "runtime/message.hpp"
#include "scenarios/format/model.hpp"
#include "scenarios/format/topology.hpp"
#include "sim/assert.hpp"
#include "sim/prng.hpp"

namespace routesim::scenarios {

/// A JSON message payload. `type` is read once when the message is made (for a template
/// message, once per source).
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

    /// What the repetitions of one workload source share (from_template(Template, index)):
    /// the source's message, which must draw nothing (draws_nothing), its "type" and that
    /// name's trace hash, read once, and the route memo of the repetition routed last. Made
    /// once per source and run by the Workload, which outlives every read of the messages
    /// (one left in a queue when the run ends is destroyed without being read). Not copied:
    /// messages point to it.
    class Template {
    public:
        /// `message` is the scenario's and outlives the template.
        explicit Template(const Json& message) : message_(&message) {
            RS_ASSERT(draws_nothing(message));
            auto found = message.find("type");
            if (found != message.end() && found->is_string()) {
                type_ = found->get_ref<const std::string&>();
            }
            type_hash_ = sim::fnv1a64(type_);
        }
        Template(const Template&) = delete;
        Template& operator=(const Template&) = delete;
        const Json& message() const { return *message_; }

    private:
        friend class JsonMessage;
        const Json* message_;
        std::string type_;
        std::uint64_t type_hash_ = 0;
        /// The memo of repetition `memo_index_` (a memo holds for one value; the repetitions
        /// are routed one after another, so one memo serves them all).
        mutable RouteMemo memo_;
        mutable std::uint64_t memo_index_ = 0;
    };

    explicit JsonMessage(Json value) : body_(new Body) {
        auto found = value.find("type");
        if (found != value.end() && found->is_string()) {
            body_->type = found->get<std::string>();
        }
        body_->type_hash = sim::fnv1a64(body_->type);
        body_->value = std::move(value);
    }
    JsonMessage(const JsonMessage& other) noexcept
        : body_(other.body_), template_(other.template_), index_(other.index_) {
        if (body_ != nullptr) {
            body_->refs++;
        }
    }
    JsonMessage(JsonMessage&& other) noexcept
        : body_(other.body_), template_(other.template_), index_(other.index_) {
        other.body_ = nullptr; // a moved-from body message is only destroyed or assigned
    }
    JsonMessage& operator=(JsonMessage other) noexcept {
        std::swap(body_, other.body_);
        std::swap(template_, other.template_);
        std::swap(index_, other.index_);
        return *this;
    }
    ~JsonMessage() { release(); }

    /// Repetition `index` of the workload source `tmpl` stands for: the value
    /// with_index(tmpl.message(), index), made on first use (json()) and kept by this copy of
    /// the message. Allocates nothing: the message is the template's address and the index.
    /// Routing reads its top-level fields from the template (field()).
    static JsonMessage from_template(const Template& tmpl, std::uint64_t index) {
        return JsonMessage(&tmpl, index);
    }
    /// Workload message `index` of a source whose message `tmpl` draws nothing (no
    /// {"uniform": ...}) in a body of its own, for a MessageCache to share between runs (its
    /// route memo and shared index go with the body): the value with_index(tmpl, index), made
    /// on first use (json()). Routing reads its top-level fields from the template (field()),
    /// so a message that is only routed and counted never builds its JSON. `tmpl` outlives
    /// the message (it is the scenario's).
    static JsonMessage from_template(const Json& tmpl, std::uint64_t index) {
        Body* body = new Body;
        auto found = tmpl.find("type");
        if (found != tmpl.end() && found->is_string()) {
            body->type = found->get_ref<const std::string&>();
        }
        body->type_hash = sim::fnv1a64(body->type);
        body->pending = true;
        body->tmpl = &tmpl;
        body->index = index;
        return JsonMessage(body);
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
        Body* body = new Body;
        body->type = type;
        body->type_hash = sim::fnv1a64(type);
        body->pending = true;
        body->of = std::move(of);
        body->by = std::move(by);
        return JsonMessage(body);
    }

    const Json& json() const {
        if (body_ == nullptr || body_->pending) [[unlikely]] {
            make_value();
        }
        return body_->value;
    }
    /// The value of top-level field `name`, or nullptr when absent (or the value is not an
    /// object). A message made from a template answers from it without making its value: a
    /// "$i" there is the index, put in `scratch`; a nested value is made as json() makes it.
    const Json* field(const std::string& name, Json& scratch) const {
        RS_ASSERT(template_ != nullptr || body_ != nullptr);
        const Json* tmpl = template_ != nullptr ? template_->message_ : body_->tmpl;
        if (tmpl == nullptr) {
            return member(json(), name);
        }
        const Json* found = member(*tmpl, name);
        if (found == nullptr || !found->is_primitive()) {
            // An object or array may hold a "$i" deeper down: read it from the made value.
            return found == nullptr ? nullptr : member(json(), name);
        }
        if (!is_index(*found)) {
            return found;
        }
        scratch = template_ != nullptr ? index_ : body_->index;
        return &scratch;
    }
    /// False while the value is still to be made from its parts (an answer's, or a template
    /// message's); json() makes it.
    bool value_made() const { return body_ != nullptr && !body_->pending; }
    /// True for a message made from a Template (no body until json()).
    bool from_a_template() const { return template_ != nullptr; }
    /// The message's "type" field ("" when absent).
    std::string_view message_type() const {
        return template_ != nullptr ? std::string_view(template_->type_) : body_->type;
    }
    /// FNV-1a 64 of message_type(), computed when the message (or its template) was made.
    std::uint64_t message_type_hash() const {
        return template_ != nullptr ? template_->type_hash_ : body_->type_hash;
    }
    /// Compact JSON with sorted keys (nlohmann's objects are ordered maps).
    std::string describe() const { return json().dump(); }
    /// The memo of the last rule that routed this message. Mutable state of a shared value:
    /// one thread only, as the runs that share messages (one campaign worker process). A
    /// template message's is its template's, cleared when it last held another repetition's.
    RouteMemo& route_memo() const {
        if (template_ == nullptr) {
            return body_->route_memo;
        }
        if (template_->memo_index_ != index_) {
            template_->memo_.rule = nullptr;
            template_->memo_index_ = index_;
        }
        return template_->memo_;
    }
    /// For a message that MessageCache shares between runs, its index among them (the cache
    /// keeps the receipts made for it by that index); else `unshared`.
    std::uint32_t shared_index() const {
        return template_ != nullptr ? unshared : body_->shared_index;
    }
    /// Precondition: not a template message (a cache shares messages with bodies).
    void mark_shared(std::uint32_t index) const {
        RS_ASSERT(index != unshared);
        RS_ASSERT(template_ == nullptr);
        body_->shared_index = index;
    }

private:
    /// The value or its parts, and what is kept with them; shared by the copies of a message
    /// (counted: `refs`), or made by json() for one copy of a template message.
    struct Body {
        Json value; // made by make_value while `pending`
        std::string type;
        std::uint64_t type_hash = 0; // FNV-1a 64 of `type`
        RouteMemo route_memo;
        std::uint32_t shared_index = unshared;
        std::uint32_t refs = 1; // the messages that hold this body (one thread)
        /// answer() or from_template(Json): the parts of `value`, until make_value makes it.
        bool pending = false;
        const Json* tmpl = nullptr; // from_template(Json): the source's message
        std::uint64_t index = 0;    // from_template(Json): the repetition
        runtime::Message of;
        Json by;
    };
    explicit JsonMessage(Body* body) : body_(body) { RS_ASSERT(body_ != nullptr); }
    JsonMessage(const Template* tmpl, std::uint64_t index) : template_(tmpl), index_(index) {
        RS_ASSERT(template_ != nullptr);
    }
    void release() noexcept {
        if (body_ != nullptr && --body_->refs == 0) {
            delete body_;
        }
    }
    /// The member `name` of `object`, or nullptr (also when it is not an object).
    static const Json* member(const Json& object, const std::string& name) {
        if (!object.is_object()) {
            return nullptr;
        }
        auto found = object.find(name);
        return found == object.end() ? nullptr : &*found;
    }
    /// Makes the value from its parts (once per body), or a template message's body.
    void make_value() const;

    // Three words, so the payload is stored inline in runtime::Message. A template message
    // has a template (and a body once json() made one); any other has a body and no template.
    // The body is made by const json(), so it is mutable state, as the route memo is.
    mutable Body* body_ = nullptr;
    const Template* template_ = nullptr;
    std::uint64_t index_ = 0; // the repetition of a template message
};

static_assert(sizeof(JsonMessage) <= runtime::Message::inline_size);
static_assert(std::is_nothrow_move_constructible_v<JsonMessage>);

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
    if (body_ == nullptr) {
        RS_ASSERT(template_ != nullptr);
        body_ = new Body;
        body_->value = with_index(*template_->message_, index_);
        return;
    }
    Body& body = *body_;
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
