/*
 * alltoallv_mpi.c: the MPI library's own MPI_Alltoallv (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"


int czi_alltoallv_mpi(CZI_ALLTOALLV_ARGS) {
  (void)params;
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                          recvcounts, rdispls, recvtype, comm);
  return CZI_LIB_RESULT(rc, alltoallv, PMPI_Alltoallv);
}
