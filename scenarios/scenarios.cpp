// Placeholder translation unit of the scenarios layer until the loader lands (issue 7).
// Part of scenarios/: may use properties/, runtime/, sim/ and nlohmann_json.
namespace routesim::scenarios {
} // namespace routesim::scenarios
