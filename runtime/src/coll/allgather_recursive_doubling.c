/*
 * allgather_recursive_doubling.c: recursive doubling, for any P.
 *
 * Let Q be the largest power of two <= P and E = P - Q the extra ranks.
 *  1. fold: extra rank Q + j sends its block to rank j (j < E);
 *  2. ranks 0..Q-1 double: in step k (distance d = 2^k) rank v swaps with
 *     v XOR d everything it holds: the d blocks of its aligned group
 *     [g, g+d) and, where they exist, the folded blocks [g+Q, g+Q+d) ∩ [Q, P)
 *     (two messages when folded blocks are present). Blocks move straight
 *     between receive-buffer regions, so any datatype works unpacked;
 *  3. unfold: rank j sends the complete result to rank Q + j.
 *
 * Cost (Hockney, m = bytes per block):
 *   P a power of two: T = log2 P·α + (P-1)·m·β;
 *   otherwise about (log2 Q + 2)·α + (2P-1)·m·β (fold and unfold add a
 *   latency each and the unfold moves the whole result once more).
 */
#include <stdlib.h>

#include "cz_internal.h"
#include "step_observer.h"

/* Number of blocks of [lo, lo+len) that fall inside [Q, P). */
static int folded_len(int lo, int len, int q, int p) {
  int hi = lo + len;
  if (lo < q) lo = q;
  if (hi > p) hi = p;
  return hi > lo ? hi - lo : 0;
}

int czi_allgather_recursive_doubling(CZI_ALLGATHER_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(sendbuf, sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  if ((size_t)recvcount * rt.size == 0 || p == 1) return MPI_SUCCESS;
  if ((long long)p * recvcount > INT_MAX)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "%d blocks of %d elements exceed an int count", p,
                    recvcount);
  const char *const me_name = "allgather_recursive_doubling";
  const size_t span = (size_t)p * (size_t)recvcount * (size_t)rt.extent;
  CZI_STEP(me_name, 0, "local copy", recvbuf, span);

  int q = 1, rounds = 0;
  while (q * 2 <= p) q *= 2, ++rounds;
  const int extra = p - q;
  /* Steps: 0 local copy, 1 fold, 2..rounds+1 doubling, rounds+2 unfold. */

  if (me >= q) { /* extra rank: hand over my block, wait for the result */
    CZI_MPI(PMPI_Send(czi_block(recvbuf, me, recvcount, &rt), recvcount,
                      recvtype, me - q, CZI_TAG_ALLGATHER, comm));
    CZI_MPI(PMPI_Recv(recvbuf, p * recvcount, recvtype, me - q,
                      CZI_TAG_ALLGATHER, comm, MPI_STATUS_IGNORE));
    CZI_STEP(me_name, rounds + 2, "unfold", recvbuf, span);
    return MPI_SUCCESS;
  }
  if (me < extra)
    CZI_MPI(PMPI_Recv(czi_block(recvbuf, me + q, recvcount, &rt), recvcount,
                      recvtype, me + q, CZI_TAG_ALLGATHER, comm,
                      MPI_STATUS_IGNORE));
  CZI_STEP(me_name, 1, "fold", recvbuf, span);

  for (int d = 1, step = 2; d < q; d *= 2, ++step) {
    const int partner = me ^ d;
    const int mine = me & ~(d - 1), theirs = partner & ~(d - 1);
    const int mine_folded = folded_len(mine + q, d, q, p);
    const int theirs_folded = folded_len(theirs + q, d, q, p);
    MPI_Request reqs[4];
    int nreq = 0;
    CZI_MPI(PMPI_Irecv(czi_block(recvbuf, theirs, recvcount, &rt),
                       d * recvcount, recvtype, partner, CZI_TAG_ALLGATHER,
                       comm, &reqs[nreq++]));
    if (theirs_folded)
      CZI_MPI(PMPI_Irecv(czi_block(recvbuf, theirs + q, recvcount, &rt),
                         theirs_folded * recvcount, recvtype, partner,
                         CZI_TAG_ALLGATHER, comm, &reqs[nreq++]));
    CZI_MPI(PMPI_Isend(czi_block(recvbuf, mine, recvcount, &rt), d * recvcount,
                       recvtype, partner, CZI_TAG_ALLGATHER, comm,
                       &reqs[nreq++]));
    if (mine_folded)
      CZI_MPI(PMPI_Isend(czi_block(recvbuf, mine + q, recvcount, &rt),
                         mine_folded * recvcount, recvtype, partner,
                         CZI_TAG_ALLGATHER, comm, &reqs[nreq++]));
    CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
    CZI_STEP(me_name, step, "exchange", recvbuf, span);
  }

  if (me < extra)
    CZI_MPI(PMPI_Send(recvbuf, p * recvcount, recvtype, me + q,
                      CZI_TAG_ALLGATHER, comm));
  CZI_STEP(me_name, rounds + 2, "unfold", recvbuf, span);
fn_fail:
  return rc;
}
