// The trace bus: typed events with virtual time and a sequence number, fanned out to sinks
// (JSON Lines writer, in-memory buffer) and folded into a running 64-bit hash.
// Part of sim/: depends on the standard library only; knows nothing of actors or JSON libs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <iosfwd>
#include <new>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/assert.hpp"
#include "sim/prng.hpp"
#include "sim/time.hpp"

namespace routesim::sim {

/// An event kind or field name with its FNV-1a 64 hash computed once (at compile time for
/// constants: `inline constexpr TraceKey key_pid{"pid"};`).
struct TraceKey {
    constexpr TraceKey(std::string_view text) : name(text), hash(fnv1a64(text)) {}
    std::string_view name;
    std::uint64_t hash;
};

/// A field value: signed or unsigned integer, boolean or text. Text is borrowed for the
/// duration of one emit; sinks that keep it copy it. Three words, so that building an event's
/// field array costs little.
class TraceValue {
public:
    enum class Type : std::uint8_t { Int, Uint, Bool, Text };

    constexpr TraceValue(std::int64_t value)
        : word_(static_cast<std::uint64_t>(value)), type_(Type::Int) {}
    constexpr TraceValue(std::uint64_t value) : word_(value), type_(Type::Uint) {}
    constexpr TraceValue(int value) : TraceValue(static_cast<std::int64_t>(value)) {}
    constexpr TraceValue(bool value) : word_(value ? 1U : 0U), type_(Type::Bool) {}
    constexpr TraceValue(std::string_view text) : TraceValue(text, fnv1a64(text)) {}
    constexpr TraceValue(const char* text) : TraceValue(std::string_view(text)) {}
    /// Borrows the string for the duration of the emit (a temporary lives that long).
    TraceValue(const std::string& text) : TraceValue(std::string_view(text)) {}
    /// Text whose FNV-1a 64 hash the caller already knows (interned atoms).
    constexpr TraceValue(std::string_view text, std::uint64_t text_hash)
        : word_(text_hash), text_(text.data()), length_(static_cast<std::uint32_t>(text.size())),
          type_(Type::Text) {}
    /// An unsigned value whose lane the caller computed ahead with TraceHasher::premix for the
    /// field's key and index: for values that recur on hot paths (a process's id in the events
    /// of its deliveries). The hash is the same; emit checks the premix whenever sinks listen.
    static constexpr TraceValue premixed(std::uint64_t value, std::uint64_t premix) {
        return TraceValue(value, premix, Type::Uint);
    }

    Type type() const { return type_; }
    bool is_premixed() const { return premixed_; }
    /// The premix given to premixed(); precondition: is_premixed().
    std::uint64_t premix() const { return premix_; }
    std::int64_t as_int() const { return static_cast<std::int64_t>(word_); }
    std::uint64_t as_uint() const { return word_; }
    bool as_bool() const { return word_ != 0; }
    std::string_view as_text() const { return {type_ == Type::Text ? text_ : nullptr, length_}; }
    /// The word folded into the trace hash (for text: its FNV-1a 64).
    std::uint64_t hash_word() const { return word_; }

private:
    constexpr TraceValue(std::uint64_t value, std::uint64_t premix, Type type)
        : word_(value), premix_(premix), type_(type), premixed_(true) {}

    std::uint64_t word_;
    union {
        const char* text_ = nullptr; // Text
        std::uint64_t premix_;       // premixed Uint
    };
    std::uint32_t length_ = 0; // trace texts are short: names, reasons, printed values
    Type type_;
    bool premixed_ = false;
};

/// One named field of an event. The key is referenced, not copied: keys are constants (or
/// temporaries that live as long as the emit's full expression).
struct TraceField {
    const TraceKey& key;
    TraceValue value;
};

/// An event as sinks see it. Fields and texts are valid only during the sink call.
struct TraceEvent {
    std::uint64_t seq;
    Instant at;
    TraceKey kind;
    const TraceField* fields;
    std::size_t field_count;
    /// The tag of the event struct whose codec emitted it (sim/event_codec.hpp), or nullptr
    /// (an event built by hand, copied or read back from a file). Compared, never ordered or
    /// printed: a reader that finds its struct's tag may trust the fields' keys and types.
    const void* layout = nullptr;
};

/// Receives every event on the bus, in sequence order.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void on_event(const TraceEvent& event) = 0;
};

