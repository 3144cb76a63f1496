// The one codec of typed trace events: an event struct names its kind and lists its fields once
// (key + member, E::fields()); encode (the field array the bus hashes and the JSONL sink
// writes) and decode (the typed view consumers read) are both generated from that table.
// Part of sim/: standard library only.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sim/assert.hpp"
#include "sim/prng.hpp"
#include "sim/time.hpp"
#include "sim/trace.hpp"

namespace routesim::sim {

/// A text field with its FNV-1a 64 hash. Borrowed: it views text that must outlive the emit
/// (a temporary of the emit's full expression does) or, decoded, the sink call.
struct TraceText {
    std::string_view text;
    std::uint64_t hash = fnv1a64("");

    constexpr TraceText() = default;
    constexpr TraceText(std::string_view value) : text(value), hash(fnv1a64(value)) {}
    constexpr TraceText(const char* value) : TraceText(std::string_view(value)) {}
    /// Borrows the string (a temporary lives until the end of the emit's full expression).
    TraceText(const std::string& value) : TraceText(std::string_view(value)) {}
    /// Text whose hash the caller already knows (interned atoms, constants).
    constexpr TraceText(std::string_view value, std::uint64_t value_hash)
        : text(value), hash(value_hash) {}

    /// Compares the text (not the hash: a hand-built text may carry any hash).
    friend constexpr bool operator==(const TraceText& left, std::string_view right) {
        return left.text == right;
    }
};

/// An unsigned id field whose hash lane the caller may have computed ahead (field_premix):
/// ids that recur on hot paths (a process's id in the events of its deliveries). The hash is
/// the same either way; the bus checks a premix whenever sinks listen. Decoded: not premixed.
struct PremixedId {
    std::uint64_t value = 0;
    std::uint64_t premix = 0;
    bool premixed = false;

    constexpr PremixedId() = default;
    constexpr PremixedId(std::uint64_t id) : value(id) {}
    constexpr PremixedId(std::uint64_t id, std::uint64_t id_premix)
        : value(id), premix(id_premix), premixed(true) {}
};

/// A field that is a text for some emitters and an unsigned id for others (send_failed.to: a
/// name or printed address, or the pid id of a full mailbox's owner).
struct TextOrId {
    bool is_text = false;
    TraceText text;
    std::uint64_t id = 0;

