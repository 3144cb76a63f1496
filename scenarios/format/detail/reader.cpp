// Loader internals: readers of scalar fields and the wording of their errors.
// Private to scenarios/; nothing here throws (only non-throwing nlohmann accessors are used).
#include "scenarios/format/detail/reader.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace routesim::scenarios::detail {
namespace {

constexpr std::size_t quote_bytes_max = 60;
constexpr std::size_t atom_bytes_max = 255;
constexpr double ppb_per_unit = 1'000'000'000.0;

// Cuts `text` to at most `bytes` bytes without splitting a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t bytes) {
    if (text.size() <= bytes) {
        return text;
    }
    std::size_t end = bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) {
        end--;
    }
    return text.substr(0, end);
}

std::string range_text(IntRange range) {
    constexpr std::uint64_t unbounded = std::numeric_limits<std::uint64_t>::max();
    if (range.min == 0 && range.max == unbounded) {
        return "a non-negative integer";
    }
    if (range.max == unbounded) {
        return "an integer of at least " + std::to_string(range.min);
    }
    return "an integer from " + std::to_string(range.min) + " to " + std::to_string(range.max);
}

bool fail_range(Errors& errors, const Located& at, IntRange range, std::uint64_t value) {
    if (value > range.max && !range.limit.empty()) {
        return errors.fail(at.pointer, std::to_string(value) + " is over the " +
                                           std::string(range.limit) + " of " +
                                           std::to_string(range.max) + " (expected " +
                                           range_text(range) + ")");
    }
    return fail_type(errors, at, range_text(range));
}

} // namespace

bool Errors::fail(std::string pointer, std::string message) {
    if (!pointers_.insert(pointer).second) {
        return false; // the same place again (a repeat copy): its first error says it
    }
    count_++;
    if (kept_.size() < kept_max) {
        kept_.push_back(Entry{std::move(pointer), std::move(message)});
    }
    RS_ASSERT(kept_.size() <= count_);
    return false;
}

const std::string& Errors::pointer() const {
    RS_ASSERT(!kept_.empty());
    return kept_.front().pointer;
}

const std::string& Errors::message() const {
    RS_ASSERT(!kept_.empty());
    return kept_.front().message;
}

Located Located::member(std::string_view key) const {
    RS_ASSERT(value->is_object());
    const auto found = value->find(key);
    RS_ASSERT(found != value->end());
    return Located{&*found, pointer + "/" + pointer_key(key)};
}

Located Located::element(std::size_t index) const {
    RS_ASSERT(value->is_array());
    RS_ASSERT(index < value->size());
    return Located{&(*value)[index], pointer + "/" + std::to_string(index)};
}

std::string pointer_key(std::string_view key) {
    std::string escaped;
    escaped.reserve(key.size());
    for (char c : key) {
        if (c == '~') {
            escaped += "~0";
        } else if (c == '/') {
            escaped += "~1";
        } else {
            escaped += c;
        }
    }
    return escaped;
}

std::string quote(std::string_view text) {
    const std::string_view shown = utf8_prefix(text, quote_bytes_max);
    // dump escapes every control character but DEL.
    std::string quoted = escape_controls(
        Json(std::string(shown)).dump(-1, ' ', false, Json::error_handler_t::replace));
    if (shown.size() < text.size()) {
        quoted.insert(quoted.size() - 1, "...");
    }
    return quoted;
}

std::string list_item(std::string_view name) {
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return c > ' ' && c < 0x7F && c != ',' && c != '"' && c != '\\';
    });
    return plain ? std::string(name) : quote(name);
}

std::string escape_controls(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7F) {
            escaped += c;
            continue;
        }
        constexpr std::string_view hex = "0123456789abcdef";
        switch (c) {
        case '\n':
            escaped += "\\n";
            break;
        case '\r':
            escaped += "\\r";
            break;
        case '\t':
            escaped += "\\t";
            break;
        default:
            escaped += "\\u00";
            escaped += hex[byte >> 4U];
            escaped += hex[byte & 0xFU];
            break;
        }
    }
    return escaped;
}

std::string describe(const Json& value) {
    if (value.is_object()) {
        return "an object";
    }
    if (value.is_array()) {
        return "an array";
    }
    if (value.is_string()) {
        return quote(value.get_ref<const std::string&>());
    }
    const std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    return std::string(utf8_prefix(text, quote_bytes_max));
}

std::string join(std::span<const std::string_view> names) {
    std::string text;
    for (std::string_view name : names) {
        if (!text.empty()) {
            text += ", ";
        }
        text += name;
    }
    return text;
}

bool fail_type(Errors& errors, const Located& at, std::string_view what) {
    return errors.fail(at.pointer,
                       "expected " + std::string(what) + ", got " + describe(at.json()));
}

bool expect_object(Errors& errors, const Located& at, std::string_view what) {
    return at.json().is_object() || fail_type(errors, at, what);
}

