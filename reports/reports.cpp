// Placeholder translation unit of the reports layer until the reports land (issue 9).
// Part of reports/: may use scenarios/ and the layers below, Boost.Graph and nlohmann_json.
namespace routesim::reports {
} // namespace routesim::reports
