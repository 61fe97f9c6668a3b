/*
 * bcast_binomial.c: binomial-tree broadcast, for short messages. Ranks are
 * renumbered relative to the root (v = me - root mod P); v receives from
 * v - lowbit(v), then sends to v + 2^j for each 2^j below lowbit(v), largest
 * first so the deepest subtrees start earliest. Typed buffers, no packing.
 *
 * Cost (Hockney, n = message bytes): T = ceil(log2 P)·(α + n·β).
 */
#include "cz_internal.h"

int czi_bcast_binomial(CZI_BCAST_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  (void)params;

  CZI_MPI(PMPI_Comm_rank(comm, &me));
  CZI_MPI(PMPI_Comm_size(comm, &p));
  if (count == 0 || p == 1) return MPI_SUCCESS;

  const int v = czi_mod(me - root, p);
  int mask = 1;
  while (mask < p) {
    if (v & mask) {
      CZI_MPI(PMPI_Recv(buffer, count, datatype, czi_mod(me - mask, p),
                        CZI_TAG_BCAST, comm, MPI_STATUS_IGNORE));
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < p)
      CZI_MPI(PMPI_Send(buffer, count, datatype, (me + mask) % p,
                        CZI_TAG_BCAST, comm));
fn_fail:
  return rc;
}
