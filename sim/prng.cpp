// xoshiro256** (Blackman and Vigna) with splitmix64 seeding, written from the published
// algorithm description. Part of sim/: depends on the standard library only.
#include "sim/prng.hpp"

#include "sim/assert.hpp"

namespace routesim::sim {
namespace {

constexpr std::uint64_t rotl(std::uint64_t value, int shift) {
    return (value << shift) | (value >> (64 - shift));
}

} // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Prng::Prng(std::uint64_t seed) : seed_(seed) {
    std::uint64_t mixer = seed;
    for (std::uint64_t& word : state_) {
        word = splitmix64(mixer);
    }
    // xoshiro must not start from the all-zero state; splitmix64 never yields four zeros,
    // but the postcondition is cheap to state.
    RS_ASSERT((state_[0] | state_[1] | state_[2] | state_[3]) != 0);
}

Prng Prng::fork(std::string_view name) const {
    std::uint64_t mixer = seed_ ^ fnv1a64(name);
    return Prng(splitmix64(mixer));
}

std::uint64_t Prng::next_u64() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotl(state_[3], 45);
    return result;
}

std::uint64_t Prng::below(std::uint64_t bound) {
    RS_ASSERT(bound > 0);
    // Reject the low values that would make the modulo uneven: 2^64 mod bound of them.
    const std::uint64_t threshold = (0 - bound) % bound;
    while (true) {
        const std::uint64_t draw = next_u64();
        if (draw >= threshold) {
            const std::uint64_t result = draw % bound;
            RS_ASSERT(result < bound);
            return result;
        }
    }
}

std::int64_t Prng::between(std::int64_t low, std::int64_t high) {
    RS_ASSERT(low <= high);
    const std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    if (span == UINT64_MAX) {
        return static_cast<std::int64_t>(next_u64());
    }
    const std::uint64_t offset = below(span + 1);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + offset);
}

bool Prng::chance(std::uint64_t numerator, std::uint64_t denominator) {
    RS_ASSERT(denominator > 0);
    RS_ASSERT(numerator <= denominator);
    if (numerator == 0) {
        return false;
    }
    if (numerator == denominator) {
        return true;
    }
    return below(denominator) < numerator;
}

} // namespace routesim::sim
