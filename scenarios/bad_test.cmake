# One malformed scenario: `routesim validate FILE` and `routesim run FILE` must both exit 2.
# `run` prints exactly the one line of FILE's .expected (file, JSON pointer, what was expected)
# on stderr. `validate` prints every error of the file, one per line: exactly the lines of
# FILE's .validate when there is one (a fixture with several errors), else the .expected line.
# Either way the first line `validate` prints is the .expected line.
# Usage: cmake -DCLI=<routesim> -DFILE=<bad.json> -DEXPECTED=<line> -DDIR=<dir> -P bad_test.cmake
file(READ ${EXPECTED} golden)
string(STRIP "${golden}" golden)
get_filename_component(name ${FILE} NAME)
get_filename_component(stem ${FILE} NAME_WE)
set(validate_golden "${golden}")
if(EXISTS ${DIR}/${stem}.validate)
    file(READ ${DIR}/${stem}.validate validate_golden)
    string(STRIP "${validate_golden}" validate_golden)
    string(FIND "${validate_golden}\n" "${golden}\n" first_at)
    if(NOT first_at EQUAL 0)
        message(FATAL_ERROR "${stem}.validate does not start with the line of ${stem}.expected")
    endif()
endif()
execute_process(COMMAND ${CLI} validate ${name} WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE validate_out RESULT_VARIABLE validate_rc)
string(STRIP "${validate_out}" validate_out)
if(NOT validate_rc EQUAL 2)
    message(FATAL_ERROR "validate ${name} exited ${validate_rc}, expected 2: ${validate_out}")
endif()
if(NOT validate_out STREQUAL validate_golden)
    message(FATAL_ERROR "validate ${name} printed\n  ${validate_out}\nexpected\n  ${validate_golden}")
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
