/* cache.c: plans for plain alltoallv calls. cz_alltoallv cannot be told that
 * a call repeats, but it can remember: each communicator keeps the last few
 * plans (COLLECTIVIZE_PLAN_CACHE=N, default 4, least recently used evicted)
 * keyed by everything that shapes the data movement: all four count and
 * displacement arrays and both datatypes (the communicator is implied: the
 * cache hangs off it). Buffers are not part of the key. Derived datatypes are
 * not cached: a freed and re-created type can reuse a handle with a different
 * layout, and proving two types equal costs more than it saves.
 *
 * Agreement: a hit is a local fact (each rank sees only its own arguments),
 * but running a plan needs every rank on the same plan. Each call therefore
 * votes (czi_vote_min3): three ints, the plan id this rank hit, its
 * negation (so min(id) == -min(-id) proves all ids equal) and whether this
 * rank could plan now, reduced with MIN in shared memory within each node
 * and by an allreduce among node leaders only. The node path needs a
 * barrier after packing anyway, and the vote is that barrier (a rank that
 * hit packs before it), so on a cluster the vote adds an allreduce among N
 * leaders to each call. Measured on the development machine (one node,
 * oversubscribed): about half an MPI_Alltoallv per call (bench/README.md),
 * which is why explicit plans, which need no vote, are faster. Per-call
 * counting alone cannot replace the vote: ranks whose own arguments did
 * not change cannot know that another rank's did. A key is planned the
 * second time every rank has seen it (the first time, or when the ranks
 * disagree, the MPI library's alltoallv runs), so a call that never repeats
 * does not pay for a plan. */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

struct czi_plan_entry {
  unsigned long long hash, used;
  cz_alltoallv_plan_t plan;
};

static int cache_capacity(void) {
  static int cap = -1;
  if (cap < 0) {
    const char *v = getenv("COLLECTIVIZE_PLAN_CACHE");
    char *end = NULL;
    long n = v && *v ? strtol(v, &end, 10) : 4;
    if (v && *v && (*end || n < 0 || n > 1024)) {
      czi_warn("COLLECTIVIZE_PLAN_CACHE='%s' is not an integer in 0..1024; "
               "using 4", v);
      n = 4;
    }
    cap = (int)n;
  }
  return cap;
}

/* FNV-1a over 32-bit words: ~1 ns per int, so P=1024 costs a few µs, well
 * under one alltoallv on that many ranks (measured: bench/planned). */
unsigned long long czi_plan_key_hash(const int *sendcounts, const int *sdispls,
                                     const int *recvcounts, const int *rdispls,
                                     int p, MPI_Datatype st, MPI_Datatype rt) {
  unsigned long long h = 1469598103934665603ULL;
  const int *arrays[4] = {sendcounts, sdispls, recvcounts, rdispls};
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < p; i++) {
      h ^= (unsigned)arrays[k][i];
      h *= 1099511628211ULL;
    }
  h ^= (unsigned long long)(uintptr_t)st;
  h *= 1099511628211ULL;
  h ^= (unsigned long long)(uintptr_t)rt;
  h *= 1099511628211ULL;
  return h;
}

static int is_named(MPI_Datatype type) {
  int ni, na, nd, combiner;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return 0;
  return combiner == MPI_COMBINER_NAMED;
}

static int same_key(const cz_alltoallv_plan_t plan, const int *sc,
                    const int *sd, const int *rc, const int *rd,
                    MPI_Datatype st, MPI_Datatype rt) {
  const size_t n = sizeof(int) * (size_t)plan->p;
  const int *a = plan->args;
  return plan->sendtype == st && plan->recvtype == rt && !memcmp(a, sc, n) &&
         !memcmp(a + plan->p, sd, n) && !memcmp(a + 2 * plan->p, rc, n) &&
         !memcmp(a + 3 * plan->p, rd, n);
}

/* The context's release of this layer (node.h, free_layer). */
static void plan_cache_clear(czi_node_ctx *ctx) {
  for (int i = 0; i < ctx->nentries; i++) czi_plan_destroy(ctx->entries[i].plan);
  free(ctx->entries);
  ctx->entries = NULL;
  ctx->nentries = ctx->capacity = 0;
}

static void remember_seen(czi_node_ctx *ctx, unsigned long long h) {
  const int cap = 2 * cache_capacity() + 2;
  if (!ctx->seen) {
    ctx->seen = calloc((size_t)cap, sizeof *ctx->seen);
    if (!ctx->seen) return;
  }
  for (int i = 0; i < ctx->nseen; i++)
    if (ctx->seen[i] == h) return;
  ctx->seen[ctx->seen_next] = h;
  ctx->seen_next = (ctx->seen_next + 1) % cap;
  if (ctx->nseen < cap) ctx->nseen++;
}

