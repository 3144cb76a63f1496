// Atom interning and printing of gen types.
// Part of runtime/: uses sim/ and the standard library only.
#include "runtime/gen.hpp"

#include <array>
#include <charconv>
#include <deque>
#include <unordered_map>

#include "sim/assert.hpp"
#include "sim/prng.hpp"

namespace routesim::runtime {

namespace {

// The intern table. Lookups only; nothing iterates it, so its order never reaches output.
struct AtomTable {
    std::deque<Atom::Entry> entries;
    std::unordered_map<std::string_view, const Atom::Entry*> index;
};

AtomTable& atom_table() {
    static AtomTable table;
    return table;
}

// CRC-32 (IEEE, reflected), one table step per byte.
constexpr std::array<std::uint32_t, 256> crc32_table = [] {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t byte = 0; byte < 256; byte++) {
        std::uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1U)));
        }
        table[byte] = crc;
    }
    return table;
}();

std::uint32_t crc32(std::string_view bytes) {
    std::uint32_t crc = 0xffffffffU;
    for (char c : bytes) {
        crc = (crc >> 8) ^ crc32_table[(crc ^ static_cast<std::uint8_t>(c)) & 0xffU];
    }
    return ~crc;
}

std::string hex_upper(std::uint32_t value) {
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string text(8, '0');
    for (int i = 7; i >= 0; i--) {
        text[static_cast<std::size_t>(i)] = digits[value & 0xf];
        value >>= 4;
    }
    return text;
}

// The node part of printed PIDs, Refs and ProcessIDs: the CRC32 of the node name in hex.
std::string node_hex(Atom node) {
    return hex_upper(crc32(node.text()));
}

void append_decimal(std::string& out, std::int64_t value) {
    char digits[24];
    const auto written = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, written.ptr);
}

} // namespace

Atom::Atom(std::string_view text) {
    RS_ASSERT(text.size() <= atom_length_max);
    if (text.empty()) {
        return;
    }
    AtomTable& table = atom_table();
    auto found = table.index.find(text);
    if (found != table.index.end()) {
        entry_ = found->second;
        return;
    }
    table.entries.push_back(Entry{std::string(text), sim::fnv1a64(text)});
    entry_ = &table.entries.back();
    table.index.emplace(std::string_view(entry_->text), entry_);
}

sim::Result<Atom, Err> make_atom(std::string_view text) {
    if (text.size() > atom_length_max) {
        return sim::fail(Err::AtomTooLong);
    }
    return Atom(text);
}

std::string to_string(const PID& pid) {
    if (pid.empty()) {
        return {};
    }
    // Ergo prints the node's CRC32 and the ID as two signed 32-bit halves (§1.1).
    const auto high = static_cast<std::int32_t>(static_cast<std::uint32_t>(pid.id >> 32));
    const auto low = static_cast<std::int32_t>(static_cast<std::uint32_t>(pid.id & 0xffffffffU));
    std::string text;
    text.reserve(32);
    text += '<';
    text += node_hex(pid.node);
    text += '.';
    append_decimal(text, high);
    text += '.';
    append_decimal(text, low);
    text += '>';
    return text;
}

std::string to_string(const ProcessID& process_id) {
    return "<" + node_hex(process_id.node) + "." + std::string(process_id.name.text()) + ">";
}

std::string to_string(const Ref& ref) {
    return "Ref#<" + node_hex(ref.node) + "." + std::to_string(ref.id) + ">";
}

std::string_view priority_name(MessagePriority priority) {
    switch (priority) {
    case MessagePriority::Normal:
        return "normal";
    case MessagePriority::High:
        return "high";
    case MessagePriority::Max:
        return "max";
    }
    RS_ASSERT(false);
    return {};
}

std::string_view state_name(ProcessState state) {
    switch (state) {
    case ProcessState::Init:
        return "init";
    case ProcessState::Sleep:
        return "sleep";
    case ProcessState::Running:
        return "running";
    case ProcessState::WaitResponse:
        return "wait_response";
    case ProcessState::Terminated:
        return "terminated";
    case ProcessState::Zombee:
        return "zombee";
    }
    RS_ASSERT(false);
    return {};
}

std::string_view queue_name(Queue queue) {
    static constexpr std::array<std::string_view, 4> names = {"urgent", "system", "main", "log"};
    return names[static_cast<std::size_t>(queue)];
}

std::string to_string(const Address& address) {
    return address.is_name() ? std::string(address.name().text()) : to_string(address.pid());
}

} // namespace routesim::runtime
