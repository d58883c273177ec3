# Smoke test of one example scene: runs `pivot run SCENE --steps N --summary
# SUMMARY --quiet` and checks the run summary (docs/cli.md's keys): exit code 0,
# every step solved (solver.failures == 0), no step reported diverging
# (diverging.steps == 0), finite energy, and the optional
# scene-specific bounds below. Numbers the summary cannot hold (NaN, inf) are
# written as null by the JSON writer, so "finite" is "a JSON number".
#
#   cmake -DPIVOT=path/to/pivot -DSCENE=scene.json -DSTEPS=N -DSUMMARY=out.json
#         [-DMAX_PENETRATION=m] [-DMAX_JOINT_ERROR=m_or_rad]
#         [-DENERGY_MIN=J] [-DENERGY_MAX=J]        (bounds on the final energy)
#         [-DMAX_FALLBACKS=n] [-DSOLVER=id]      (--solver: the scene's solver replaced)
#         -P check_scene.cmake
#
# Plain CMake (no Python in CI); if() compares the numbers as doubles.
cmake_minimum_required(VERSION 3.22)

foreach(required PIVOT SCENE STEPS SUMMARY)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "check_scene.cmake: -D${required}=... is required")
  endif()
endforeach()

file(REMOVE "${SUMMARY}")
set(solver_option "")
if(DEFINED SOLVER)
  set(solver_option --solver "${SOLVER}")
endif()
execute_process(
  COMMAND "${PIVOT}" run "${SCENE}" --steps "${STEPS}" --summary "${SUMMARY}" --quiet ${solver_option}
  RESULT_VARIABLE exit_code
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT exit_code STREQUAL "0")
  message(FATAL_ERROR "pivot run ${SCENE} --steps ${STEPS}: exit code ${exit_code}\n${out}${err}")
endif()
if(NOT EXISTS "${SUMMARY}")
  message(FATAL_ERROR "pivot run ${SCENE}: no summary written to ${SUMMARY}")
endif()
file(READ "${SUMMARY}" summary)

set(problems "")

# number(<var> <key>...): the summary's value at <key>..., which must be a JSON number.
function(number var)
  string(JSON type ERROR_VARIABLE error TYPE "${summary}" ${ARGN})
  string(JOIN "." key ${ARGN})
  if(error)
    set(problems "${problems}\n  ${key}: missing (${error})" PARENT_SCOPE)
    set(${var} "" PARENT_SCOPE)
  elseif(NOT type STREQUAL "NUMBER")
    set(problems "${problems}\n  ${key}: not a finite number (JSON ${type})" PARENT_SCOPE)
    set(${var} "" PARENT_SCOPE)
  else()
    string(JSON value GET "${summary}" ${ARGN})
    set(${var} "${value}" PARENT_SCOPE)
  endif()
endfunction()

number(steps steps)
number(failures solver failures)
number(fallbacks solver fallbacks)
number(energy_initial energy initial)
number(energy_final energy final)
number(penetration max_penetration)
number(joint_error max_joint_error)
number(wall_time wall_time)
number(diverging diverging steps)

if(NOT steps STREQUAL "" AND NOT steps EQUAL STEPS)
  string(APPEND problems "\n  steps: ${steps}, expected ${STEPS}")
endif()
if(NOT diverging STREQUAL "" AND NOT diverging EQUAL 0)
  string(APPEND problems "\n  diverging.steps: ${diverging} steps reported diverging (expected 0)")
endif()
if(NOT failures STREQUAL "" AND NOT failures EQUAL 0)
  string(APPEND problems "\n  solver.failures: ${failures} island solves failed (expected 0)")
endif()
if(DEFINED MAX_FALLBACKS AND NOT fallbacks STREQUAL "" AND fallbacks GREATER MAX_FALLBACKS)
  string(APPEND problems "\n  solver.fallbacks: ${fallbacks} > ${MAX_FALLBACKS}")
endif()
if(DEFINED MAX_PENETRATION AND NOT penetration STREQUAL "" AND penetration GREATER MAX_PENETRATION)
  string(APPEND problems "\n  max_penetration: ${penetration} m > ${MAX_PENETRATION} m")
endif()
if(DEFINED MAX_JOINT_ERROR AND NOT joint_error STREQUAL "" AND joint_error GREATER MAX_JOINT_ERROR)
  string(APPEND problems "\n  max_joint_error: ${joint_error} > ${MAX_JOINT_ERROR}")
endif()
if(DEFINED ENERGY_MIN AND NOT energy_final STREQUAL "" AND energy_final LESS ENERGY_MIN)
  string(APPEND problems "\n  energy.final: ${energy_final} J < ${ENERGY_MIN} J (initial ${energy_initial} J)")
endif()
if(DEFINED ENERGY_MAX AND NOT energy_final STREQUAL "" AND energy_final GREATER ENERGY_MAX)
  string(APPEND problems "\n  energy.final: ${energy_final} J > ${ENERGY_MAX} J (initial ${energy_initial} J)")
endif()

string(CONCAT report "${SCENE}: ${steps} steps in ${wall_time} s, solver failures ${failures}, "
       "fallbacks ${fallbacks}, max penetration ${penetration} m, max joint error ${joint_error}, "
       "energy ${energy_initial} -> ${energy_final} J")
if(problems)
  message(FATAL_ERROR "${report}${problems}")
endif()
message(STATUS "${report}")
