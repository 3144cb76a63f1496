# `run --json` of a router that died carries its last table: the counters and routes it had,
# and `died` with the virtual time and reason (issue 20: a dead router's table was empty).
# Usage: cmake -DCLI=<routesim> -DFILE=<reports/testdata/dead-router.json> -P json_dead_router_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
cli_run(json run ${FILE} --json)
if(NOT json_code EQUAL 0)
    message(FATAL_ERROR "run --json exited ${json_code}\n${json_out}${json_err}")
endif()
string(JSON died_at GET "${json_out}" routers 0 died at_ns)
string(JSON reason GET "${json_out}" routers 0 died reason)
string(JSON forwarded GET "${json_out}" routers 0 forwarded)
string(JSON routes LENGTH "${json_out}" routers 0 routes)
string(JSON exited GET "${json_out}" routers 0 routes 0 exited)
if(NOT died_at EQUAL 2000000 OR NOT reason STREQUAL "kill" OR NOT forwarded EQUAL 3
   OR NOT routes EQUAL 2 OR NOT exited)
    message(FATAL_ERROR "dead router in --json: died at ${died_at} (${reason}), forwarded "
                        "${forwarded}, ${routes} routes, exited ${exited}\n${json_out}")
endif()