    constexpr TextOrId() = default;
    constexpr TextOrId(std::uint64_t value) : id(value) {}
    constexpr TextOrId(TraceText value) : is_text(true), text(value) {}
    constexpr TextOrId(std::string_view value) : TextOrId(TraceText(value)) {}
    constexpr TextOrId(const char* value) : TextOrId(TraceText(value)) {}
    TextOrId(const std::string& value) : TextOrId(TraceText(value)) {}
};

/// The names of an enum traced as text, in enumerator order (0, 1, ...): specialise with
/// `static constexpr std::array<std::string_view, N> names`. An enum without names is traced
/// as its underlying value (an unsigned field).
template <class Enum>
struct TraceEnumNames;

/// How a member type becomes a TraceValue and back. Specialised below for every type a field
/// may have; decode returns false when the value has another type.
template <class T>
struct FieldCodec;

template <>
struct FieldCodec<std::uint64_t> {
    static constexpr TraceValue encode(std::uint64_t value) { return TraceValue(value); }
    static bool decode(const TraceValue& value, std::uint64_t& out) {
        out = value.as_uint();
        return value.type() == TraceValue::Type::Uint;
    }
};

template <>
struct FieldCodec<std::int64_t> {
    static constexpr TraceValue encode(std::int64_t value) { return TraceValue(value); }
    static bool decode(const TraceValue& value, std::int64_t& out) {
        out = value.as_int();
        return value.type() == TraceValue::Type::Int;
    }
};

template <>
struct FieldCodec<bool> {
    static constexpr TraceValue encode(bool value) { return TraceValue(value); }
    static bool decode(const TraceValue& value, bool& out) {
        out = value.as_bool();
        return value.type() == TraceValue::Type::Bool;
    }
};

template <>
struct FieldCodec<TraceText> {
    static constexpr TraceValue encode(const TraceText& value) {
        return TraceValue(value.text, value.hash);
    }
    static bool decode(const TraceValue& value, TraceText& out) {
        out = TraceText(value.as_text(), value.hash_word());
        return value.type() == TraceValue::Type::Text;
    }
};

template <>
struct FieldCodec<PremixedId> {
    [[gnu::always_inline]] static constexpr TraceValue encode(const PremixedId& value) {
        return value.premixed ? TraceValue::premixed(value.value, value.premix)
                              : TraceValue(value.value);
    }
    static bool decode(const TraceValue& value, PremixedId& out) {
        out = PremixedId(value.as_uint());
        return value.type() == TraceValue::Type::Uint;
    }
};

template <>
struct FieldCodec<TextOrId> {
    static constexpr TraceValue encode(const TextOrId& value) {
        return value.is_text ? TraceValue(value.text.text, value.text.hash) : TraceValue(value.id);
    }
    static bool decode(const TraceValue& value, TextOrId& out) {
        if (value.type() == TraceValue::Type::Text) {
            out = TextOrId(TraceText(value.as_text(), value.hash_word()));
            return true;
        }
        out = TextOrId(value.as_uint());
        return value.type() == TraceValue::Type::Uint;
    }
};

namespace detail {

template <class Enum>
concept NamedEnum = std::is_enum_v<Enum> && requires {
    TraceEnumNames<Enum>::names;
};

/// The FNV-1a 64 of every name of a NamedEnum, computed at compile time.
template <class Enum>
inline constexpr auto enum_name_hashes = [] {
    constexpr auto& names = TraceEnumNames<Enum>::names;
    std::array<std::uint64_t, names.size()> hashes{};
    for (std::size_t i = 0; i < names.size(); i++) {
        hashes[i] = fnv1a64(names[i]);
    }
    return hashes;
}();

/// True when no two names of a NamedEnum share a hash: a value this codec wrote is then
/// known by its hash alone (decode_trusted).
template <class Enum>
consteval bool enum_hashes_distinct() {
    constexpr auto& hashes = enum_name_hashes<Enum>;
    for (std::size_t i = 0; i < hashes.size(); i++) {
        for (std::size_t j = i + 1; j < hashes.size(); j++) {
            if (hashes[i] == hashes[j]) {
                return false;
            }
        }
    }
    return true;
}

} // namespace detail

/// Enums: by name (a text field) when TraceEnumNames has them, else by underlying value.
template <class Enum>
requires std::is_enum_v<Enum>
struct FieldCodec<Enum> {
    [[gnu::always_inline]] static constexpr TraceValue encode(Enum value) {
        const auto index = static_cast<std::size_t>(value);
        if constexpr (detail::NamedEnum<Enum>) {
            RS_ASSERT(index < TraceEnumNames<Enum>::names.size());
            return TraceValue(TraceEnumNames<Enum>::names[index],
                              detail::enum_name_hashes<Enum>[index]);
        } else {
            return TraceValue(static_cast<std::uint64_t>(index));
        }
    }
    static bool decode(const TraceValue& value, Enum& out) {
        if constexpr (detail::NamedEnum<Enum>) {
            if (value.type() != TraceValue::Type::Text) {
                return false;
            }
            constexpr auto& names = TraceEnumNames<Enum>::names;
            for (std::size_t i = 0; i < names.size(); i++) {
                if (detail::enum_name_hashes<Enum>[i] == value.hash_word() &&
                    names[i] == value.as_text()) {
                    out = static_cast<Enum>(i);
                    return true;
                }
            }
            return false;
        } else {
            out = static_cast<Enum>(value.as_uint());
            return value.type() == TraceValue::Type::Uint;
        }
    }
    /// decode for a value this codec encoded (the event's layout tag says so): a named value
    /// is one of the names, found by its hash alone, without comparing text.
    [[gnu::always_inline]] static void decode_trusted(const TraceValue& value, Enum& out) {
        if constexpr (detail::NamedEnum<Enum>) {
            static_assert(detail::enum_hashes_distinct<Enum>());
            constexpr auto& hashes = detail::enum_name_hashes<Enum>;
            RS_ASSERT(value.type() == TraceValue::Type::Text);
            std::size_t index = 0;
            while (index + 1 < hashes.size() && hashes[index] != value.hash_word()) {
                index++;
            }
            RS_ASSERT(hashes[index] == value.hash_word());
            out = static_cast<Enum>(index);
        } else {
            out = static_cast<Enum>(value.as_uint());
        }
    }
};

/// A field present only in some events of its kind (route.reason when the routing failed).
/// Only an event's last field may be optional.
template <class T>
struct FieldCodec<std::optional<T>> {
    [[gnu::always_inline]] static constexpr TraceValue encode(const std::optional<T>& value) {
        RS_ASSERT(value.has_value());
        return FieldCodec<T>::encode(*value);
    }
    static bool decode(const TraceValue& value, std::optional<T>& out) {
        T inner{};
        const bool ok = FieldCodec<T>::decode(value, inner);
        out = inner;
        return ok;
    }
};

/// One entry of an event's field table: the field's key (a constant) and the member holding
/// its value.
template <class Event, class Member>
struct EventField {
    const TraceKey* key;
    Member Event::*member;
};

/// Builds a field-table entry: `sim::field(key_pid, &Spawn::pid)`.
template <class Event, class Member>
constexpr EventField<Event, Member> field(const TraceKey& key, Member Event::*member) {
    return EventField<Event, Member>{&key, member};
}

/// A typed trace event: names its kind and returns its field table (a std::tuple of
/// EventField, in the order the fields are hashed and written).
template <class Event>
concept TraceEventType = requires {
    { Event::kind } -> std::convertible_to<TraceKey>;
    Event::fields();
};

namespace detail {
/// The layout tag of event struct `Event` (TraceEvent::layout): one object per struct, whose
/// address only is used.
template <class Event>
inline constexpr char layout_tag = 0;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class Entry>
struct EntryMember;
template <class Event, class Member>
struct EntryMember<EventField<Event, Member>> {
    using type = Member;
};

template <class Event, std::size_t I>
using member_at = typename EntryMember<std::tuple_element_t<I, decltype(Event::fields())>>::type;

template <class Event>
inline constexpr std::size_t field_count = std::tuple_size_v<decltype(Event::fields())>;

template <class Event, std::size_t... I>
consteval bool only_last_optional(std::index_sequence<I...>) {
    return ((!IsOptional<member_at<Event, I>>::value || I + 1 == sizeof...(I)) && ...);
}

template <class Event>
consteval bool last_is_optional() {
    if constexpr (field_count<Event> == 0) {
        return false;
    } else {
        return IsOptional<member_at<Event, field_count<Event> - 1>>::value;
    }
}

template <class Event, std::size_t... I>
[[gnu::always_inline]] inline void emit_fields(TraceBus& bus, Instant at, const Event& event,
                                               std::index_sequence<I...>) {
    constexpr auto table = Event::fields();
    bus.emit(at, Event::kind,
             {TraceField{*std::get<I>(table).key, FieldCodec<member_at<Event, I>>::encode(
                                                      event.*(std::get<I>(table).member))}...},
             &layout_tag<Event>);
}

template <class Member>
concept TrustedDecodable = requires(const TraceValue& value, Member& out) {
    FieldCodec<Member>::decode_trusted(value, out);
};

// One member of an event this codec emitted: an enum by its hash alone, any other type by its
// codec (whose type check then always passes).
template <class Member>
[[gnu::always_inline]] inline void decode_trusted_field(const TraceValue& value, Member& out) {
    if constexpr (TrustedDecodable<Member>) {
        FieldCodec<Member>::decode_trusted(value, out);
    } else {
        [[maybe_unused]] const bool ok = FieldCodec<Member>::decode(value, out);
        RS_ASSERT(ok);
    }
}

// The fields of an event this codec emitted as `Event` (its layout tag): the keys and value
// types are the table's, so each member is read without a check.
template <class Event, std::size_t... I>
[[gnu::always_inline]] inline void decode_trusted(const TraceEvent& event, Event& out,
                                                  std::index_sequence<I...>) {
    constexpr auto table = Event::fields();
    RS_ASSERT(event.field_count <= sizeof...(I));
    ((I < event.field_count
          ? decode_trusted_field(event.fields[I].value, out.*(std::get<I>(table).member))
          : (void)0),
     ...);
}

// True when `actual` is the key `expected`: the same constant, or the same hash and text.
inline bool same_key(const TraceKey& actual, const TraceKey& expected) {
    return &actual == &expected || (actual.hash == expected.hash && actual.name == expected.name);
}

template <class Event, std::size_t... I>
bool decode_fields(const TraceEvent& event, Event& out, std::index_sequence<I...>) {
    constexpr auto table = Event::fields();
    bool ok = true;
    ((ok = ok && (I >= event.field_count ||
                  (same_key(event.fields[I].key, *std::get<I>(table).key) &&
                   FieldCodec<member_at<Event, I>>::decode(event.fields[I].value,
                                                           out.*(std::get<I>(table).member))))),
     ...);
    return ok;
}

template <class Event, auto Member, std::size_t... I>
consteval std::size_t field_index_of(std::index_sequence<I...>) {
    constexpr auto table = Event::fields();
    std::size_t index = sizeof...(I);
    (
        [&] {
            if constexpr (std::is_same_v<decltype(std::get<I>(table).member), decltype(Member)>) {
                if (std::get<I>(table).member == Member) {
                    index = I;
                }
            }
        }(),
        ...);
    return index;
}

template <class MemberPointer>
struct MemberClass;
template <class Event, class Member>
struct MemberClass<Member Event::*> {
    using type = Event;
};

} // namespace detail

/// The number of fields of `Event` (its optional last field included).
template <TraceEventType Event>
inline constexpr std::size_t event_field_count = detail::field_count<Event>;

/// The field names of `Event`, in order (for the manual's table and its test).
template <TraceEventType Event>
constexpr std::array<std::string_view, event_field_count<Event>> event_field_names() {
    constexpr auto table = Event::fields();
    std::array<std::string_view, event_field_count<Event>> names{};
    std::apply(
        [&names](const auto&... entry) {
            std::size_t i = 0;
            ((names[i++] = entry.key->name), ...);
        },
        table);
    return names;
}

/// How the manual spells the value type of a field whose member has type `T`: "uint", "int",
/// "bool", "text", "text or uint", "text: a / b / ..." for an enum traced by name, with
/// ", optional" for an optional last field.
template <class T>
std::string field_type_name() {
    if constexpr (detail::IsOptional<T>::value) {
        return field_type_name<typename T::value_type>() + ", optional";
    } else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, PremixedId>) {
        return "uint";
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return "int";
    } else if constexpr (std::is_same_v<T, bool>) {
        return "bool";
    } else if constexpr (std::is_same_v<T, TraceText>) {
        return "text";
    } else if constexpr (std::is_same_v<T, TextOrId>) {
        return "text or uint";
    } else if constexpr (detail::NamedEnum<T>) {
        std::string out = "text:";
        const char* separator = " ";
        for (std::string_view name : TraceEnumNames<T>::names) {
            out += separator;
            out += name;
            separator = " / ";
        }
        return out;
    } else {
        static_assert(std::is_enum_v<T>, "a field type without a FieldCodec");
        return "uint";
    }
}

