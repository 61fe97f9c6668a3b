/*
 * alltoall_spread_out.c: every exchange posted at once, staggered so that at
 * any moment each rank targets a different peer (step i: send to me + i,
 * receive from me - i), which keeps one receiver from being flooded.
 *
 *  1. copy my own block locally;
 *  2. post P-1 receives, then P-1 sends in staggered order; wait for all.
 *
 * Cost (Hockney, m = bytes per block): (P-1) messages per rank, all in
 * flight together: T ≈ (P-1)·α + (P-1)·m·β on a single link, less where
 * the network overlaps them. Best for medium blocks.
 */
#include <stdlib.h>

#include "cz_internal.h"
#include "step_observer.h"

int czi_alltoall_spread_out(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS, me, p, nreq = 0;
  czi_type st, rt;
  MPI_Request *reqs = NULL;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  if (p == 1 || (size_t)sendcount * st.size == 0) return MPI_SUCCESS;
  CZI_STEP("alltoall_spread_out", 0, "local copy", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);

  CZI_MALLOC(reqs, sizeof(MPI_Request) * 2 * (size_t)(p - 1));
  for (int i = 1; i < p; ++i) {
    const int from = czi_mod(me - i, p);
    CZI_MPI(PMPI_Irecv(czi_block(recvbuf, from, recvcount, &rt), recvcount,
                       recvtype, from, CZI_TAG_ALLTOALL, comm, &reqs[nreq++]));
  }
  for (int i = 1; i < p; ++i) {
    const int to = (me + i) % p;
    CZI_MPI(PMPI_Isend(czi_block(sendbuf, to, sendcount, &st), sendcount,
                       sendtype, to, CZI_TAG_ALLTOALL, comm, &reqs[nreq++]));
  }
  CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
  /* Every exchange was in flight at once: one step. */
  CZI_STEP("alltoall_spread_out", 1, "all exchanges", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
fn_fail:
  free(reqs);
  return rc;
}
