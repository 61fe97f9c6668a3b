/* self.h: what the one-process algorithms (src/coll/<coll>_self.c) share.
 * On a communicator of one process every collective is a local copy or
 * nothing; these move the data with memmove when both layouts are dense and
 * leave everything else (types with holes, more than one process) to the
 * MPI library's own collective, which honours any layout. */
#ifndef CZ_SELF_H
#define CZ_SELF_H

#include <string.h>

#include "cz_internal.h"

/* 1 when comm has exactly one process: the only case the self algorithms
 * handle themselves (forced by name or through the environment on a larger
 * communicator, they run the library's collective). One MPI call that reads
 * a field of the communicator. */
static inline int czi_self_applies(MPI_Comm comm) {
  int p = 0;
  return PMPI_Comm_size(comm, &p) == MPI_SUCCESS && p == 1;
}

/* czi_self_copy's answer when a layout has holes: let MPI copy it. */
enum { CZI_SELF_NOT_DENSE = -1 };

/* The one block: scount elements of stype at src + sdispl extents to
 * dst + rdispl extents, received as rcount elements of rtype. Both layouts
 * dense: one memmove (nothing when src and dst coincide); send and receive
 * bytes that differ are MPI_ERR_TRUNCATE, as the library's alltoallv says
 * for a rank's block to itself. Otherwise CZI_SELF_NOT_DENSE, and nothing
 * is touched. */
static inline int czi_self_copy(const void *src, MPI_Aint sdispl, int scount,
                                MPI_Datatype stype, void *dst, MPI_Aint rdispl,
                                int rcount, MPI_Datatype rtype,
                                const char *fn) {
  czi_type st, rt;
  int rc = czi_type_get(stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  if ((rc = czi_type_get(rtype, &rt)) != MPI_SUCCESS) return rc;
  if (!st.dense || !rt.dense) return CZI_SELF_NOT_DENSE;
  const size_t bytes = (size_t)scount * st.size;
  if (bytes != (size_t)rcount * rt.size)
    return czi_fail(MPI_ERR_TRUNCATE, fn,
                    "%zu bytes sent to itself (count %d) but %zu received "
                    "(count %d): type signatures must match",
                    bytes, scount, (size_t)rcount * rt.size, rcount);
  if (bytes == 0) return MPI_SUCCESS;
  const char *from = czi_at(src, sdispl * st.extent + st.true_lb);
  char *to = czi_at(dst, rdispl * rt.extent + rt.true_lb);
  if (from != to) memmove(to, from, bytes);
  return MPI_SUCCESS;
}

#endif
