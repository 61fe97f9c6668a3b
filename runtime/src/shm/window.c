/* window.c: the shared-memory window of the single-node collectives (see
 * shm.h): made on first use over the node communicator of the
 * communicator's node context (node/node.h), grown on demand up to COLLECTIVIZE_SHM_BYTES,
 * freed with the communicator. A window that cannot be made turns the
 * communicator's shm algorithms into the library's collectives, with one
 * warning per process. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node_wait.h"
#include "node.h"
#include "shm.h"

#define CZI_SHM_DEFAULT_BYTES (64LL << 20)
/* czi_shm_bcast_ctl, rounded up to whole pages */
#define CZI_SHM_CTL_BYTES ((sizeof(czi_shm_bcast_ctl) + 4095) / 4096 * 4096)

static long long shm_limit(void) {
  const char *v = getenv("COLLECTIVIZE_SHM_BYTES");
  if (!v || !*v) return CZI_SHM_DEFAULT_BYTES;
  char *end = NULL;
  long long n = strtoll(v, &end, 10);
  long long scale = 1;
  if (*end == 'K' || *end == 'k') scale = 1LL << 10, end++;
  else if (*end == 'M' || *end == 'm') scale = 1LL << 20, end++;
  else if (*end == 'G' || *end == 'g') scale = 1LL << 30, end++;
  if (*end || n < 0 || end == v) {
    static int warned;
    if (!warned++)
      czi_warn("COLLECTIVIZE_SHM_BYTES='%s' is not a byte count (e.g. 64M); "
               "using %lld", v, CZI_SHM_DEFAULT_BYTES);
    return CZI_SHM_DEFAULT_BYTES;
  }
  return n * scale;
}

/* The bytes the broadcast area takes in rank 0's region. */
static MPI_Aint bcast_area(void) {
  return CZI_SHM_CTL_BYTES + (MPI_Aint)CZI_SHM_BCAST_SLOTS * CZI_SHM_BCAST_SEG;
}

static void release_window(czi_shm *shm) {
  if (shm->win != MPI_WIN_NULL) PMPI_Win_free(&shm->win);
  shm->win = MPI_WIN_NULL;
  shm->bctl = NULL;
  shm->bslots = NULL;
  shm->half = 0;
}

/* Frees the window, collectively over the node: the context's release of
 * this layer (node.h, free_layer). */
static void shm_destroy(czi_node_ctx *ctx) {
  czi_shm *shm = ctx->shm;
  if (!shm) return;
  release_window(shm);
  free(shm->region);
  free(shm);
  ctx->shm = NULL;
}

/* Collective over the communicator (each node makes its own window): halves
 * of `half` bytes. Every rank learns whether every rank of every node got
 * its part, so all nodes agree on what runs next. */
static int allocate(czi_node_ctx *ctx, czi_shm *shm, MPI_Aint half, int *ok) {
  int rc = MPI_SUCCESS;
  MPI_Info info = MPI_INFO_NULL;
  void *base = NULL;
  const MPI_Aint mine = (MPI_Aint)CZI_SHM_REGION_HEADER + 2 * half +
                       (ctx->node_rank == 0 ? bcast_area() : 0);
  /* Noncontiguous: each rank's region on its own pages, placed by its
   * first touch (the owner's NUMA node). */
  if (PMPI_Info_create(&info) == MPI_SUCCESS)
    PMPI_Info_set(info, "alloc_shared_noncontig", "true");
  int arc = PMPI_Win_allocate_shared(mine, 1, info, ctx->node, &base, &shm->win);
  if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
  int good = arc == MPI_SUCCESS;
  CZI_MPI(PMPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, ctx->priv));
  if (!good) {
    if (arc == MPI_SUCCESS) PMPI_Win_free(&shm->win);
    shm->win = MPI_WIN_NULL;
    *ok = 0;
    return MPI_SUCCESS;
  }
  for (int r = 0; r < ctx->node_size; r++) {
    MPI_Aint size = 0;
    int disp = 0;
    char *b = NULL;
    CZI_MPI(PMPI_Win_shared_query(shm->win, r, &size, &disp, &b));
    if (r == 0) {
      shm->bctl = (czi_shm_bcast_ctl *)b;
      shm->bslots = b + CZI_SHM_CTL_BYTES;
      b += bcast_area();
    }
    shm->region[r] = b;
  }
  if (ctx->node_rank == 0) memset(shm->bctl, 0, sizeof *shm->bctl);
  /* My round flag starts at the rounds done (a fresh window after a grow). */
  memset(shm->region[ctx->node_rank], 0, CZI_SHM_REGION_HEADER);
  atomic_store(&((czi_shm_flag *)shm->region[ctx->node_rank])->value, shm->epoch);
  shm->half = half;
  shm->bseq = 0; /* fresh flags */
  shm->probes = 0;
  CZI_MPI(PMPI_Barrier(ctx->node));
  *ok = 1;
  return MPI_SUCCESS;
fn_fail:
  return rc;
}

