/* comms.c: communicator handles -> OTF2 refs and world ranks.
 *
 * Refs follow collectivize_trace_format.h: 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF,
 * a created communicator (L << 20) | (k + 2) with L its lowest world rank and
 * k the number of creation calls L took part in before (one MPI_MINLOC
 * allreduce on the new communicator). Each creation is remembered by L only;
 * rank 0 gathers those definitions at MPI_Finalize. All functions are called
 * under czt_mutex when the program is threaded. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer.h"

typedef struct czt_comm {
  MPI_Comm handle;
  uint32_t ref;
  int size;
  int *world; /* comm rank (remote group for intercomms) -> world rank */
  struct czt_comm *next;
} czt_comm;

#define BUCKETS 256
static czt_comm *table[BUCKETS];
static atomic_int creations; /* creation calls this rank took part in */
static uint64_t *defs;       /* owned definitions, see czt_comm_defs */
static size_t defs_len, defs_cap;

CZT_HOT static unsigned bucket(MPI_Comm c) {
  uintptr_t v = (uintptr_t)c;
  return (unsigned)((v >> 4) ^ (v >> 12)) % BUCKETS;
}

CZT_HOT static czt_comm *find(MPI_Comm c) {
  for (czt_comm *e = table[bucket(c)]; e; e = e->next)
    if (e->handle == c) return e;
  return NULL;
}

/* World ranks of c's members (remote group for intercomms), or NULL. */
static int *members(MPI_Comm c, int *size) {
  int inter = 0;
  MPI_Group g, wg;
  *size = 0;
  PMPI_Comm_test_inter(c, &inter);
  if ((inter ? PMPI_Comm_remote_group(c, &g) : PMPI_Comm_group(c, &g)) !=
      MPI_SUCCESS)
    return NULL;
  PMPI_Group_size(g, size);
  int *ranks = malloc(sizeof(int) * (size_t)(*size ? *size : 1));
  int *world = malloc(sizeof(int) * (size_t)(*size ? *size : 1));
  if (ranks && world) {
    for (int i = 0; i < *size; i++) ranks[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Group_translate_ranks(g, *size, ranks, wg, world);
    PMPI_Group_free(&wg);
  } else {
    free(world);
    world = NULL;
  }
  free(ranks);
  PMPI_Group_free(&g);
  return world;
}

static czt_comm *insert(MPI_Comm c, uint32_t ref) {
  czt_comm *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->handle = c;
  e->ref = ref;
  e->world = members(c, &e->size);
  unsigned b = bucket(c);
  e->next = table[b];
  table[b] = e;
  return e;
}

void czt_comms_init(void) {
  atomic_store(&creations, 0);
  /* World is the identity, self is this rank: no table entries needed. */
}

/* A communicator other than world and self: from the table (the two
 * common cases are czt_comm_lookup's, inline in tracer.h). */
void czt_comm_lookup_table(MPI_Comm comm, int peer, uint32_t *ref, uint32_t *peer_world) {
  czt_comm *e = find(comm);
  if (!e) e = insert(comm, CZT_COMM_UNDEFINED); /* made by an unwrapped call */
  if (!e) {
    *ref = CZT_COMM_UNDEFINED;
    *peer_world = 0xffffffffu;
    return;
  }
  *ref = e->ref;
  *peer_world = e->world && peer >= 0 && peer < e->size
                    ? (uint32_t)e->world[peer]
                    : 0xffffffffu;
}

uint32_t czt_comm_ref(MPI_Comm comm) {
  uint32_t ref, world;
  czt_comm_lookup(comm, 0, &ref, &world);
  return ref;
}

static int recovery_fd = -1;
static char recovery_path[4200];

void czt_comms_recovery_open(const char *dir) {
  snprintf(recovery_path, sizeof recovery_path, "%s/" CZ_TRACE_COMMS_FMT, dir,
           czt.rank);
  recovery_fd = czt_open_private(recovery_path, O_WRONLY | O_TRUNC | O_APPEND);
}

void czt_comms_recovery_close(void) {
  if (recovery_fd < 0) return;
  close(recovery_fd);
  recovery_fd = -1;
  unlink(recovery_path);
}

/* One definition, in one write(2) so a killed rank leaves whole ones. */
static void save_for_recovery(const uint64_t *words, size_t n) {
  if (recovery_fd < 0) return;
  const char *p = (const char *)words;
  size_t left = n * sizeof *words;
  while (left > 0) {
    ssize_t w = write(recovery_fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { /* disk full: the finished trace does not need it */
      close(recovery_fd);
      recovery_fd = -1;
      return;
    }
    p += w;
    left -= (size_t)w;
  }
}

static void own(uint32_t ref, uint32_t parent, int region, const czt_comm *e) {
  size_t need = defs_len + 4 + (size_t)e->size;
  if (need > defs_cap) {
    size_t cap = defs_cap ? defs_cap * 2 : 256;
    while (cap < need) cap *= 2;
    uint64_t *p = realloc(defs, cap * sizeof *p);
    if (!p) return;
    defs = p;
    defs_cap = cap;
  }
  defs[defs_len++] = ref;
  defs[defs_len++] = parent;
  defs[defs_len++] = (uint64_t)region;
  defs[defs_len++] = (uint64_t)e->size;
  size_t start = defs_len - 4;
  for (int i = 0; i < e->size; i++) defs[defs_len++] = (uint64_t)e->world[i];
  save_for_recovery(defs + start, defs_len - start);
}

uint32_t czt_comm_created(MPI_Comm parent, MPI_Comm newcomm, int region) {
  if (newcomm == MPI_COMM_NULL) return CZT_COMM_UNDEFINED;
  int inter = 0;
  PMPI_Comm_test_inter(newcomm, &inter);
  /* Every member takes a number; the lowest world rank's number names it. */
  struct { int world, k; } mine, lowest;
  mine.world = czt.rank;
  mine.k = atomic_fetch_add(&creations, 1);
  uint32_t ref = CZT_COMM_UNDEFINED;
  if (!inter && PMPI_Allreduce(&mine, &lowest, 1, MPI_2INT, MPI_MINLOC,
                               newcomm) == MPI_SUCCESS &&
      lowest.k + 2 < (1 << 20) && lowest.world < (1 << 12))
    ref = ((uint32_t)lowest.world << 20) | (uint32_t)(lowest.k + 2);
  CZT_LOCK();
  uint32_t parent_ref = czt_comm_ref(parent);
  czt_comm *e = find(newcomm);
  if (e) { /* a stale entry for a reused handle */
    e->ref = ref;
    free(e->world);
    e->world = members(newcomm, &e->size);
  } else {
    e = insert(newcomm, ref);
  }
  if (e && e->world && ref != CZT_COMM_UNDEFINED && lowest.world == czt.rank)
    own(ref, parent_ref, region, e);
  CZT_UNLOCK();
  return ref;
}

uint32_t czt_comm_freed(MPI_Comm comm) {
  uint32_t ref = CZT_COMM_UNDEFINED;
  CZT_LOCK();
  czt_comm **p = &table[bucket(comm)];
  while (*p && (*p)->handle != comm) p = &(*p)->next;
  if (*p) {
    czt_comm *e = *p;
    ref = e->ref;
    *p = e->next;
    free(e->world);
    free(e);
  }
  CZT_UNLOCK();
  return ref;
}

const uint64_t *czt_comm_defs(size_t *words) {
  *words = defs_len;
  return defs;
}
