// Reading JSON Lines traces back into typed-decodable events.
// Part of reports/: uses properties/, runtime/, sim/ and nlohmann_json.
#include "reports/trace_reader.hpp"

#include <array>
#include <istream>
#include <optional>
#include <tuple>
#include <type_traits>

#include "runtime/events.hpp"
#include "sim/assert.hpp"
#include "sim/event_codec.hpp"

namespace routesim::reports {
namespace {

namespace ev = runtime::ev;
using Json = nlohmann::ordered_json;

/// The value type a field of a listed kind has in a trace line.
enum class FieldType : std::uint8_t { Uint, Int, Bool, Text, TextOrUint };

struct FieldSpec {
    const sim::TraceKey* key = nullptr;
    FieldType type = FieldType::Uint;
    bool optional = false;
};

struct KindSpec {
    const sim::TraceKey* kind = nullptr;
    std::vector<FieldSpec> fields;
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

// The value type of a member, as sim/event_codec.hpp's FieldCodec encodes it.
template <class M>
constexpr FieldType field_type_of() {
    if constexpr (IsOptional<M>::value) {
        return field_type_of<typename M::value_type>();
    } else if constexpr (std::is_same_v<M, std::uint64_t> || std::is_same_v<M, sim::PremixedId>) {
        return FieldType::Uint;
    } else if constexpr (std::is_same_v<M, std::int64_t>) {
        return FieldType::Int;
    } else if constexpr (std::is_same_v<M, bool>) {
        return FieldType::Bool;
    } else if constexpr (std::is_same_v<M, sim::TraceText>) {
        return FieldType::Text;
    } else if constexpr (std::is_same_v<M, sim::TextOrId>) {
        return FieldType::TextOrUint;
    } else if constexpr (sim::detail::NamedEnum<M>) {
        return FieldType::Text; // traced by name
    } else {
        static_assert(std::is_enum_v<M>, "a field type the reader does not know");
        return FieldType::Uint; // traced by value
    }
}

template <class E, class M>
FieldSpec field_spec(const sim::EventField<E, M>& entry) {
    return FieldSpec{entry.key, field_type_of<M>(), IsOptional<M>::value};
}

template <class... Events>
std::vector<KindSpec> kind_specs(ev::EventList<Events...>) {
    std::vector<KindSpec> specs(1); // index 0: Other
    (
        [&specs] {
            KindSpec spec{&Events::kind, {}};
            std::apply(
                [&spec](const auto&... entry) { (spec.fields.push_back(field_spec(entry)), ...); },
                Events::fields());
            specs.push_back(std::move(spec));
        }(),
        ...);
    return specs;
}

/// The spec of every listed kind, by Kind code.
const std::vector<KindSpec>& specs() {
    static const std::vector<KindSpec> all = kind_specs(ev::AllEvents{});
    RS_ASSERT(all.size() == ev::kind_count + 1);
    return all;
}

std::string_view type_words(FieldType type) {
    switch (type) {
    case FieldType::Uint:
        return "an unsigned integer";
    case FieldType::Int:
        return "an integer";
    case FieldType::Bool:
        return "a boolean";
    case FieldType::Text:
        return "a string";
    case FieldType::TextOrUint:
        break;
    }
    return "a string or an unsigned integer";
}

std::string pointer(std::string_view key) {
    std::string out = "/";
    for (const char c : key) {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

std::string got(const Json& value) {
    std::string text = value.dump();
    if (text.size() > 40) {
        text = text.substr(0, 37) + "...";
    }
    return ", got " + text;
}

/// `value` as a field of type `type`, or nothing when it has another JSON type.
std::optional<sim::TraceValue> value_of(const Json& value, FieldType type) {
    const bool uint = value.is_number_unsigned();
    const bool text = value.is_string();
    switch (type) {
    case FieldType::Uint:
        return uint ? std::optional(sim::TraceValue(value.get<std::uint64_t>())) : std::nullopt;
    case FieldType::Int:
        if (value.is_number_integer() && (!uint || value.get<std::uint64_t>() <= INT64_MAX)) {
            return sim::TraceValue(value.get<std::int64_t>());
        }
        return std::nullopt;
    case FieldType::Bool:
        return value.is_boolean() ? std::optional(sim::TraceValue(value.get<bool>()))
                                  : std::nullopt;
    case FieldType::Text:
        break;
    case FieldType::TextOrUint:
        if (uint) {
            return sim::TraceValue(value.get<std::uint64_t>());
        }
        break;
    }
    return text ? std::optional(sim::TraceValue(value.get_ref<const std::string&>()))
                : std::nullopt;
}

/// The type a field of an unlisted kind is read as.
std::optional<FieldType> inferred_type(const Json& value) {
    if (value.is_number_unsigned()) {
        return FieldType::Uint;
    }
    if (value.is_number_integer()) {
        return FieldType::Int;
    }
    if (value.is_boolean()) {
        return FieldType::Bool;
    }
    return value.is_string() ? std::optional(FieldType::Text) : std::nullopt;
}

bool is_header(std::string_view key) {
    return key == "seq" || key == "t" || key == "kind";
}

std::string field_names(const KindSpec& spec) {
    std::string out;
    for (const FieldSpec& field : spec.fields) {
        out += (out.empty() ? "" : ", ") + std::string(field.key->name);
    }
    return out;
}

} // namespace

TraceReader::TraceReader(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {
}

sim::Result<bool, std::string> TraceReader::next() {
    if (!std::getline(in_, line_)) {
        has_event_ = false;
        return false;
    }
    line_number_++;
    auto parsed = parse(line_);
    if (!parsed) {
        return sim::fail(file_ + ":" + std::to_string(line_number_) + ": " + parsed.error());
    }
    return parsed;
}

sim::Result<bool, std::string> TraceReader::parse(std::string_view text) {
    has_event_ = false;
    document_ = Json::parse(text, nullptr, false);
    if (document_.is_discarded() || !document_.is_object()) {
        return sim::fail(std::string(text.empty() ? "expected a JSON object, got an empty line"
                                                  : "expected a JSON object (one event)"));
    }
    return parse_document();
}

sim::Result<bool, std::string> TraceReader::parse_document() {
    const auto seq = document_.find("seq");
    if (seq == document_.end() || !seq->is_number_unsigned()) {
        return sim::fail("/seq: expected an unsigned integer" +
                         (seq == document_.end() ? std::string(", got nothing") : got(*seq)));
    }
    const auto at = document_.find("t");
    if (at == document_.end() || !at->is_number_integer() ||
        (at->is_number_unsigned() ? at->get<std::uint64_t>() > INT64_MAX
                                  : at->get<std::int64_t>() < 0)) {
        return sim::fail("/t: expected a time in ns (an integer from 0 to 2^63-1)" +
                         (at == document_.end() ? std::string(", got nothing") : got(*at)));
    }
    const auto kind = document_.find("kind");
    if (kind == document_.end() || !kind->is_string() ||
        kind->get_ref<const std::string&>().empty()) {
        return sim::fail("/kind: expected an event kind (a string)" +
                         (kind == document_.end() ? std::string(", got nothing") : got(*kind)));
    }
    if (auto fields = read_fields(kind->get_ref<const std::string&>()); !fields) {
        return fields;
    }
    event_.seq = seq->get<std::uint64_t>();
    event_.at = sim::Instant::zero() + sim::Duration::nanoseconds(at->get<std::int64_t>());
    event_.fields = fields_.data();
    event_.field_count = fields_.size();
    event_.layout = nullptr;
    has_event_ = true;
    RS_ASSERT(event_.kind.name == kind->get_ref<const std::string&>());
    return true;
}

sim::Result<bool, std::string> TraceReader::read_fields(std::string_view kind) {
    fields_.clear();
    other_keys_.clear();
    other_keys_.reserve(document_.size()); // fields refer to these keys: no reallocation
    const ev::Kind code = ev::kind_of(sim::TraceKey(kind));
    const KindSpec* spec =
        code == ev::Kind::Other ? nullptr : &specs()[static_cast<std::size_t>(code)];
    if (spec != nullptr) {
        event_.kind = *spec->kind;
    } else {
        event_.kind = sim::TraceKey(kind); // views the document's string
    }
    for (const auto& [written, value] : document_.items()) {
        if (is_header(written)) {
            continue;
        }
        // JsonlSink writes a field named like a header key with a leading underscore.
        const std::string_view key = written.size() > 1 && written[0] == '_' &&
                                             is_header(std::string_view(written).substr(1))
                                         ? std::string_view(written).substr(1)
                                         : std::string_view(written);
        const std::size_t index = fields_.size();
        if (spec == nullptr) {
            const std::optional<FieldType> type = inferred_type(value);
            if (!type) {
                return sim::fail(pointer(written) + ": expected an integer, a boolean or a string" +
                                 got(value));
            }
            other_keys_.emplace_back(key);
            fields_.push_back(sim::TraceField{other_keys_.back(), *value_of(value, *type)});
            continue;
        }
        if (index >= spec->fields.size() || spec->fields[index].key->name != key) {
            return sim::fail(pointer(written) + ": expected " +
                             (index < spec->fields.size()
                                  ? "field \"" + std::string(spec->fields[index].key->name) + "\""
                                  : std::string("no more fields")) +
                             " of a " + std::string(kind) +
                             " event (its fields: " + field_names(*spec) + ")");
        }
        const FieldSpec& field = spec->fields[index];
        const std::optional<sim::TraceValue> typed = value_of(value, field.type);
        if (!typed) {
            return sim::fail(pointer(written) + ": expected " +
                             std::string(type_words(field.type)) + got(value));
        }
        fields_.push_back(sim::TraceField{*field.key, *typed});
    }
    if (spec != nullptr) {
        const std::size_t needed =
            spec->fields.size() - (!spec->fields.empty() && spec->fields.back().optional ? 1 : 0);
        if (fields_.size() < needed) {
            return sim::fail(
                "/" + std::string(spec->fields[fields_.size()].key->name) + ": expected field \"" +
                std::string(spec->fields[fields_.size()].key->name) + "\" of a " +
                std::string(kind) + " event (its fields: " + field_names(*spec) + "), got nothing");
        }
    }
    return true;
}

const sim::TraceEvent& TraceReader::event() const {
    RS_ASSERT(has_event_);
    return event_;
}

bool same_event(const sim::TraceEvent& left, const sim::TraceEvent& right) {
    if (left.kind.name != right.kind.name || left.at != right.at ||
        left.field_count != right.field_count) {
        return false;
    }
    for (std::size_t i = 0; i < left.field_count; i++) {
        const sim::TraceField& a = left.fields[i];
        const sim::TraceField& b = right.fields[i];
        if (a.key.name != b.key.name || a.value.type() != b.value.type()) {
            return false;
        }
        const bool text = a.value.type() == sim::TraceValue::Type::Text;
        if (text ? a.value.as_text() != b.value.as_text()
                 : a.value.as_uint() != b.value.as_uint()) {
            return false;
        }
    }
    return true;
}

} // namespace routesim::reports
