/* buffers.c: cz_buffer_alloc / cz_buffer_free, memory inside the node's
 * shared memory, so that collectives whose send data lives there skip the
 * staging copy: peers read it where it is (one copy instead of two).
 *
 * Each buffer is its own MPI-3 shared window over the node communicator of
 * the communicator it was made on; every rank records the base address of
 * every node peer's part. Buffers are numbered per communicator in creation
 * order (the same on every rank, allocation being collective), which is how
 * a rank names its buffer to its peers (czi_shm_desc). A buffer that cannot
 * be shared (no shared memory) is plain malloc memory: collectives still
 * work, with the staging copy; one warning says so. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "shm.h"

typedef struct czi_buffer {
  char *base;
  MPI_Aint bytes;
  MPI_Win win;        /* MPI_WIN_NULL: malloc'ed */
  czi_node_ctx *ctx;  /* referenced while the buffer lives */
  int id;
  char **peer;        /* [node_size] each node rank's part */
  struct czi_buffer *next;
} czi_buffer;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static czi_buffer *buffers;

static czi_buffer *find_locked(const void *p) {
  for (czi_buffer *b = buffers; b; b = b->next)
    if ((const char *)p >= b->base && (const char *)p < b->base + b->bytes) return b;
  return NULL;
}

int cz_buffer_alloc(MPI_Comm comm, MPI_Aint bytes, void *baseptr) {
  int rc = MPI_SUCCESS, ok = 0;
  MPI_Comm priv = MPI_COMM_NULL;
  czi_node_ctx *ctx = NULL;
  czi_buffer *b = NULL;
  czi_clear_error();
  if (!baseptr) return czi_fail(MPI_ERR_ARG, __func__, "baseptr is NULL");
  if (bytes < 0)
    return czi_fail(MPI_ERR_ARG, __func__, "bytes must be >= 0 (got %lld)",
                    (long long)bytes);
  if (comm == MPI_COMM_NULL)
    return czi_fail(MPI_ERR_COMM, __func__, "communicator is MPI_COMM_NULL");
  CZI_TRY(czi_private_comm(comm, &priv));
  CZI_TRY(czi_node_ctx_get(priv, &ctx));
  b = calloc(1, sizeof *b);
  if (!b) return czi_fail(MPI_ERR_NO_MEM, __func__, "out of memory");
  b->win = MPI_WIN_NULL;
  b->bytes = bytes > 0 ? bytes : 1; /* distinct addresses even for 0 */
  CZI_MALLOC(b->peer, sizeof(char *) * (size_t)ctx->node_size);
  {
    MPI_Info info = MPI_INFO_NULL;
    if (PMPI_Info_create(&info) == MPI_SUCCESS)
      PMPI_Info_set(info, "alloc_shared_noncontig", "true");
    int arc = PMPI_Win_allocate_shared(b->bytes, 1, info, ctx->node, &b->base,
                                       &b->win);
    if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
    ok = arc == MPI_SUCCESS;
    CZI_MPI(PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, ctx->node));
    if (!ok && arc == MPI_SUCCESS) PMPI_Win_free(&b->win);
  }
  if (ok) {
    for (int r = 0; r < ctx->node_size; r++) {
      MPI_Aint size = 0;
      int disp = 0;
      CZI_MPI(PMPI_Win_shared_query(b->win, r, &size, &disp, &b->peer[r]));
    }
  } else {
    static int warned;
    b->win = MPI_WIN_NULL;
    if (!warned++)
      czi_warn("cz_buffer_alloc: no shared memory for %lld bytes; using "
               "ordinary memory (collectives from it copy twice)",
               (long long)b->bytes);
    CZI_MALLOC(b->base, b->bytes);
  }
  b->ctx = ctx;
  ctx->refs++;
  b->id = ctx->next_buffer_id++;
  pthread_mutex_lock(&lock);
  b->next = buffers;
  buffers = b;
  pthread_mutex_unlock(&lock);
  memcpy(baseptr, &b->base, sizeof b->base);
  return MPI_SUCCESS;
fn_fail:
  if (b) {
    free(b->peer);
    free(b);
  }
  return rc;
}

int cz_buffer_free(void *ptr) {
  czi_clear_error();
  pthread_mutex_lock(&lock);
  czi_buffer **link = &buffers;
  while (*link && (*link)->base != ptr) link = &(*link)->next;
  czi_buffer *b = *link;
  if (b) *link = b->next;
  pthread_mutex_unlock(&lock);
  if (!b)
    return czi_fail(MPI_ERR_BUFFER, __func__,
                    "%p was not returned by cz_buffer_alloc (or is freed)", ptr);
  int rc = MPI_SUCCESS;
  if (b->win != MPI_WIN_NULL) {
    rc = PMPI_Win_free(&b->win);
    if (rc != MPI_SUCCESS) rc = czi_mpi_fail(rc, __func__, "PMPI_Win_free");
  } else {
    free(b->base);
  }
  czi_node_ctx_release(b->ctx);
  free(b->peer);
  free(b);
  return rc;
}

int czi_shm_direct_source(const czi_shm_view *v, const void *data,
                          MPI_Aint bytes, czi_shm_desc *d) {
  d->direct = 0;
  if (!buffers) return 0; /* the common case: no lock */
  pthread_mutex_lock(&lock);
  czi_buffer *b = find_locked(data);
  if (b && b->win != MPI_WIN_NULL && b->ctx == v->ctx &&
      (const char *)data + bytes <= b->base + b->bytes) {
    d->direct = 1;
    d->buffer_id = b->id;
    d->offset = (const char *)data - b->base;
  }
  pthread_mutex_unlock(&lock);
  return d->direct;
}

const char *czi_shm_peer_data(const czi_shm_view *v, int r,
                              const czi_shm_desc *d) {
  const char *found = NULL;
  pthread_mutex_lock(&lock);
  for (czi_buffer *b = buffers; b; b = b->next)
    if (b->ctx == v->ctx && b->id == d->buffer_id) {
      found = b->peer[r] + d->offset;
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}
