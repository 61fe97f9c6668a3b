# The environment variables that steer libcollectivize's choices (all of
# them are in `collectivize --list-env`, cli/environment.cpp). A test of the
# runtime sets every one, empty unless it wants a value, so the caller's
# environment cannot leak in: one list here instead of one per test.
set(CZ_RUNTIME_ENV_VARS
  COLLECTIVIZE_TUNING COLLECTIVIZE_LOG
  COLLECTIVIZE_ALLTOALL_ALGORITHM COLLECTIVIZE_ALLGATHER_ALGORITHM COLLECTIVIZE_BCAST_ALGORITHM
  COLLECTIVIZE_ALLTOALLV_ALGORITHM COLLECTIVIZE_ALLREDUCE_ALGORITHM
  COLLECTIVIZE_RANKS_PER_NODE COLLECTIVIZE_PLAN_CACHE COLLECTIVIZE_SHM_BYTES COLLECTIVIZE_SHM_WAIT)

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
