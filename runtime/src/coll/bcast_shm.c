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
 * Several (simulated) nodes, hierarchical: the ring within the root's node,
 * PMPI_Bcast among the node leaders (lowest rank of each node), the ring
 * within every other node from its leader: T ≈ 2·T_ring + T_bcast(N
 * leaders). Run when called by name or forced; when the decision table
 * chose shm (its rules were measured on one node) the library's bcast runs
 * instead. Falls back to the library's bcast when no window could be made.
 */
#include <string.h>

#include "plan.h"
#include "shm.h"

void czi_shm_bcast_ring(czi_shm_view *v, char *bytes, MPI_Aint n, int root) {
  czi_shm *shm = v->shm;
  for (MPI_Aint off = 0; off < n; off += CZI_SHM_BCAST_SEG) {
    const size_t len =
        (size_t)(n - off < CZI_SHM_BCAST_SEG ? n - off : CZI_SHM_BCAST_SEG);
    const unsigned long long g = shm->bseq++;
    const int s = (int)(g % CZI_SHM_BCAST_SLOTS);
    char *slot = shm->bslots + (MPI_Aint)s * CZI_SHM_BCAST_SEG;
    if (v->me == root) {
      const unsigned long long uses = g / CZI_SHM_BCAST_SLOTS;
      czi_shm_wait_at_least(v, &shm->bctl->consumed[s],
                            uses * (unsigned long long)(v->p - 1));
      memcpy(slot, bytes + off, len);
      czi_shm_flag_set(&shm->bctl->ready[s], g + 1);
    } else {
      czi_shm_wait_at_least(v, &shm->bctl->ready[s], g + 1);
      memcpy(bytes + off, slot, len);
      /* Only the slot's last reader can release a waiting root. */
      const unsigned long long readers = (unsigned long long)(v->p - 1);
      if (czi_shm_flag_add(&shm->bctl->consumed[s], 1) % readers == 0)
        czi_shm_flag_wake(&shm->bctl->consumed[s]);
    }
  }
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

  char *bytes = (char *)buffer + t.true_lb;
  if (!t.dense) {
    CZI_SCRATCH(packed, CZI_SCRATCH_ALGORITHM, n);
    if (me == root) CZI_TRY(czi_pack(buffer, count, &t, packed));
    bytes = packed;
  }
  if (v.nnodes == 1) {
    czi_shm_bcast_ring(&v, bytes, n, root); /* node ranks are comm ranks */
  } else {
    /* Root's node, then the leaders, then the other nodes. Node ranks
     * follow comm ranks, leaders' ranks follow node indices. */
    const czi_node_ctx *ctx = v.ctx;
    const int root_node = ctx->node_of[root];
    if (ctx->my_node == root_node) {
      int root_local = 0;
      while (ctx->node_members[ctx->node_start[root_node] + root_local] != root)
        root_local++;
      czi_shm_bcast_ring(&v, bytes, n, root_local);
    }
    if (ctx->leaders != MPI_COMM_NULL)
      CZI_MPI(PMPI_Bcast(bytes, (int)n, MPI_BYTE, root_node, ctx->leaders));
    if (ctx->my_node != root_node) czi_shm_bcast_ring(&v, bytes, n, 0);
  }
  if (!t.dense && me != root) CZI_TRY(czi_unpack(packed, buffer, count, &t));
fn_fail:
  return rc;
}
