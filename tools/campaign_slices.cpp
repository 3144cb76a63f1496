// Which campaign runs two slices share: index arithmetic over run seeds, so that `fuzz
// --merge` counts each run once. Exact integer arithmetic (128-bit), no enumeration.
// Part of tools/: may use every layer's public headers.
#include <optional>

#include "sim/assert.hpp"
#include "tools/campaign_detail.hpp"

namespace routesim::tools::detail {
namespace {

__extension__ typedef __int128 Wide; // indices below 2^63, strides below 2^63: products fit

constexpr std::uint64_t gamma = 0x9e3779b97f4a7c15ULL; // the step of run_seed

/// gamma^-1 mod 2^64 (gamma is odd), by Newton's iteration: each step doubles the bits.
constexpr std::uint64_t gamma_inverse() {
    std::uint64_t inverse = gamma; // right in the low 3 bits
    for (int step = 0; step < 5; step++) {
        inverse *= 2 - gamma * inverse;
    }
    return inverse;
}
static_assert(gamma * gamma_inverse() == 1);

/// first, first + stride, ..., `count` terms, in one campaign's index space.
struct Progression {
    Wide first = 0;
    Wide stride = 1;
    Wide count = 0;
    Wide last() const { return first + stride * (count - 1); }
    bool holds(Wide index) const {
        return count > 0 && index >= first && (index - first) % stride == 0 &&
               (index - first) / stride < count;
    }
};

Progression progression_of(const IndexSlice& slice, Wide shift) {
    RS_ASSERT(slice.stride >= 1);
    return Progression{Wide(slice.first) + shift, Wide(slice.stride), Wide(slice.count)};
}

/// Where `b`'s index 0 lies in `a`'s index space: run (b.root, j) is run (a.root, j + shift).
/// Nothing when the two cannot share a run (another scheduler or semantics, or an offset no
/// index below 2^63 reaches).
std::optional<Wide> shift_of(const RunSet& a, const RunSet& b) {
    if (a.scheduler != b.scheduler || a.semantics != b.semantics) {
        return std::nullopt;
    }
    // a.root + i * gamma == b.root + j * gamma  <=>  i - j == (b.root - a.root) / gamma.
    const std::uint64_t offset = (b.root_seed - a.root_seed) * gamma_inverse();
    return Wide(static_cast<std::int64_t>(offset));
}

struct Bezout {
    Wide gcd = 0;
    Wide x = 0; ///< x * p + y * q == gcd
};

Bezout bezout(Wide p, Wide q) {
    Wide old_r = p;
    Wide r = q;
    Wide old_x = 1;
    Wide x = 0;
    while (r != 0) {
        const Wide quotient = old_r / r;
        const Wide next_r = old_r - quotient * r;
        old_r = r;
        r = next_r;
        const Wide next_x = old_x - quotient * x;
        old_x = x;
        x = next_x;
    }
    return Bezout{old_r, old_x};
}

Wide floor_mod(Wide value, Wide modulus) {
    const Wide rest = value % modulus;
    return rest < 0 ? rest + modulus : rest;
}

/// The smallest value both progressions hold (Chinese remainder theorem).
std::optional<Wide> first_common(const Progression& p, const Progression& q) {
    if (p.count == 0 || q.count == 0) {
        return std::nullopt;
    }
    const Wide low = p.first > q.first ? p.first : q.first;
    const Wide high = p.last() < q.last() ? p.last() : q.last();
    if (low > high) {
        return std::nullopt;
    }
    const Bezout b = bezout(p.stride, q.stride);
    const Wide difference = q.first - p.first;
    if (difference % b.gcd != 0) {
        return std::nullopt;
    }
    // p.first + p.stride * k lies in q's residue class for k = (difference / gcd) * x mod m.
    const Wide modulus = q.stride / b.gcd;
    const Wide k =
        floor_mod(floor_mod(difference / b.gcd, modulus) * floor_mod(b.x, modulus), modulus);
    const Wide solution = p.first + p.stride * k;
    const Wide period = p.stride * modulus;
    const Wide smallest = low + floor_mod(solution - low, period);
    RS_ASSERT(p.holds(smallest) || smallest > high);
    return smallest <= high ? std::optional<Wide>(smallest) : std::nullopt;
}

} // namespace

std::optional<std::uint64_t> first_shared_run(const RunSet& a, const RunSet& b) {
    const std::optional<Wide> shift = shift_of(a, b);
    if (!shift.has_value()) {
        return std::nullopt;
    }
    const auto common = first_common(progression_of(a.slice, 0), progression_of(b.slice, *shift));
    if (!common.has_value()) {
        return std::nullopt;
    }
    RS_ASSERT(*common >= 0);
    return static_cast<std::uint64_t>(*common);
}

bool holds_all(const RunSet& outer, const RunSet& inner) {
    if (inner.slice.count == 0) {
        return true;
    }
    const std::optional<Wide> shift = shift_of(outer, inner);
    if (!shift.has_value()) {
        return false;
    }
    const Progression out = progression_of(outer.slice, 0);
    const Progression in = progression_of(inner.slice, *shift);
    return out.holds(in.first) && out.holds(in.last()) &&
           (in.count == 1 || in.stride % out.stride == 0);
}

bool holds_run(const RunSet& set, std::uint64_t root_seed, std::uint64_t index) {
    const RunSet single{root_seed, set.scheduler, set.semantics, IndexSlice{index, 1, 1}};
    return holds_all(set, single);
}

} // namespace routesim::tools::detail
