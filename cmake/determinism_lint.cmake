# Guard test `determinism-lint`: fails when sim/ or runtime/ use a wall clock,
# std::random_device, rand(), a <random> distribution or engine, threads, atomics or mutexes,
# or getenv; and when scenarios/ or reports/ use a wall clock, random_device, rand() or getenv.
# Usage: cmake -DROOT=<repo> -P determinism_lint.cmake
set(core_patterns
    "std::chrono::(system_clock|steady_clock|high_resolution_clock)"
    "#[ \t]*include[ \t]*<(chrono|random|thread|atomic|mutex|shared_mutex|condition_variable|future|ctime)>"
    "random_device"
    "[^a-z_:.>]s?rand[ \t]*\\("
    "_distribution[ \t]*<"
    "std::(mt19937|minstd_rand|default_random_engine|ranlux)"
    "std::(thread|jthread|atomic|mutex|async)[^a-z_]"
    "[^a-z_]time[ \t]*\\([ \t]*(nullptr|NULL|0)?[ \t]*\\)"
    "clock_gettime|gettimeofday"
    "getenv"
    "thread_local"
)
set(edge_patterns
    "std::chrono::(system_clock|steady_clock|high_resolution_clock)"
    "random_device"
    "[^a-z_:.>]s?rand[ \t]*\\("
    "_distribution[ \t]*<"
    "clock_gettime|gettimeofday"
    "getenv"
)
set(violations "")
function(scan folder patterns)
    file(GLOB_RECURSE sources "${ROOT}/${folder}/*.hpp" "${ROOT}/${folder}/*.cpp")
    foreach(source IN LISTS sources)
        # Benchmarks measure wall time by nature; they are not part of any run.
        if(source MATCHES "_bench\\.cpp$")
            continue()
        endif()
        file(STRINGS "${source}" lines)
        set(number 0)
        foreach(line IN LISTS lines)
            math(EXPR number "${number} + 1")
            string(REGEX REPLACE "//.*$" "" code "${line}")
            foreach(pattern IN LISTS patterns)
                if(code MATCHES "${pattern}")
                    file(RELATIVE_PATH rel "${ROOT}" "${source}")
                    set(violations "${violations}\n  ${rel}:${number}: matches '${pattern}': ${line}" PARENT_SCOPE)
                    set(violations "${violations}\n  ${rel}:${number}: matches '${pattern}': ${line}")
                endif()
            endforeach()
        endforeach()
    endforeach()
endfunction()
scan(sim "${core_patterns}")
scan(runtime "${core_patterns}")
scan(scenarios "${edge_patterns}")
scan(reports "${edge_patterns}")
if(violations)
    message(FATAL_ERROR "determinism-lint violations:${violations}")
endif()
message(STATUS "determinism-lint: ok")
