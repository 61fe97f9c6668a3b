/*
 * allgather_mpi.c: the MPI library's own MPI_Allgather (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"

int czi_allgather_lib(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
  if (__builtin_expect(rc != MPI_SUCCESS, 0))
    return czi_mpi_fail(rc, "czi_allgather_mpi", "PMPI_Allgather");
  return MPI_SUCCESS;
}

int czi_allgather_mpi(CZI_ALLGATHER_ARGS) {
  (void)params;
  return czi_allgather_lib(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm);
}
