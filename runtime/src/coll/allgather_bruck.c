/*
 * allgather_bruck.c: Bruck's allgather (Bruck et al., IEEE TPDS 1997),
 * logarithmic for any P. Works on packed bytes:
 *  1. work[0] = my block;
 *  2. step k = 1, 2, 4, ... < P: send my first min(k, P-k) blocks to me - k,
 *     receive as many from me + k and append them; work[i] is then the block
 *     of rank me + i;
 *  3. unpack work[i] into receive block (me + i) mod P.
 *
 * Cost (Hockney, m = bytes per block):
 *   T = ceil(log2 P)·α + (P-1)·m·β (+ one local rotation).
 */
#include <stdlib.h>

#include "cz_internal.h"

int czi_allgather_bruck(CZI_ALLGATHER_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  char *work = NULL;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  const size_t m = (size_t)recvcount * rt.size;
  if (m == 0) return MPI_SUCCESS;
  if (p == 1)
    return czi_copy_local(sendbuf, sendcount, &st, recvbuf, recvcount, &rt);
  if ((size_t)p * m > (size_t)CZI_INT_MAX_BYTES)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "%d blocks of %zu bytes exceed one message's int count", p,
                    m);

  CZI_SCRATCH(work, CZI_SCRATCH_ALGORITHM, (size_t)p * m);
  CZI_TRY(czi_pack(sendbuf, sendcount, &st, work));
  for (int k = 1; k < p; k *= 2) {
    const int blocks = k < p - k ? k : p - k;
    CZI_MPI(PMPI_Sendrecv(work, (int)((size_t)blocks * m), MPI_BYTE,
                          czi_mod(me - k, p), CZI_TAG_ALLGATHER,
                          work + (size_t)k * m, (int)((size_t)blocks * m),
                          MPI_BYTE, (me + k) % p, CZI_TAG_ALLGATHER, comm,
                          MPI_STATUS_IGNORE));
  }
  for (int i = 0; i < p; ++i)
    CZI_TRY(czi_unpack(work + (size_t)i * m,
                       czi_block(recvbuf, (me + i) % p, recvcount, &rt),
                       recvcount, &rt));
fn_fail:
  return rc;
}
