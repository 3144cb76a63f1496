// Shrinking passes: drop expectations that are not the failure, timeline actions, workload
// entries and routes, lower workload counts and pool sizes, truncate and zero the schedule,
// each kept only while the same failure still shows. Part of tools/.
#include <algorithm>
#include <optional>

#include "sim/assert.hpp"
#include "tools/shrink_detail.hpp"

namespace routesim::tools::detail {

using nlohmann::json;
using Pointer = json::json_pointer;

std::vector<bool> reduce_items(std::size_t count,
                               const std::function<bool(const std::vector<bool>&)>& holds) {
    std::vector<bool> keep(count, true);
    std::size_t chunk = count;
    while (chunk >= 1) {
        std::vector<std::size_t> kept;
        for (std::size_t i = 0; i < count; i++) {
            if (keep[i]) {
                kept.push_back(i);
            }
        }
        std::size_t start = 0;
        while (start < kept.size()) {
            const std::size_t end = std::min(kept.size(), start + chunk);
            std::vector<bool> candidate = keep;
            for (std::size_t i = start; i < end; i++) {
                candidate[kept[i]] = false;
            }
            if (holds(candidate)) {
                keep = std::move(candidate);
                kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(start),
                           kept.begin() + static_cast<std::ptrdiff_t>(end));
            } else {
                start = end;
            }
        }
        if (chunk == 1) {
            break;
        }
        chunk = (chunk + 1) / 2;
    }
    return keep;
}

