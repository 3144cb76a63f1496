// JsonMessage: a scenario message (a JSON object with a string "type") as a runtime Message
// payload. Shared and immutable, so copying a message is a reference-count bump.
// Part of scenarios/: uses runtime/ and nlohmann_json.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "runtime/message.hpp"
#include "scenarios/topology.hpp"

namespace routesim::scenarios {

/// A JSON message payload. `type` is read once when the message is made.
class JsonMessage {
public:
    explicit JsonMessage(Json value) {
        auto body = std::make_shared<Body>();
        auto found = value.find("type");
        if (found != value.end() && found->is_string()) {
            body->type = found->get<std::string>();
        }
        body->value = std::move(value);
        body_ = std::move(body);
    }

    const Json& json() const { return body_->value; }
    /// The message's "type" field ("" when absent).
    std::string_view message_type() const { return body_->type; }
    /// Compact JSON with sorted keys (nlohmann's objects are ordered maps).
    std::string describe() const { return body_->value.dump(); }

private:
    struct Body {
        Json value;
        std::string type;
    };
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

} // namespace routesim::scenarios
