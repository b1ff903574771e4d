# The layering of docs/architecture.md, checked on every #include "…" of models/, calibrate/, sim/
# and tools/: dependencies point down only, and the folders of sim/ form no cycle. Fails listing
# FILE:LINE of each include that runs upward or across, so a new edge is a decision, not an accident.
#   cmake -DRLSIM_SOURCE_DIR=<repository root> -P tests/layers/check_layers.cmake
# A layer is a top folder, or sim/<folder> inside sim/. Includes are repository-root relative; the
# CUDA suite's own headers (calibrate/kernels/) are found beside the file that includes them.
cmake_minimum_required(VERSION 3.25)

if(NOT RLSIM_SOURCE_DIR)
  message(FATAL_ERROR "pass -DRLSIM_SOURCE_DIR=<repository root>")
endif()

# What each layer may include besides itself.
set(allowed_models "")
set(allowed_calibrate models)
set(allowed_tools models calibrate sim/scenario sim/platform sim/afd sim/process sim/engine)
set(allowed_sim/scenario models)
set(allowed_sim/platform models sim/scenario)
set(allowed_sim/process models)
set(allowed_sim/afd models sim/platform sim/scenario sim/process)
set(allowed_sim/engine models sim/scenario sim/platform sim/afd sim/process)
set(sim_layers sim/scenario sim/platform sim/process sim/afd sim/engine)

# Known violations, each "FILE -> INCLUDED": exempt from both checks until the fix lands.
set(known_violations
    # TODO(registries): the scenario loader reads the router names from sim/engine's registry;
    # the registry refactor moves that lookup out of sim/scenario. Delete this entry when it lands.
    "sim/scenario/scenario_loader.cpp -> sim/engine/routers/router.h")

# Headers written into the build folder by configure_file, and the layer of their template.
set(generated_build_info.h tools)

# The layer of a repository-relative path, or "" for a file outside the checked folders.
function(layer_of path out)
  if(path MATCHES "^sim/([^/]+)/")
    set(${out} "sim/${CMAKE_MATCH_1}" PARENT_SCOPE)
  elseif(path MATCHES "^(models|calibrate|tools)/")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

set(violations "")
set(sim_edges "")  # "FROM>TO" between sim layers, for the cycle check
set(checked_includes 0)
file(GLOB_RECURSE sources RELATIVE "${RLSIM_SOURCE_DIR}" "${RLSIM_SOURCE_DIR}/models/*" "${RLSIM_SOURCE_DIR}/calibrate/*"
     "${RLSIM_SOURCE_DIR}/sim/*" "${RLSIM_SOURCE_DIR}/tools/*")
list(FILTER sources INCLUDE REGEX "\\.(h|hpp|cpp|cc|cu|cuh)$")
foreach(source IN LISTS sources)
  layer_of("${source}" from)
  get_filename_component(source_dir "${source}" DIRECTORY)
  file(READ "${RLSIM_SOURCE_DIR}/${source}" rest)
  set(line 1)
  # One include at a time, counting the newlines consumed to know its line.
  while(TRUE)
    string(REGEX MATCH "(^|\n)[ \t]*#[ \t]*include[ \t]*\"[^\"\n]+\"" found "${rest}")
    if(found STREQUAL "")
      break()
    endif()
    string(FIND "${rest}" "${found}" at)
    string(SUBSTRING "${rest}" 0 ${at} before)
    string(REGEX REPLACE "[^\n]" "" newlines "${before}${found}")
    string(LENGTH "${newlines}" newline_count)
    math(EXPR line "${line} + ${newline_count}")
    string(LENGTH "${found}" found_length)
    math(EXPR after "${at} + ${found_length}")
    string(SUBSTRING "${rest}" ${after} -1 rest)
    string(REGEX REPLACE ".*\"([^\"]+)\"$" "\\1" included "${found}")
    math(EXPR checked_includes "${checked_includes} + 1")

    if(EXISTS "${RLSIM_SOURCE_DIR}/${included}")
      set(target "${included}")
    elseif(source_dir MATCHES "^calibrate/kernels" AND EXISTS "${RLSIM_SOURCE_DIR}/${source_dir}/${included}")
      set(target "${source_dir}/${included}")
    elseif(DEFINED generated_${included})
      set(target "${generated_${included}}/${included}")
    else()
      list(APPEND violations "${source}:${line}: includes \"${included}\", which is no file of the repository")
      continue()
    endif()
    layer_of("${target}" to)
    if("${source} -> ${target}" IN_LIST known_violations OR to STREQUAL from)
      continue()
    endif()
    if(NOT to IN_LIST allowed_${from})
      list(APPEND violations "${source}:${line}: ${from} must not include ${to} (\"${included}\")")
    endif()
    if(from IN_LIST sim_layers AND to IN_LIST sim_layers)
      list(APPEND sim_edges "${from}>${to}")
    endif()
  endwhile()
endforeach()

# A sim folder reaching itself through its includes: depth-first search from each folder; `path`
# is the list of folders walked so far.
list(REMOVE_DUPLICATES sim_edges)
function(find_cycle start path out)
  list(GET path -1 node)
  foreach(edge IN LISTS sim_edges)
    if(NOT edge MATCHES "^${node}>(.+)$")
      continue()
    endif()
    set(next "${CMAKE_MATCH_1}")
    set(longer ${path} ${next})
    if(next STREQUAL start)
      list(JOIN longer " -> " cycle)
      set(${out} "${cycle}" PARENT_SCOPE)
      return()
    endif()
    if(NOT next IN_LIST path)
      find_cycle("${start}" "${longer}" cycle)
      if(cycle)
        set(${out} "${cycle}" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()
foreach(layer IN LISTS sim_layers)
  find_cycle("${layer}" "${layer}" cycle)
  if(cycle)
    list(APPEND violations "folder cycle: ${cycle}")
    break()  # the same cycle seen from its other folders says nothing more
  endif()
endforeach()

if(checked_includes LESS 100)
  message(FATAL_ERROR "only ${checked_includes} includes found under ${RLSIM_SOURCE_DIR}: wrong folder?")
endif()
if(violations)
  list(LENGTH violations count)
  list(JOIN violations "\n" listing)
  message(NOTICE "${listing}")  # NOTICE prints the lines as they are; FATAL_ERROR would rewrap them
  message(FATAL_ERROR "${count} problem(s) with the layering of docs/architecture.md, listed above")
endif()
message(STATUS "layering holds: ${checked_includes} includes checked")
