/*
 * alltoall_shm_flag_push.c: single-node alltoall through shared memory,
 * writer side remote, synchronised by per-rank round flags instead of a
 * node barrier. Like shm_push, rank i writes its block for j straight into
 * slot i of j's region (half epoch&1); then it publishes "my blocks of this
 * round are written" in its own flag, and copies slot j of its own region
 * out as soon as rank j's flag says so, taking the ready writers first
 * (shm/flags.c). Double buffering needs no barrier: a rank rewrites a half
 * only two rounds later, after it has seen every peer's flag of the round
 * in between, which each peer sets only after finishing its reads of the
 * earlier one (every rank reads from every other).
 *
 *  1. copy my own block locally;
 *  2. per round of c bytes per block: P-1 copies into peers' regions,
 *     publish my flag, then P-1 times: wait for a writer's flag, copy out.
 *
 * Cost (m = bytes per block, R = ceil(m/c) rounds, β_c the memory-copy
 * time per byte, α_f a flag hand-off): T = R·α_f + 2·(P-1)·m·β_c per rank,
 * where α_f is one store and P-1 flag reads (no shared counter that all P
 * ranks increment, no single generation word that wakes all sleepers at
 * once: a sleeping reader is woken by the writer it waits for); a reader
 * starts copying early writers' blocks before the last one arrives.
 * 2·P·(P-1)·m bytes copied on the node (the bound is half). Window: 2·P·c
 * per rank. No zero copy (send data is always staged).
 * Several (simulated) nodes: as shm_push (hierarchical when called by name
 * or forced, the library's alltoall when the decision table chose this);
 * the library's alltoall when no window could be made.
 * Example, P = 4, rank 1: writes its blocks 0, 2, 3 into slot 1 of ranks
 * 0, 2, 3, sets its flag; copies slot 3 as soon as rank 3's flag is set,
 * even if rank 0 has not arrived yet.
 */
#include <string.h>

#include "shm.h"

typedef struct {
  const czi_shm_blocks *b;
  MPI_Aint off, c;
  size_t len;
  unsigned long long e;
} round_args;

static void copy_out(const czi_shm_view *v, int from, void *arg) {
  const round_args *r = arg;
  memcpy(r->b->recv + from * r->b->m + r->off,
         czi_shm_half(v, v->me, r->e) + (MPI_Aint)from * r->c, r->len);
}

int czi_alltoall_shm_flag_push(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS, me, p, usable = 0;
  czi_type st, rt;
  czi_shm_view v;
  czi_shm_blocks b;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  const MPI_Aint m = (MPI_Aint)sendcount * (MPI_Aint)st.size;
  if (p == 1 || m == 0)
    return czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount,
                          &st, czi_block(recvbuf, me, recvcount, &rt),
                          recvcount, &rt);
  CZI_TRY(czi_shm_get(comm, (MPI_Aint)p * m, &v, &usable));
  if (usable && v.nnodes > 1) /* shm_push's several-node paths */
    return czi_alltoall_shm_push(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm, params);
  if (!usable)
    return czi_alltoall_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm, params);
  czi_shm_wait_for(&v, (long long)p * m);
  CZI_TRY(czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  CZI_TRY(czi_shm_blocks_open(sendbuf, sendcount, &st, p, me, recvbuf,
                              recvcount, &rt, p, &b));
  round_args r = {&b, 0, czi_shm_chunk(v.shm, m, p), 0, 0};
  for (r.off = 0; r.off < m; r.off += r.c) {
    r.len = (size_t)(m - r.off < r.c ? m - r.off : r.c);
    r.e = v.shm->epoch;
    for (int i = 1; i < p; i++) {
      const int to = (me + i) % p;
      memcpy(czi_shm_half(&v, to, r.e) + (MPI_Aint)me * r.c,
             b.send + to * m + r.off, r.len);
    }
    czi_shm_publish(&v, r.e);
    czi_shm_each_ready(&v, r.e, copy_out, &r);
    v.shm->epoch++;
  }
  CZI_TRY(czi_shm_blocks_close(&b, recvbuf, recvcount, &rt, p, me));
fn_fail:
  return rc;
}
