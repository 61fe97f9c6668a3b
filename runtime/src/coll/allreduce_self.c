/*
 * allreduce_self.c: allreduce on one process. The reduction of one
 * contribution is that contribution: sendbuf is copied to recvbuf and op is
 * not applied (as the MPI library does at P = 1; a user op is never called).
 *
 * Step: one local copy of count elements (czi_move; MPI_IN_PLACE: nothing).
 * No message.
 *
 * Cost (n = message bytes): T = n·γ plus the dispatch (a call seen before
 * copies in cz_allreduce itself). Types with holes: the library's
 * allreduce; on more than one process the API layer runs it instead. Unlike
 * the library, an op that is not defined for the datatype (MPI_SUM on
 * MPI_BYTE) is not diagnosed here: there is nothing to reduce.
 */
#include "self.h"

int czi_allreduce_self(CZI_ALLREDUCE_ARGS) {
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  int rc = czi_self_copy(sendbuf, 0, count, datatype, recvbuf, 0, count,
                         datatype, __func__);
  if (rc != CZI_SELF_NOT_DENSE) return rc;
  return czi_allreduce_mpi(sendbuf, recvbuf, count, datatype, op, comm,
                           params);
}
