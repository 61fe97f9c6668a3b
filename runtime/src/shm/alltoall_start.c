/* alltoall_start.c: what the shm alltoalls (shm_push, shm_pull and the
 * round-flag pair) do before their rounds (shm.h: czi_shm_alltoall_start). */
#include "shm.h"

int czi_shm_alltoall_start(CZI_ALLTOALL_ARGS, czi_shm_alltoall_call *c, int *rc_out) {
  int rc = MPI_SUCCESS, usable = 0, go_on = 0;
  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &c->me, &c->p, &c->st, &c->rt));
  const int me = c->me, p = c->p;
  const MPI_Aint m = c->m = (MPI_Aint)sendcount * (MPI_Aint)c->st.size;
  if (p == 1 || m == 0) {
    rc = czi_copy_local(czi_block(sendbuf, me, sendcount, &c->st), sendcount, &c->st,
                        czi_block(recvbuf, me, recvcount, &c->rt), recvcount, &c->rt);
    goto fn_fail;
  }
  CZI_TRY(czi_shm_get(comm, (MPI_Aint)p * m, &c->v, &usable));
  if (!usable || (c->v.nnodes > 1 && !czi_shm_hierarchical(&c->v, params))) {
    rc = czi_alltoall_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          params);
    goto fn_fail;
  }
  if (c->v.nnodes > 1) {
    rc = czi_shm_alltoall_nodes(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                comm, p);
    goto fn_fail;
  }
  czi_shm_wait_for(&c->v, (long long)p * m);
  CZI_TRY(czi_copy_local(czi_block(sendbuf, me, sendcount, &c->st), sendcount, &c->st,
                         czi_block(recvbuf, me, recvcount, &c->rt), recvcount, &c->rt));
  CZI_TRY(czi_shm_blocks_open(sendbuf, sendcount, &c->st, p, me, recvbuf, recvcount, &c->rt,
                              p, &c->b));
  go_on = 1;
fn_fail:
  *rc_out = rc;
  return go_on;
}
