/*
 * bcast_self.c: broadcast on one process. The root (rank 0, checked by the
 * API layer) already holds the message: nothing to do.
 *
 * Steps: none. Cost: the dispatch alone. On more than one process: the
 * library's broadcast.
 */
#include "self.h"

int czi_bcast_self(CZI_BCAST_ARGS) {
  if (!czi_self_applies(comm))
    return czi_bcast_mpi(buffer, count, datatype, root, comm, params);
  return MPI_SUCCESS;
}
