# CTest: `routesim report` takes the run flags of `routesim run` (one definition for both):
# the same --seed, --scheduler, --semantics and --until give the same trace hash, and
# --trace writes the same JSON Lines. Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json>
#                                              -DOUT=<dir> -P report_flags_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(flags --seed 7 --scheduler random --semantics upstream --until 40ms)
cli_run(run run ${FILE} ${flags} --trace ${OUT}/run.jsonl)
cli_run(report report ${FILE} ${flags} --trace ${OUT}/report.jsonl --out ${OUT}/report)
if(NOT report_code EQUAL 0 OR NOT report_out MATCHES "^seed: 7\n")
    message(FATAL_ERROR "report with run flags exited ${report_code}:\n${report_out}${report_err}")
endif()
expect_hash(run)
expect_hash(report)
if(NOT run_hash STREQUAL report_hash)
    message(FATAL_ERROR "run gave trace-hash ${run_hash}, report ${report_hash}")
endif()
file(READ ${OUT}/run.jsonl run_trace)
file(READ ${OUT}/report.jsonl report_trace)
if(run_trace STREQUAL "" OR NOT run_trace STREQUAL report_trace)
    message(FATAL_ERROR "run --trace and report --trace wrote different (or empty) files")
endif()
# The flags change the run: seed 1 under fifo must give another hash (else the test is void).
cli_run(plain report ${FILE} --out ${OUT}/plain)
expect_hash(plain)
if(plain_hash STREQUAL report_hash)
    message(FATAL_ERROR "the run flags did not change the report's run (${plain_hash})")
endif()
