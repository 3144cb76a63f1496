# Helpers of the CLI test scripts (include()d; CLI is the routesim binary).
#   cli_run(<prefix> ARGS...): runs routesim ARGS, sets <prefix>_code, <prefix>_out, <prefix>_err.
#   expect_refused(<line> ARGS...): routesim ARGS exits 2 and prints exactly <line> on stderr.
#   expect_hash(<prefix>): the trace-hash of <prefix>_out, in <prefix>_hash (fails when absent).
function(cli_run prefix)
    execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    set(${prefix}_code "${code}" PARENT_SCOPE)
    set(${prefix}_out "${out}" PARENT_SCOPE)
    set(${prefix}_err "${err}" PARENT_SCOPE)
endfunction()

function(expect_refused line)
    cli_run(refused ${ARGN})
    if(NOT refused_code EQUAL 2)
        message(FATAL_ERROR "routesim ${ARGN}: exit ${refused_code}, expected 2\n"
                            "${refused_out}${refused_err}")
    endif()
    if(NOT refused_err STREQUAL "${line}\n")
        message(FATAL_ERROR "routesim ${ARGN}: stderr\n${refused_err}expected exactly\n${line}")
    endif()
endfunction()

function(expect_hash prefix)
    string(REGEX MATCH "trace-hash: ([0-9a-f]+)" found "${${prefix}_out}")
    if("${found}" STREQUAL "")
        message(FATAL_ERROR "no trace-hash in the output of ${prefix}:\n${${prefix}_out}"
                            "${${prefix}_err}")
    endif()
    set(${prefix}_hash "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()