/// The running trace hash. Documented algorithm (stable across machines and compilers; all
/// arithmetic mod 2^64):
///   fold(w):  h = rotl64(h XOR w, 29) * 0x9e3779b97f4a7c15, h starting at 0xcbf29ce484222325.
///   field i of an event (i = 0, 1, ...): f = value XOR (fnv1a64(name) + tag), tag 0 int,
///     1 uint, 2 bool, 3 text; value is two's complement for int, 0/1 for bool, FNV-1a 64 of
///     the bytes for text; lane = mix(f + i) with mix(x) = (x XOR (x >> 29)) * 0xbf58476d1ce4e5b9.
///   per event: fold(fnv1a64(kind) XOR (time_ns * 0x9e3779b97f4a7c15)), then
///     fold(field_count + sum of the lanes).
/// The lanes are independent of each other (cheap on a pipelined CPU); only two folds per event
/// are sequential. The sequence number is implied by the order and not folded.
class TraceHasher {
public:
    void fold(std::uint64_t word) {
        const std::uint64_t mixed = state_ ^ word;
        state_ = ((mixed << 29) | (mixed >> 35)) * 0x9e3779b97f4a7c15ULL;
    }
    static constexpr std::uint64_t lane_multiplier = 0xbf58476d1ce4e5b9ULL;
    /// The lane of field `index` whose value word is `value` (see above).
    static constexpr std::uint64_t lane(std::uint64_t key_hash, TraceValue::Type type,
                                        std::uint64_t value, std::size_t index) {
        return premix(key_hash, type, value, index) * lane_multiplier;
    }
    /// A lane before its multiply: lane = premix * lane_multiplier, so an event's lanes sum as
    /// (sum of premixes) * lane_multiplier (mod 2^64), the same digest with one multiply.
    static constexpr std::uint64_t premix(std::uint64_t key_hash, TraceValue::Type type,
                                          std::uint64_t value, std::size_t index) {
        const std::uint64_t x = (value ^ (key_hash + static_cast<std::uint64_t>(type))) + index;
        return x ^ (x >> 29);
    }
    /// The first word of an event.
    static constexpr std::uint64_t head(std::uint64_t kind_hash, std::int64_t at_ns) {
        return kind_hash ^ (static_cast<std::uint64_t>(at_ns) * 0x9e3779b97f4a7c15ULL);
    }
    std::uint64_t value() const { return state_; }

private:
    std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

/// Fans events out to the hash and to the attached sinks. Sinks are not owned and must
/// outlive the bus or be removed first.
class TraceBus {
public:
    /// Emits one event at `at`. Cost: one lane per field (independent), two folds, and one
    /// call per sink. Inline so that with constant keys the lanes fold to a few instructions
    /// and the field array is only built when a sink wants it.
    /// `layout` is the emitting codec's tag (TraceEvent::layout), nullptr for others.
    [[gnu::always_inline]] void emit(Instant at, TraceKey kind,
                                     std::initializer_list<TraceField> fields,
                                     const void* layout = nullptr) {
        // Sinks are asked first, so that with none the fields go straight into the fold and
        // no value is kept (spilled) for after it.
        if (has_sinks_) [[unlikely]] {
            // Sinks see a copy, so that the caller's array never escapes: with no sink the
            // compiler keeps the fields in registers and stores no array at all.
            FieldCopy copy(fields.begin(), fields.size());
            const std::uint64_t seq = fold(at, kind, fields.begin(), fields.size());
            dispatch(TraceEvent{seq, at, kind, copy.data(fields.begin()), fields.size(), layout});
            return;
        }
        (void)fold(at, kind, fields.begin(), fields.size());
    }
    /// Emits one event whose fields are in a caller-owned array.
    void emit(Instant at, TraceKey kind, const TraceField* fields, std::size_t count) {
        const std::uint64_t seq = fold(at, kind, fields, count);
        if (has_sinks_) {
            check_premixed(fields, count);
            dispatch(TraceEvent{seq, at, kind, fields, count});
        }
    }

    void add_sink(TraceSink& sink);
    void remove_sink(TraceSink& sink);
    /// True when some sink wants the full events (callers may skip building costly texts
    /// only when this is false and the text does not reach the hash).
    bool has_sinks() const { return has_sinks_; }

    /// The running hash of every event emitted so far.
    std::uint64_t hash() const { return hasher_.value(); }
    /// The number of events emitted so far (the next event's sequence number).
    std::uint64_t count() const { return next_seq_; }

private:
    /// A copy of up to fields_copied_max fields for the sinks (longer lists are not copied).
    class FieldCopy {
    public:
        static constexpr std::size_t fields_copied_max = 16;
        [[gnu::always_inline]] FieldCopy(const TraceField* fields, std::size_t count)
            : count_(count) {
            if (count_ > fields_copied_max) {
                return;
            }
#pragma GCC unroll 16
            for (std::size_t i = 0; i < count_; i++) {
                // Member by member, not as a block, so that each read is forwarded from the
                // caller's store and the caller's array disappears.
                ::new (static_cast<void*>(&items_[i]))
                    TraceField{fields[i].key, rebuilt(fields[i].value)};
                if (fields[i].value.is_premixed()) {
                    check_premixed(fields[i], i);
                }
            }
        }
        FieldCopy(const FieldCopy&) = delete;
        FieldCopy& operator=(const FieldCopy&) = delete;
        ~FieldCopy() {
        }
        /// The copied fields, or `original` when the list was too long to copy.
        const TraceField* data(const TraceField* original) const {
            return count_ > fields_copied_max ? original : items_;
        }

