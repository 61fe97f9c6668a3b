/* context.c: a private communicator's node context (node.h): which ranks share
 * a node, the node's shared segment (one MPI-3 shared window per node, reused
 * by every plan, grown when a plan needs more), and what the layers above
 * keep on it (plan cache, shm window: freed through free_layer). It is an
 * attribute of the private duplicate, so freeing the user's communicator
 * (which frees the duplicate) frees it; an attribute on MPI_COMM_SELF frees
 * whatever is left at MPI_Finalize.
 *
 * Nodes: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), then, with
 * COLLECTIVIZE_RANKS_PER_NODE=k, consecutive groups of k ranks of a real node
 * (simulated nodes for testing and study on one machine). Node indices follow
 * the lowest rank of each node. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "node_wait.h"

/* CPUs the ranks of a node may run on together: the union of their
 * affinity masks. A rank's own mask says nothing about its peers: under
 * mpirun's default binding every rank sees one core, while the node's
 * ranks together have one each. */
static int node_cores(MPI_Comm node, int *cores) {
  int rc = MPI_SUCCESS;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_ZERO(&set);
  CZI_MPI(PMPI_Allreduce(MPI_IN_PLACE, &set, (int)sizeof set, MPI_UNSIGNED_CHAR,
                         MPI_BOR, node));
  *cores = CPU_COUNT(&set);
fn_fail:
  return rc;
}

/* Shared by the ranks of a node; one cache line per contended field. */
struct czi_node_ctl {
  _Atomic int arrived;
  char pad1[60];
  czi_wait_word generation; /* sleepers wait on it (common/node_wait.h) */
  int result[4];
  char pad3[48];
  int votes[][4]; /* [node_size] */
};

void czi_node_barrier(czi_node_ctx *ctx, int sleeps) {
  struct czi_node_ctl *c = ctx->ctl;
  if (ctx->node_size == 1) return;
  const unsigned gen = atomic_load(&c->generation.value);
  if (atomic_fetch_add(&c->arrived, 1) == ctx->node_size - 1) {
    atomic_store(&c->arrived, 0);
    atomic_fetch_add(&c->generation.value, 1);
    czi_wake(&c->generation.value, &c->generation.sleepers);
    return;
  }
  czi_wait_change(&c->generation, gen, sleeps);
}

/* One shared-memory round for the ranks that are not node leaders: they
 * post their vote and wait for the leader's answer; the leader waits for
 * all votes (so everyone's packing is done, too), agrees with the other
 * leaders and publishes. The leader cannot publish the next answer before
 * every rank has read this one: it needs their next votes first. */
int czi_vote_min3(czi_node_ctx *ctx, int v[3]) {
  int rc = MPI_SUCCESS;
  struct czi_node_ctl *c = ctx->ctl;
  const unsigned gen = atomic_load(&c->generation.value);
  for (int k = 0; k < 3; k++) c->votes[ctx->node_rank][k] = v[k];
  if (ctx->node_rank != 0) {
    atomic_fetch_add(&c->arrived, 1);
    czi_wait_change(&c->generation, gen, 0);
    for (int k = 0; k < 3; k++) v[k] = c->result[k];
    rc = c->result[3];
    if (rc != MPI_SUCCESS) return czi_mpi_fail(rc, __func__, "PMPI_Allreduce");
    return MPI_SUCCESS;
  }
  for (int spins = 0; atomic_load(&c->arrived) != ctx->node_size - 1; spins++)
    if (spins > 64) sched_yield();
  atomic_store(&c->arrived, 0);
  for (int i = 1; i < ctx->node_size; i++)
    for (int k = 0; k < 3; k++)
      if (c->votes[i][k] < v[k]) v[k] = c->votes[i][k];
  if (ctx->nnodes > 1)
    rc = PMPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_INT, MPI_MIN, ctx->leaders);
  /* A failed allreduce is everyone's failure: publish it. */
  for (int k = 0; k < 3; k++) c->result[k] = rc == MPI_SUCCESS ? v[k] : -1;
  c->result[3] = rc;
  atomic_fetch_add(&c->generation.value, 1);
  czi_wake(&c->generation.value, &c->generation.sleepers);
  if (rc != MPI_SUCCESS) return czi_mpi_fail(rc, __func__, "PMPI_Allreduce");
  return MPI_SUCCESS;
}

static int ctx_keyval = MPI_KEYVAL_INVALID;
static int finalize_keyval = MPI_KEYVAL_INVALID;
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static int keyval_rc = MPI_SUCCESS;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static czi_node_ctx *live; /* contexts whose communicator is still alive */

