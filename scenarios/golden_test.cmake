# Golden test of one example scenario: `routesim run FILE` must exit 0 (the scenario checks
# itself), print exactly FILE's .expected.txt, and give the same output on a second run.
# Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json> -DEXPECTED=<golden.txt> -P golden_test.cmake
execute_process(COMMAND ${CLI} run ${FILE} OUTPUT_VARIABLE first ERROR_VARIABLE first_err
                RESULT_VARIABLE first_rc)
execute_process(COMMAND ${CLI} run ${FILE} OUTPUT_VARIABLE second RESULT_VARIABLE second_rc)
if(NOT first STREQUAL second)
    message(FATAL_ERROR "two runs of ${FILE} printed different output:\n${first}\n---\n${second}")
endif()
if(NOT EXISTS ${EXPECTED})
    message(FATAL_ERROR "missing golden file ${EXPECTED}; the output was:\n${first}")
endif()
file(READ ${EXPECTED} golden)
if(NOT first STREQUAL golden)
    file(WRITE ${EXPECTED}.actual "${first}")
    message(FATAL_ERROR "output of ${FILE} differs from ${EXPECTED} (actual written to "
                        "${EXPECTED}.actual):\n${first}")
endif()
if(NOT first_rc EQUAL 0)
    message(FATAL_ERROR "${FILE} exited ${first_rc} (expected 0: examples check themselves)\n"
                        "${first}${first_err}")
endif()
