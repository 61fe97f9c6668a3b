/*
 * allgather_shm.c: single-node allgather through shared memory. Each block
 * is written once, into its owner's region of the node's window, and read
 * by every other rank: per round, every rank copies (a chunk of) its block
 * into its region, one node barrier, then copies the P-1 peers' chunks into
 * its receive buffer. Double-buffered regions make one barrier per round
 * enough (shm/shm.h).
 *
 *  1. copy my own block into place;
 *  2. per round of c bytes: 1 copy in, barrier, P-1 copies out.
 *
 * Cost (m = bytes per block, R = ceil(m/c), β_c per copied byte, α_b a node
 * barrier): T = R·α_b + P·m·β_c per rank; P·m + P·(P-1)·m bytes copied on
 * the node against P·(P-1)·m for the memory-copy bound. Window: 2·c per
 * rank. Zero copy: when my block lies in a cz_buffer_alloc buffer of this
 * communicator (also the in-place case with recvbuf there), peers copy it
 * from there (P·(P-1)·m bytes on the node, the bound), and a final barrier
 * keeps it unchanged until they have.
 * Example, P = 4: rank 2 writes its block once; ranks 0, 1, 3 read it.
 *
 * Several (simulated) nodes, hierarchical (when called by name or forced;
 * chosen by the decision table, measured on one node, the library's
 * allgather runs): within each node as above, then the leaders (lowest rank
 * of each node) exchange whole nodes' blocks with one PMPI_Allgatherv, and
 * every rank copies all blocks from its leader's region: T ≈ 2·α_b +
 * T_allgatherv(N leaders, P·m) + P·m·β_c. Needs the window to hold P blocks
 * (else the library's allgather). Falls back to the library's allgather
 * when no window could be made.
 */
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "shm.h"

/* Several nodes: my block into my region; barrier; the leader collects its
 * node's blocks into the other half of its region, in node-major order
 * (node_members), and exchanges them with the other leaders in place
 * (PMPI_Allgatherv of one run per node); barrier; everyone copies all
 * blocks out of the leader's half. Two rounds, so the epoch moves by two
 * (the leader's half e+1 was last read in round e-1). */
static int across_nodes(czi_shm_view *v, const czi_shm_blocks *b, int me) {
  int rc = MPI_SUCCESS;
  int *counts = NULL;
  const czi_node_ctx *ctx = v->ctx;
  const MPI_Aint m = b->m;
  const unsigned long long e = v->shm->epoch;
  char *full = czi_shm_half(v, 0, e + 1);
  czi_copy_to_peers(czi_shm_half(v, v->me, e), b->send, (size_t)m);
  czi_shm_barrier(v);
  if (ctx->leaders != MPI_COMM_NULL) {
    const int n = ctx->nnodes;
    const MPI_Aint first = ctx->node_start[ctx->my_node];
    for (int i = 0; i < v->p; i++)
      czi_copy_to_peers(full + (first + i) * m, czi_shm_half(v, i, e), (size_t)m);
    CZI_MALLOC(counts, sizeof(int) * 2 * (size_t)n);
    for (int k = 0; k < n; k++) {
      counts[k] = (int)((ctx->node_start[k + 1] - ctx->node_start[k]) * m);
      counts[n + k] = (int)(ctx->node_start[k] * m);
    }
    rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, full, counts,
                         counts + n, MPI_BYTE, ctx->leaders);
    if (rc != MPI_SUCCESS) rc = czi_mpi_fail(rc, __func__, "PMPI_Allgatherv");
  }
  /* Always reached, so a failed exchange cannot leave the node waiting. */
  czi_shm_barrier(v);
  CZI_TRY(rc);
  for (int idx = 0; idx < ctx->p; idx++) {
    const int r = ctx->node_members[idx];
    if (r != me) czi_copy(b->recv + r * m, full + idx * m, (size_t)m);
  }
fn_fail:
  v->shm->epoch += 2;
  free(counts);
  return rc;
}

int czi_allgather_shm(CZI_ALLGATHER_ARGS) {
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
  /* Several nodes: the leader's half holds all P blocks (the same on every
   * node, windows being sized alike). */
  if (usable && v.nnodes > 1 && czi_shm_hierarchical(&v, params))
    CZI_TRY(czi_shm_get(comm, (MPI_Aint)p * m, &v, &usable));
  if (!usable || (v.nnodes > 1 && (!czi_shm_hierarchical(&v, params) ||
                                   v.shm->half < (MPI_Aint)p * m ||
                                   (MPI_Aint)p * m > INT_MAX)))
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
  if (v.nnodes > 1) {
    CZI_TRY(across_nodes(&v, &b, me));
    return czi_shm_blocks_close(&b, recvbuf, recvcount, &rt, p, me);
  }
  czi_shm_desc where;
  const int direct = czi_shm_direct_source(&v, b.send, m, &where);
  int any_direct = 0;
  const MPI_Aint c = czi_shm_chunk(v.shm, m, 1);
  for (MPI_Aint off = 0; off < m; off += c) {
    const size_t len = (size_t)(m - off < c ? m - off : c);
    const unsigned long long e = v.shm->epoch;
    *czi_shm_desc_of(&v, me, e) = where;
    if (!direct) czi_copy_to_peers(czi_shm_half(&v, me, e), b.send + off, len);
    czi_shm_barrier(&v);
    for (int i = 1; i < p; i++) {
      const int from = czi_mod(me - i, p);
      const czi_shm_desc *d = czi_shm_desc_of(&v, from, e);
      const char *src = czi_shm_half(&v, from, e);
      if (d->direct) {
        any_direct = 1;
        src = czi_shm_peer_data(&v, from, d);
        if (!src) {
          rc = czi_fail(MPI_ERR_INTERN, __func__,
                        "rank %d's shared buffer %d is unknown here", from,
                        d->buffer_id);
          continue;
        }
        src += off;
      }
      czi_copy(b.recv + from * m + off, src, len);
    }
    v.shm->epoch++;
  }
  /* Every rank saw every descriptor: all agree on this barrier. */
  if (any_direct || direct) czi_shm_barrier(&v);
  CZI_TRY(rc);
  CZI_TRY(czi_shm_blocks_close(&b, recvbuf, recvcount, &rt, p, me));
fn_fail:
  return rc;
}
