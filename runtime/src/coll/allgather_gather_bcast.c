/*
 * allgather_gather_bcast.c: the textbook composition, as hand-written codes
 * often do it: rank 0 gathers every block (linear: P-1 receives posted at
 * once), then broadcasts the whole buffer with a binomial tree.
 *
 * Cost (Hockney, m = bytes per block, n = P·m):
 *   gather: (P-1)·α + (P-1)·m·β at rank 0;
 *   bcast:  ceil(log2 P)·(α + n·β);
 *   T ≈ (P-1 + log2 P)·α + (P-1 + P·log2 P)·m·β. Simple, rarely fastest.
 */
#include <stdlib.h>

#include "cz_internal.h"
#include "step_observer.h"

int czi_allgather_gather_bcast(CZI_ALLGATHER_ARGS) {
  int rc = MPI_SUCCESS, me, p, nreq = 0;
  czi_type st, rt;
  MPI_Request *reqs = NULL;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  if ((size_t)recvcount * rt.size == 0) return MPI_SUCCESS;
  if ((long long)p * recvcount > INT_MAX)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "%d blocks of %d elements exceed an int count", p,
                    recvcount);

  if (me == 0) {
    CZI_TRY(czi_copy_local(sendbuf, sendcount, &st, recvbuf, recvcount, &rt));
    CZI_STEP("allgather_gather_bcast", 0, "local copy", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
    CZI_MALLOC(reqs, sizeof(MPI_Request) * (size_t)(p > 1 ? p - 1 : 1));
    for (int r = 1; r < p; ++r)
      CZI_MPI(PMPI_Irecv(czi_block(recvbuf, r, recvcount, &rt), recvcount,
                         recvtype, r, CZI_TAG_GATHER, comm, &reqs[nreq++]));
    CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
  } else {
    CZI_MPI(PMPI_Send(sendbuf, sendcount, sendtype, 0, CZI_TAG_GATHER, comm));
  }
  CZI_STEP("allgather_gather_bcast", 1, "gather", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
  CZI_TRY(czi_bcast_binomial(recvbuf, p * recvcount, recvtype, 0, comm,
                             params));
  CZI_STEP("allgather_gather_bcast", 2, "bcast", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
fn_fail:
  free(reqs);
  return rc;
}
