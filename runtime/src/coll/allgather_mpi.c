/*
 * allgather_mpi.c: the MPI library's own MPI_Allgather (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"


int czi_allgather_mpi(CZI_ALLGATHER_ARGS) {
  (void)params;
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
  return CZI_LIB_RESULT(rc, allgather, PMPI_Allgather);
}
