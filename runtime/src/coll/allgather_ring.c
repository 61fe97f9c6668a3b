/*
 * allgather_ring.c: ring allgather, for large blocks. Every rank copies its
 * block into place, then in step k = 0..P-2 passes block (me - k) to its
 * right neighbour and takes block (me - k - 1) from its left one, straight
 * between receive-buffer blocks (no packing, any datatype).
 *
 * Cost (Hockney, m = bytes per block): T = (P-1)·α + (P-1)·m·β — the
 * bandwidth optimum, with the worst latency term.
 */
#include "cz_internal.h"
#include "step_observer.h"

int czi_allgather_ring(CZI_ALLGATHER_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(sendbuf, sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  if ((size_t)recvcount * rt.size == 0) return MPI_SUCCESS;
  CZI_STEP("allgather_ring", 0, "local copy", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);

  const int right = (me + 1) % p, left = czi_mod(me - 1, p);
  for (int k = 0; k < p - 1; ++k) {
    const int out = czi_mod(me - k, p), in = czi_mod(me - k - 1, p);
    CZI_MPI(PMPI_Sendrecv(czi_block(recvbuf, out, recvcount, &rt), recvcount,
                          recvtype, right, CZI_TAG_ALLGATHER,
                          czi_block(recvbuf, in, recvcount, &rt), recvcount,
                          recvtype, left, CZI_TAG_ALLGATHER, comm,
                          MPI_STATUS_IGNORE));
    CZI_STEP("allgather_ring", k + 1, "pass", recvbuf, (size_t)p * (size_t)recvcount * (size_t)rt.extent);
  }
fn_fail:
  return rc;
}