static void disable(czi_shm *shm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void disable(czi_shm *shm, const char *fmt, ...) {
  static int warned;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(shm->reason, sizeof shm->reason, fmt, ap);
  va_end(ap);
  shm->usable = 0;
  if (!warned++)
    czi_warn("shared-memory collectives unavailable (%s); using the MPI "
             "library's collectives instead", shm->reason);
}

static int create(czi_node_ctx *ctx, MPI_Aint need) {
  int rc = MPI_SUCCESS, ok = 0;
  czi_shm *shm = calloc(1, sizeof *shm);
  if (!shm) return czi_fail(MPI_ERR_NO_MEM, __func__, "out of memory");
  shm->win = MPI_WIN_NULL;
  ctx->shm = shm;
  ctx->free_layer[CZI_NODE_SHM] = shm_destroy;
  CZI_MALLOC(shm->region, sizeof(char *) * (size_t)ctx->node_size);
  const long long limit = shm_limit();
  const long long halves = limit - (long long)bcast_area();
  /* Sized for the largest node, so that every node's window has the same
   * halves and grows at the same calls (nodes never disagree on rounds). */
  const int ranks = ctx->max_node_size;
  shm->half_max = halves > 0 ? (MPI_Aint)(halves / (2LL * ranks)) & ~(MPI_Aint)63 : 0;
  if (shm->half_max < CZI_SHM_MIN_HALF) {
    disable(shm, "COLLECTIVIZE_SHM_BYTES=%lld is below the %lld bytes a "
            "node of %d ranks needs at least", limit,
            (long long)bcast_area() + 2LL * ranks * CZI_SHM_MIN_HALF, ranks);
    return MPI_SUCCESS;
  }
  MPI_Aint half = need > 64 * 1024 ? need : 64 * 1024;
  if (half > shm->half_max) half = shm->half_max;
  CZI_TRY(allocate(ctx, shm, half, &ok));
  if (!ok) {
    disable(shm, "MPI_Win_allocate_shared failed for %lld bytes per rank",
            2LL * half);
    return MPI_SUCCESS;
  }
  shm->usable = 1;
  return MPI_SUCCESS;
fn_fail:
  return rc;
}

/* A bigger window, if the limit allows; on failure the old size stays (the
 * algorithms then work in more rounds). */
static int grow(czi_node_ctx *ctx, czi_shm *shm, MPI_Aint need) {
  int rc = MPI_SUCCESS, ok = 0;
  MPI_Aint want = need > 2 * shm->half ? need : 2 * shm->half;
  if (want > shm->half_max) want = shm->half_max;
  const MPI_Aint old = shm->half;
  /* Win_free synchronizes the node: nobody reads the old window after it. */
  release_window(shm);
  CZI_TRY(allocate(ctx, shm, want, &ok));
  if (ok) return MPI_SUCCESS;
  CZI_TRY(allocate(ctx, shm, old, &ok));
  shm->half_max = old;
  if (!ok) disable(shm, "MPI_Win_allocate_shared failed again for %lld bytes per rank",
                   2LL * old);
fn_fail:
  return rc;
}

int czi_shm_get(MPI_Comm priv, MPI_Aint need, czi_shm_view *view, int *usable) {
  int rc = MPI_SUCCESS;
  czi_node_ctx *ctx = NULL;
  *usable = 0;
  CZI_TRY(czi_node_ctx_get(priv, &ctx));
  if (!ctx->shm) CZI_TRY(create(ctx, need));
  czi_shm *shm = ctx->shm;
  if (shm->usable && need > shm->half && shm->half < shm->half_max)
    CZI_TRY(grow(ctx, shm, need));
  view->ctx = ctx;
  view->shm = shm;
  view->me = ctx->node_rank;
  view->p = ctx->node_size;
  view->nnodes = ctx->nnodes;
  view->sleeps = 0;
  *usable = shm->usable;
  if (!*usable) CZI_LOG("shm: falling back (%s)", shm->reason);
fn_fail:
  return rc;
}

void czi_shm_wait_at_least(const czi_shm_view *v, czi_shm_flag *f,
                           unsigned long long want) {
  czi_wait_at_least64(&f->value, want, &f->sleepers, v->sleeps);
}

void czi_shm_wait_for(czi_shm_view *v, long long bytes) {
  v->sleeps = czi_wait_sleeps(v->p, v->ctx ? v->ctx->node_cores : 0, bytes);
}

/* Sequentially consistent stores and the sleepers check: see node_wait.c. */
void czi_shm_flag_set(czi_shm_flag *f, unsigned long long value) {
  atomic_store(&f->value, value);
  czi_wake((_Atomic unsigned *)&f->value, &f->sleepers);
}

unsigned long long czi_shm_flag_add(czi_shm_flag *f, unsigned long long add) {
  return atomic_fetch_add(&f->value, add) + add;
}

void czi_shm_flag_wake(czi_shm_flag *f) {
  czi_wake((_Atomic unsigned *)&f->value, &f->sleepers);
}

void czi_shm_barrier(const czi_shm_view *v) { czi_node_barrier(v->ctx, v->sleeps); }
