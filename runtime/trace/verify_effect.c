/* verify_effect.c: the probe `collectivize verify` puts at the end of a
 * patched region, in both copies of the program: it hashes what the region
 * left in the collective's output buffer, so a patch that computes other
 * data while the program prints the same is still caught. The copies name
 * it through a weak reference (NULL without this library), and it does
 * nothing unless COLLECTIVIZE_VERIFY_EFFECTS names a directory: each call
 * appends "probe call crc bytes" to DIR/rank-<world rank>.txt
 * (rewriter/PATCH_FORMAT.md, "effect"). A Fortran copy has no weak
 * references: its probe looks cz_verify_effect_f up with dlsym and calls
 * it with Fortran arguments (all by reference, handles as Fortran
 * integers). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "tracer.h"

/* Calls so far per probe id (ids are small: one per effect of a patch). */
static unsigned long long *calls;
static int n_calls;
static FILE *out;
static int disabled;

static unsigned long long next_call(int probe) {
  if (probe < 0) return 0;
  if (probe >= n_calls) {
    int n = probe + 16;
    unsigned long long *grown = realloc(calls, (size_t)n * sizeof *grown);
    if (!grown) return 0;
    memset(grown + n_calls, 0, (size_t)(n - n_calls) * sizeof *grown);
    calls = grown;
    n_calls = n;
  }
  return ++calls[probe];
}

static FILE *probe_file(void) {
  if (out || disabled) return out;
  const char *dir = getenv("COLLECTIVIZE_VERIFY_EFFECTS");
  int world = 0;
  if (!dir || !*dir) {
    disabled = 1;
    return NULL;
  }
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    disabled = 1;
    return NULL;
  }
  PMPI_Comm_rank(MPI_COMM_WORLD, &world);
  char path[4200];
  snprintf(path, sizeof path, "%s/rank-%d.txt", dir, world);
  out = fopen(path, "a");
  if (!out) disabled = 1;
  return out;
}

/* CRC-32 of count elements of type at buf, packed when the layout has
 * holes, so equal data hash equally whatever the type's layout. */
static int hash_elements(const void *buf, long long count, MPI_Datatype type, uint32_t *crc,
                         unsigned long long *bytes) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
    return -1;
  *bytes = (unsigned long long)count * (unsigned long long)size;
  uLong c = crc32(0L, Z_NULL, 0);
  if (lb == 0 && true_lb == 0 && extent == size && true_extent == size) {
    const unsigned char *p = buf;
    for (unsigned long long left = *bytes; left > 0;) {
      uInt piece = left > (1u << 30) ? (1u << 30) : (uInt)left;
      c = crc32(c, p, piece);
      p += piece;
      left -= piece;
    }
  } else {
    if (count > 0x7fffffff) return -1;
    int packed_size = 0, position = 0;
    if (PMPI_Pack_size((int)count, type, MPI_COMM_SELF, &packed_size) != MPI_SUCCESS) return -1;
    unsigned char *packed = malloc(packed_size > 0 ? (size_t)packed_size : 1);
    if (!packed) return -1;
    if (PMPI_Pack(buf, (int)count, type, packed, packed_size, &position, MPI_COMM_SELF) !=
        MPI_SUCCESS) {
      free(packed);
      return -1;
    }
    c = crc32(c, packed, (uInt)position);
    *bytes = (unsigned long long)position;
    free(packed);
  }
  *crc = (uint32_t)c;
  return 0;
}

/* probe: the effect's id; buf, count and datatype: the output buffer (buf NULL:
 * a barrier, only calls are counted); per_rank_blocks: count elements per
 * rank of *comm (a gather's receive buffer); root >= 0: only the root's
 * buffer holds the result, the other ranks record the call alone. */
CZT_EXPORT void cz_verify_effect(int probe, const void *buf, long long count, int per_rank_blocks,
                                 const void *datatype, const void *comm, int root) {
  int initialized = 0, finalized = 0;
  if (PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized) return;
  if (PMPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
  FILE *f = probe_file();
  if (!f) return;
  CZT_LOCK();
  unsigned long long call = next_call(probe), bytes = 0;
  uint32_t crc = 0;
  int hashed = 1;
  if (buf && datatype && comm) {
    MPI_Comm c = *(const MPI_Comm *)comm;
    int me = 0, size = 1;
    PMPI_Comm_rank(c, &me);
    PMPI_Comm_size(c, &size);
    if (root < 0 || me == root)
      hashed = hash_elements(buf, per_rank_blocks ? count * size : count,
                             *(const MPI_Datatype *)datatype, &crc, &bytes) == 0;
  }
  if (hashed)
    fprintf(f, "%d %llu %08x %llu\n", probe, call, (unsigned)crc, bytes);
  else
    fprintf(f, "%d %llu error 0\n", probe, call);
  fflush(f);
  CZT_UNLOCK();
}

/* The Fortran probe's entry point: every argument by reference (a Fortran
 * call through an implicit interface), datatype and comm Fortran handles
 * (with mpi_f08, TYPE(MPI_Datatype) and TYPE(MPI_Comm), whose storage is
 * the same integer). Converted, it is the C probe. */
CZT_EXPORT void cz_verify_effect_f(const MPI_Fint *probe, const void *buf, const MPI_Fint *count,
                                   const MPI_Fint *per_rank_blocks, const MPI_Fint *datatype,
                                   const MPI_Fint *comm, const MPI_Fint *root) {
  int initialized = 0, finalized = 0;
  if (PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized) return;
  if (PMPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
  if (!probe || !count || !per_rank_blocks || !root) return;
  if (!buf || !datatype || !comm) {
    cz_verify_effect(*probe, NULL, 0, 0, NULL, NULL, -1);
    return;
  }
  MPI_Datatype type = PMPI_Type_f2c(*datatype);
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  cz_verify_effect(*probe, buf, *count, *per_rank_blocks, &type, &c, *root);
}