bool expect_array(Errors& errors, const Located& at, std::string_view what) {
    return at.json().is_array() || fail_type(errors, at, what);
}

bool read_atom(Errors& errors, const Located& at, std::string& out, std::string_view what) {
    if (!at.json().is_string()) {
        return fail_type(errors, at, what);
    }
    const auto& text = at.json().get_ref<const std::string&>();
    if (text.empty()) {
        return fail_type(errors, at, what);
    }
    if (text.size() > atom_bytes_max) {
        return errors.fail(at.pointer, "Atom of " + std::to_string(text.size()) +
                                           " bytes is too long (expected at most 255 bytes)");
    }
    out = text;
    return true;
}

bool read_string(Errors& errors, const Located& at, std::string& out) {
    if (!at.json().is_string()) {
        return fail_type(errors, at, "a string");
    }
    out = at.json().get_ref<const std::string&>();
    return true;
}

bool read_bool(Errors& errors, const Located& at, bool& out) {
    if (!at.json().is_boolean()) {
        return fail_type(errors, at, "true or false");
    }
    out = at.json().get<bool>();
    return true;
}

bool read_u64(Errors& errors, const Located& at, IntRange range, std::uint64_t& out) {
    RS_ASSERT(range.min <= range.max);
    if (!at.json().is_number_unsigned()) {
        // Negative integers, fractions, exponents and non-numbers all land here.
        return fail_type(errors, at, range_text(range));
    }
    const auto value = at.json().get<std::uint64_t>();
    if (value < range.min || value > range.max) {
        return fail_range(errors, at, range, value);
    }
    out = value;
    return true;
}

bool read_i64(Errors& errors, const Located& at, std::int64_t& out) {
    const Json& value = at.json();
    if (value.is_number_unsigned()) {
        const auto unsigned_value = value.get<std::uint64_t>();
        if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX)) {
            return fail_type(errors, at, "a 64-bit signed integer");
        }
        out = static_cast<std::int64_t>(unsigned_value);
        return true;
    }
    if (!value.is_number_integer()) {
        return fail_type(errors, at, "a 64-bit signed integer");
    }
    out = value.get<std::int64_t>();
    return true;
}

bool read_duration(Errors& errors, const Located& at, sim::Duration& out) {
    const Json& value = at.json();
    if (value.is_number_unsigned()) {
        const auto ns = value.get<std::uint64_t>();
        if (ns > static_cast<std::uint64_t>(INT64_MAX)) {
            return errors.fail(at.pointer, "duration " + std::to_string(ns) +
                                               "ns overflows 64-bit nanoseconds (expected at "
                                               "most 9223372036854775807)");
        }
        out = sim::Duration::nanoseconds(static_cast<std::int64_t>(ns));
        return true;
    }
    if (!value.is_string()) {
        return fail_type(errors, at, what_duration);
    }
    const auto& text = value.get_ref<const std::string&>();
    if (text.find('.') != std::string::npos) {
        return errors.fail(at.pointer, "duration " + quote(text) +
                                           " has a fraction (expected an integer count: "
                                           "\"<int><unit>\" with unit ns, us, ms or s)");
    }
    auto parsed = sim::parse_duration(text);
    if (!parsed.has_value()) {
        // sim/ shows the text raw: keep the message on one line.
        return errors.fail(at.pointer, escape_controls(parsed.error()));
    }
    out = parsed.value();
    return true;
}

