# CTest: every replay hint is a complete command, and --save-repro pins the run.
# - `run FILE <flags> --save-repro R`, then `run R` alone: the same output and trace hash
#   (and `report ... --save-repro` writes the same file); R may not be the input.
# - The HTML report's "Replay it with" carries every flag that changed the run, and running
#   that very command gives the report's trace hash.
# Usage: cmake -DCLI=<routesim> -DFILE=<scenario.json> -DOUT=<dir> -P replay_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(flags --seed 7 --scheduler random --semantics upstream --until 40ms)
cli_run(flagged run ${FILE} ${flags} --save-repro ${OUT}/repro.json)
cli_run(pinned run ${OUT}/repro.json)
expect_hash(flagged)
expect_hash(pinned)
if(NOT flagged_hash STREQUAL pinned_hash OR NOT flagged_out STREQUAL pinned_out
   OR NOT flagged_code EQUAL pinned_code)
    message(FATAL_ERROR "the pinned scenario does not replay the run:\n${flagged_out}---\n"
                        "${pinned_out}${pinned_err}")
endif()
cli_run(plain run ${FILE})
expect_hash(plain)
if(plain_hash STREQUAL flagged_hash)
    message(FATAL_ERROR "the flags did not change the run (the test proves nothing)")
endif()
cli_run(reported report ${FILE} ${flags} --out ${OUT}/r --save-repro ${OUT}/repro2.json)
file(READ ${OUT}/repro.json repro)
file(READ ${OUT}/repro2.json repro2)
if(NOT reported_code EQUAL 0 OR NOT repro STREQUAL repro2)
    message(FATAL_ERROR "report --save-repro wrote another file (${reported_code}):\n${repro2}")
endif()
file(COPY_FILE ${FILE} ${OUT}/s.json)
set(clash "${OUT}/s.json would overwrite the input file ${OUT}/s.json")
expect_refused("routesim run: --save-repro: ${clash}" run ${OUT}/s.json --save-repro ${OUT}/s.json)

# A failing run: the report's hint is the whole command, and that command replays it.
set(failing ${OUT}/failing.json)
file(WRITE ${failing} [=[{
  "name": "fails",
  "topology": {"kind": "actor", "name": "solo", "behavior": {"type": "sink"}},
  "expect": {"processed": {"solo": 3}}
}
]=])
function(expect_hint dir hint)
    file(READ ${dir}/index.html html)
    string(FIND "${html}" "Replay it with <code>${hint}</code>" at)
    if(at EQUAL -1)
        string(REGEX MATCH "Replay it with <code>[^<]*</code>" found "${html}")
        message(FATAL_ERROR "expected the hint ${hint}, found: ${found}")
    endif()
endfunction()
cli_run(failed report ${failing} --seed 5 --scheduler random --until 1ms --out ${OUT}/f)
expect_hint(${OUT}/f "routesim run ${failing} --seed 5 --scheduler random --until 1ms")
cli_run(hinted run ${failing} --seed 5 --scheduler random --until 1ms)
expect_hash(failed)
expect_hash(hinted)
if(NOT failed_hash STREQUAL hinted_hash OR NOT hinted_code EQUAL 1)
    message(FATAL_ERROR "the hint gave ${hinted_hash} (exit ${hinted_code}), the report "
                        "${failed_hash}")
endif()
cli_run(semantics run ${failing} --semantics upstream --report ${OUT}/g)
expect_hint(${OUT}/g "routesim run ${failing} --seed 1 --semantics upstream")
# A path the shell would split is quoted (the page escapes the quotes).
file(COPY_FILE ${failing} "${OUT}/my fail.json")
cli_run(spaced report "${OUT}/my fail.json" --out ${OUT}/h)
expect_hint(${OUT}/h "routesim run &#39;${OUT}/my fail.json&#39; --seed 1")
