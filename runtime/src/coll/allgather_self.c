/*
 * allgather_self.c: allgather on one process. Its block goes from sendbuf
 * to recvbuf.
 *
 * Step: one local copy of the block (czi_move; MPI_IN_PLACE, or the API's
 * in-place form, sendbuf = recvbuf's own block: nothing). No message.
 *
 * Cost (m = bytes in the block): T = m·γ plus the dispatch (a call seen
 * before copies in cz_allgather itself). Types with holes: the library's
 * allgather; on more than one process the API layer runs it instead.
 */
#include "self.h"

int czi_allgather_self(CZI_ALLGATHER_ARGS) {
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  int rc = czi_self_copy(sendbuf, 0, sendcount, sendtype, recvbuf, 0,
                         recvcount, recvtype, __func__);
  if (rc != CZI_SELF_NOT_DENSE) return rc;
  return czi_allgather_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm, params);
}
