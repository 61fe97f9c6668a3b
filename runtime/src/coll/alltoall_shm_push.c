/*
 * alltoall_shm_push.c: single-node alltoall through shared memory, writer
 * side remote. Every rank owns a region of the node's window (shm/shm.h);
 * in each round rank i writes its block for j straight into slot i of j's
 * region, one node barrier, then every rank copies the P-1 slots of its
 * own region into its receive buffer. Double-buffered regions make one
 * barrier per round enough, so skewed ranks never overwrite unread data.
 * Blocks larger than a region slot go in several rounds.
 *
 *  1. copy my own block locally;
 *  2. per round of c bytes per block: P-1 copies into peers' regions,
 *     barrier, P-1 copies out of mine.
 *
 * Cost (m = bytes per block, R = ceil(m/c) rounds, β_c the memory-copy
 * time per byte, α_b a node barrier): T = R·α_b + 2·(P-1)·m·β_c per rank,
 * and 2·P·(P-1)·m bytes copied on the node (the memory-copy bound is half
 * that: one copy of every byte). No messages at all. Window: 2·P·c per rank.
 * Several (simulated) nodes: the planned alltoallv's node path
 * (shm/alltoall_nodes.c) when called by name or forced, the library's
 * alltoall when the decision table (measured on one node) chose this; also
 * the library's when no window could be made.
 * Example, P = 4, rank 1: writes its blocks 0, 2, 3 into slot 1 of ranks
 * 0, 2, 3; after the barrier reads slots 0, 2, 3 of its own region.
 */
#include <string.h>

#include "shm.h"

int czi_alltoall_shm_push(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS;
  czi_shm_alltoall_call s;
  if (!czi_shm_alltoall_start(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, comm, params, &s, &rc))
    return rc;
  const MPI_Aint c = czi_shm_chunk(s.v.shm, s.m, s.p);
  for (MPI_Aint off = 0; off < s.m; off += c) {
    const size_t len = (size_t)(s.m - off < c ? s.m - off : c);
    const unsigned long long e = s.v.shm->epoch;
    for (int i = 1; i < s.p; i++) {
      const int to = (s.me + i) % s.p;
      char *slot = czi_shm_half(&s.v, to, e) + (MPI_Aint)s.me * c;
      czi_copy_to_peers(slot, s.b.send + to * s.m + off, len);
    }
    czi_shm_barrier(&s.v);
    const char *mine = czi_shm_half(&s.v, s.me, e);
    for (int i = 1; i < s.p; i++) {
      const int from = czi_mod(s.me - i, s.p);
      czi_copy(s.b.recv + from * s.m + off, mine + (MPI_Aint)from * c, len);
    }
    s.v.shm->epoch++;
  }
  CZI_TRY(czi_shm_blocks_close(&s.b, recvbuf, recvcount, &s.rt, s.p, s.me));
fn_fail:
  return rc;
}
