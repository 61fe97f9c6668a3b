/*
 * bcast_shm.c: single-node broadcast through shared memory. The root writes
 * the message once, in segments, into a ring of pipeline slots of the
 * node's window; every other rank copies each segment out as soon as the
 * root has published it. Flags instead of barriers (shm/shm.h): segment g
 * of the communicator's broadcasts uses slot g mod S; the root waits until
 * all P-1 readers have consumed the slot's previous segment before writing,
 * publishes, and moves on, so readers copy segment g while the root writes
 * g+1 (pipelining), and nobody waits for the slowest reader at the end.
 *
 *  for each segment: root: wait for the slot, copy in, publish;
 *                    others: wait for it, copy out, count themselves.
 *
 * Cost (n = message bytes, s = segment bytes, β_c per copied byte, α_f a
 * flag hand-off): T ≈ (n/s)·α_f + n·β_c + s·β_c (root's first segment ahead
 * of the readers); n + (P-1)·n bytes copied on the node against (P-1)·n for
 * the memory-copy bound.
 * Example, P = 4, root 2, three segments: rank 2 writes slots 0, 1, 2;
 * ranks 0, 1, 3 each read slot 0 while rank 2 writes slot 1, and so on.
 *
 * Zero copy: when the root's message (a segment or more) lies in a
 * cz_buffer_alloc buffer of this communicator, one slot carries only where
 * it is; every reader copies the whole message from the root's buffer (one
 * copy per reader: (P-1)·n bytes, the bound) and the root returns once all
 * have (its buffer must stay unchanged until then): T ≈ α_f + n·β_c + the
 * slowest reader's delay. Measured (bench/shm/shm_bench, OSU latency over
 * MPI_Bcast's, one launch each, load ~3): 64 KiB at P = 2, 4, 8: 0.47,
 * 0.30, 0.41 staged -> 0.20, 0.19, 0.29 direct; 1 MiB: 0.60, 0.18, 0.26 ->
 * 0.28, 0.10, 0.13. At 2 KiB, P = 4 and 8 the direct root waiting for its
 * readers lost (0.23 -> 0.48, 0.56 -> 0.64): smaller messages stay staged.
 *
 * Several (simulated) nodes, hierarchical: the ring within the root's node,
 * PMPI_Bcast among the node leaders (lowest rank of each node), the ring
 * within every other node from its leader: T ≈ 2·T_ring + T_bcast(N
 * leaders). Run when called by name or forced; when the decision table
 * chose shm (its rules were measured on one node) the library's bcast runs
 * instead. Falls back to the library's bcast when no window could be made.
 */
#include <string.h>

#include "node.h"
#include "shm.h"

/* A reader is done with slot s. Only the slot's last reader can release a
 * waiting root. */
static void consumed(czi_shm_view *v, int s) {
  czi_shm_bcast_ctl *c = v->shm->bctl;
  const unsigned long long readers = (unsigned long long)(v->p - 1);
  if (czi_shm_flag_add(&c->consumed[s], 1) % readers == 0)
    czi_shm_flag_wake(&c->consumed[s]);
}

