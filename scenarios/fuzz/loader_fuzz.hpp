// The loader fuzz target's body, shared by the libFuzzer build (clang, LLVMFuzzerTestOneInput)
// and the g++ replay driver of the default test suite.
#pragma once

#include <cstddef>
#include <cstdint>

namespace routesim::scenarios::fuzz {

/// What one input did.
enum class Verdict : std::uint8_t {
    Rejected, ///< the loader returned a LoadError
    Loaded,   ///< loaded, too big to build cheaply
    Built,    ///< loaded and built
};

/// Loads `size` bytes as a scenario under the fuzz limits and, when it loads and is small,
/// builds its topology. Never throws; a crash, hang or escaped exception is a bug.
Verdict fuzz_loader_one(const std::uint8_t* data, std::size_t size);

} // namespace routesim::scenarios::fuzz
