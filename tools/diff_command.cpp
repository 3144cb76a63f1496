// routesim diff: two `run --json` results (the fields that changed) or two traces (the first
// event where they part, and the counts per kind that differ).
// Part of tools/: may use every layer's public headers.
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/trace_lines.hpp"
#include "reports/trace_reader.hpp"
#include "sim/assert.hpp"
#include "tools/commands.hpp"
#include "tools/trace_command.hpp"

namespace routesim::tools {
namespace {

using Json = nlohmann::json;

enum class FileKind : std::uint8_t { Trace, Result };

int bad(const std::string& message) {
    std::cerr << "routesim diff: " << message << "\n";
    return exit_bad_input;
}

// A trace when its first line is an event (an object with seq and kind), a run result when
// the whole file is one JSON object with a trace_hash; the parsed result goes to `result`.
sim::Result<FileKind, std::string> kind_of_file(const std::string& path, Json& result) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return sim::fail("cannot open " + path);
    }
    std::string first;
    if (!std::getline(in, first)) {
        return sim::fail(path + ": expected a run --json result or a --trace file, got an "
                                "empty file");
    }
    const Json line = Json::parse(first, nullptr, false);
    if (line.is_object() && line.contains("seq") && line.contains("kind")) {
        return FileKind::Trace;
    }
    std::ostringstream rest;
    rest << in.rdbuf();
    result = Json::parse(first + "\n" + rest.str(), nullptr, false);
    if (result.is_discarded() || !result.is_object() || !result.contains("trace_hash")) {
        return sim::fail(path + ": expected a run --json result (a JSON object with a "
                                "trace_hash) or a --trace file (JSON Lines)");
    }
    return FileKind::Result;
}

// -- results ----------------------------------------------------------------------------------

std::string shown(const Json* value) {
    return value == nullptr ? "(none)" : value->dump();
}

bool is_scalar_array(const Json* value) {
    if (value == nullptr || !value->is_array()) {
        return false;
    }
    for (const Json& item : *value) {
        if (item.is_structured()) {
            return false;
        }
    }
    return true;
}

// One line for two arrays of scalars that differ: whole when short, else their sizes and
// the first difference.
std::string array_change(const Json& left, const Json& right) {
    constexpr std::size_t short_max = 8;
    if (left.size() <= short_max && right.size() <= short_max) {
        return left.dump() + " -> " + right.dump();
    }
    std::size_t first = 0;
    while (first < left.size() && first < right.size() && left[first] == right[first]) {
        first++;
    }
    const auto at = [first](const Json& side) {
        return first < side.size() ? side[first].dump() : std::string("(none)");
    };
    return std::to_string(left.size()) + " values -> " + std::to_string(right.size()) +
           " values, first difference at [" + std::to_string(first) + "]: " + at(left) + " -> " +
           at(right);
}

// How an array item is named in a path: by its "what", "name" or "invariant" when both sides
// agree on it (checks[clients.shop.received]), else by its index.
std::string item_name(const Json* left, const Json* right, std::size_t index) {
    for (const char* key : {"what", "name", "invariant", "path"}) {
        if (left != nullptr && right != nullptr && left->is_object() && right->is_object() &&
            left->contains(key) && right->contains(key) && (*left)[key].is_string() &&
            (*left)[key] == (*right)[key]) {
            return "[" + (*left)[key].get<std::string>() + "]";
        }
    }
    return "[" + std::to_string(index) + "]";
}

// The changed leaves of two JSON values, as `path: A -> B`, in key order (iterative).
std::vector<std::string> changes(const Json& left, const Json& right) {
    struct Item {
        std::string path;
        const Json* left;
        const Json* right;
    };
    std::vector<std::string> out;
    std::vector<Item> stack{{"", &left, &right}};
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        const Json* a = item.left;
        const Json* b = item.right;
        if (a != nullptr && b != nullptr && *a == *b) {
            continue;
        }
        const bool objects = a != nullptr && b != nullptr && a->is_object() && b->is_object();
        const bool arrays = a != nullptr && b != nullptr && a->is_array() && b->is_array();
        if (arrays && is_scalar_array(a) && is_scalar_array(b)) {
            out.push_back(item.path + ": " + array_change(*a, *b));
        } else if (objects) {
            std::map<std::string, std::pair<const Json*, const Json*>> keys;
            for (const auto& [key, value] : a->items()) {
                keys[key].first = &value;
            }
            for (const auto& [key, value] : b->items()) {
                keys[key].second = &value;
            }
            for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
                const std::string path =
                    item.path.empty() ? key->first : item.path + "." + key->first;
                stack.push_back({path, key->second.first, key->second.second});
            }
        } else if (arrays) {
            for (std::size_t i = std::max(a->size(), b->size()); i-- > 0;) {
                const Json* left_item = i < a->size() ? &(*a)[i] : nullptr;
                const Json* right_item = i < b->size() ? &(*b)[i] : nullptr;
                stack.push_back(
                    {item.path + item_name(left_item, right_item, i), left_item, right_item});
            }
        } else {
            out.push_back(item.path + ": " + shown(a) + " -> " + shown(b));
        }
    }
    return out;
}

