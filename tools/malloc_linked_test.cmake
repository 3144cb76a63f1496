# CTest: the CLI and the fuzz bench load the allocator the build chose (ROUTESIM_MALLOC): their
# dynamic section names LIB as NEEDED, so the linker did not drop it (nothing calls it by name).
# Usage: cmake -DOBJDUMP=<objdump> -DLIB=<libtcmalloc_minimal.so.N> -DBINARIES=<a;b> -P ...
get_filename_component(lib_name ${LIB} NAME)
string(REGEX REPLACE "\\.so.*$" "" lib_stem ${lib_name})
foreach(binary IN LISTS BINARIES)
    execute_process(COMMAND ${OBJDUMP} -p ${binary} OUTPUT_VARIABLE dump RESULT_VARIABLE code)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "${OBJDUMP} -p ${binary} failed (${code})")
    endif()
    if(NOT dump MATCHES "NEEDED +${lib_stem}\\.so")
        message(FATAL_ERROR "${binary} does not load ${lib_stem}: the allocator was dropped")
    endif()
endforeach()
