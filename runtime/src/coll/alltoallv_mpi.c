/*
 * alltoallv_mpi.c: the MPI library's own MPI_Alltoallv (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"

int czi_alltoallv_lib(const void *sendbuf, const int *sendcounts,
                      const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                      const int *recvcounts, const int *rdispls,
                      MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                          recvcounts, rdispls, recvtype, comm);
  if (__builtin_expect(rc != MPI_SUCCESS, 0))
    return czi_mpi_fail(rc, "czi_alltoallv_mpi", "PMPI_Alltoallv");
  return MPI_SUCCESS;
}

int czi_alltoallv_mpi(CZI_ALLTOALLV_ARGS) {
  (void)params;
  return czi_alltoallv_lib(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                           recvcounts, rdispls, recvtype, comm);
}