/// The value types of `Event`'s fields, in order (field_type_name of each member).
template <TraceEventType Event>
std::array<std::string, event_field_count<Event>> event_field_types() {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<std::string, event_field_count<Event>>{
            field_type_name<detail::member_at<Event, I>>()...};
    }
    (std::make_index_sequence<event_field_count<Event>>{});
}

/// The index of the field held by `Member` (a pointer to a member of an event struct).
template <auto Member>
consteval std::size_t event_field_index() {
    using Event = typename detail::MemberClass<decltype(Member)>::type;
    constexpr std::size_t index =
        detail::field_index_of<Event, Member>(std::make_index_sequence<event_field_count<Event>>{});
    static_assert(index < event_field_count<Event>, "not a member of the event's field table");
    return index;
}

/// The premix (TraceHasher::premix) of the unsigned field held by `Member` with value `value`:
/// what PremixedId carries for a hot-path id.
template <auto Member>
constexpr std::uint64_t field_premix(std::uint64_t value) {
    using Event = typename detail::MemberClass<decltype(Member)>::type;
    constexpr std::size_t index = event_field_index<Member>();
    constexpr auto table = Event::fields();
    return TraceHasher::premix(std::get<index>(table).key->hash, TraceValue::Type::Uint, value,
                               index);
}

