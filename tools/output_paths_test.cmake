# CTest: run and report refuse, with exit 2 and one line naming both paths, any output that
# is the input file (the same file by filesystem identity: another spelling, a symlink, a
# hard link), a report directory that holds the input under a name the report writes, and
# two outputs that are one file; the input is left untouched. A report written into the
# input's directory under other names is fine.
# Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json> -DOUT=<dir> -P output_paths_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/d)
set(input ${OUT}/s.json)
file(COPY_FILE ${FILE} ${input})
file(READ ${FILE} original)
file(CREATE_LINK ${input} ${OUT}/link.jsonl SYMBOLIC)
file(CREATE_LINK ${input} ${OUT}/hard.jsonl)

function(expect_untouched)
    file(READ ${input} now)
    if(NOT now STREQUAL original)
        message(FATAL_ERROR "the input file ${input} was changed")
    endif()
endfunction()

set(clash "would overwrite the input file")
expect_refused("routesim run: --trace: ${input} ${clash} ${input}" run ${input} --trace ${input})
expect_refused("routesim run: --trace: ${OUT}/d/../s.json ${clash} ${input}"
               run ${input} --trace ${OUT}/d/../s.json)
expect_refused("routesim run: --trace: ${OUT}/link.jsonl ${clash} ${input}"
               run ${input} --trace ${OUT}/link.jsonl)
expect_refused("routesim run: --trace: ${OUT}/hard.jsonl ${clash} ${input}"
               run ${input} --trace ${OUT}/hard.jsonl)
expect_refused("routesim report: --trace: ${input} ${clash} ${input}"
               report ${input} --out ${OUT}/r --trace ${input})
expect_untouched()
if(EXISTS ${OUT}/r)
    message(FATAL_ERROR "a refused report created its directory")
endif()

# The input inside the report directory under a name the report writes.
foreach(name trace.json index.html topology.dot)
    file(COPY_FILE ${FILE} ${OUT}/d/${name})
    expect_refused("routesim report: --out: ${OUT}/d/${name} ${clash} ${OUT}/d/${name}"
                   report ${OUT}/d/${name} --out ${OUT}/d)
    expect_refused("routesim run: --report: ${OUT}/d/${name} ${clash} ${OUT}/d/${name}"
                   run ${OUT}/d/${name} --report ${OUT}/d)
    file(READ ${OUT}/d/${name} now)
    if(NOT now STREQUAL original)
        message(FATAL_ERROR "the input file ${OUT}/d/${name} was changed")
    endif()
    file(REMOVE ${OUT}/d/${name})
endforeach()
expect_refused("routesim run: --report: ${input} ${clash} ${input}" run ${input} --report ${input})

# Two outputs that are one file.
set(twice "${OUT}/d/trace.json is also written by --trace (${OUT}/d/trace.json)")
expect_refused("routesim run: --report: ${twice}"
               run ${input} --trace ${OUT}/d/trace.json --report ${OUT}/d)
expect_untouched()

# Another name in the input's own directory is fine.
cli_run(beside report ${input} --out ${OUT})
if(NOT beside_code EQUAL 0 OR NOT EXISTS ${OUT}/index.html)
    message(FATAL_ERROR "a report beside its input failed (${beside_code}):\n${beside_out}"
                        "${beside_err}")
endif()
expect_untouched()
# Every file a report writes is one the check knows (tools/report_command.cpp's list).
file(GLOB written RELATIVE ${OUT} ${OUT}/*)
set(known "^(s\\.json|link\\.jsonl|hard\\.jsonl|d|index\\.html|topology\\.(dot|svg|mmd)")
string(APPEND known "|trace\\.json)$")
foreach(name IN LISTS written)
    if(NOT name MATCHES "${known}")
        message(FATAL_ERROR "the report wrote ${name}, which the output check does not know")
    endif()
endforeach()