static int was_seen(const czi_node_ctx *ctx, unsigned long long h) {
  for (int i = 0; i < ctx->nseen; i++)
    if (ctx->seen[i] == h) return 1;
  return 0;
}

/* Keep plan (replacing an entry with the same key, else the least recently
 * used one when full). Takes ownership. */
static void cache_insert(czi_node_ctx *ctx, unsigned long long h,
                         cz_alltoallv_plan_t plan) {
  const int cap = cache_capacity();
  int slot = -1;
  for (int i = 0; i < ctx->nentries && slot < 0; i++)
    if (ctx->entries[i].hash == h &&
        same_key(ctx->entries[i].plan, plan->args, plan->args + plan->p,
                 plan->args + 2 * plan->p, plan->args + 3 * plan->p,
                 plan->sendtype, plan->recvtype))
      slot = i;
  if (slot < 0 && ctx->nentries < cap) {
    if (!ctx->entries) {
      ctx->entries = calloc((size_t)cap, sizeof *ctx->entries);
      if (!ctx->entries) { czi_plan_destroy(plan); return; }
      ctx->capacity = cap;
      ctx->free_layer[CZI_NODE_PLANS] = plan_cache_clear;
    }
    slot = ctx->nentries++;
  } else if (slot < 0) {
    slot = 0;
    for (int i = 1; i < ctx->nentries; i++)
      if (ctx->entries[i].used < ctx->entries[slot].used) slot = i;
  }
  if (ctx->entries[slot].plan) czi_plan_destroy(ctx->entries[slot].plan);
  ctx->entries[slot] = (czi_plan_entry){h, ++ctx->stamp, plan};
}

int czi_alltoallv_cached(const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype,
                         void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm priv, const czi_plan_how *how,
                         int plan_first_call) {
  int rc = MPI_SUCCESS;
  czi_node_ctx *ctx = NULL;
  cz_alltoallv_plan_t plan = NULL;
  CZI_TRY(czi_node_ctx_get(priv, &ctx));
  const int p = ctx->p;
  const int cacheable = cache_capacity() > 0 && is_named(sendtype) &&
                        is_named(recvtype);
  unsigned long long h = 0;
  czi_plan_entry *hit = NULL;
  if (cacheable) {
    h = czi_plan_key_hash(sendcounts, sdispls, recvcounts, rdispls, p,
                          sendtype, recvtype);
    for (int i = 0; i < ctx->nentries && !hit; i++)
      if (ctx->entries[i].hash == h &&
          same_key(ctx->entries[i].plan, sendcounts, sdispls, recvcounts,
                   rdispls, sendtype, recvtype))
        hit = &ctx->entries[i];
  }
  /* Speculative: wasted if the ranks disagree, never harmful (the half of
   * the segment it writes is not read by anyone until the next barrier). */
  if (hit && hit->plan->mode == CZI_PLAN_NODE)
    CZI_TRY(czi_plan_pack(hit->plan, sendbuf));
  const int ready = cacheable && (hit || plan_first_call || was_seen(ctx, h));
  int v[3] = {hit ? hit->plan->id : -1, hit ? -hit->plan->id : 0, ready};
  CZI_TRY(czi_vote_min3(ctx, v));

  if (v[0] >= 0 && v[0] == -v[1]) { /* every rank hit the same plan */
    hit->used = ++ctx->stamp;
    if (hit->plan->mode == CZI_PLAN_NODE)
      return czi_plan_exchange(hit->plan, sendbuf, recvbuf, 0);
    return czi_plan_execute(hit->plan, sendbuf, recvbuf);
  }
  if (v[2] == 1 || how->force_node) {
    CZI_TRY(czi_plan_create(sendcounts, sdispls, sendtype, recvcounts,
                            rdispls, recvtype, priv, how, MPI_SUCCESS, &plan));
    rc = czi_plan_execute(plan, sendbuf, recvbuf);
    if (v[2] == 1) cache_insert(ctx, h, plan);
    else czi_plan_destroy(plan); /* forced, but not cacheable everywhere */
    return rc;
  }
  if (cacheable && !hit) remember_seen(ctx, h);
  czi_params params = {0, 0};
  return czi_alltoallv_mpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, priv, &params);
fn_fail:
  return rc;
}
