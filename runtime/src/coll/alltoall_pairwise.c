/*
 * alltoall_pairwise.c: pairwise exchange, one partner per step, for large
 * blocks where only bandwidth matters and flooding must be avoided.
 *
 * Step k = 1..P-1: when P is a power of two, exchange with me XOR k (true
 * pairs, both directions of a link busy); otherwise send to me + k and
 * receive from me - k. Own block is copied locally.
 *
 * Cost (Hockney, m = bytes per block): T = (P-1)·α + (P-1)·m·β.
 */
#include "cz_internal.h"
#include "step_observer.h"

int czi_alltoall_pairwise(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  if ((size_t)sendcount * st.size == 0) return MPI_SUCCESS;
  CZI_STEP("alltoall_pairwise", 0, "local copy", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);

  const int pow2 = (p & (p - 1)) == 0;
  for (int k = 1; k < p; ++k) {
    const int to = pow2 ? me ^ k : (me + k) % p;
    const int from = pow2 ? me ^ k : czi_mod(me - k, p);
    CZI_MPI(PMPI_Sendrecv(czi_block(sendbuf, to, sendcount, &st), sendcount,
                          sendtype, to, CZI_TAG_ALLTOALL,
                          czi_block(recvbuf, from, recvcount, &rt), recvcount,
                          recvtype, from, CZI_TAG_ALLTOALL, comm,
                          MPI_STATUS_IGNORE));
    CZI_STEP("alltoall_pairwise", k, "exchange", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
  }
fn_fail:
  return rc;
}
