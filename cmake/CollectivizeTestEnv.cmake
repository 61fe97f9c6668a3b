# The environment variables that steer libcollectivize and the tracer (all
# of them are in `collectivize --list-env`, cli/environment.cpp). A ctest
# test of the runtime or the tracer sets every one, empty unless it wants a
# value, so the caller's environment cannot leak in: one list here instead
# of one per test. (lit tests drop every COLLECTIVIZE_* variable instead:
# tests/lit/lit.cfg.py.) The check below keeps the list complete.
set(CZ_RUNTIME_ENV_VARS
  COLLECTIVIZE_QUIET COLLECTIVIZE_TUNING COLLECTIVIZE_LOG
  COLLECTIVIZE_ALLTOALL_ALGORITHM COLLECTIVIZE_ALLGATHER_ALGORITHM COLLECTIVIZE_BCAST_ALGORITHM
  COLLECTIVIZE_ALLTOALLV_ALGORITHM COLLECTIVIZE_ALLREDUCE_ALGORITHM
  COLLECTIVIZE_RANKS_PER_NODE COLLECTIVIZE_PLAN_CACHE COLLECTIVIZE_SHM_BYTES COLLECTIVIZE_SHM_WAIT
  COLLECTIVIZE_TRIALS COLLECTIVIZE_TRIAL_OWN_SCALE COLLECTIVIZE_PLACEMENT
  COLLECTIVIZE_TRACE_DIR COLLECTIVIZE_TRACE_MODE COLLECTIVIZE_TRACE_HASH
  COLLECTIVIZE_TRACE_BLOCK_BYTES COLLECTIVIZE_TRACE_WRITER COLLECTIVIZE_TRACE_CLOCK
  COLLECTIVIZE_TRACE_CLOCK_SKEW COLLECTIVIZE_TRACE_ANNOUNCE COLLECTIVIZE_VERIFY_EFFECTS)

# Every COLLECTIVIZE_* name the runtime's C sources spell must be above: a
# new variable that tests do not empty would let a developer's setting
# change what the tests see.
file(GLOB_RECURSE cz_runtime_c_sources CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/runtime/*.c ${PROJECT_SOURCE_DIR}/runtime/*.h)
foreach(f ${cz_runtime_c_sources})
  file(STRINGS ${f} cz_lines REGEX "\"COLLECTIVIZE_[A-Z0-9_]+\"")
  string(REGEX MATCHALL "\"COLLECTIVIZE_[A-Z0-9_]+\"" cz_names "${cz_lines}")
  foreach(n ${cz_names})
    string(REPLACE "\"" "" n "${n}")
    if(NOT n IN_LIST CZ_RUNTIME_ENV_VARS)
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${f})
      message(FATAL_ERROR "${rel} reads ${n}, which CZ_RUNTIME_ENV_VARS "
                          "(cmake/CollectivizeTestEnv.cmake) does not list: add it there")
    endif()
  endforeach()
endforeach()

# cz_runtime_test_env(OUT [NAME=VALUE...]): the ENVIRONMENT of such a test:
# every variable above emptied, then the given settings (ctest applies them
# in order: a given setting wins over the emptied one).
function(cz_runtime_test_env out)
  set(env "")
  foreach(v ${CZ_RUNTIME_ENV_VARS})
    list(APPEND env "${v}=")
  endforeach()
  list(APPEND env ${ARGN})
  set(${out} "${env}" PARENT_SCOPE)
endfunction()
