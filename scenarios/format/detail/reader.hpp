// Loader internals: the error sink, JSON values with their pointers, and the readers of
// scalar fields (Atom, integer, duration, enum, probability, outcome) with their messages.
// Private to scenarios/; nothing here throws.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/format/model.hpp"

namespace routesim::scenarios::detail {

/// The errors of one load, in the order the passes find them; the first is the one that
/// `load_scenario_*` reports. A reader records its first problem and returns false; the
/// loader goes on with the independent parts (sections, siblings) that follow. At most one
/// error is kept per JSON pointer (repeat copies share their pointers), and at most
/// `kept_max` are kept; the rest are only counted.
class Errors {
public:
    /// One recorded error.
    struct Entry {
        std::string pointer;
        std::string message;
    };

    static constexpr std::size_t kept_max = 50;

    /// Records an error (unless its pointer has one already). Returns false, so that a reader
    /// can end with `return errors.fail(...)`.
    bool fail(std::string pointer, std::string message);
    bool any() const { return count_ > 0; }
    /// Errors recorded so far, the ones over kept_max included.
    std::uint64_t count() const { return count_; }
    /// The first `kept_max` errors.
    const std::vector<Entry>& kept() const { return kept_; }
    const std::string& pointer() const;
    const std::string& message() const;

private:
    std::uint64_t count_ = 0;
    std::vector<Entry> kept_;
    std::set<std::string, std::less<>> pointers_;
};

/// A JSON value and its JSON pointer in the source file.
struct Located {
    const Json* value = nullptr;
    std::string pointer;

    const Json& json() const { return *value; }
    /// The member `key`. Precondition: the value is an object holding `key`.
    Located member(std::string_view key) const;
    /// The element `index`. Precondition: the value is an array longer than `index`.
    Located element(std::size_t index) const;
};

/// Escapes a key for a JSON pointer (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_key(std::string_view key);

/// Quotes text for a message with JSON escapes, shortened to about 60 bytes.
std::string quote(std::string_view text);

/// A name for a list in a message ("expected one of: a, b"): as written when it is plain
/// (printable ASCII without space, ',', '"' or '\\'), else quote(name), so that every
/// message stays one line.
std::string list_item(std::string_view name);

/// Escapes the control characters of `text` as JSON does (`\n`, `\u0001`), leaving every
/// other byte alone: for text that is shown raw, such as a JSON pointer or a message of sim/.
std::string escape_controls(std::string_view text);

/// Describes a value for "got ...": `-3`, `"abc"`, `an object`, `an array`.
std::string describe(const Json& value);

/// Joins names with ", ".
std::string join(std::span<const std::string_view> names);

/// The candidate nearest to `text` by edit distance, when it is close enough to be a typo.
/// Cost: O(candidates x 64 x 64) at most (longer texts get no suggestion).
std::optional<std::string_view> closest(std::string_view text,
                                        std::span<const std::string_view> candidates);

/// Levenshtein distance between two byte strings. Cost: O(left x right).
std::size_t edit_distance(std::string_view left, std::string_view right);

/// What an Atom is, for messages.
inline constexpr std::string_view what_atom = "an Atom (a non-empty string of at most 255 bytes)";
/// What a target is, for messages.
inline constexpr std::string_view what_target =
    "a target (a registered name, a client name or a tree path)";
/// What a duration is, for messages.
inline constexpr std::string_view what_duration =
    "a duration (\"<int><unit>\" with unit ns, us, ms or s, or an integer number of "
    "nanoseconds)";

/// An inclusive integer range; `limit` names the limit for values above `max`.
struct IntRange {
    std::uint64_t min = 0;
    std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    std::string_view limit = {};
};

/// Records `expected <what>, got <value>` at `at`; returns false.
bool fail_type(Errors& errors, const Located& at, std::string_view what);

/// Fails unless `at` is a JSON object; `what` describes the object expected.
bool expect_object(Errors& errors, const Located& at, std::string_view what);
/// Fails unless `at` is a JSON array; `what` describes the array expected.
bool expect_array(Errors& errors, const Located& at, std::string_view what);

bool read_atom(Errors& errors, const Located& at, std::string& out,
               std::string_view what = what_atom);
bool read_string(Errors& errors, const Located& at, std::string& out);
bool read_bool(Errors& errors, const Located& at, bool& out);
bool read_u64(Errors& errors, const Located& at, IntRange range, std::uint64_t& out);
bool read_i64(Errors& errors, const Located& at, std::int64_t& out);
bool read_duration(Errors& errors, const Located& at, sim::Duration& out);
/// A number from 0 to 1, stored in parts per billion (rounded to the nearest).
bool read_probability_ppb(Errors& errors, const Located& at, std::uint64_t& out);
/// "ok" or an Ergo error name (`allow_ok` false: error names only).
bool read_outcome(Errors& errors, const Located& at, bool allow_ok, std::string& out);

/// Reads a spelled enumerator: `unknown <noun> "x" (expected one of: ...)` otherwise.
bool read_spelled(Errors& errors, const Located& at, Spellings table, std::size_t& index);

template <class E>
bool read_enum(Errors& errors, const Located& at, E& out) {
    std::size_t index = 0;
    if (!read_spelled(errors, at, spellings(E{}), index)) {
        return false;
    }
    out = static_cast<E>(index);
    return true;
}

/// Whether a field must be present.
enum class Need : std::uint8_t { Optional, Required };

/// The members of one JSON object, read by name. Optional readers leave `out` unchanged when
/// the member is absent; required ones record `missing required field`.
class Fields {
public:
    /// Precondition: `object` is a JSON object (see expect_object).
    Fields(Errors& errors, Located object);

    /// Fails on the first member (in key order) whose key is not in `known`.
    bool only(std::initializer_list<std::string_view> known) const;
    bool only(std::span<const std::string_view> known) const;
    bool has(std::string_view key) const;
    /// Precondition: has(key).
    Located at(std::string_view key) const;
    const Located& object() const { return object_; }
    Errors& errors() const { return errors_; }
    /// Fails with `missing required field "<key>", expected <what>` unless has(key).
    bool need(std::string_view key, std::string_view what) const;

    bool atom(std::string_view key, std::string& out, Need need = Need::Optional,
              std::string_view what = what_atom) const;
    bool string(std::string_view key, std::string& out, Need need = Need::Optional) const;
    bool boolean(std::string_view key, bool& out) const;
    bool u64(std::string_view key, std::uint64_t& out, IntRange range = {},
             Need need = Need::Optional) const;
    bool duration(std::string_view key, sim::Duration& out, Need need = Need::Optional) const;
    bool duration(std::string_view key, std::optional<sim::Duration>& out) const;

    template <class E>
    bool enumeration(std::string_view key, E& out, Need need = Need::Optional) const {
        if (!has(key)) {
            return need == Need::Optional || missing_enum(key, spellings(E{}));
        }
        return read_enum(errors_, at(key), out);
    }

private:
    bool missing_enum(std::string_view key, Spellings table) const;

    Errors& errors_;
    Located object_;
};

} // namespace routesim::scenarios::detail
