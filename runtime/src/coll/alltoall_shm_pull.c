/*
 * alltoall_shm_pull.c: single-node alltoall through shared memory, reader
 * side remote. In each round every rank lays out all its outgoing blocks in
 * its own region of the node's window (local writes, on its own NUMA node),
 * one node barrier, then rank i copies slot i of every peer's region into
 * its receive buffer. Double-buffered regions make one barrier per round
 * enough (shm/shm.h). Blocks larger than a slot go in several rounds.
 *
 *  1. copy my own block locally;
 *  2. per round of c bytes per block: P-1 copies into my region, barrier,
 *     P-1 copies out of peers' regions.
 *
 * Cost (m = bytes per block, R = ceil(m/c) rounds, β_c the memory-copy
 * time per byte, α_b a node barrier): T = R·α_b + 2·(P-1)·m·β_c per rank;
 * same copies as shm_push, but remote traffic is reads (which a cache
 * coherence protocol serves without invalidating the owner's lines).
 * Zero copy: when my send data lies in a cz_buffer_alloc buffer of this
 * communicator, I stage nothing; my round descriptor says where it is and
 * peers copy from there (one copy: P·(P-1)·m bytes on the node, the bound),
 * and one more barrier at the end keeps my buffer unchanged until they have.
 * Window: 2·P·c per rank. Several (simulated) nodes: the planned
 * alltoallv's node path (shm/alltoall_nodes.c) when called by name or
 * forced, the library's alltoall when the decision table (measured on one
 * node) chose this; also the library's when no window could be made.
 * Example, P = 4, rank 1: writes blocks 0, 2, 3 into its slots 0, 2, 3;
 * after the barrier reads slot 1 of ranks 0, 2, 3.
 */
#include <string.h>

#include "shm.h"

int czi_alltoall_shm_pull(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS;
  czi_shm_alltoall_call s;
  if (!czi_shm_alltoall_start(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, comm, params, &s, &rc))
    return rc;
  czi_shm_desc where;
  const int direct = czi_shm_direct_source(&s.v, s.b.send, (MPI_Aint)s.p * s.m, &where);
  int any_direct = 0;
  const MPI_Aint c = czi_shm_chunk(s.v.shm, s.m, s.p);
  for (MPI_Aint off = 0; off < s.m; off += c) {
    const size_t len = (size_t)(s.m - off < c ? s.m - off : c);
    const unsigned long long e = s.v.shm->epoch;
    *czi_shm_desc_of(&s.v, s.me, e) = where;
    char *mine = czi_shm_half(&s.v, s.me, e);
    for (int i = 1; i < s.p && !direct; i++) {
      const int to = (s.me + i) % s.p;
      czi_copy_to_peers(mine + (MPI_Aint)to * c, s.b.send + to * s.m + off, len);
    }
    czi_shm_barrier(&s.v);
    for (int i = 1; i < s.p; i++) {
      const int from = czi_mod(s.me - i, s.p);
      const czi_shm_desc *d = czi_shm_desc_of(&s.v, from, e);
      const char *src = czi_shm_half(&s.v, from, e) + (MPI_Aint)s.me * c;
      if (d->direct) {
        any_direct = 1;
        src = czi_shm_peer_data(&s.v, from, d);
        if (!src) {
          rc = czi_fail(MPI_ERR_INTERN, __func__,
                        "rank %d's shared buffer %d is unknown here", from,
                        d->buffer_id);
          continue;
        }
        src += (MPI_Aint)s.me * s.m + off;
      }
      czi_copy(s.b.recv + from * s.m + off, src, len);
    }
    s.v.shm->epoch++;
  }
  /* Every rank saw every descriptor: all agree on this barrier. */
  if (any_direct || direct) czi_shm_barrier(&s.v);
  CZI_TRY(rc);
  CZI_TRY(czi_shm_blocks_close(&s.b, recvbuf, recvcount, &s.rt, s.p, s.me));
fn_fail:
  return rc;
}
