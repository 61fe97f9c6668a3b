/*
 * bcast_scatter_allgather.c: van de Geijn's long-message broadcast
 * (scatter, then allgather), on packed bytes so any datatype works.
 *
 * The n message bytes are cut into P chunks of c = ceil(n/P) bytes; chunk v
 * belongs to relative rank v = me - root mod P (trailing chunks may be short
 * or empty).
 *  1. binomial scatter: relative rank v receives from its parent the chunks
 *     of its subtree [v, v + lowbit(v)), then forwards each child's subtree;
 *  2. ring allgather of the chunks: step k passes chunk v - k to the right
 *     neighbour and takes chunk v - k - 1 from the left one. Empty chunks
 *     are skipped on both sides (both compute the same sizes).
 * Messages shorter than P bytes use the binomial tree instead (chunks would
 * be empty or single bytes, all latency).
 *
 * Cost (Hockney, n = message bytes):
 *   scatter: ceil(log2 P)·α + (P-1)/P·n·β;  ring: (P-1)·α + (P-1)/P·n·β;
 *   T ≈ (log2 P + P - 1)·α + 2·(P-1)/P·n·β, against log2 P·n·β for binomial.
 */
#include <stdlib.h>

#include "cz_internal.h"

/* Bytes of chunks [first, first + chunks) of an n-byte message cut into
 * c-byte chunks (clipped to the message). */
static size_t chunk_bytes(size_t n, size_t c, long first, long chunks) {
  size_t lo = (size_t)first * c, hi = (size_t)(first + chunks) * c;
  if (hi > n) hi = n;
  return hi > lo ? hi - lo : 0;
}

int czi_bcast_scatter_allgather(CZI_BCAST_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type t;
  char *scratch = NULL, *bytes;

  CZI_MPI(PMPI_Comm_rank(comm, &me));
  CZI_MPI(PMPI_Comm_size(comm, &p));
  CZI_TRY(czi_type_get(datatype, &t));
  const size_t n = (size_t)count * t.size;
  if (n == 0 || p == 1) return MPI_SUCCESS;
  if (n < (size_t)p)
    return czi_bcast_binomial(buffer, count, datatype, root, comm, params);
  if (n > (size_t)CZI_INT_MAX_BYTES)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "%zu bytes exceed one message's int count", n);

  /* Dense data is used in place; anything else travels packed. */
  if (t.dense) {
    bytes = czi_at(buffer, t.true_lb);
  } else {
    CZI_SCRATCH(scratch, CZI_SCRATCH_ALGORITHM, n);
    bytes = scratch;
    if (me == root) CZI_TRY(czi_pack(buffer, count, &t, bytes));
  }

  const size_t c = (n + (size_t)p - 1) / (size_t)p;
  const int v = czi_mod(me - root, p);

  /* 1. binomial scatter of subtrees. */
  int mask = 1;
  while (mask < p) {
    if (v & mask) {
      const size_t len = chunk_bytes(n, c, v, mask);
      if (len)
        CZI_MPI(PMPI_Recv(bytes + (size_t)v * c, (int)len, MPI_BYTE,
                          czi_mod(me - mask, p), CZI_TAG_BCAST, comm,
                          MPI_STATUS_IGNORE));
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask >= p) continue;
    const size_t len = chunk_bytes(n, c, v + mask, mask);
    if (len)
      CZI_MPI(PMPI_Send(bytes + (size_t)(v + mask) * c, (int)len, MPI_BYTE,
                        (me + mask) % p, CZI_TAG_BCAST, comm));
  }

  /* 2. ring allgather of the chunks, in relative numbering. */
  const int right = (me + 1) % p, left = czi_mod(me - 1, p);
  for (int k = 0; k < p - 1; ++k) {
    const int out = czi_mod(v - k, p), in = czi_mod(v - k - 1, p);
    const size_t out_len = chunk_bytes(n, c, out, 1);
    const size_t in_len = chunk_bytes(n, c, in, 1);
    MPI_Request reqs[2];
    int nreq = 0;
    if (in_len)
      CZI_MPI(PMPI_Irecv(bytes + (size_t)in * c, (int)in_len, MPI_BYTE, left,
                         CZI_TAG_BCAST, comm, &reqs[nreq++]));
    if (out_len)
      CZI_MPI(PMPI_Isend(bytes + (size_t)out * c, (int)out_len, MPI_BYTE,
                         right, CZI_TAG_BCAST, comm, &reqs[nreq++]));
    CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
  }

  if (scratch && me != root) CZI_TRY(czi_unpack(scratch, buffer, count, &t));
fn_fail:
  return rc;
}
