# gmem_add_gate: runs gmem-analyze over a target's CUDA sources as a CTest
# test that fails when a kernel's memory behaviour got worse than a
# committed baseline (or breaks a policy).
#
#   find_package(gmem REQUIRED)
#   enable_testing()
#   add_executable(transpose transpose.cu)
#   gmem_add_gate(TARGET transpose BASELINE gmem-baseline.json
#                 [NAME test-name] [LAUNCHES launches.json]
#                 [SARIF gmem.sarif] [SOURCES a.cu ...] [ARGS --fail-on=...])
#
# It turns on the target's compile database (the gate reads it with -p) and
# adds a target <name>_update_baseline that records the current figures:
#   cmake --build build --target gmem_gate_transpose_update_baseline
include_guard(GLOBAL)

function(gmem_add_gate)
  cmake_parse_arguments(G "" "TARGET;BASELINE;NAME;LAUNCHES;SARIF"
                        "ARGS;SOURCES" ${ARGN})
  if(NOT G_TARGET OR NOT TARGET ${G_TARGET})
    message(FATAL_ERROR "gmem_add_gate: TARGET must name a target")
  endif()
  if(NOT G_BASELINE)
    message(FATAL_ERROR "gmem_add_gate(TARGET ${G_TARGET}): BASELINE FILE "
                        "is required")
  endif()
  if(NOT GMEM_ANALYZE_EXECUTABLE)
    message(FATAL_ERROR "gmem_add_gate: GMEM_ANALYZE_EXECUTABLE is not set; "
                        "use find_package(gmem)")
  endif()
  if(NOT G_NAME)
    set(G_NAME gmem_gate_${G_TARGET})
  endif()
  set_property(TARGET ${G_TARGET} PROPERTY EXPORT_COMPILE_COMMANDS ON)

  get_target_property(dir ${G_TARGET} SOURCE_DIR)
  set(files)
  if(G_SOURCES)
    set(candidates ${G_SOURCES})
  else()
    get_target_property(candidates ${G_TARGET} SOURCES)
  endif()
  foreach(src IN LISTS candidates)
    if(src MATCHES "\\.cu$")
      if(NOT IS_ABSOLUTE "${src}")
        set(src "${dir}/${src}")
      endif()
      list(APPEND files "${src}")
    endif()
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "gmem_add_gate(TARGET ${G_TARGET}): no .cu source")
  endif()

  get_filename_component(baseline "${G_BASELINE}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(cmd "${GMEM_ANALYZE_EXECUTABLE}" -p "${CMAKE_BINARY_DIR}"
      --baseline "${baseline}" -fno-color-diagnostics)
  if(G_LAUNCHES)
    get_filename_component(launches "${G_LAUNCHES}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cmd --launches "${launches}")
  endif()
  if(G_SARIF)
    get_filename_component(sarif "${G_SARIF}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND cmd --sarif "${sarif}")
  endif()
  list(APPEND cmd ${G_ARGS})
  # Paths in findings and baseline keys are relative to the source tree.
  add_test(NAME ${G_NAME} COMMAND ${cmd} ${files}
           WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}")
  add_custom_target(${G_NAME}_update_baseline
                    COMMAND ${cmd} --update-baseline ${files}
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    COMMENT "gmem: recording ${baseline}" VERBATIM)
endfunction()
