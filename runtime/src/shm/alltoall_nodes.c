/* alltoall_nodes.c: the shm alltoalls on several (simulated) nodes. An
 * alltoall is an alltoallv with uniform counts, and the planned alltoallv
 * (plan/) already is node-aware: each node collates its ranks' blocks in
 * its shared segment and sends one message per node pair. So the
 * hierarchical alltoall runs through its cached plans (the plan for a given
 * (counts, types) is made once per communicator; node path forced). */
#include <stdlib.h>

#include "plan.h"
#include "shm.h"

int czi_shm_alltoall_nodes(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, int p) {
  int rc = MPI_SUCCESS;
  int *a = NULL;
  const czi_params direct = {0, 0};
  /* Displacements are ints: beyond, the library's alltoall. */
  if ((long long)(p - 1) * sendcount > INT_MAX ||
      (long long)(p - 1) * recvcount > INT_MAX)
    return czi_alltoall_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm, &direct);
  CZI_MALLOC(a, sizeof(int) * 4 * (size_t)p);
  for (int j = 0; j < p; j++) {
    a[j] = sendcount;
    a[p + j] = j * sendcount;
    a[2 * p + j] = recvcount;
    a[3 * p + j] = j * recvcount;
  }
  const czi_plan_how how = {1, 0, NULL, 0};
  rc = czi_alltoallv_cached(sendbuf, a, a + p, sendtype, recvbuf, a + 2 * p,
                            a + 3 * p, recvtype, comm, &how, 1);
fn_fail:
  free(a);
  return rc;
}
