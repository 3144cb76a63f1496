# CTest: --seed follows run.seed's rules (an integer from 0 to 2^64-1, digits only) in run,
# report, fuzz and demo; a negative, too large or malformed value is exit 2 with one line
# instead of wrapping around.
# Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json> -P seed_flag_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
set(range "expected an integer from 0 to 18446744073709551615")
set(tail_report --out seed-flag-report) # refused before anything is written
set(file_run ${FILE})
set(file_fuzz ${FILE})
set(file_report ${FILE})
foreach(command run fuzz report demo)
    set(args ${command} ${file_${command}} ${tail_${command}})
    set(start "routesim ${command}: --seed: ${range}, got")
    expect_refused("${start} \"-1\"" ${args} --seed -1)
    expect_refused("${start} \"18446744073709551616\"" ${args} --seed 18446744073709551616)
    expect_refused("${start} \"7x\"" ${args} --seed 7x)
    expect_refused("${start} \"+7\"" ${args} --seed=+7)
endforeach()
cli_run(top run ${FILE} --seed 18446744073709551615)
if(NOT top_code EQUAL 0 OR NOT top_out MATCHES "^seed: 18446744073709551615\n")
    message(FATAL_ERROR "--seed 2^64-1 should run (exit ${top_code}):\n${top_out}${top_err}")
endif()
