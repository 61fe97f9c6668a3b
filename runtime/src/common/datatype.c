/* datatype.c: layout facts about MPI datatypes and typed local copies, so
 * algorithms that must rearrange blocks (Bruck) work on packed bytes for any
 * datatype, including non-contiguous derived ones. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cz_internal.h"

/* Layouts of the common predefined datatypes, asked once. Asking costs
 * three MPI calls, and a small collective asks four times (the argument
 * checks and the algorithm each describe both types): about 60 of the
 * 240 ns that an 8-byte shared-memory alltoall spends beyond the bare
 * wait for its peer at P = 2 (bench/README.md, the floor). Predefined
 * handles are never freed; derived ones can be freed and their handles
 * reused, so they are asked every time. */
enum { PREDEFINED_MAX = 24 };
static struct {
  int n;
  czi_type info[PREDEFINED_MAX];
} predefined;
static pthread_once_t predefined_once = PTHREAD_ONCE_INIT;
static atomic_int predefined_ready;

static int type_ask(MPI_Datatype type, czi_type *t);

static void predefined_init(void) {
  /* Handles are not compile-time constants in every MPI: listed here, at
   * run time. Most frequent first: lookups scan in order. */
  const MPI_Datatype common[] = {
      MPI_BYTE,          MPI_INT,           MPI_DOUBLE,    MPI_CHAR,
      MPI_FLOAT,         MPI_LONG,          MPI_LONG_LONG, MPI_UNSIGNED_CHAR,
      MPI_SIGNED_CHAR,   MPI_SHORT,         MPI_UNSIGNED,  MPI_UNSIGNED_LONG,
      MPI_UNSIGNED_LONG_LONG, MPI_UNSIGNED_SHORT, MPI_INT32_T, MPI_INT64_T,
      MPI_UINT32_T,      MPI_UINT64_T,      MPI_INT8_T,    MPI_UINT8_T,
      MPI_C_DOUBLE_COMPLEX, MPI_DOUBLE_INT, MPI_2INT,     MPI_PACKED};
  _Static_assert(sizeof common / sizeof common[0] <= PREDEFINED_MAX, "room for the list");
  for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
    if (common[i] != MPI_DATATYPE_NULL &&
        type_ask(common[i], &predefined.info[predefined.n]) == MPI_SUCCESS)
      predefined.info[predefined.n++].predefined = 1;
  atomic_store_explicit(&predefined_ready, 1, memory_order_release);
}

int czi_type_get(MPI_Datatype type, czi_type *t) {
  if (!atomic_load_explicit(&predefined_ready, memory_order_acquire)) {
    /* The list can only be asked for while MPI runs. */
    int initialized = 0, finalized = 0;
    if (PMPI_Initialized(&initialized) == MPI_SUCCESS && initialized &&
        PMPI_Finalized(&finalized) == MPI_SUCCESS && !finalized)
      pthread_once(&predefined_once, predefined_init);
  }
  if (atomic_load_explicit(&predefined_ready, memory_order_acquire))
    for (int i = 0; i < predefined.n; i++)
      if (predefined.info[i].type == type) {
        *t = predefined.info[i];
        return MPI_SUCCESS;
      }
  return type_ask(type, t);
}

static int type_ask(MPI_Datatype type, czi_type *t) {
  int rc = MPI_SUCCESS;
  MPI_Aint lb = 0;
  int size = 0;
  t->type = type;
  t->predefined = 0;
  CZI_MPI(PMPI_Type_get_extent(type, &lb, &t->extent));
  CZI_MPI(PMPI_Type_get_true_extent(type, &t->true_lb, &t->true_extent));
  CZI_MPI(PMPI_Type_size(type, &size));
  t->size = (size_t)size;
  /* No holes inside an element, and elements abut: count*size bytes. */
  t->dense = (MPI_Aint)t->size == t->true_extent && t->extent == t->true_extent;
  return MPI_SUCCESS;
fn_fail:
  return rc;
}

int czi_block_setup(MPI_Comm comm, MPI_Datatype sendtype,
                    MPI_Datatype recvtype, int *me, int *p, czi_type *st,
                    czi_type *rt) {
  int rc = MPI_SUCCESS;
  CZI_MPI(PMPI_Comm_rank(comm, me));
  CZI_MPI(PMPI_Comm_size(comm, p));
  CZI_TRY(czi_type_get(sendtype, st));
  CZI_TRY(czi_type_get(recvtype, rt));
fn_fail:
  return rc;
}

MPI_Aint czi_span(int count, const czi_type *t) {
  if (count <= 0) return 0;
  return (MPI_Aint)(count - 1) * t->extent + t->true_extent;
}

int czi_pack(const void *buf, int count, const czi_type *t, void *dst) {
  int rc = MPI_SUCCESS;
  size_t bytes = (size_t)count * t->size;
  if (bytes == 0) return MPI_SUCCESS;
  if (t->dense) {
    czi_copy(dst, czi_at(buf, t->true_lb), bytes);
    return MPI_SUCCESS;
  }
  int position = 0;
  CZI_MPI(PMPI_Pack(buf, count, t->type, dst, (int)bytes, &position,
                    MPI_COMM_SELF));
  return MPI_SUCCESS;
fn_fail:
  return rc;
}

int czi_unpack(const void *src, void *buf, int count, const czi_type *t) {
  int rc = MPI_SUCCESS;
  size_t bytes = (size_t)count * t->size;
  if (bytes == 0) return MPI_SUCCESS;
  if (t->dense) {
    czi_copy(czi_at(buf, t->true_lb), src, bytes);
    return MPI_SUCCESS;
  }
  int position = 0;
  CZI_MPI(PMPI_Unpack(src, (int)bytes, &position, buf, count, t->type,
                      MPI_COMM_SELF));
  return MPI_SUCCESS;
fn_fail:
  return rc;
}

int czi_copy_local(const void *src, int scount, const czi_type *st, void *dst,
                   int rcount, const czi_type *rt) {
  int rc = MPI_SUCCESS;
  char *tmp = NULL;
  size_t bytes = (size_t)scount * st->size;
  if (bytes == 0) return MPI_SUCCESS;
  if (src == dst && st->type == rt->type && scount == rcount)
    return MPI_SUCCESS;
  if (st->dense && rt->dense) {
    czi_move(czi_at(dst, rt->true_lb), czi_at(src, st->true_lb), bytes);
    return MPI_SUCCESS;
  }
  if (st->dense) return czi_unpack(czi_at(src, st->true_lb), dst, rcount, rt);
  if (rt->dense) return czi_pack(src, scount, st, czi_at(dst, rt->true_lb));
  CZI_MALLOC(tmp, bytes);
  CZI_TRY(czi_pack(src, scount, st, tmp));
  CZI_TRY(czi_unpack(tmp, dst, rcount, rt));
fn_fail:
  free(tmp);
  return rc;
}
