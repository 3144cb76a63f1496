# Nightly: builds the loader's libFuzzer target with clang++ -fsanitize=fuzzer,address,undefined
# in its own build directory and fuzzes the loader for a bounded time, starting from the
# examples, the malformed fixtures, the test inputs and scenarios/fuzz/corpus. Fails when the
# build fails, when libFuzzer reports a crash, a leak, a timeout or an out-of-memory, or when
# the fuzzer did not run.
#
#   cmake -DSOURCE=<repo> -DBUILD=<dir> [-DSECONDS=300] [-DJOBS=2] [-DCXX=clang++]
#         [-DEXTRA=<libFuzzer flag>] -P scenarios/fuzz/run_libfuzzer.cmake
# EXTRA is appended to the fuzzer's flags (a later flag wins), e.g. -DEXTRA=-rss_limit_mb=64 to
# see the script fail on a reported out-of-memory.
# A crashing input is left in <BUILD>/artifacts/ (replay it with
# `<BUILD>/scenarios/routesim_loader_fuzzer <file>`, or with the g++ replay driver).
cmake_minimum_required(VERSION 3.25)
foreach(required SOURCE BUILD)
    if(NOT DEFINED ${required})
        message(FATAL_ERROR "run_libfuzzer.cmake: -D${required}=... is required")
    endif()
endforeach()
if(NOT DEFINED SECONDS)
    set(SECONDS 300)
endif()
if(NOT DEFINED EXTRA)
    set(EXTRA "")
endif()
if(NOT DEFINED JOBS)
    set(JOBS 2)
endif()
if(NOT DEFINED CXX)
    find_program(CXX NAMES clang++ clang++-14 REQUIRED)
endif()

set(flags "-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined")
execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
            -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${flags}"
            "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
            -DROUTESIM_LIBFUZZER=ON -DROUTESIM_BENCHMARKS=OFF
    RESULT_VARIABLE configured)
if(NOT configured EQUAL 0)
    message(FATAL_ERROR "configuring the clang fuzz build failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} -j ${JOBS} --target routesim_loader_fuzzer
                RESULT_VARIABLE built)
if(NOT built EQUAL 0)
    message(FATAL_ERROR "building routesim_loader_fuzzer failed")
endif()

# The fuzzer grows a scratch corpus; the seeds in the source tree are only read.
set(work ${BUILD}/corpus)
set(artifacts ${BUILD}/artifacts)
file(MAKE_DIRECTORY ${work} ${artifacts})
file(GLOB old_crashes ${artifacts}/crash-* ${artifacts}/timeout-* ${artifacts}/oom-* ${artifacts}/leak-*)
if(old_crashes)
    file(REMOVE ${old_crashes})
endif()
execute_process(
    COMMAND ${BUILD}/scenarios/routesim_loader_fuzzer ${work}
            ${SOURCE}/scenarios/fuzz/corpus ${SOURCE}/scenarios/examples ${SOURCE}/scenarios/bad
            ${SOURCE}/scenarios/testdata ${SOURCE}/scenarios/races
            -dict=${SOURCE}/scenarios/fuzz/scenario.dict
            -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
            -print_final_stats=1 -artifact_prefix=${artifacts}/ ${EXTRA}
    RESULT_VARIABLE fuzzed
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
message("${output}")
file(GLOB crashes ${artifacts}/crash-* ${artifacts}/timeout-* ${artifacts}/oom-* ${artifacts}/leak-*)
if(NOT fuzzed EQUAL 0 OR crashes OR output MATCHES "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)"
   OR output MATCHES "runtime error:")
    message(FATAL_ERROR "libFuzzer found a problem (exit ${fuzzed}); inputs: ${crashes}")
endif()
if(NOT output MATCHES "stat::number_of_executed_units: *([0-9]+)")
    message(FATAL_ERROR "libFuzzer printed no final stats: it did not run")
endif()
message(STATUS "libFuzzer ran ${CMAKE_MATCH_1} inputs in ${SECONDS} s without a failure")
