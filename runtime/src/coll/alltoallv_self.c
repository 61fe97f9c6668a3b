/*
 * alltoallv_self.c: alltoallv on one process. Its only block,
 * sendcounts[0] elements at sdispls[0], goes to rdispls[0] of recvbuf.
 *
 * Step: one local copy (czi_move; MPI_IN_PLACE: nothing). Send and receive
 * blocks of different sizes are MPI_ERR_TRUNCATE, as from the library's
 * MPI_Alltoallv (Open MPI 4.1 checks a rank's block to itself). No message.
 *
 * Cost (m = bytes in the block): T = m·γ plus the dispatch (which checks the
 * counts: the one count here); a call seen before copies in cz_alltoallv
 * itself, and a plan made on one process on execute. A NULL buffer with
 * data to move is MPI_ERR_BUFFER (Open MPI 4.1 crashes there). Types with
 * holes: the library's alltoallv; on more than one process the API layer
 * runs it instead.
 */
#include "self.h"

int czi_alltoallv_self(CZI_ALLTOALLV_ARGS) {
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  int rc = czi_self_copy(sendbuf, sdispls[0], sendcounts[0], sendtype, recvbuf,
                         rdispls[0], recvcounts[0], recvtype, __func__);
  if (rc != CZI_SELF_NOT_DENSE) return rc;
  return czi_alltoallv_mpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm, params);
}
