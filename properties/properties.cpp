// Placeholder translation unit of the properties layer until the monitors land (issue 6).
// Part of properties/: may use runtime/ and sim/.
namespace routesim::properties {
} // namespace routesim::properties
