# rlsim-bench-simgrid's flow loop (`sendto`) does what docs/performance.md measures with it: a
# round's transfers run at once. Around a ring every NIC then carries the same two transfers
# whatever the ring's size, so a round takes as long with 8 flows as with 4, and 400 transfers in
# rounds of 8 end in half the simulated time of rounds of 4 (transfers one after another would end
# together). Bad arguments are refused with exit 2 and the usage.
#   cmake -DBENCH=<rlsim-bench-simgrid> -P tests/bench/check_sendto_loop.cmake
cmake_minimum_required(VERSION 3.25)

if(NOT BENCH)
  message(FATAL_ERROR "pass -DBENCH=<path to rlsim-bench-simgrid>")
endif()

# Runs 400 transfers in rounds of `flows` and sets `<var>` to the simulated end in microseconds.
function(simulated_us flows var)
  execute_process(COMMAND "${BENCH}" 400 sendto ${flows} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rlsim-bench-simgrid 400 sendto ${flows} exited ${rc}: ${err}")
  endif()
  string(JSON loop GET "${out}" loop)
  string(JSON activities GET "${out}" activities)
  string(JSON endpoints GET "${out}" endpoints)
  if(NOT loop STREQUAL "sendto" OR NOT activities EQUAL 400 OR NOT endpoints EQUAL flows)
    message(FATAL_ERROR "expected 400 sendto transfers over ${flows} hosts, got: ${out}")
  endif()
  # Printed with six decimals (read from the text: CMake's JSON reader shortens numbers): seconds to
  # whole microseconds.
  if(NOT out MATCHES "\"simulated_s\": ([0-9]+)\\.([0-9][0-9][0-9][0-9][0-9][0-9])")
    message(FATAL_ERROR "simulated_s is not seconds with six decimals: ${out}")
  endif()
  math(EXPR us "${CMAKE_MATCH_1} * 1000000 + 1${CMAKE_MATCH_2} - 1000000")
  set(${var} ${us} PARENT_SCOPE)
endfunction()

simulated_us(4 rounds_of_4)
simulated_us(8 rounds_of_8)
math(EXPR twice "2 * ${rounds_of_8}")
if(rounds_of_8 LESS_EQUAL 0 OR NOT rounds_of_4 EQUAL twice)
  message(FATAL_ERROR "rounds of 8 should end in half the time of rounds of 4: ${rounds_of_4} us against "
                      "${rounds_of_8} us")
endif()

# One flow is no ring, a fourth argument belongs to the message loop only, and an unknown loop is refused.
foreach(args "10;sendto;1" "10;sendto;4;2" "10;sendtoo")
  execute_process(COMMAND "${BENCH}" ${args} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REPLACE ";" " " shown "${args}")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "usage: rlsim-bench-simgrid N \\[exec\\|sleep\\|messages\\|sendto\\]")
    message(FATAL_ERROR "rlsim-bench-simgrid ${shown}: expected exit 2 with the usage, got ${rc}: ${err}")
  endif()
endforeach()
