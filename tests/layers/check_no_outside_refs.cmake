# The repository stands alone: no git-tracked text file refers to the shared folder beside the
# checkout (the parent path written with two dots), which a fresh clone, CI or a user does not have.
#   cmake -DRLSIM_SOURCE_DIR=<repository root> -P tests/layers/check_no_outside_refs.cmake
# Outside a git checkout there is no list of tracked files: the script says so and CTest skips it.
cmake_minimum_required(VERSION 3.25)

if(NOT RLSIM_SOURCE_DIR)
  message(FATAL_ERROR "pass -DRLSIM_SOURCE_DIR=<repository root>")
endif()
find_package(Git QUIET)
if(NOT GIT_FOUND OR NOT EXISTS "${RLSIM_SOURCE_DIR}/.git")
  message(NOTICE "not a git checkout: nothing to check")
  return()
endif()

# Spelled in two pieces so that this file does not match itself.
set(needle "..")
string(APPEND needle "/shared")
# -I skips binary files; exit 1 means no match.
execute_process(COMMAND "${GIT_EXECUTABLE}" grep -n -I -F -e "${needle}" WORKING_DIRECTORY "${RLSIM_SOURCE_DIR}"
                RESULT_VARIABLE result OUTPUT_VARIABLE matches ERROR_VARIABLE error)
if(result EQUAL 1)
  message(STATUS "no tracked file refers to ${needle}")
elseif(result EQUAL 0)
  message(NOTICE "${matches}")
  message(FATAL_ERROR "the tracked files above refer to ${needle}, outside the repository")
else()
  message(FATAL_ERROR "git grep failed (${result}): ${error}")
endif()
