/*
 * alltoallv_pairwise.c: pairwise exchange for irregular counts: one partner
 * per step (me XOR k when P is a power of two, else to me + k / from me - k),
 * so no rank is flooded; a direction with nothing to move is skipped.
 * As MPI requires, sent and expected byte counts must agree per pair.
 *
 * Cost (Hockney, s_k = bytes exchanged in step k):
 *   T = Σ_k (α + max(sent_k, received_k)·β) over the P-1 steps.
 */
#include "cz_internal.h"

int czi_alltoallv_pairwise(CZI_ALLTOALLV_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(czi_at(sendbuf, sdispls[me] * st.extent),
                         sendcounts[me], &st,
                         czi_at(recvbuf, rdispls[me] * rt.extent),
                         recvcounts[me], &rt));

  const int pow2 = (p & (p - 1)) == 0;
  for (int k = 1; k < p; ++k) {
    const int to = pow2 ? me ^ k : (me + k) % p;
    const int from = pow2 ? me ^ k : czi_mod(me - k, p);
    const int sends = (size_t)sendcounts[to] * st.size != 0;
    const int recvs = (size_t)recvcounts[from] * rt.size != 0;
    const void *sbuf = czi_at(sendbuf, sdispls[to] * st.extent);
    void *rbuf = czi_at(recvbuf, rdispls[from] * rt.extent);
    if (sends && recvs)
      CZI_MPI(PMPI_Sendrecv(sbuf, sendcounts[to], sendtype, to,
                            CZI_TAG_ALLTOALLV, rbuf, recvcounts[from], recvtype,
                            from, CZI_TAG_ALLTOALLV, comm, MPI_STATUS_IGNORE));
    else if (sends)
      CZI_MPI(PMPI_Send(sbuf, sendcounts[to], sendtype, to, CZI_TAG_ALLTOALLV,
                        comm));
    else if (recvs)
      CZI_MPI(PMPI_Recv(rbuf, recvcounts[from], recvtype, from,
                        CZI_TAG_ALLTOALLV, comm, MPI_STATUS_IGNORE));
  }
fn_fail:
  return rc;
}
