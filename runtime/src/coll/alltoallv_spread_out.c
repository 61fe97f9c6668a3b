/*
 * alltoallv_spread_out.c: spread-out exchange for irregular counts. Like
 * alltoall_spread_out (step i: send to me + i, receive from me - i, all
 * posted at once), but pairs with nothing to move send no message at all,
 * which is what makes sparse alltoallv patterns cheap. As MPI requires, the
 * bytes I send to j must equal the bytes j expects from me; a zero on one
 * side only is an erroneous program (it would wait forever).
 *
 * Cost (Hockney, s_j = bytes to rank j, n = nonzero peers):
 *   T ≈ n·α + Σ_j s_j·β, with all n messages in flight together.
 */
#include <stdlib.h>

#include "cz_internal.h"

int czi_alltoallv_spread_out(CZI_ALLTOALLV_ARGS) {
  int rc = MPI_SUCCESS, me, p, nreq = 0;
  czi_type st, rt;
  MPI_Request *reqs = NULL;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(czi_at(sendbuf, sdispls[me] * st.extent),
                         sendcounts[me], &st,
                         czi_at(recvbuf, rdispls[me] * rt.extent),
                         recvcounts[me], &rt));
  if (p == 1) return MPI_SUCCESS;

  CZI_MALLOC(reqs, sizeof(MPI_Request) * 2 * (size_t)(p - 1));
  for (int i = 1; i < p; ++i) {
    const int from = czi_mod(me - i, p);
    if ((size_t)recvcounts[from] * rt.size == 0) continue;
    CZI_MPI(PMPI_Irecv(czi_at(recvbuf, rdispls[from] * rt.extent),
                       recvcounts[from], recvtype, from, CZI_TAG_ALLTOALLV,
                       comm, &reqs[nreq++]));
  }
  for (int i = 1; i < p; ++i) {
    const int to = (me + i) % p;
    if ((size_t)sendcounts[to] * st.size == 0) continue;
    CZI_MPI(PMPI_Isend(czi_at(sendbuf, sdispls[to] * st.extent),
                       sendcounts[to], sendtype, to, CZI_TAG_ALLTOALLV, comm,
                       &reqs[nreq++]));
  }
  CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
fn_fail:
  free(reqs);
  return rc;
}
