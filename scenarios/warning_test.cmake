# `routesim validate FILE` on a file that loads with warnings: exit 0, nothing on stdout, and
# exactly the lines of WARNINGS on stderr (`file: pointer: warning: ...`); `routesim run FILE`
# prints the same lines on stderr before it runs, and its exit code is the run's own.
# Usage: cmake -DCLI=<routesim> -DFILE=<name.json> -DDIR=<dir> -DWARNINGS=<file> -P warning_test.cmake
file(READ ${WARNINGS} golden)
string(STRIP "${golden}" golden)
execute_process(COMMAND ${CLI} validate ${FILE} WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(STRIP "${err}" err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "validate ${FILE} exited ${rc}, expected 0 (warnings keep the exit code): ${out}${err}")
endif()
if(NOT out STREQUAL "")
    message(FATAL_ERROR "validate ${FILE} printed on stdout: ${out}")
endif()
if(NOT err STREQUAL golden)
    message(FATAL_ERROR "validate ${FILE} printed on stderr\n  ${err}\nexpected\n  ${golden}")
endif()
execute_process(COMMAND ${CLI} run ${FILE} WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE run_out ERROR_VARIABLE run_err RESULT_VARIABLE run_rc)
string(STRIP "${run_err}" run_err)
if(NOT run_err STREQUAL golden)
    message(FATAL_ERROR "run ${FILE} printed on stderr\n  ${run_err}\nexpected\n  ${golden}")
endif()
if(NOT run_out MATCHES "^seed: ")
    message(FATAL_ERROR "run ${FILE} did not run: ${run_out}")
endif()
