# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) after it installed the project into its staging
# directory and before it packs it: the static libraries lose their debug sections, as
# CPACK_STRIP_FILES does for the CLI (RelWithDebInfo archives are about ten times larger).
# A missing strip tool, or one that fails, stops the package with the archive named.
if(NOT CPACK_ROUTESIM_STRIP)
    message(FATAL_ERROR "package_strip_archives.cmake: no strip tool (CMAKE_STRIP) was found")
endif()
file(GLOB_RECURSE archives "${CPACK_TEMPORARY_DIRECTORY}/*.a")
foreach(archive IN LISTS archives)
    execute_process(COMMAND "${CPACK_ROUTESIM_STRIP}" --strip-debug "${archive}"
                    RESULT_VARIABLE status ERROR_VARIABLE errors)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "package_strip_archives.cmake: strip --strip-debug ${archive}: ${errors}")
    endif()
endforeach()
