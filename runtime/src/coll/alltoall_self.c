/*
 * alltoall_self.c: alltoall on one process. Its only block goes from
 * sendbuf to recvbuf.
 *
 * Step: one local copy of the block (czi_move; MPI_IN_PLACE: nothing). No
 * message, no collective: a tracer sees nothing, as for MPI's own.
 *
 * Cost (m = bytes in the block): T = m·γ (copy) plus the dispatch. A call
 * seen before copies in cz_alltoall itself: about 90 instructions against
 * MPI_Alltoall's 240 at P = 1 (bench/README.md, "One process"). Types with
 * holes: the library's alltoall; on more than one process the API layer
 * runs the library's instead of this.
 */
#include "self.h"

int czi_alltoall_self(CZI_ALLTOALL_ARGS) {
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  int rc = czi_self_copy(sendbuf, 0, sendcount, sendtype, recvbuf, 0,
                         recvcount, recvtype, __func__);
  if (rc != CZI_SELF_NOT_DENSE) return rc;
  return czi_alltoall_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm, params);
}
