# cmake -DPIVOT_BUILD_DIR=... -DPIVOT_SOURCE_DIR=... -DWORK_DIR=... -P build_examples_outside.cmake
# Installs the build into WORK_DIR/prefix, builds examples/ against it as an
# outside project (warnings as errors), and runs each example.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY "${run_dir}")
  if(NOT result EQUAL 0)
    string(JOIN " " command ${ARGN})
    message(FATAL_ERROR "failed (${result}): ${command}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(run_dir "${WORK_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --install "${PIVOT_BUILD_DIR}" --prefix "${prefix}")
# Nothing of the build tree may be needed: the build tree's plugins are not
# on any path the examples see (PIVOT_PLUGIN_PATH cleared).
set(ENV{PIVOT_PLUGIN_PATH} "")
run(${CMAKE_COMMAND} -S "${PIVOT_SOURCE_DIR}/examples" -B "${WORK_DIR}/examples"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror ${SANITIZE_FLAGS}" "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror ${SANITIZE_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_MODULE_LINKER_FLAGS=${SANITIZE_FLAGS}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/examples")

set(run_dir "${WORK_DIR}/examples/crane_operator")
run("${run_dir}/crane_operator" crane.json operator_commands.txt 10)
# 600 frames plus the header; the winch paid out 0.7 m and reeled in 1.5 m
# (3.35 -> 2.55 m of wire), the load was latched, lifted, slewed and
# released, and lies on the ground again (z = 0.25 m), unlatched.
string(REGEX MATCHALL "\n" lines "${last_output}")
list(LENGTH lines line_count)
if(NOT line_count EQUAL 601)
  message(FATAL_ERROR "crane_operator printed ${line_count} lines, expected 601")
endif()
if(NOT last_output MATCHES "\n10.0000,0.75[0-9]*,[^,]*,[^,]*,2.5500,[^,]*,[^,]*,0.2[45][0-9]*,0($|\n)")
  message(FATAL_ERROR "crane_operator: the crane did not end slewed 0.75 rad with 2.55 m of wire and the load "
                      "released on the ground:\n${last_output}")
endif()

set(run_dir "${WORK_DIR}/examples/solver_switching")
run("${run_dir}/solver_switching")
message(STATUS "${last_output}")

# The out-of-tree friction plugin, loaded by its scene: the sled slides
# along its runners and not across them.
set(run_dir "${WORK_DIR}/examples/anisotropic_friction")
run("${run_dir}/sled_test")
message(STATUS "${last_output}")

# A friction model whose create() refuses its values (a zero axis: within the
# schema) is reported when the scene loads, naming the material pair.
file(READ "${run_dir}/sled.json" sled)
string(REPLACE "\"axis_x\": 1" "\"axis_x\": 0" sled "${sled}")
file(WRITE "${run_dir}/sled_zero_axis.json" "${sled}")
execute_process(COMMAND "${prefix}/bin/pivot" run sled_zero_axis.json --steps 1 --quiet
                WORKING_DIRECTORY "${run_dir}" RESULT_VARIABLE result ERROR_VARIABLE err)
if(NOT result EQUAL 1 OR NOT err MATCHES "material pair \\('ski', 'snow'\\)")
  message(FATAL_ERROR "a zero friction axis should be refused at load, naming the pair; got ${result}: ${err}")
endif()

# The out-of-tree solver on the factored form (ABI 1.4): a chain solved by
# conjugate gradients through the host's Mbar^-1, as the direct solver does.
set(run_dir "${WORK_DIR}/examples/factored_solver")
run("${run_dir}/chain_cg_test")
message(STATUS "${last_output}")

# The conformance runner is installed with its problem files and finds them
# by itself: the installed Dantzig plugin passes with its expectation file.
if(EXISTS "${prefix}/bin/pivot_solver_conformance")
  set(run_dir "${WORK_DIR}")
  run("${prefix}/bin/pivot_solver_conformance" --plugin "${prefix}/lib/pivot/plugins/pivot_solver_dantzig.so"
      --solver pivot.solver.dantzig --expect "${PIVOT_SOURCE_DIR}/tests/conformance/dantzig.expect")

  # The kit as a library (find_package(pivot COMPONENTS conformance)): a
  # solver author's test program built outside the project, with the kit's
  # cases and one of its own, finds the installed problem files through the
  # installed libpivot and passes on the installed Dantzig plugin.
  set(run_dir "${WORK_DIR}/examples/solver_conformance")
  if(NOT EXISTS "${run_dir}/solver_conformance_test")
    message(FATAL_ERROR "the conformance kit is installed but examples/solver_conformance was not built: "
                        "find_package(pivot COMPONENTS conformance) did not find it")
  endif()
  run("${run_dir}/solver_conformance_test" --plugin "${prefix}/lib/pivot/plugins/pivot_solver_dantzig.so"
      --solver pivot.solver.dantzig --expect "${PIVOT_SOURCE_DIR}/tests/conformance/dantzig.expect")
  if(NOT last_output MATCHES "\\[       OK \\] AuthorCases\\.sixty_contacts_with_joints" OR
     NOT last_output MATCHES "\\[       OK \\] Solvable\\.is_solved/bench_lcp_nc333_fric" OR
     NOT last_output MATCHES "\\[  PASSED  \\]")
    message(FATAL_ERROR "solver_conformance_test did not run the author's case and the kit's installed "
                        "problem files:\n${last_output}")
  endif()
endif()
