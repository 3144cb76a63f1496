# `cmake --install build --prefix P`: the libraries, their public headers, an exported targets
# file and routesimConfig.cmake + routesimConfigVersion.cmake, so that a project says
#     find_package(routesim 0.2 REQUIRED)
#     target_link_libraries(mytests PRIVATE routesim::scenarios routesim::testing)
# (README "Use routesim from your own C++ project"). Headers keep their in-repo include paths
# under P/include/routesim/ ("runtime/router.hpp"); the internals (detail/ folders, the
# test-only headers) stay out, except the detail headers a public header includes.
# The core targets need nlohmann_json and Boost (headers); routesim::testing (and its
# routesim::topology_gen) also GoogleTest and rapidcheck, in their own export set, loaded when
# those are found (find_package(routesim 0.2 REQUIRED COMPONENTS testing) insists on them).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ROUTESIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/routesim)
set(routesim_include_root ${CMAKE_INSTALL_INCLUDEDIR}/routesim)

# Library target -> exported name (routesim::<name>); the same aliases exist in this build.
set(routesim_core_exports
    routesim_sim=sim routesim_runtime=runtime routesim_properties=properties
    routesim_scenarios_format=scenarios_format routesim_scenarios=scenarios
    routesim_reports=reports routesim_fuzz=fuzz routesim_cli=cli)
set(routesim_testing_exports routesim_topology_gen=topology_gen routesim_testing=testing)

function(routesim_export_targets set_name)
    set(targets "")
    foreach(pair IN LISTS ARGN)
        string(REPLACE "=" ";" parts "${pair}")
        list(GET parts 0 target)
        list(GET parts 1 name)
        set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
        add_library(routesim::${name} ALIAS ${target})
        # In-tree include paths point at the source tree; installed ones at the prefix.
        get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
        if(dirs)
            set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES
                         "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>")
        endif()
        target_include_directories(${target} INTERFACE
                                   $<INSTALL_INTERFACE:${routesim_include_root}>)
        list(APPEND targets ${target})
    endforeach()
    install(TARGETS ${targets} EXPORT ${set_name}
            ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
    install(EXPORT ${set_name} NAMESPACE routesim:: DESTINATION ${ROUTESIM_INSTALL_CMAKEDIR})
endfunction()
routesim_export_targets(routesimTargets ${routesim_core_exports})
routesim_export_targets(routesimTestingTargets ${routesim_testing_exports})

# Public headers: every header of these folders but the test-only ones; detail/ headers only
# where a public header includes them (cmake/installed_headers_check.py checks the closure).
set(routesim_public_headers "")
foreach(folder IN ITEMS sim runtime properties properties/gen scenarios/format scenarios/run
                        reports)
    file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${folder}/*.hpp)
    list(APPEND routesim_public_headers ${headers})
endforeach()
# The layers' own test support (runtime/testing.hpp, *_testing.hpp, the mutation switch, ...).
list(FILTER routesim_public_headers EXCLUDE REGEX
     "(_testing|/testing|testing_mutation|router_rig|loader_big)\\.hpp$")
file(GLOB testing_headers RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tools/testing/*.hpp)
list(APPEND routesim_public_headers ${testing_headers} tools/cli.hpp tools/fuzz.hpp
     sim/detail/run_queue.hpp sim/detail/timer_queue.hpp runtime/detail/ring.hpp)
foreach(header IN LISTS routesim_public_headers)
    get_filename_component(folder ${header} DIRECTORY)
    install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${routesim_include_root}/${folder})
endforeach()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/routesimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/routesimConfig.cmake
                              INSTALL_DESTINATION ${ROUTESIM_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so 0.2 accepts 0.2.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/routesimConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/routesimConfig.cmake
              ${PROJECT_BINARY_DIR}/routesimConfigVersion.cmake
        DESTINATION ${ROUTESIM_INSTALL_CMAKEDIR})
