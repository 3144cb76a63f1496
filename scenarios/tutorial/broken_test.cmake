# The README tutorial's broken scenario: `routesim run FILE` must exit 1 (the expectations fail),
# print every line of EXPECTED (the FAIL lines the README quotes) and the FAIL verdict.
# Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json> -DEXPECTED=<lines.txt> -P broken_test.cmake
execute_process(COMMAND ${CLI} run ${FILE} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${FILE} exited ${rc} (expected 1: it is broken on purpose)\n${out}${err}")
endif()
file(STRINGS ${EXPECTED} wanted ENCODING UTF-8)
foreach(line IN LISTS wanted)
    string(FIND "${out}" "${line}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${FILE}: the output lacks the line\n${line}\nThe output was:\n${out}")
    endif()
endforeach()
string(FIND "${out}" "verdict: FAIL\n" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${FILE}: no \"verdict: FAIL\" line:\n${out}")
endif()
