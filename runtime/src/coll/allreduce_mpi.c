/*
 * allreduce_mpi.c: the MPI library's own MPI_Allreduce (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"

int czi_allreduce_lib(const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  if (__builtin_expect(rc != MPI_SUCCESS, 0))
    return czi_mpi_fail(rc, "czi_allreduce_mpi", "PMPI_Allreduce");
  return MPI_SUCCESS;
}

int czi_allreduce_mpi(CZI_ALLREDUCE_ARGS) {
  (void)params;
  return czi_allreduce_lib(sendbuf, recvbuf, count, datatype, op, comm);
}
