/*
 * alltoallv_two_phase.c: Bruck-style alltoallv for irregular counts. Block i
 * of rank r is the data for rank r+i. Step k (distance d = 2^k) sends every
 * block whose index has bit k set to rank r+d and receives the same indices
 * from r-d; after ⌈log2 P⌉ steps block i holds what rank r-i sent r. Each
 * step's message is one buffer: the lengths of its blocks (the receiver
 * cannot know them: they depend on other ranks' counts), then the blocks;
 * the receiver learns its size with MPI_Mprobe. Empty blocks cost only their
 * length word, which is what makes it a candidate for sparse patterns of
 * small blocks where P-1 messages per rank dominate.
 *
 * Cost (Hockney, s = mean bytes per block):
 *   T ≈ ⌈log2 P⌉·α + ⌈log2 P⌉·(P/2)·(s + 4)·β, plus packing (2·P·s·γ).
 * Memory: every block once, plus each step's receive buffer until the end.
 * Example, 4 ranks: step 1 sends blocks 1 and 3 to r+1, step 2 blocks 2 and
 * 3 to r+2; block 3 moves twice.
 */
#include <stdlib.h>
#include <string.h>

#include "cz_internal.h"

int czi_alltoallv_two_phase(CZI_ALLTOALLV_ARGS) {
  int rc = MPI_SUCCESS, me, p, nbufs = 0;
  czi_type st, rt;
  char **bufs = NULL, **ptr = NULL, *msg = NULL;
  int *len = NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  (void)params;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  CZI_TRY(czi_copy_local(czi_at(sendbuf, sdispls[me] * st.extent),
                         sendcounts[me], &st,
                         czi_at(recvbuf, rdispls[me] * rt.extent),
                         recvcounts[me], &rt));
  if (p == 1) return MPI_SUCCESS;

  int steps = 0;
  while ((1 << steps) < p) steps++;
  CZI_MALLOC(bufs, sizeof(char *) * (size_t)(steps + 1));
  CZI_MALLOC(ptr, sizeof(char *) * (size_t)p);
  CZI_MALLOC(len, sizeof(int) * (size_t)p);
  /* Pack every outgoing block, index i for rank me+i. */
  size_t total = 0;
  for (int i = 1; i < p; i++) {
    const int to = (me + i) % p;
    const size_t bytes = (size_t)sendcounts[to] * st.size;
    if (bytes > (size_t)INT_MAX)
      return czi_fail(MPI_ERR_COUNT, __func__, "block for rank %d exceeds %d bytes", to, INT_MAX);
    len[i] = (int)bytes;
    total += bytes;
  }
  CZI_MALLOC(bufs[nbufs], total);
  total = 0;
  for (int i = 1; i < p; i++) {
    const int to = (me + i) % p;
    ptr[i] = czi_at(bufs[nbufs], (MPI_Aint)total);
    CZI_TRY(czi_pack(czi_at(sendbuf, sdispls[to] * st.extent),
                     sendcounts[to], &st, ptr[i]));
    total += (size_t)len[i];
  }
  nbufs++;

  for (int d = 1; d < p; d <<= 1) {
    const int to = (me + d) % p, from = czi_mod(me - d, p);
    int nblk = 0;
    size_t bytes = 0;
    for (int i = 1; i < p; i++)
      if (i & d) nblk++, bytes += (size_t)len[i];
    const size_t head = sizeof(int) * (size_t)nblk;
    if (head + bytes > (size_t)INT_MAX)
      return czi_fail(MPI_ERR_COUNT, __func__, "step message exceeds %d bytes", INT_MAX);
    free(msg);
    msg = NULL;
    CZI_MALLOC(msg, head + bytes);
    int *lens = (int *)msg;
    char *data = msg + head;
    for (int i = 1, k = 0; i < p; i++)
      if (i & d) {
        lens[k++] = len[i];
        if (len[i]) czi_copy(data, ptr[i], (size_t)len[i]);
        data += len[i];
      }
    CZI_MPI(PMPI_Isend(msg, (int)(head + bytes), MPI_BYTE, to, CZI_TAG_ALLTOALLV,
                       comm, &req));
    MPI_Message handle;
    MPI_Status status;
    int got = 0;
    CZI_MPI(PMPI_Mprobe(from, CZI_TAG_ALLTOALLV, comm, &handle, &status));
    CZI_MPI(PMPI_Get_count(&status, MPI_BYTE, &got));
    CZI_MALLOC(bufs[nbufs], (size_t)got + 1);
    char *in = bufs[nbufs++];
    CZI_MPI(PMPI_Mrecv(in, got, MPI_BYTE, &handle, MPI_STATUS_IGNORE));
    CZI_MPI(PMPI_Wait(&req, MPI_STATUS_IGNORE));
    const int *inlens = (const int *)in;
    char *indata = in + head;
    for (int i = 1, k = 0; i < p; i++)
      if (i & d) {
        len[i] = inlens[k++];
        ptr[i] = indata;
        indata += len[i];
      }
  }
  /* Block i now holds what rank me-i sent me. */
  for (int i = 1; i < p; i++) {
    const int from = czi_mod(me - i, p);
    const size_t want = (size_t)recvcounts[from] * rt.size;
    if ((size_t)len[i] != want) {
      rc = czi_fail(MPI_ERR_TRUNCATE, __func__,
                    "rank %d sent %d bytes but recvcounts[%d] asks for %zu",
                    from, len[i], from, want);
      goto fn_fail;
    }
    CZI_TRY(czi_unpack(ptr[i], czi_at(recvbuf, rdispls[from] * rt.extent),
                       recvcounts[from], &rt));
  }
fn_fail:
  if (req != MPI_REQUEST_NULL) PMPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < nbufs; i++) free(bufs[i]);
  free(bufs);
  free(ptr);
  free(len);
  free(msg);
  return rc;
}
