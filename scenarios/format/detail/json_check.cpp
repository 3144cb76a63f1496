// Loader internals: the one parsing pass: nlohmann's DOM builder behind a SAX filter that adds
// duplicate-key and depth checks and our error wording.
// Private to scenarios/; nlohmann exceptions are caught here and never leave.
#include "scenarios/format/detail/json_check.hpp"

#include <set>
#include <string>
#include <vector>

namespace routesim::scenarios::detail {
namespace {

using DomBuilder = nlohmann::detail::json_sax_dom_parser<Json>;

// Tracks where the parser is, as a JSON pointer, and the keys seen in each open object; passes
// every event on to nlohmann's DOM builder.
class CheckingSax final : public nlohmann::json_sax<Json> {
public:
    CheckingSax(Errors& errors, std::uint32_t depth_max, Json& out)
        : errors_(errors), depth_max_(depth_max), dom_(out, false) {}

    bool null() override { return on_value() && dom_.null(); }
    bool boolean(bool value) override { return on_value() && dom_.boolean(value); }
    bool number_integer(number_integer_t value) override {
        return on_value() && dom_.number_integer(value);
    }
    bool number_unsigned(number_unsigned_t value) override {
        return on_value() && dom_.number_unsigned(value);
    }
    bool number_float(number_float_t value, const string_t& text) override {
        return on_value() && dom_.number_float(value, text);
    }
    bool string(string_t& value) override { return on_value() && dom_.string(value); }
    bool binary(binary_t& value) override { return on_value() && dom_.binary(value); }
    bool start_object(std::size_t size) override { return open(true) && dom_.start_object(size); }
    bool end_object() override { return close() && dom_.end_object(); }
    bool start_array(std::size_t size) override { return open(false) && dom_.start_array(size); }
    bool end_array() override { return close() && dom_.end_array(); }

    bool key(string_t& name) override {
        RS_ASSERT(!frames_.empty());
        Frame& frame = frames_.back();
        RS_ASSERT(frame.is_object);
        frame.current = name;
        if (!frame.keys.insert(name).second) {
            return errors_.fail(pointer(), "duplicate key " + quote(name) +
                                               " (expected each key at most once per object)");
        }
        return dom_.key(name);
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& error) override {
        std::string text = error.what();
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep its line and column.
        const std::size_t tag_end = text.find("] ");
        if (text.rfind("[json.exception.", 0) == 0 && tag_end != std::string::npos) {
            text.erase(0, tag_end + 2);
        }
        if (text.find("expected") == std::string::npos) {
            text += " (expected well-formed JSON, RFC 8259)";
        }
        return errors_.fail("",
                            "invalid JSON: " + text + " (byte " + std::to_string(position) + ")");
    }

private:
    struct Frame {
        bool is_object = false;
        std::string current;  // object: the key being read
        std::size_t next = 0; // array: index of the next element
        std::set<std::string> keys;
    };

    // Called before every value (scalar or container) to advance the array index.
    bool on_value() {
        if (!frames_.empty() && !frames_.back().is_object) {
            Frame& frame = frames_.back();
            frame.current = std::to_string(frame.next);
            frame.next++;
        }
        return true;
    }

    bool open(bool is_object) {
        on_value();
        if (frames_.size() >= depth_max_) {
            return errors_.fail(pointer(), "JSON nested deeper than " + std::to_string(depth_max_) +
                                               " levels (expected at most " +
                                               std::to_string(depth_max_) +
                                               " nested arrays and objects)");
        }
        frames_.push_back(Frame{.is_object = is_object});
        return true;
    }

    bool close() {
        RS_ASSERT(!frames_.empty());
        frames_.pop_back();
        return true;
    }

    std::string pointer() const {
        std::string text;
        for (const Frame& frame : frames_) {
            text += "/" + pointer_key(frame.current);
        }
        return text;
    }

    Errors& errors_;
    std::uint32_t depth_max_;
    DomBuilder dom_;
    std::vector<Frame> frames_;
};

} // namespace

bool parse_json_text(Errors& errors, std::string_view text, std::uint32_t depth_max, Json& out) {
    RS_ASSERT(depth_max > 0);
    const std::uint64_t before = errors.count();
    CheckingSax sax(errors, depth_max, out);
    bool accepted = false;
    try {
        accepted = Json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const Json::exception& error) {
        return errors.fail("", std::string("invalid JSON: ") + error.what());
    }
    if (!accepted && errors.count() == before) {
        // The handler records why it stopped; this covers one that stopped without a message.
        return errors.fail("", "invalid JSON (expected one JSON value)");
    }
    return accepted && errors.count() == before;
}

} // namespace routesim::scenarios::detail