/// A PremixedId of `value` for the field held by `Member`.
template <auto Member>
constexpr PremixedId premixed_id(std::uint64_t value) {
    return PremixedId(value, field_premix<Member>(value));
}

/// Encodes `event` into its field array and emits it at `at`: the same fields, order and value
/// types as the table says, so the hash and the JSONL line follow from the struct alone.
template <TraceEventType Event>
[[gnu::always_inline]] inline void emit_event(TraceBus& bus, Instant at, const Event& event) {
    constexpr std::size_t count = event_field_count<Event>;
    static_assert(detail::only_last_optional<Event>(std::make_index_sequence<count>{}),
                  "only an event's last field may be optional");
    if constexpr (detail::last_is_optional<Event>()) {
        constexpr auto table = Event::fields();
        if ((event.*(std::get<count - 1>(table).member)).has_value()) {
            detail::emit_fields(bus, at, event, std::make_index_sequence<count>{});
        } else {
            detail::emit_fields(bus, at, event, std::make_index_sequence<count - 1>{});
        }
    } else {
        detail::emit_fields(bus, at, event, std::make_index_sequence<count>{});
    }
}

/// True when `kind` is `Event`'s kind (the same constant, or the same hash and name).
template <TraceEventType Event>
bool is_event_kind(const TraceKey& kind) {
    return kind.hash == Event::kind.hash &&
           (kind.name.data() == Event::kind.name.data() || kind.name == Event::kind.name);
}

