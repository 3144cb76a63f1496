# Nightly CTest: the trace hash is the same whatever the compiler. Configures and builds the
# `routesim` CLI with clang++ in its own build directory (through the parent build's compiler
# launcher, ccache, when it has one), then runs every scenarios/examples/*.json and
# scenarios/races/*.json under seeds 1, 2, 7 and schedulers fifo, random, pct with both CLIs:
# every trace hash and exit code must be equal, and at least one pair must be compared.
# Usage: cmake -DSOURCE=<repo> -DBINARY=<clang build dir> -DCLI=<parent build's routesim>
#              [-DGENERATOR=<cmake generator>] [-DBUILD_TYPE=<type>] [-DLAUNCHER=<ccache>]
#              -P clang_agreement_test.cmake
find_program(CLANGXX NAMES clang++ clang++-14)
if(NOT CLANGXX)
    message(FATAL_ERROR "clang++ not found (bash tools/dev.sh setup installs clang)")
endif()
set(configure ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_CXX_COMPILER=${CLANGXX}
              -DROUTESIM_BENCHMARKS=OFF)
if(GENERATOR)
    list(APPEND configure -G ${GENERATOR})
endif()
if(BUILD_TYPE)
    list(APPEND configure -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()
if(LAUNCHER)
    list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(COMMAND ${configure} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "configuring with ${CLANGXX} failed (${code})\n${out}${err}")
endif()
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} --target routesim -j ${cores}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "building routesim with ${CLANGXX} failed (${code})\n${out}${err}")
endif()
set(clang_cli ${BINARY}/tools/routesim)

# One run: its exit code and trace hash ("none" when it printed none).
function(trace_of cli file seed scheduler out_var)
    execute_process(COMMAND ${cli} run ${file} --seed ${seed} --scheduler ${scheduler}
                    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REGEX MATCH "trace-hash: ([0-9a-f]+)" found "${out}")
    set(hash "${CMAKE_MATCH_1}")
    if(hash STREQUAL "")
        set(hash "none")
    endif()
    set(${out_var} "exit ${code}, trace-hash ${hash}" PARENT_SCOPE)
endfunction()

file(GLOB scenarios ${SOURCE}/scenarios/examples/*.json ${SOURCE}/scenarios/races/*.json)
set(compared 0)
set(differences "")
foreach(file IN LISTS scenarios)
    foreach(seed 1 2 7)
        foreach(scheduler fifo random pct)
            trace_of(${CLI} ${file} ${seed} ${scheduler} gcc_result)
            trace_of(${clang_cli} ${file} ${seed} ${scheduler} clang_result)
            if(gcc_result MATCHES "trace-hash none")
                string(APPEND differences "\n  ${file} --seed ${seed} --scheduler ${scheduler}: "
                       "no trace hash (${gcc_result})")
            elseif(NOT gcc_result STREQUAL clang_result)
                string(APPEND differences "\n  ${file} --seed ${seed} --scheduler ${scheduler}: "
                       "${CLI}: ${gcc_result}; clang: ${clang_result}")
            endif()
            math(EXPR compared "${compared} + 1")
        endforeach()
    endforeach()
endforeach()
if(compared EQUAL 0)
    message(FATAL_ERROR "no scenario compared (none found under ${SOURCE}/scenarios)")
endif()
if(NOT differences STREQUAL "")
    message(FATAL_ERROR "clang and the parent build disagree:${differences}")
endif()
message(STATUS "clang++ and the parent build agree on ${compared} runs (trace hash and exit code)")
