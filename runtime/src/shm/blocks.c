/* blocks.c: the shm algorithms' view of user buffers as packed bytes. Dense
 * types are used in place (one copy each way through shared memory);
 * others are packed into, and unpacked from, the algorithm's scratch. */
#include "shm.h"

int czi_shm_blocks_open(const void *sendbuf, int sendcount, const czi_type *st,
                        int nsend, int send_skip, void *recvbuf, int recvcount,
                        const czi_type *rt, int nrecv, czi_shm_blocks *b) {
  int rc = MPI_SUCCESS;
  char *scratch = NULL;
  const MPI_Aint m = (MPI_Aint)sendcount * (MPI_Aint)st->size;
  const MPI_Aint sbytes = st->dense ? 0 : m * nsend;
  const MPI_Aint rbytes = rt->dense ? 0 : m * nrecv;
  b->m = m;
  CZI_SCRATCH(scratch, CZI_SCRATCH_ALGORITHM, sbytes + rbytes);
  if (st->dense) {
    b->send = czi_at(sendbuf, st->true_lb);
  } else {
    for (int j = 0; j < nsend; j++)
      if (j != send_skip)
        CZI_TRY(czi_pack(czi_block(sendbuf, j, sendcount, st), sendcount, st,
                         scratch + j * m));
    b->send = scratch;
  }
  b->unpack_recv = !rt->dense;
  b->recv = rt->dense ? czi_at(recvbuf, rt->true_lb) : scratch + sbytes;
  (void)recvcount, (void)recvbuf;
fn_fail:
  return rc;
}

int czi_shm_blocks_close(const czi_shm_blocks *b, void *recvbuf,
                         int recvcount, const czi_type *rt, int nrecv,
                         int skip) {
  int rc = MPI_SUCCESS;
  if (!b->unpack_recv) return MPI_SUCCESS;
  for (int j = 0; j < nrecv; j++)
    if (j != skip)
      CZI_TRY(czi_unpack(b->recv + j * b->m,
                         czi_block(recvbuf, j, recvcount, rt), recvcount, rt));
fn_fail:
  return rc;
}