/// `event` decoded into `out` in place (no copy of the struct): true when `event` has
/// `Event`'s kind and matches the table (for a hand-built event: the field count, keys and
/// value types); `out` is then that decode, else unspecified. For readers that keep one struct
/// per kind and decode each event into it (properties' EventDecodes).
template <TraceEventType Event>
[[gnu::always_inline]] inline bool decode_into(const TraceEvent& event, Event& out) {
    constexpr std::size_t count = event_field_count<Event>;
    const bool trusted = event.layout == &detail::layout_tag<Event>;
    if (!trusted) {
        constexpr std::size_t required = detail::last_is_optional<Event>() ? count - 1 : count;
        if (!is_event_kind<Event>(event.kind) || event.field_count < required ||
            event.field_count > count) {
            return false;
        }
    }
    if constexpr (detail::last_is_optional<Event>()) {
        if (event.field_count < count) { // the optional last field is absent
            constexpr auto table = Event::fields();
            (out.*(std::get<count - 1>(table).member)).reset();
        }
    }
    if (trusted) [[likely]] {
        detail::decode_trusted(event, out, std::make_index_sequence<count>{});
        return true;
    }
    return detail::decode_fields(event, out, std::make_index_sequence<count>{});
}

/// `event` as `Event`, or nothing when it has another kind or does not match the table
/// (a hand-built event: another field count, key or value type).
template <TraceEventType Event>
[[gnu::always_inline]] inline std::optional<Event> try_decode(const TraceEvent& event) {
    Event out{};
    if (!decode_into(event, out)) {
        return std::nullopt;
    }
    return out;
}

/// `event` as `Event`, or nothing when it has another kind. An event of this kind is read by
/// the table's positions; that it matches the table (count, keys, types) is asserted: the
/// product's emitters all go through emit_event. Hand-built traces use try_decode.
template <TraceEventType Event>
std::optional<Event> decode(const TraceEvent& event) {
    if (!is_event_kind<Event>(event.kind)) {
        return std::nullopt;
    }
    std::optional<Event> decoded = try_decode<Event>(event);
    RS_ASSERT(decoded.has_value());
    return decoded;
}

} // namespace routesim::sim