bool read_probability_ppb(Errors& errors, const Located& at, std::uint64_t& out) {
    const Json& value = at.json();
    if (!value.is_number()) {
        return fail_type(errors, at, "a probability (a number from 0 to 1)");
    }
    const double probability = value.get<double>();
    if (!(probability >= 0.0 && probability <= 1.0)) {
        return errors.fail(at.pointer, "probability " + describe(value) +
                                           " is out of range (expected a number from 0 to 1)");
    }
    // Round to the nearest part per billion; the range check above bounds the product.
    const double scaled = std::round(probability * ppb_per_unit);
    out = std::min(static_cast<std::uint64_t>(scaled), std::uint64_t{1'000'000'000});
    RS_ASSERT(out <= 1'000'000'000);
    return true;
}

bool read_outcome(Errors& errors, const Located& at, bool allow_ok, std::string& out) {
    const std::string_view what = allow_ok ? "an outcome (\"ok\" or an Ergo error name such "
                                             "as \"gen.ErrBusy\")"
                                           : "an Ergo error name such as \"gen.ErrBusy\"";
    if (!at.json().is_string()) {
        return fail_type(errors, at, what);
    }
    const auto& text = at.json().get_ref<const std::string&>();
    if ((allow_ok || text != "ok") && is_outcome_name(text)) {
        out = text;
        return true;
    }
    std::string message = "unknown error name " + quote(text) + " (expected " +
                          (allow_ok ? std::string("\"ok\" or ") : std::string()) +
                          "an Ergo error name of runtime/SEMANTICS.md §7";
    if (const auto near = closest(text, ergo_error_names())) {
        message += "; did you mean \"" + std::string(*near) + "\"?";
    }
    return errors.fail(at.pointer, message + ")");
}

bool read_spelled(Errors& errors, const Located& at, Spellings table, std::size_t& index) {
    const std::string expected = "one of: " + join(table.names);
    if (!at.json().is_string()) {
        return fail_type(errors, at, "a " + std::string(table.noun) + " (" + expected + ")");
    }
    const auto& text = at.json().get_ref<const std::string&>();
    const auto found = std::find(table.names.begin(), table.names.end(), text);
    if (found == table.names.end()) {
        return errors.fail(at.pointer, "unknown " + std::string(table.noun) + " " + quote(text) +
                                           " (expected " + expected + ")");
    }
    index = static_cast<std::size_t>(found - table.names.begin());
    return true;
}

std::optional<std::string_view> closest(std::string_view text,
                                        std::span<const std::string_view> candidates) {
    constexpr std::size_t suggest_bytes_max = 64;
    if (text.size() > suggest_bytes_max) {
        return std::nullopt;
    }
    const std::size_t allowed = std::clamp<std::size_t>(text.size() / 3, 1, 3);
    std::optional<std::string_view> best;
    std::size_t best_distance = allowed + 1;
    for (std::string_view candidate : candidates) {
        const std::size_t length_gap = candidate.size() > text.size()
                                           ? candidate.size() - text.size()
                                           : text.size() - candidate.size();
        if (length_gap > allowed) {
            continue; // cannot be within `allowed` edits
        }
        const std::size_t distance = edit_distance(text, candidate);
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

std::size_t edit_distance(std::string_view left, std::string_view right) {
    // One row of the Levenshtein table; both inputs are short names.
    std::vector<std::size_t> row(right.size() + 1);
    for (std::size_t j = 0; j <= right.size(); j++) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= left.size(); i++) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= right.size(); j++) {
            const std::size_t above = row[j];
            const std::size_t substitution = diagonal + (left[i - 1] == right[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
            diagonal = above;
        }
    }
    return row[right.size()];
}

Fields::Fields(Errors& errors, Located object) : errors_(errors), object_(std::move(object)) {
    RS_ASSERT(object_.value != nullptr);
    RS_ASSERT(object_.json().is_object());
}

bool Fields::only(std::initializer_list<std::string_view> known) const {
    return only(std::span<const std::string_view>(known.begin(), known.size()));
}

bool Fields::only(std::span<const std::string_view> known) const {
    // Keys iterate in sorted order (std::map), so the first unknown key is deterministic.
    for (const auto& [key, value] : object_.json().items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) {
            continue;
        }
        std::vector<std::string_view> sorted(known.begin(), known.end());
        std::sort(sorted.begin(), sorted.end());
        return errors_.fail(object_.pointer + "/" + pointer_key(key),
                            "unknown field " + quote(key) + " (expected one of: " + join(sorted) +
                                ")");
    }
    return true;
}

bool Fields::has(std::string_view key) const {
    return object_.json().contains(key);
}

Located Fields::at(std::string_view key) const {
    return object_.member(key);
}

bool Fields::need(std::string_view key, std::string_view what) const {
    if (has(key)) {
        return true;
    }
    return errors_.fail(object_.pointer,
                        "missing required field " + quote(key) + ", expected " + std::string(what));
}

bool Fields::missing_enum(std::string_view key, Spellings table) const {
    return need(key, "one of: " + join(table.names));
}

bool Fields::atom(std::string_view key, std::string& out, Need need_it,
                  std::string_view what) const {
    if (!has(key)) {
        return need_it == Need::Optional || need(key, what);
    }
    return read_atom(errors_, at(key), out, what);
}

bool Fields::string(std::string_view key, std::string& out, Need need_it) const {
    if (!has(key)) {
        return need_it == Need::Optional || need(key, "a string");
    }
    return read_string(errors_, at(key), out);
}

bool Fields::boolean(std::string_view key, bool& out) const {
    return !has(key) || read_bool(errors_, at(key), out);
}

bool Fields::u64(std::string_view key, std::uint64_t& out, IntRange range, Need need_it) const {
    if (!has(key)) {
        return need_it == Need::Optional || need(key, range_text(range));
    }
    return read_u64(errors_, at(key), range, out);
}

bool Fields::duration(std::string_view key, sim::Duration& out, Need need_it) const {
    if (!has(key)) {
        return need_it == Need::Optional || need(key, what_duration);
    }
    return read_duration(errors_, at(key), out);
}

bool Fields::duration(std::string_view key, std::optional<sim::Duration>& out) const {
    if (!has(key)) {
        return true;
    }
    sim::Duration value;
    if (!read_duration(errors_, at(key), value)) {
        return false;
    }
    out = value;
    return true;
}

} // namespace routesim::scenarios::detail