int czi_shm_bcast_ring(czi_shm_view *v, char *bytes, MPI_Aint n, int root) {
  czi_shm *shm = v->shm;
  czi_shm_bcast_ctl *c = shm->bctl;
  const unsigned long long readers = (unsigned long long)(v->p - 1);
  czi_shm_desc where;
  /* Only messages of a segment or more: a smaller one costs one copy into
   * a slot, and a root that need not wait for its readers runs ahead. */
  const int direct = v->me == root && n >= CZI_SHM_BCAST_SEG &&
                     czi_shm_direct_source(v, bytes, n, &where);
  for (MPI_Aint off = 0; off < n; off += CZI_SHM_BCAST_SEG) {
    const size_t len =
        (size_t)(n - off < CZI_SHM_BCAST_SEG ? n - off : CZI_SHM_BCAST_SEG);
    const unsigned long long g = shm->bseq++;
    const int s = (int)(g % CZI_SHM_BCAST_SLOTS);
    char *slot = shm->bslots + (MPI_Aint)s * CZI_SHM_BCAST_SEG;
    if (v->me == root) {
      const unsigned long long uses = g / CZI_SHM_BCAST_SLOTS;
      czi_shm_wait_at_least(v, &c->consumed[s], uses * readers);
      if (direct) {
        c->source[s] = where;
        czi_shm_flag_set(&c->ready[s], g + 1);
        czi_shm_wait_at_least(v, &c->consumed[s], (uses + 1) * readers);
        return MPI_SUCCESS;
      }
      c->source[s].direct = 0;
      czi_copy(slot, bytes + off, len);
      czi_shm_flag_set(&c->ready[s], g + 1);
    } else {
      czi_shm_wait_at_least(v, &c->ready[s], g + 1);
      const czi_shm_desc d = c->source[s];
      if (d.direct) { /* the whole message, from the root's buffer */
        const char *from = czi_shm_peer_data(v, root, &d);
        if (from) czi_copy(bytes, from, (size_t)n);
        consumed(v, s); /* also when unknown: the root must not hang */
        return from ? MPI_SUCCESS
                    : czi_fail(MPI_ERR_INTERN, __func__,
                               "the root's shared buffer %d is unknown here",
                               d.buffer_id);
      }
      czi_copy(bytes + off, slot, len);
      consumed(v, s);
    }
  }
  return MPI_SUCCESS;
}

int czi_bcast_shm(CZI_BCAST_ARGS) {
  int rc = MPI_SUCCESS, me, p, usable = 0;
  czi_type t;
  czi_shm_view v;
  char *packed = NULL;

  CZI_MPI(PMPI_Comm_rank(comm, &me));
  CZI_MPI(PMPI_Comm_size(comm, &p));
  CZI_TRY(czi_type_get(datatype, &t));
  const MPI_Aint n = (MPI_Aint)count * (MPI_Aint)t.size;
  if (p == 1 || n == 0) return MPI_SUCCESS;
  CZI_TRY(czi_shm_get(comm, 0, &v, &usable));
  czi_shm_wait_for(&v, (long long)n);
  if (!usable || (v.nnodes > 1 && !czi_shm_hierarchical(&v, params)) ||
      (v.nnodes > 1 && n > INT_MAX))
    return czi_bcast_mpi(buffer, count, datatype, root, comm, params);

  char *bytes = czi_at(buffer, t.true_lb);
  if (!t.dense) {
    CZI_SCRATCH(packed, CZI_SCRATCH_ALGORITHM, n);
    if (me == root) CZI_TRY(czi_pack(buffer, count, &t, packed));
    bytes = packed;
  }
  if (v.nnodes == 1) {
    CZI_TRY(czi_shm_bcast_ring(&v, bytes, n, root)); /* node ranks are comm ranks */
  } else {
    /* Root's node, then the leaders, then the other nodes. Node ranks
     * follow comm ranks, leaders' ranks follow node indices. */
    const czi_node_ctx *ctx = v.ctx;
    const int root_node = ctx->node_of[root];
    if (ctx->my_node == root_node) {
      int root_local = 0;
      while (ctx->node_members[ctx->node_start[root_node] + root_local] != root)
        root_local++;
      CZI_TRY(czi_shm_bcast_ring(&v, bytes, n, root_local));
    }
    if (ctx->leaders != MPI_COMM_NULL)
      CZI_MPI(PMPI_Bcast(bytes, (int)n, MPI_BYTE, root_node, ctx->leaders));
    if (ctx->my_node != root_node) CZI_TRY(czi_shm_bcast_ring(&v, bytes, n, 0));
  }
  if (!t.dense && me != root) CZI_TRY(czi_unpack(packed, buffer, count, &t));
fn_fail:
  return rc;
}