static void free_mpi_resources(czi_node_ctx *ctx) {
  if (!ctx->alive) return;
  ctx->alive = 0;
  for (int layer = 0; layer < CZI_NODE_LAYERS; layer++)
    if (ctx->free_layer[layer]) ctx->free_layer[layer](ctx);
  if (ctx->win != MPI_WIN_NULL) PMPI_Win_free(&ctx->win);
  if (ctx->ctl_win != MPI_WIN_NULL) PMPI_Win_free(&ctx->ctl_win);
  if (ctx->leaders != MPI_COMM_NULL) PMPI_Comm_free(&ctx->leaders);
  if (ctx->node != MPI_COMM_NULL) PMPI_Comm_free(&ctx->node);
  ctx->seg = NULL;
  ctx->seg_size = 0;
}

void czi_node_ctx_release(czi_node_ctx *ctx) {
  if (!ctx || --ctx->refs > 0) return;
  free(ctx->node_of);
  free(ctx->node_start);
  free(ctx->node_members);
  free(ctx->seen);
  free(ctx);
}

/* The private communicator is being freed (with the user's, or at
 * MPI_Finalize): collective over it, so every rank frees its node window and
 * node communicator in the same order. Plans the user still holds keep the
 * memory (refs) but can no longer run. */
static int delete_ctx(MPI_Comm comm, int key, void *value, void *extra) {
  czi_node_ctx *ctx = value;
  (void)comm, (void)key, (void)extra;
  pthread_mutex_lock(&live_lock);
  if (ctx->prev_live) ctx->prev_live->next_live = ctx->next_live;
  else if (live == ctx) live = ctx->next_live;
  if (ctx->next_live) ctx->next_live->prev_live = ctx->prev_live;
  ctx->next_live = ctx->prev_live = NULL;
  pthread_mutex_unlock(&live_lock);
  free_mpi_resources(ctx);
  czi_node_ctx_release(ctx);
  return MPI_SUCCESS;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still
 * works: drop every context still attached (e.g. MPI_COMM_WORLD's), oldest
 * first, which is the same order on every rank. */
static int at_finalize(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm, (void)key, (void)value, (void)extra;
  for (;;) {
    pthread_mutex_lock(&live_lock);
    czi_node_ctx *oldest = live;
    while (oldest && oldest->next_live) oldest = oldest->next_live;
    pthread_mutex_unlock(&live_lock);
    if (!oldest) break;
    if (PMPI_Comm_delete_attr(oldest->priv, ctx_keyval) != MPI_SUCCESS)
      delete_ctx(oldest->priv, ctx_keyval, oldest, NULL);
  }
  return MPI_SUCCESS;
}

static void create_keyvals(void) {
  keyval_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_ctx,
                                      &ctx_keyval, NULL);
  if (keyval_rc == MPI_SUCCESS)
    keyval_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize,
                                        &finalize_keyval, NULL);
  if (keyval_rc == MPI_SUCCESS)
    keyval_rc = PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
}

static int ranks_per_node_setting(void) {
  const char *v = getenv("COLLECTIVIZE_RANKS_PER_NODE");
  if (!v || !*v) return 0;
  char *end = NULL;
  long k = strtol(v, &end, 10);
  if (*end || k < 1 || k > (1 << 20)) {
    static int warned;
    if (!warned++)
      czi_warn("COLLECTIVIZE_RANKS_PER_NODE='%s' is not a positive integer; "
               "using real nodes", v);
    return 0;
  }
  return (int)k;
}

