// Placeholder translation unit of the runtime layer until the runtime core lands (issue 3).
// Part of runtime/: may use sim/ and the standard library only.
namespace routesim::runtime {
} // namespace routesim::runtime
