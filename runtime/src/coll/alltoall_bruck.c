/*
 * alltoall_bruck.c: Bruck's alltoall with radix r (Bruck et al., IEEE TPDS
 * 1997), for small blocks where latency dominates.
 *
 * Works on packed bytes, so any datatype (derived, strided) is handled alike:
 *  1. rotate: work[i] = my block for rank (me + i) mod P;
 *  2. for each base-r digit position k (weight w = r^k < P) and each digit
 *     value d in 1..r-1 with d*w < P, the blocks whose index has digit d at
 *     position k travel d*w ranks forward (to me + d*w, from me - d*w). The
 *     r-1 exchanges of one digit touch disjoint blocks, so they are posted
 *     together;
 *  3. inverse rotation: work[i] now came from rank (me - i), so it lands in
 *     receive block (me - i) mod P.
 *
 * Cost (Hockney, m = bytes per block): ceil(log_r P) rounds of r-1
 * concurrent messages; about ceil(log_r P)·(r-1)/r·P·m bytes sent per rank.
 *   T ≈ ceil(log_r P)·(r-1)·α + ceil(log_r P)·(r-1)/r·P·m·β (+ 2 local copies)
 * Radix 2: log2 P·α + (P/2)·log2 P·m·β; radix P degenerates to spread-out.
 */
#include <stdlib.h>
#include <string.h>

#include "cz_internal.h"
#include "step_observer.h"

/* Digit of i at weight w in base r. */
static int digit(int i, int w, int r) { return (i / w) % r; }

int czi_alltoall_bruck(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS, me, p;
  czi_type st, rt;
  char *work = NULL, *out = NULL, *in = NULL;
  MPI_Request *reqs = NULL;
  const int radix = params && params->param >= 2 ? params->param : 2;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  const size_t m = (size_t)sendcount * st.size;
  if (m == 0) return MPI_SUCCESS;
  if (p == 1)
    return czi_copy_local(sendbuf, sendcount, &st, recvbuf, recvcount, &rt);
  if ((size_t)p * m > (size_t)CZI_INT_MAX_BYTES)
    return czi_fail(MPI_ERR_COUNT, __func__,
                    "%d blocks of %zu bytes exceed one message's int count", p,
                    m);

  CZI_SCRATCH(work, CZI_SCRATCH_ALGORITHM, 3 * (size_t)p * m);
  out = work + (size_t)p * m;
  in = out + (size_t)p * m;
  CZI_MALLOC(reqs, sizeof(MPI_Request) * 2 * (size_t)(radix - 1));

  for (int i = 0; i < p; ++i)
    CZI_TRY(czi_pack(czi_block(sendbuf, (me + i) % p, sendcount, &st),
                     sendcount, &st, work + (size_t)i * m));
  int step = 0;
  CZI_STEP("alltoall_bruck", step++, "rotate", work, (size_t)p * m);

  for (long w = 1; w < p; w *= radix) {
    int nreq = 0;
    size_t offset = 0;
    /* Post every digit value's exchange of this round. */
    for (int d = 1; d < radix && d * w < p; ++d) {
      size_t blocks = 0;
      for (int i = 1; i < p; ++i)
        if (digit(i, (int)w, radix) == d) {
          czi_copy(out + offset + blocks * m, work + (size_t)i * m, m);
          ++blocks;
        }
      const int to = (me + d * (int)w) % p;
      const int from = czi_mod(me - d * (int)w, p);
      CZI_MPI(PMPI_Irecv(in + offset, (int)(blocks * m), MPI_BYTE, from,
                         CZI_TAG_ALLTOALL, comm, &reqs[nreq++]));
      CZI_MPI(PMPI_Isend(out + offset, (int)(blocks * m), MPI_BYTE, to,
                         CZI_TAG_ALLTOALL, comm, &reqs[nreq++]));
      offset += blocks * m;
    }
    CZI_MPI(PMPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
    /* Received blocks go back to the same indices they were taken from. */
    offset = 0;
    for (int d = 1; d < radix && d * w < p; ++d)
      for (int i = 1; i < p; ++i)
        if (digit(i, (int)w, radix) == d) {
          czi_copy(work + (size_t)i * m, in + offset, m);
          offset += m;
        }
    CZI_STEP("alltoall_bruck", step++, "round", work, (size_t)p * m);
  }

  for (int i = 0; i < p; ++i)
    CZI_TRY(czi_unpack(work + (size_t)i * m,
                       czi_block(recvbuf, czi_mod(me - i, p), recvcount, &rt),
                       recvcount, &rt));
  CZI_STEP("alltoall_bruck", step, "inverse rotation", recvbuf,
           (size_t)p * (size_t)recvcount * (size_t)rt.extent);
fn_fail:
  free(reqs);
  return rc;
}
