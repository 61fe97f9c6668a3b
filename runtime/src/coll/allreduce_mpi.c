/*
 * allreduce_mpi.c: the MPI library's own MPI_Allreduce (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"


int czi_allreduce_mpi(CZI_ALLREDUCE_ARGS) {
  (void)params;
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return CZI_LIB_RESULT(rc, allreduce, PMPI_Allreduce);
}
