/* allreduce_start.c: what allreduce_shm and allreduce_shm_rs do before
 * their rounds (shm.h: czi_shm_allreduce_start). */
#include <string.h>

#include "shm.h"

int czi_shm_allreduce_start(CZI_ALLREDUCE_ARGS, czi_shm_allreduce_call *c, int *rc_out) {
  int rc = MPI_SUCCESS, usable = 0, go_on = 0;
  CZI_MPI(PMPI_Comm_rank(comm, &c->me));
  CZI_MPI(PMPI_Comm_size(comm, &c->p));
  CZI_TRY(czi_type_get(datatype, &c->t));
  const MPI_Aint n = (MPI_Aint)count * (MPI_Aint)c->t.size;
  const char *in = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf : sendbuf;
  if (n == 0) goto fn_fail; /* nothing to do: rc is MPI_SUCCESS */
  if (!c->t.dense) {
    rc = czi_allreduce_mpi(sendbuf, recvbuf, count, datatype, op, comm, params);
    goto fn_fail;
  }
  if (c->p == 1) {
    if (in != (const char *)recvbuf)
      czi_copy((char *)recvbuf + c->t.true_lb, in + c->t.true_lb, (size_t)n);
    goto fn_fail;
  }
  CZI_TRY(czi_shm_get(comm, n, &c->v, &usable));
  if (!usable || c->v.nnodes > 1 || (MPI_Aint)c->t.size > c->v.shm->half) {
    rc = czi_allreduce_mpi(sendbuf, recvbuf, count, datatype, op, comm, params);
    goto fn_fail;
  }
  czi_shm_wait_for(&c->v, (long long)n);
  c->per_round = (int)(c->v.shm->half / (MPI_Aint)c->t.size);
  c->in = in + c->t.true_lb;
  c->out = (char *)recvbuf + c->t.true_lb;
  go_on = 1;
fn_fail:
  *rc_out = rc;
  return go_on;
}