namespace {

std::vector<std::uint32_t> schedule_of(const json& document);
json with_schedule(json document, const std::vector<std::uint32_t>& schedule);

/// Tries a structural candidate (fewer actions, messages, routes). Scheduler choices index
/// the runnable set, so removing structure that made early choices shifts the ones that
/// matter: when the candidate fails as it is, it is tried once more without the leading
/// zero choices (what the schedule pass leaves where nothing mattered). On success the
/// candidate is updated to the form that held.
bool holds_structural(json& candidate, Evaluator& evaluator) {
    if (evaluator.holds(candidate)) {
        return true;
    }
    const std::vector<std::uint32_t> schedule = schedule_of(candidate);
    std::size_t zeros = 0;
    while (zeros < schedule.size() && schedule[zeros] == 0) {
        zeros++;
    }
    if (zeros == 0) {
        return false;
    }
    json shifted = with_schedule(
        candidate, {schedule.begin() + static_cast<std::ptrdiff_t>(zeros), schedule.end()});
    if (!evaluator.holds(shifted)) {
        return false;
    }
    candidate = std::move(shifted);
    return true;
}

/// Every topology node object, in document order (iterative walk).
std::vector<Pointer> node_pointers(const json& document) {
    std::vector<Pointer> out;
    if (!document.contains("topology")) {
        return out;
    }
    std::vector<Pointer> stack{Pointer("/topology")};
    while (!stack.empty()) {
        const Pointer at = stack.back();
        stack.pop_back();
        out.push_back(at);
        const json& node = document.at(at);
        std::vector<Pointer> children;
        if (node.contains("children") && node["children"].is_array()) {
            for (std::size_t i = 0; i < node["children"].size(); i++) {
                children.push_back(at / "children" / i);
            }
        }
        if (node.contains("worker") && node["worker"].is_object()) {
            children.push_back(at / "worker");
        }
        if (node.contains("routes") && node["routes"].is_array()) {
            for (std::size_t i = 0; i < node["routes"].size(); i++) {
                if (node["routes"][i].contains("worker")) {
                    children.push_back(at / "routes" / i / "worker");
                }
            }
        }
        stack.insert(stack.end(), children.rbegin(), children.rend());
    }
    return out;
}

/// A copy of the array at `at` with only the kept elements (erased when none is left).
json keep_elements(json document, const std::string& key, const std::vector<bool>& keep) {
    json kept = json::array();
    for (std::size_t i = 0; i < keep.size(); i++) {
        if (keep[i]) {
            kept.push_back(document[key][i]);
        }
    }
    if (kept.empty()) {
        document.erase(key);
    } else {
        document[key] = std::move(kept);
    }
    return document;
}

bool pass_array(json& document, const std::string& key, Evaluator& evaluator) {
    if (!document.contains(key) || !document[key].is_array() || document[key].empty()) {
        return false;
    }
    const std::size_t count = document[key].size();
    std::optional<json> last_held;
    (void)reduce_items(count, [&](const std::vector<bool>& mask) {
        json candidate = keep_elements(document, key, mask);
        if (!holds_structural(candidate, evaluator)) {
            return false;
        }
        last_held = std::move(candidate);
        return true;
    });
    if (!last_held.has_value()) {
        return false;
    }
    document = std::move(*last_held); // the last candidate that held is the final keep-mask
    return true;
}

/// Leaves of `expect` (not `invariants`): values that are not objects, array elements.
std::vector<Pointer> expect_leaves(const json& document) {
    std::vector<Pointer> leaves;
    std::vector<Pointer> stack;
    for (auto it = document["expect"].rbegin(); it != document["expect"].rend(); ++it) {
        if (it.key() != "invariants") {
            stack.push_back(Pointer("/expect") / it.key());
        }
    }
    while (!stack.empty()) {
        const Pointer at = stack.back();
        stack.pop_back();
        const json& value = document.at(at);
        if (value.is_object()) {
            for (auto it = value.rbegin(); it != value.rend(); ++it) {
                stack.push_back(at / it.key());
            }
        } else if (value.is_array()) {
            for (std::size_t i = value.size(); i > 0; i--) {
                stack.push_back(at / (i - 1));
            }
        } else {
            leaves.push_back(at);
        }
    }
    return leaves;
}

json without_leaves(json document, const std::vector<Pointer>& leaves,
                    const std::vector<bool>& keep) {
    // Later leaves first, so that array indices of earlier ones stay valid; then drop the
    // containers left empty (never `expect` itself).
    for (std::size_t i = leaves.size(); i > 0; i--) {
        if (keep[i - 1]) {
            continue;
        }
        Pointer at = leaves[i - 1];
        while (at != Pointer("/expect")) {
            json& parent = document.at(at.parent_pointer());
            if (parent.is_array()) {
                parent.erase(static_cast<std::size_t>(std::stoul(at.back())));
            } else {
                parent.erase(at.back());
            }
            at = at.parent_pointer();
            if (at == Pointer("/expect") || !document.at(at).empty()) {
                break;
            }
        }
    }
    return document;
}

bool pass_expect(json& document, Evaluator& evaluator) {
    if (!document.contains("expect") || !document["expect"].is_object()) {
        return false;
    }
    const std::vector<Pointer> leaves = expect_leaves(document);
    if (leaves.empty()) {
        return false;
    }
    const std::vector<bool> keep = reduce_items(leaves.size(), [&](const std::vector<bool>& mask) {
        return evaluator.holds(without_leaves(document, leaves, mask));
    });
    if (std::all_of(keep.begin(), keep.end(), [](bool k) { return k; })) {
        return false;
    }
    document = without_leaves(std::move(document), leaves, keep);
    return true;
}

/// Tries smaller values of the integer at `at` (1, half, one less) while the failure holds.
bool lower_integer(json& document, const Pointer& at, std::uint64_t floor, Evaluator& evaluator) {
    bool changed = false;
    while (!evaluator.exhausted()) {
        const std::uint64_t value = document.at(at).get<std::uint64_t>();
        bool lowered = false;
        for (std::uint64_t next : {floor, value / 2, value - 1}) {
            if (next < floor || next >= value) {
                continue;
            }
            json candidate = document;
            candidate.at(at) = next;
            if (holds_structural(candidate, evaluator)) {
                document = std::move(candidate);
                lowered = changed = true;
                break;
            }
        }
        if (!lowered) {
            break;
        }
    }
    return changed;
}

bool pass_counts(json& document, Evaluator& evaluator) {
    bool changed = false;
    if (document.contains("workload")) {
        for (std::size_t i = 0; i < document["workload"].size(); i++) {
            const Pointer count = Pointer("/workload") / i / "count";
            if (document.contains(count) && document.at(count).is_number_unsigned() &&
                document.at(count).get<std::uint64_t>() > 1) {
                changed = lower_integer(document, count, 1, evaluator) || changed;
            }
        }
    }
    for (const Pointer& node : node_pointers(document)) {
        const Pointer size = node / "size";
        if (document.at(node).value("kind", "") == "pool" && document.contains(size) &&
            document.at(size).is_number_unsigned() && document.at(size).get<std::uint64_t>() > 1) {
            changed = lower_integer(document, size, 1, evaluator) || changed;
        }
    }
    return changed;
}

bool pass_routes(json& document, Evaluator& evaluator) {
    bool changed = false;
    const std::vector<Pointer> routes = route_pointers(document);
    for (auto route = routes.rbegin(); route != routes.rend(); ++route) {
        json candidate = document;
        json& list = candidate.at(route->parent_pointer());
        list.erase(static_cast<std::size_t>(std::stoul(route->back())));
        if (holds_structural(candidate, evaluator)) {
            document = std::move(candidate);
            changed = true;
            continue;
        }
        const Pointer repeat = *route / "repeat";
        if (document.contains(repeat) && document.at(repeat).is_number_unsigned() &&
            document.at(repeat).get<std::uint64_t>() > 1) {
            changed = lower_integer(document, repeat, 1, evaluator) || changed;
        }
    }
    return changed;
}

std::vector<std::uint32_t> schedule_of(const json& document) {
    if (!document.contains("run") || !document["run"].contains("schedule")) {
        return {};
    }
    return document["run"]["schedule"].get<std::vector<std::uint32_t>>();
}

json with_schedule(json document, const std::vector<std::uint32_t>& schedule) {
    json& run = document["run"];
    if (schedule.empty()) {
        run.erase("schedule");
        run["scheduler"] = "fifo"; // replay of an empty log is the canonical order
    } else {
        run["schedule"] = schedule;
    }
    return document;
}

bool pass_schedule(json& document, Evaluator& evaluator) {
    std::vector<std::uint32_t> schedule = schedule_of(document);
    const std::size_t before = schedule.size();
    if (schedule.empty()) {
        return false;
    }
    // Truncate: the tail falls back to the canonical choice.
    for (std::size_t chunk = std::max<std::size_t>(schedule.size() / 2, 1); chunk >= 1;
         chunk /= 2) {
        while (schedule.size() >= chunk &&
               evaluator.holds(with_schedule(
                   document,
                   {schedule.begin(), schedule.end() - static_cast<std::ptrdiff_t>(chunk)}))) {
            schedule.resize(schedule.size() - chunk);
        }
        if (chunk == 1) {
            break;
        }
    }
    // Zero what is left, chunk by chunk.
    std::vector<std::size_t> nonzero;
    for (std::size_t i = 0; i < schedule.size(); i++) {
        if (schedule[i] != 0) {
            nonzero.push_back(i);
        }
    }
    auto zeroed = [&](const std::vector<bool>& keep) {
        std::vector<std::uint32_t> out = schedule;
        for (std::size_t i = 0; i < nonzero.size(); i++) {
            out[nonzero[i]] = keep[i] ? out[nonzero[i]] : 0;
        }
        return out;
    };
    const std::vector<bool> keep = reduce_items(nonzero.size(), [&](const std::vector<bool>& mask) {
        return evaluator.holds(with_schedule(document, zeroed(mask)));
    });
    const std::vector<std::uint32_t> result = zeroed(keep);
    const bool changed = result.size() != before || result != schedule_of(document);
    document = with_schedule(std::move(document), result);
    return changed;
}

} // namespace

std::vector<Pointer> route_pointers(const json& document) {
    std::vector<Pointer> out;
    for (const Pointer& node : node_pointers(document)) {
        const json& value = document.at(node);
        if (value.contains("routes") && value["routes"].is_array()) {
            for (std::size_t i = 0; i < value["routes"].size(); i++) {
                out.push_back(node / "routes" / i);
            }
        }
    }
    return out;
}

json minimise(json document, Evaluator& evaluator, const FailureKey& failure) {
    constexpr int rounds_max = 4;
    for (int round = 0; round < rounds_max && !evaluator.exhausted(); round++) {
        // The schedule first: once the choices that do not matter are canonical or zero,
        // structure can go without shifting the ones that do.
        bool changed = pass_schedule(document, evaluator);
        if (failure.kind == "invariant") {
            changed = pass_expect(document, evaluator) || changed;
        }
        changed = pass_array(document, "timeline", evaluator) || changed;
        changed = pass_array(document, "workload", evaluator) || changed;
        changed = pass_counts(document, evaluator) || changed;
        changed = pass_routes(document, evaluator) || changed;
        if (!changed) {
            break;
        }
    }
    return document;
}

} // namespace routesim::tools::detail
