# CTest: `routesim trace`, `routesim diff` and `run --explain` (issue 23), each against a golden
# output in tools/testdata/traceview/ (the trace view of a fixed trace of the bundled example
# crash-every-kind, and each filter; the diff of two fixed runs of a race scenario, seed 7
# failing and seed 9 passing; the explanation of a failing tutorial run) and the exact error
# line of each bad input.
# Usage: cmake -DCLI=<routesim> -DDATA=<tools/testdata/traceview> -DSOURCE=<repo> -DOUT=<dir>
#        -DMODE=trace|diff|explain -P traceview_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_check.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

# routesim ARGS... exits `code` and prints exactly the golden file `name`.
function(expect_golden name code)
    cli_run(golden ${ARGN})
    file(READ ${DATA}/${name} expected)
    if(NOT golden_out STREQUAL expected OR NOT golden_code EQUAL code)
        file(WRITE ${OUT}/${name}.actual "${golden_out}")
        message(FATAL_ERROR "routesim ${ARGN}: exit ${golden_code} (expected ${code}), output "
                            "differs from ${DATA}/${name} (actual in ${OUT}/${name}.actual):\n"
                            "${golden_out}${golden_err}")
    endif()
endfunction()

set(fixed_trace ${DATA}/crash-every-kind.jsonl)
if(MODE STREQUAL "trace")
    expect_golden(trace-all.expected.txt 0 trace ${fixed_trace})
    expect_golden(trace-around.expected.txt 0 trace ${fixed_trace} --around 6ms --window 1ms)
    expect_golden(trace-process.expected.txt 0 trace ${fixed_trace} --process sup/inner)
    expect_golden(trace-kinds.expected.txt 0 trace ${fixed_trace} --kinds exit,sup_restart)
    expect_golden(trace-filters.expected.txt 0 trace ${fixed_trace} --process sup/orders --kinds take
                  --around 3ms --window 0ns)
    expect_refused("${DATA}/bad-line.jsonl:4: /pid: expected an unsigned integer, got \"x\""
                   trace ${DATA}/bad-line.jsonl)
    set(kinds "spawn, spawn_failed, register, unregister, send, send_failed, take, forward")
    string(APPEND kinds ", call, call_result, response, response_dropped, exit, drop, preserve")
    string(APPEND kinds ", signal_lost, kill, link, timer, log, busy, route, route_init")
    string(APPEND kinds ", route_admin, route_pending, route_restart, route_key, pool_forward")
    string(APPEND kinds ", pool_workers, sup_child_exit, sup_restart, sup_intensity_exceeded")
    string(APPEND kinds ", sup_shutdown, fault, limit, fault_aim, fault_kill")
    expect_refused("routesim trace: --kinds: unknown event kind \"sned\"; kinds are: ${kinds}"
                   trace ${fixed_trace} --kinds take,sned)
    expect_refused("routesim trace: cannot open ${OUT}/none.jsonl" trace ${OUT}/none.jsonl)
    expect_refused("routesim trace: --window: needs --around (the time it is around)"
                   trace ${fixed_trace} --window 1ms)
    expect_refused("routesim trace: --around: duration \"6\" has unknown unit \"\" (expected one of: ns, us, ms, s)"
                   trace ${fixed_trace} --around 6)
