/* plan.h: the planned (node-aware) alltoallv: per-communicator node context
 * (node map, shared segment, plan cache) and plans. Used by
 * coll/alltoallv_planned.c (the cached path) and api/alltoallv_plan.c (the
 * explicit plan API). See plan.c for the layout and the execution protocol. */
#ifndef CZ_PLAN_H
#define CZ_PLAN_H

#include "cz_internal.h"
#include "registry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czi_plan_entry czi_plan_entry;

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
} czi_node_ctx;

typedef struct czi_seg_block {
  MPI_Aint buf_off; /* displacement * extent in the user's buffer */
  int count;
  MPI_Aint seg_off; /* offset in the segment half */
} czi_seg_block;

typedef struct czi_msg {
  int peer;         /* rank in priv */
  MPI_Aint seg_off; /* offset in the segment half */
  int bytes;
} czi_msg;

enum { CZI_PLAN_NODE = 0, CZI_PLAN_DIRECT = 1 };

struct cz_alltoallv_plan_s {
  czi_node_ctx *ctx;
  int id, mode;
  const czi_algorithm *direct; /* mode DIRECT */
  int direct_param;
  int p, me;
  int *args; /* sendcounts, sdispls, recvcounts, rdispls: 4*p ints */
  MPI_Datatype sendtype, recvtype;
  czi_type st, rt;
  /* mode NODE */
  MPI_Aint half; /* bytes this plan uses in one half */
  int npack, nunpack, nsend, nrecv;
  czi_seg_block *pack, *unpack;
  czi_msg *sends, *recvs;
  MPI_Request *reqs;
  /* what the plan saw (same on every rank) */
  long long total_bytes, rank_msgs, node_msgs, mean_block;
  char name[32];
};

/* How a plan is made. */
typedef struct czi_plan_how {
  int force_node;    /* node path whatever the table says */
  int choose_direct; /* otherwise the table decides (else: node path) */
  const czi_algorithm *direct; /* forced direct algorithm, or NULL */
  int direct_param;
} czi_plan_how;

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

/* Collective over priv. Arguments already checked locally except what
 * needs other ranks; errors are agreed: every rank returns the same code. */
int czi_plan_create(const int *sendcounts, const int *sdispls,
                    MPI_Datatype sendtype, const int *recvcounts,
                    const int *rdispls, MPI_Datatype recvtype, MPI_Comm priv,
                    const czi_plan_how *how, int local_error,
                    cz_alltoallv_plan_t *out);
/* Node-path pieces, split so the cached path can agree between them. */
int czi_plan_pack(cz_alltoallv_plan_t plan, const void *sendbuf);
int czi_plan_exchange(cz_alltoallv_plan_t plan, const void *sendbuf,
                      void *recvbuf, int node_barrier_first);
int czi_plan_execute(cz_alltoallv_plan_t plan, const void *sendbuf,
                     void *recvbuf);
void czi_plan_destroy(cz_alltoallv_plan_t plan);

/* The cached path (cache.c): what cz_alltoallv runs when the table says
 * planned. plan_first_call: plan even a key never seen before. */
int czi_alltoallv_cached(const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype,
                         void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm priv, const czi_plan_how *how,
                         int plan_first_call);
void czi_plan_cache_clear(czi_node_ctx *ctx);
/* Exposed for the benchmark's hashing cost measurement. */
unsigned long long czi_plan_key_hash(const int *sendcounts, const int *sdispls,
                                     const int *recvcounts, const int *rdispls,
                                     int p, MPI_Datatype st, MPI_Datatype rt);

#ifdef __cplusplus
}
#endif
#endif