static int build_ctx(MPI_Comm priv, czi_node_ctx *ctx) {
  int rc = MPI_SUCCESS, shm_rank = 0;
  MPI_Comm shm = MPI_COMM_NULL;
  int *leader = NULL;
  ctx->priv = priv;
  ctx->node = MPI_COMM_NULL;
  ctx->leaders = MPI_COMM_NULL;
  ctx->ctl_win = MPI_WIN_NULL;
  ctx->win = MPI_WIN_NULL;
  CZI_MPI(PMPI_Comm_rank(priv, &ctx->me));
  CZI_MPI(PMPI_Comm_size(priv, &ctx->p));
  CZI_MPI(PMPI_Comm_split_type(priv, MPI_COMM_TYPE_SHARED, ctx->me,
                               MPI_INFO_NULL, &shm));
  const int k = ranks_per_node_setting();
  if (k > 0) {
    CZI_MPI(PMPI_Comm_rank(shm, &shm_rank));
    CZI_MPI(PMPI_Comm_split(shm, shm_rank / k, ctx->me, &ctx->node));
    CZI_MPI(PMPI_Comm_free(&shm));
  } else {
    ctx->node = shm;
    shm = MPI_COMM_NULL;
  }
  CZI_MPI(PMPI_Comm_set_errhandler(ctx->node, MPI_ERRORS_RETURN));
  CZI_MPI(PMPI_Comm_rank(ctx->node, &ctx->node_rank));
  CZI_MPI(PMPI_Comm_size(ctx->node, &ctx->node_size));
  CZI_TRY(node_cores(ctx->node, &ctx->node_cores));

  /* Everyone learns every rank's node leader (lowest rank of its node). */
  const int p = ctx->p;
  CZI_MALLOC(leader, sizeof(int) * (size_t)p);
  CZI_MALLOC(ctx->node_of, sizeof(int) * (size_t)p);
  CZI_MALLOC(ctx->node_members, sizeof(int) * (size_t)p);
  CZI_MALLOC(ctx->node_start, sizeof(int) * (size_t)(p + 1));
  int my_leader = ctx->me;
  CZI_MPI(PMPI_Allreduce(MPI_IN_PLACE, &my_leader, 1, MPI_INT, MPI_MIN,
                         ctx->node));
  CZI_MPI(PMPI_Allgather(&my_leader, 1, MPI_INT, leader, 1, MPI_INT, priv));
  /* Leaders are their own node's first rank, so scanning ranks upwards meets
   * each node's leader before its other members. */
  int n = 0;
  for (int r = 0; r < p; r++)
    ctx->node_of[r] = leader[r] == r ? n++ : ctx->node_of[leader[r]];
  ctx->nnodes = n;
  memset(ctx->node_start, 0, sizeof(int) * (size_t)(p + 1));
  for (int r = 0; r < p; r++) ctx->node_start[ctx->node_of[r] + 1]++;
  ctx->max_node_size = 0;
  for (int a = 0; a < n; a++) {
    if (ctx->node_start[a + 1] > ctx->max_node_size)
      ctx->max_node_size = ctx->node_start[a + 1];
    ctx->node_start[a + 1] += ctx->node_start[a];
  }
  int *fill = leader; /* reuse as per-node fill pointers */
  for (int a = 0; a < n; a++) fill[a] = ctx->node_start[a];
  for (int r = 0; r < p; r++) ctx->node_members[fill[ctx->node_of[r]]++] = r;
  ctx->my_node = ctx->node_of[ctx->me];

  CZI_MPI(PMPI_Comm_split(priv, ctx->node_rank == 0 ? 0 : MPI_UNDEFINED,
                          ctx->me, &ctx->leaders));
  if (ctx->leaders != MPI_COMM_NULL)
    CZI_MPI(PMPI_Comm_set_errhandler(ctx->leaders, MPI_ERRORS_RETURN));
  {
    MPI_Aint size = 0;
    int disp = 0;
    void *base = NULL;
    const MPI_Aint bytes = (MPI_Aint)(sizeof(struct czi_node_ctl) +
                                      sizeof(int[4]) * (size_t)ctx->node_size);
    CZI_MPI(PMPI_Win_allocate_shared(ctx->node_rank == 0 ? bytes : 0, 1,
                                     MPI_INFO_NULL, ctx->node, &base,
                                     &ctx->ctl_win));
    CZI_MPI(PMPI_Win_shared_query(ctx->ctl_win, 0, &size, &disp, &base));
    ctx->ctl = base;
    if (ctx->node_rank == 0) memset(base, 0, (size_t)bytes);
    CZI_MPI(PMPI_Barrier(ctx->node));
  }
  ctx->alive = 1;
fn_fail:
  free(leader);
  if (shm != MPI_COMM_NULL) PMPI_Comm_free(&shm);
  return rc;
}

int czi_node_ctx_get(MPI_Comm priv, czi_node_ctx **out) {
  int rc = MPI_SUCCESS, found = 0;
  void *value = NULL;
  czi_node_ctx *ctx = NULL;
  pthread_once(&keyval_once, create_keyvals);
  CZI_MPI(keyval_rc);
  CZI_MPI(PMPI_Comm_get_attr(priv, ctx_keyval, &value, &found));
  if (found) {
    *out = value;
    return MPI_SUCCESS;
  }
  ctx = calloc(1, sizeof *ctx);
  if (!ctx) return czi_fail(MPI_ERR_NO_MEM, __func__, "out of memory");
  ctx->refs = 1;
  rc = build_ctx(priv, ctx);
  if (rc != MPI_SUCCESS) goto fn_fail;
  CZI_MPI(PMPI_Comm_set_attr(priv, ctx_keyval, ctx));
  pthread_mutex_lock(&live_lock);
  ctx->next_live = live;
  if (live) live->prev_live = ctx;
  live = ctx;
  pthread_mutex_unlock(&live_lock);
  *out = ctx;
  return MPI_SUCCESS;
fn_fail:
  if (ctx) {
    ctx->alive = 1; /* so that what was made gets freed */
    free_mpi_resources(ctx);
    czi_node_ctx_release(ctx);
  }
  return rc;
}
