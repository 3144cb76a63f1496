// Prng: the only source of randomness. xoshiro256** seeded through splitmix64, with named
// child streams and our own bounded-integer and ratio helpers (no <random> distributions).
// Part of sim/: depends on the standard library only.
#pragma once

#include <cstdint>
#include <string_view>

namespace routesim::sim {

/// One step of splitmix64: advances `state` and returns the next output.
std::uint64_t splitmix64(std::uint64_t& state);

/// FNV-1a 64 of a byte string (used for stream names and string hashing).
constexpr std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (char c : bytes) {
        hash ^= static_cast<std::uint8_t>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

/// A deterministic pseudo-random stream. Same seed, same numbers, on every platform.
class Prng {
public:
    /// Seeds the four state words from `seed` through splitmix64.
    explicit Prng(std::uint64_t seed);

    /// The child stream named `name`: derived from this stream's seed and the name only, so
    /// forking consumes nothing and draws in one child never shift another.
    Prng fork(std::string_view name) const;

    /// The seed this stream was created from.
    std::uint64_t seed() const { return seed_; }

    /// The next raw 64-bit output.
    std::uint64_t next_u64();

    /// A uniform integer in [0, bound). Precondition: bound > 0. Unbiased (rejection).
    std::uint64_t below(std::uint64_t bound);

    /// A uniform integer in [low, high], both inclusive. Precondition: low <= high.
    std::int64_t between(std::int64_t low, std::int64_t high);

    /// True with probability numerator/denominator. Precondition: 0 < denominator and
    /// numerator <= denominator.
    bool chance(std::uint64_t numerator, std::uint64_t denominator);

private:
    std::uint64_t seed_;
    std::uint64_t state_[4];
};

} // namespace routesim::sim
