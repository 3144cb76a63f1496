# One malformed scenario: `routesim validate FILE` and `routesim run FILE` must both exit 2 and
# print exactly the one line of FILE's .expected (file, JSON pointer, what was expected).
# Usage: cmake -DCLI=<routesim> -DFILE=<bad.json> -DEXPECTED=<line> -DDIR=<dir> -P bad_test.cmake
file(READ ${EXPECTED} golden)
string(STRIP "${golden}" golden)
get_filename_component(name ${FILE} NAME)
execute_process(COMMAND ${CLI} validate ${name} WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE validate_out RESULT_VARIABLE validate_rc)
string(STRIP "${validate_out}" validate_out)
if(NOT validate_rc EQUAL 2)
    message(FATAL_ERROR "validate ${name} exited ${validate_rc}, expected 2: ${validate_out}")
endif()
if(NOT validate_out STREQUAL golden)
    message(FATAL_ERROR "validate ${name} printed\n  ${validate_out}\nexpected\n  ${golden}")
endif()
execute_process(COMMAND ${CLI} run ${name} WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE run_out ERROR_VARIABLE run_err RESULT_VARIABLE run_rc)
string(STRIP "${run_err}" run_err)
if(NOT run_rc EQUAL 2)
    message(FATAL_ERROR "run ${name} exited ${run_rc}, expected 2: ${run_out}${run_err}")
endif()
if(NOT run_err STREQUAL golden)
    message(FATAL_ERROR "run ${name} printed on stderr\n  ${run_err}\nexpected\n  ${golden}")
endif()