elseif(MODE STREQUAL "diff")
    set(race ${SOURCE}/scenarios/races/call-during-pending-replace.json)
    foreach(seed 7 9)
        cli_run(seed${seed} run ${race} --seed ${seed} --scheduler random --json
                --trace ${OUT}/seed${seed}.jsonl)
        file(WRITE ${OUT}/seed${seed}.json "${seed${seed}_out}")
    endforeach()
    if(NOT seed7_code EQUAL 1 OR NOT seed9_code EQUAL 0)
        message(FATAL_ERROR "seed 7 should fail and seed 9 pass: ${seed7_code}, ${seed9_code}")
    endif()
    expect_golden(diff-results.expected.txt 1 diff ${OUT}/seed7.json ${OUT}/seed9.json)
    expect_golden(diff-traces.expected.txt 1 diff ${OUT}/seed7.jsonl ${OUT}/seed9.jsonl)
    expect_golden(diff-same.expected.txt 0 diff ${fixed_trace} ${fixed_trace})
    # Fields one side lacks, lists of plain values short and long, items named by "what".
    file(WRITE ${OUT}/a.json [=[{"trace_hash": "1", "seed": 1, "decisions": [0, 1, 2, 3, 4, 5, 6, 7, 8],
 "short": [1, 2], "gone": {"x": 1}, "checks": [{"what": "w", "ok": true}, {"what": "v"}]}
]=])
    file(WRITE ${OUT}/b.json [=[{"trace_hash": "2", "seed": 1, "decisions": [0, 1, 2, 9, 4, 5, 6, 7, 8, 9],
 "short": [1, 3], "new": null, "checks": [{"what": "w", "ok": false}, {"what": "u"}]}
]=])
    cli_run(small diff ${OUT}/a.json ${OUT}/b.json)
    set(expected "checks[w].ok: true -> false\n")
    string(APPEND expected "checks[1].what: \"v\" -> \"u\"\n")
    string(APPEND expected "decisions: 9 values -> 10 values, first difference at [3]: 3 -> 9\n")
    string(APPEND expected "gone: {\"x\":1} -> (none)\n")
    string(APPEND expected "new: (none) -> null\n")
    string(APPEND expected "short: [1,2] -> [1,3]\n")
    string(APPEND expected "trace_hash: \"1\" -> \"2\"\n")
    if(NOT small_out STREQUAL expected OR NOT small_code EQUAL 1)
        message(FATAL_ERROR "diff of two small results (exit ${small_code}):\n${small_out}"
                            "expected\n${expected}")
    endif()
    file(WRITE ${OUT}/not-a-result.json "[1, 2]\n")
    expect_refused("routesim diff: ${OUT}/not-a-result.json: expected a run --json result (a JSON object with a trace_hash) or a --trace file (JSON Lines)"
                   diff ${OUT}/not-a-result.json ${OUT}/a.json)
    expect_golden(diff-same-results.expected.txt 0 diff ${OUT}/seed7.json ${OUT}/seed7.json)
    expect_refused("routesim diff: ${OUT}/seed7.json is a run result but ${OUT}/seed9.jsonl is a trace; give two run --json results or two traces"
                   diff ${OUT}/seed7.json ${OUT}/seed9.jsonl)
    expect_refused("routesim diff: cannot open ${OUT}/none.json" diff ${OUT}/none.json ${fixed_trace})
    expect_refused("routesim diff: ${DATA}/bad-line.jsonl:4: /pid: expected an unsigned integer, got \"x\""
                   diff ${DATA}/bad-line.jsonl ${fixed_trace})
elseif(MODE STREQUAL "explain")
    set(broken ${SOURCE}/scenarios/tutorial/first-scenario-broken.json)
    cli_run(plain run ${broken})
    cli_run(explained run ${broken} --explain)
    string(FIND "${explained_out}" "${plain_out}" at)
    if(NOT at EQUAL 0 OR NOT explained_code EQUAL 1)
        message(FATAL_ERROR "run --explain must print the summary first and exit 1 "
                            "(${explained_code}):\n${explained_out}")
    endif()
    string(LENGTH "${plain_out}" summary_length)
    string(SUBSTRING "${explained_out}" ${summary_length} -1 explanation)
    file(READ ${DATA}/explain.expected.txt expected)
    if(NOT explanation STREQUAL expected)
        file(WRITE ${OUT}/explain.expected.txt.actual "${explanation}")
        message(FATAL_ERROR "run --explain printed after the summary:\n${explanation}")
    endif()
    cli_run(json run ${broken} --json --explain)
    set(first_lines "  \"explain\": [\n    \"explain:\",\n    \"  FAIL clients.shop.received at ")
    string(FIND "${json_out}" "${first_lines}" at)
    if(at EQUAL -1 OR NOT json_code EQUAL 1)
        message(FATAL_ERROR "run --json --explain lacks the explain lines:\n${json_out}")
    endif()
    cli_run(passing run ${SOURCE}/scenarios/examples/first-scenario.json --explain)
    cli_run(passing_plain run ${SOURCE}/scenarios/examples/first-scenario.json)
    if(NOT passing_out STREQUAL passing_plain_out OR NOT passing_code EQUAL 0)
        message(FATAL_ERROR "run --explain of a passing run printed more:\n${passing_out}")
    endif()
else()
    message(FATAL_ERROR "MODE must be trace, diff or explain")
endif()
