/* node.h: a private communicator's node context: which ranks share a node
 * (real, or simulated with COLLECTIVIZE_RANKS_PER_NODE), the node's shared
 * segment and control block, its barrier and votes. The planned alltoallv
 * (plan/) keeps its plan cache here and the single-node collectives (shm/)
 * their window; each hands the context the function that frees what it
 * keeps (free_layer), so node/ includes neither and neither includes the
 * other for it. */
#ifndef CZ_NODE_H
#define CZ_NODE_H

#include "cz_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czi_plan_entry czi_plan_entry;

/* The layers built on a context, in the order their resources are freed
 * when the context's MPI resources go (plans before the window they may
 * use). */
typedef enum { CZI_NODE_PLANS, CZI_NODE_SHM, CZI_NODE_LAYERS } czi_node_layer;

/* One per private communicator (an attribute on it, so it goes when the
 * user's communicator is freed, and at MPI_Finalize). */
typedef struct czi_node_ctx {
  int refs;      /* the attribute + every plan that points here */
  int alive;     /* MPI resources (node comm, window) still valid */
  MPI_Comm priv; /* the private communicator this context belongs to */
  MPI_Comm node; /* ranks of my (simulated) node, ordered by rank in priv */
  int p, me, nnodes, my_node, node_rank, node_size, max_node_size;
  int node_cores; /* CPUs the node's ranks may run on, together */
  int *node_of;      /* [p] node index of every rank */
  int *node_start;   /* [nnodes+1] CSR offsets into node_members */
  int *node_members; /* [p] ranks of each node, ascending */
  MPI_Comm leaders; /* node_rank 0 of every node (MPI_COMM_NULL elsewhere) */
  MPI_Win ctl_win;  /* small shared control block: barrier, votes */
  struct czi_node_ctl *ctl;
  MPI_Win win;
  char *seg;        /* node segment: two halves (double buffering) */
  MPI_Aint seg_size;
  unsigned long long execs; /* node-path executions: picks the half */
  int next_plan_id;         /* plans created on this communicator */
  int next_buffer_id;       /* cz_buffer_alloc buffers made on it */
  /* cache of cz_alltoallv calls (cache.c) */
  czi_plan_entry *entries;
  int nentries, capacity;
  unsigned long long stamp;
  unsigned long long *seen; /* hashes of recent keys without a plan */
  int nseen, seen_next;
  struct czi_node_ctx *next_live, *prev_live;
  struct czi_shm *shm; /* single-node collectives' window (shm/), or NULL */
  /* Set by a layer when it first keeps something here; NULL: nothing kept.
   * Called collectively, before the node's windows and communicators go. */
  void (*free_layer[CZI_NODE_LAYERS])(struct czi_node_ctx *ctx);
} czi_node_ctx;

/* Barrier of the ranks of one node through shared memory (yields while it
 * waits: with more ranks than cores, spinning would starve the others;
 * sleeps after a few yields if `sleeps`, common/node_wait.h). */
void czi_node_barrier(czi_node_ctx *ctx, int sleeps);
/* Every rank of the communicator gets the element-wise minimum of v[0..2]
 * over all ranks: votes combined in shared memory per node, then an
 * allreduce among node leaders only. Also a barrier of the node. */
int czi_vote_min3(czi_node_ctx *ctx, int v[3]);

/* Context of a private communicator (created collectively on first use). */
int czi_node_ctx_get(MPI_Comm priv, czi_node_ctx **ctx);
void czi_node_ctx_release(czi_node_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
