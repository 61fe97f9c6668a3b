/* alltoallv_plan.c: the explicit plan API (cz_alltoallv_plan_*). Creation
 * checks what it can locally, then lets czi_plan_create agree on errors with
 * the other ranks, so a bad argument on one rank fails every rank instead of
 * leaving them waiting. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../plan/plan.h"

int cz_alltoallv_plan_create(const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, cz_alltoallv_plan_t *plan) {
  static const char fn[] = "cz_alltoallv_plan_create";
  int rc = MPI_SUCCESS, local = MPI_SUCCESS;
  czi_call call;
  czi_clear_error();
  if (!plan) return czi_fail(MPI_ERR_ARG, fn, "plan is NULL");
  *plan = NULL;
  CZI_TRY(czi_check_comm(fn, comm, &call));
  local = czi_check_vector(fn, "sendcounts", sendcounts, "sdispls", sdispls,
                           call.size);
  if (local == MPI_SUCCESS)
    local = czi_check_type(fn, "sendtype", sendtype, &call.st);
  if (local == MPI_SUCCESS)
    local = czi_check_vector(fn, "recvcounts", recvcounts, "rdispls", rdispls,
                             call.size);
  if (local == MPI_SUCCESS)
    local = czi_check_type(fn, "recvtype", recvtype, &call.rt);
  /* The environment's forced algorithm applies to plans too; otherwise the
   * decision table decides once the sizes are known. */
  czi_choice choice;
  CZI_TRY(czi_select(CZ_COLL_ALLTOALLV, call.size, -1, &choice));
  czi_plan_how how = {0, 1, NULL, 0};
  if (!choice.from_table) {
    if (strcmp(choice.alg->name, "planned") == 0) {
      how.force_node = 1;
    } else {
      how.direct = choice.alg;
      how.direct_param = choice.param;
    }
  }
  rc = czi_plan_create(sendcounts, sdispls, sendtype, recvcounts, rdispls,
                       recvtype, call.priv, &how, local, plan);
fn_fail:
  return rc;
}

int cz_alltoallv_plan_execute(cz_alltoallv_plan_t plan, const void *sendbuf,
                              void *recvbuf) {
  static const char fn[] = "cz_alltoallv_plan_execute";
  czi_clear_error_fast();
  if (!plan) return czi_fail(MPI_ERR_ARG, fn, "plan is NULL");
  if (!plan->ctx->alive)
    return czi_fail(MPI_ERR_COMM, fn,
                    "the plan's communicator has been freed (or MPI finalized)");
  if (sendbuf == MPI_IN_PLACE)
    return czi_fail(MPI_ERR_BUFFER, fn,
                    "MPI_IN_PLACE is not supported by plans; use cz_alltoallv");
  if (plan->lib) {
    /* The library's collective, straight from here; a failure is described
     * by the private duplicate's error handler (cz_internal.h). */
    const int *a = plan->args, p = plan->p;
    czi_flags.lib_call = CZ_COLL_ALLTOALLV + 1;
    return PMPI_Alltoallv(sendbuf, a, a + p, plan->sendtype, recvbuf, a + 2 * p,
                          a + 3 * p, plan->recvtype, plan->ctx->priv);
  }
  return czi_plan_execute(plan, sendbuf, recvbuf);
}

int cz_alltoallv_plan_free(cz_alltoallv_plan_t *plan) {
  czi_clear_error();
  if (!plan)
    return czi_fail(MPI_ERR_ARG, "cz_alltoallv_plan_free", "plan is NULL");
  czi_plan_destroy(*plan);
  *plan = NULL;
  return MPI_SUCCESS;
}

const char *cz_alltoallv_plan_algorithm(cz_alltoallv_plan_t plan) {
  return plan ? plan->name : "";
}
