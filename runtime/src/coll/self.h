/* self.h: what the one-process algorithms (src/coll/<coll>_self.c) share.
 * On a communicator of one process every collective is a local copy or
 * nothing; these move the data with czi_move (memmove; common/copy.h) when both layouts are dense and
 * leave types with holes to the MPI library's own collective, which
 * honours any layout. They are only called on one process: the API layer
 * and plans run the library's collective instead on more
 * (czi_algorithm_for_procs), so no call pays to ask the size. A call seen
 * before does not even get here: its entry point copies the block itself
 * (comm_state.h, memo->local). */
#ifndef CZ_SELF_H
#define CZ_SELF_H

#include <string.h>

#include "cz_internal.h"

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
  /* NULL is MPI_BOTTOM: legal only with absolute addresses (true_lb). */
  if ((!src && st.true_lb == 0) || (!dst && rt.true_lb == 0))
    return czi_fail(MPI_ERR_BUFFER, fn, "%s is NULL but %zu bytes are to move",
                    src ? "recvbuf" : "sendbuf", bytes);
  const char *from = czi_at(src, sdispl * st.extent + st.true_lb);
  char *to = czi_at(dst, rdispl * rt.extent + rt.true_lb);
  if (from != to) czi_move(to, from, bytes);
  return MPI_SUCCESS;
}

#endif