    private:
        [[gnu::always_inline]] static TraceValue rebuilt(const TraceValue& value) {
            switch (value.type()) {
            case TraceValue::Type::Int:
                return TraceValue(value.as_int());
            case TraceValue::Type::Uint:
                return TraceValue(value.as_uint());
            case TraceValue::Type::Bool:
                return TraceValue(value.as_bool());
            case TraceValue::Type::Text:
                break;
            }
            return TraceValue(value.as_text(), value.hash_word());
        }

        std::size_t count_;
        union {
            TraceField items_[fields_copied_max]; // TraceField is trivially destructible
        };
    };

    /// Folds one event into the hash and returns its sequence number.
    [[gnu::always_inline]] std::uint64_t fold(Instant at, TraceKey kind, const TraceField* fields,
                                              std::size_t count) {
        std::uint64_t premixes = 0;
#pragma GCC unroll 8
        for (std::size_t i = 0; i < count; i++) {
            const TraceValue& value = fields[i].value;
            premixes += value.is_premixed() ? value.premix()
                                            : TraceHasher::premix(fields[i].key.hash, value.type(),
                                                                  value.hash_word(), i);
        }
        hasher_.fold(TraceHasher::head(kind.hash, at.ns()));
        hasher_.fold(count + premixes * TraceHasher::lane_multiplier);
        return next_seq_++;
    }
    /// A wrong premix would change the hash silently: checked whenever sinks listen (tests
    /// and traced runs), free when none does.
    static void check_premixed(const TraceField* fields, std::size_t count) {
        for (std::size_t i = 0; i < count; i++) {
            if (fields[i].value.is_premixed()) {
                check_premixed(fields[i], i);
            }
        }
    }
    [[gnu::always_inline]] static void check_premixed(const TraceField& field, std::size_t index) {
        RS_ASSERT(field.value.premix() == TraceHasher::premix(field.key.hash,
                                                              TraceValue::Type::Uint,
                                                              field.value.as_uint(), index));
    }
    void dispatch(const TraceEvent& event) const;

    TraceHasher hasher_;
    std::uint64_t next_seq_ = 0;
    std::vector<TraceSink*> sinks_;
    bool has_sinks_ = false; // !sinks_.empty(), one byte for emit to test
};

/// Prints a hash as 16 lowercase hex digits.
std::string format_hash(std::uint64_t hash);

/// Writes each event as one JSON object per line, keys in canonical order:
/// "seq", "t" (ns), "kind", then the fields in their emitted order. A field named like one of
/// the three header keys (a spawn's "kind", its behaviour kind) is written with a leading
/// underscore ("_kind"), so that every line is an object with unique keys. Output only: the
/// trace hash folds the field's own name.
class JsonlSink final : public TraceSink {
public:
    explicit JsonlSink(std::ostream& out) : out_(out) {}
    void on_event(const TraceEvent& event) override;

private:
    std::ostream& out_;
};

/// An owned copy of an event, kept by MemorySink for tests and monitors.
struct TraceRecord {
    using Value = std::variant<std::int64_t, std::uint64_t, bool, std::string>;
    std::uint64_t seq = 0;
    Instant at;
    std::string kind;
    std::vector<std::pair<std::string, Value>> fields;

    /// The field `key`, or nullptr when absent.
    const Value* find(std::string_view key) const;
    /// The text of field `key`, or "" when absent or not text.
    std::string text(std::string_view key) const;
    /// The integer value of `key` (int or uint), or `fallback` when absent.
    std::int64_t number(std::string_view key, std::int64_t fallback = -1) const;
    /// One line of JSON, as JsonlSink writes it.
    std::string to_json() const;
};

/// Keeps every event in memory (tests, monitors' witnesses). Optionally bounded: with a
/// limit, only the most recent `capacity` records are kept.
class MemorySink final : public TraceSink {
public:
    explicit MemorySink(std::size_t capacity = 0) : capacity_(capacity) {}
    void on_event(const TraceEvent& event) override;
    const std::deque<TraceRecord>& records() const { return records_; }
    void clear() { records_.clear(); }

    /// Copies an event into an owned record.
    static TraceRecord copy(const TraceEvent& event);

private:
    std::size_t capacity_;
    std::deque<TraceRecord> records_;
};

/// Appends `text` to `out` as a JSON string literal (quotes and escapes included).
void append_json_string(std::string& out, std::string_view text);

} // namespace routesim::sim
