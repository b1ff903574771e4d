# Run by CTest after the validation suite (tests/CMakeLists.txt): the committed record
# (scenarios/validation/record.csv), from which `rlsim run` names the validated cases nearest to a
# scenario, must be the suite's current result, or runs would quote stale errors.
#   cmake -DFRESH=<the suite's DIR/record.csv> -DCOMMITTED=<scenarios/validation/record.csv> -P this
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${FRESH} ${COMMITTED} RESULT_VARIABLE differs)
if(differs)
  message(FATAL_ERROR "${COMMITTED} is not the validation suite's current result (${FRESH}). After checking "
                      "what changed (diff the two files), copy the fresh record over the committed one.")
endif()
