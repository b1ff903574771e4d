# resolved.yaml is a scenario: running a bundled scenario, then running the resolved.yaml that run
# wrote, gives byte-identical metrics.json, trace.json and resolved.yaml. One CTest per scenario
# (tests/CMakeLists.txt), so that each has its own timeout under the sanitizer build.
#   cmake -DRLSIM=<rlsim binary> -DSCENARIO=<scenario file> -DWORK_DIR=<scratch folder> -P check_round_trip.cmake
cmake_minimum_required(VERSION 3.25)

foreach(required RLSIM SCENARIO WORK_DIR)
  if(NOT ${required})
    message(FATAL_ERROR "pass -D${required}=...")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run_scenario input out)
  execute_process(COMMAND "${RLSIM}" run "${input}" --out "${out}" RESULT_VARIABLE result
                  OUTPUT_QUIET ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "rlsim run ${input} exited ${result}:\n${error}")
  endif()
endfunction()

run_scenario("${SCENARIO}" "${WORK_DIR}/a")
run_scenario("${WORK_DIR}/a/resolved.yaml" "${WORK_DIR}/b")

set(differing "")
foreach(output metrics.json trace.json resolved.yaml)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK_DIR}/a/${output}" "${WORK_DIR}/b/${output}"
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    list(APPEND differing "${output}")
  endif()
endforeach()
if(differing)
  message(FATAL_ERROR "re-running ${WORK_DIR}/a/resolved.yaml changed: ${differing}")
endif()
message(STATUS "round trip of ${SCENARIO}: metrics.json, trace.json and resolved.yaml identical")
