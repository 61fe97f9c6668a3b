/*
 * allgather_shm_flag.c: single-node allgather through shared memory,
 * synchronised by per-rank round flags instead of a node barrier. Like
 * allgather shm, each block is written once, into its owner's region (half
 * epoch&1), and read by every other rank; the owner then publishes "my
 * block of this round is written" in its own flag, and every reader copies
 * a block as soon as its owner's flag says so, ready owners first
 * (shm/flags.c). Double buffering needs no barrier: a rank rewrites a half
 * only two rounds later, after it has seen every peer's flag of the round
 * in between, which each peer sets only after finishing its reads of the
 * earlier one (every rank reads from every other).
 *
 *  1. copy my own block into place;
 *  2. per round of c bytes: 1 copy into my region, publish my flag, then
 *     P-1 times: wait for an owner's flag, copy its chunk out.
 *
 * Cost (m = bytes per block, R = ceil(m/c), β_c per copied byte, α_f a
 * flag hand-off: one store, P-1 flag reads, a reader woken by the owner it
 * waits for): T = R·α_f + P·m·β_c per rank; P·m + P·(P-1)·m bytes copied
 * on the node against P·(P-1)·m for the memory-copy bound. Window: 2·c per
 * rank. No zero copy (the block is always staged).
 * Several (simulated) nodes: allgather shm's paths (hierarchical when
 * called by name or forced, the library's allgather when the decision
 * table chose this); the library's allgather when no window could be made.
 * Example, P = 4: rank 2 writes its block once and sets its flag; ranks 0,
 * 1, 3 each copy it as soon as they see the flag, in any order.
 */
#include <string.h>

#include "shm.h"

typedef struct {
  const czi_shm_blocks *b;
  MPI_Aint off;
  size_t len;
  unsigned long long e;
} round_args;

static void copy_in(const czi_shm_view *v, int from, void *arg) {
  const round_args *r = arg;
  czi_copy(r->b->recv + from * r->b->m + r->off, czi_shm_half(v, from, r->e),
         r->len);
}

int czi_allgather_shm_flag(CZI_ALLGATHER_ARGS) {
  int rc = MPI_SUCCESS, me, p, usable = 0;
  czi_type st, rt;
  czi_shm_view v;
  czi_shm_blocks b;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  const MPI_Aint m = (MPI_Aint)sendcount * (MPI_Aint)st.size;
  if (p == 1 || m == 0)
    return czi_copy_local(sendbuf, sendcount, &st,
                          czi_block(recvbuf, me, recvcount, &rt), recvcount,
                          &rt);
  CZI_TRY(czi_shm_get(comm, m, &v, &usable));
  if (usable && v.nnodes > 1) /* allgather shm's several-node paths */
    return czi_allgather_shm(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, params);
  if (!usable)
    return czi_allgather_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, params);
  czi_shm_wait_for(&v, (long long)p * m);
  CZI_TRY(czi_copy_local(sendbuf, sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  /* The send side is one block (sendbuf may alias my receive block: the
   * in-place case; it is only read). */
  CZI_TRY(czi_shm_blocks_open(sendbuf, sendcount, &st, 1, -1, recvbuf,
                              recvcount, &rt, p, &b));
  const MPI_Aint c = czi_shm_chunk(v.shm, m, 1);
  round_args r = {&b, 0, 0, 0};
  for (r.off = 0; r.off < m; r.off += c) {
    r.len = (size_t)(m - r.off < c ? m - r.off : c);
    r.e = v.shm->epoch;
    czi_copy_to_peers(czi_shm_half(&v, me, r.e), b.send + r.off, r.len);
    czi_shm_publish(&v, r.e);
    czi_shm_each_ready(&v, r.e, copy_in, &r);
    v.shm->epoch++;
  }
  CZI_TRY(czi_shm_blocks_close(&b, recvbuf, recvcount, &rt, p, me));
fn_fail:
  return rc;
}
