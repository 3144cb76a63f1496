# Test `consumer-custom-router`: installs this build into a fresh prefix under the build
# directory, checks that every installed header's includes are installed too, configures and
# builds tools/examples/custom-router against that prefix (find_package(routesim 0.2)) with
# this build's compiler, generator, build type and compiler launcher, and runs its tests (its
# GoogleTest + rapidcheck suite, and its own CLI's validate, run and fuzz --runs 50 on its
# scenario). Then the plain routesim binary must reject the same scenario (exit 2, naming the
# unregistered rule), so the pass is the registration's doing.
# Usage: cmake -DBUILD=<build dir> -DSOURCE=<repo> -DOUT=<dir> -DCLI=<routesim>
#              -DCXX=<compiler> -DGENERATOR=<gen> -DBUILD_TYPE=<type> [-DLAUNCHER=<ccache>]
#              [-DSANITIZE=ON] [-DCOVERAGE=ON]
#              -P consumer_test.cmake
function(step what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
    endif()
    message(STATUS "${what}: ok")
endfunction()

file(REMOVE_RECURSE ${OUT})
set(prefix ${OUT}/prefix)
step("install into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
step("installed headers include only installed headers"
     /usr/bin/python3 ${SOURCE}/cmake/installed_headers_check.py ${prefix}/include/routesim)

set(configure ${CMAKE_COMMAND} -S ${SOURCE}/tools/examples/custom-router -B ${OUT}/build
              -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX}
              -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(LAUNCHER)
    list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
# Instrumented libraries need an instrumented link (ROUTESIM_SANITIZE, ROUTESIM_COVERAGE).
set(flags "")
if(SANITIZE)
    set(flags "-fsanitize=address,undefined -fno-omit-frame-pointer")
elseif(COVERAGE)
    set(flags "--coverage")
endif()
if(flags)
    list(APPEND configure "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}")
endif()
step("configure the example against the prefix" ${configure})
# The package found must be the installed one, not this source tree.
file(STRINGS ${OUT}/build/CMakeCache.txt found REGEX "^routesim_DIR:")
if(NOT found MATCHES "${prefix}/")
    message(FATAL_ERROR "the example found routesim elsewhere: ${found}")
endif()
step("build the example" ${CMAKE_COMMAND} --build ${OUT}/build -j2)
step("the example's tests" ${CMAKE_CTEST_COMMAND} --test-dir ${OUT}/build --output-on-failure
     -j2)

execute_process(COMMAND ${CLI} validate ${SOURCE}/tools/examples/custom-router/scenarios/sessions.json
                RESULT_VARIABLE code OUTPUT_VARIABLE err ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "unknown rule type \"sticky_user\" \\(no routing rule is registered")
    message(FATAL_ERROR "plain routesim should reject the example's scenario (exit 2): ${code} ${err}")
endif()
message(STATUS "plain routesim rejects the unregistered rule: ok")