int diff_results(const Json& left, const Json& right) {
    const std::vector<std::string> lines = changes(left, right);
    if (lines.empty()) {
        std::cout << "no difference\n";
        return exit_ok;
    }
    for (const std::string& line : lines) {
        std::cout << line << "\n";
    }
    return exit_failed;
}

} // namespace

namespace {

// -- traces -----------------------------------------------------------------------------------

/// One of the two traces being read.
struct Side {
    explicit Side(const std::string& file)
        : path(file), in(file, std::ios::binary), reader(in, file) {}

    /// Reads the next event, counts its kind and (when `tell`) feeds it to `lines`.
    sim::Result<bool, std::string> step(bool tell) {
        auto more = reader.next();
        if (!more || !more.value()) {
            ended = more.has_value();
            return more;
        }
        const sim::TraceEvent& event = reader.event();
        kinds[std::string(event.kind.name)]++;
        events++;
        if (tell) {
            if (auto checked = lines.check(event); !checked) {
                return sim::fail(path + ":" + std::to_string(reader.line_number()) + ": " +
                                 checked.error());
            }
            lines.apply(event);
        }
        return true;
    }
    std::string line() const { return lines.line(reader.event()); }

    std::string path;
    std::ifstream in;
    reports::TraceReader reader;
    reports::TraceLines lines;
    std::map<std::string, std::uint64_t> kinds;
    std::uint64_t events = 0;
    bool ended = false;
};

constexpr std::size_t context_lines = 3;

void print_divergence(Side& left, Side& right, bool left_more, bool right_more,
                      const std::deque<std::string>& before) {
    // Both read one event more than they share, or one of them ended.
    const std::uint64_t shared = std::min(left.events, right.events) - (left_more && right_more);
    std::cout << "traces differ at event " << shared << ":\n";
    if (!before.empty()) {
        std::cout << "  before it (the same in both):\n";
        for (const std::string& line : before) {
            std::cout << "    " << line << "\n";
        }
    }
    std::cout << "  A: " << (left_more ? left.line() : "(the trace ends)") << "\n";
    std::cout << "  B: " << (right_more ? right.line() : "(the trace ends)") << "\n";
}

void print_counts(const Side& left, const Side& right) {
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> both;
    for (const auto& [kind, count] : left.kinds) {
        both[kind].first = count;
    }
    for (const auto& [kind, count] : right.kinds) {
        both[kind].second = count;
    }
    std::cout << "events: " << left.events << " -> " << right.events << "\n";
    for (const auto& [kind, counts] : both) {
        if (counts.first != counts.second) {
            std::cout << "  " << kind << ": " << counts.first << " -> " << counts.second << "\n";
        }
    }
}

int diff_traces(const std::string& left_path, const std::string& right_path) {
    Side left(left_path);
    Side right(right_path);
    std::deque<std::string> before;
    bool differ = false;
    for (;;) {
        auto left_more = left.step(true);
        auto right_more = right.step(true);
        if (!left_more || !right_more) {
            return bad(!left_more ? left_more.error() : right_more.error());
        }
        if (!left_more.value() && !right_more.value()) {
            break;
        }
        if (left_more.value() && right_more.value() &&
            reports::same_event(left.reader.event(), right.reader.event())) {
            before.push_back(left.line());
            if (before.size() > context_lines) {
                before.pop_front();
            }
            continue;
        }
        print_divergence(left, right, left_more.value(), right_more.value(), before);
        differ = true;
        break;
    }
    if (!differ) {
        std::cout << "no difference (" << left.events << " events)\n";
        return exit_ok;
    }
    for (Side* side : {&left, &right}) {
        while (!side->ended) {
            if (auto more = side->step(false); !more) {
                return bad(more.error());
            }
        }
    }
    print_counts(left, right);
    return exit_failed;
}

} // namespace

int diff_command(const std::string& left, const std::string& right) {
    Json left_result;
    Json right_result;
    const auto left_kind = kind_of_file(left, left_result);
    if (!left_kind) {
        return bad(left_kind.error());
    }
    const auto right_kind = kind_of_file(right, right_result);
    if (!right_kind) {
        return bad(right_kind.error());
    }
    if (left_kind.value() != right_kind.value()) {
        const auto name = [](FileKind kind) {
            return kind == FileKind::Trace ? "a trace" : "a run result";
        };
        return bad(left + " is " + name(left_kind.value()) + " but " + right + " is " +
                   name(right_kind.value()) + "; give two run --json results or two traces");
    }
    return left_kind.value() == FileKind::Trace ? diff_traces(left, right)
                                                : diff_results(left_result, right_result);
}

} // namespace routesim::tools
