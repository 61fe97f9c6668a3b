/* datatype.c: layout facts about MPI datatypes and typed local copies, so
 * algorithms that must rearrange blocks (Bruck) work on packed bytes for any
 * datatype, including non-contiguous derived ones. */
#include <stdlib.h>
#include <string.h>

#include "cz_internal.h"

int czi_type_get(MPI_Datatype type, czi_type *t) {
  int rc = MPI_SUCCESS;
  MPI_Aint lb = 0;
  int size = 0;
  t->type = type;
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
    memcpy(dst, (const char *)buf + t->true_lb, bytes);
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
    memcpy((char *)buf + t->true_lb, src, bytes);
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
    memmove((char *)dst + rt->true_lb, (const char *)src + st->true_lb, bytes);
    return MPI_SUCCESS;
  }
  if (st->dense) return czi_unpack((const char *)src + st->true_lb, dst, rcount, rt);
  if (rt->dense) return czi_pack(src, scount, st, (char *)dst + rt->true_lb);
  CZI_MALLOC(tmp, bytes);
  CZI_TRY(czi_pack(src, scount, st, tmp));
  CZI_TRY(czi_unpack(tmp, dst, rcount, rt));
fn_fail:
  free(tmp);
  return rc;
}
