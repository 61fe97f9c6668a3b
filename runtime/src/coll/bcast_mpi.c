/*
 * bcast_mpi.c: the MPI library's own MPI_Bcast (the decision table's fallback
 * and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"

int czi_bcast_lib(void *buffer, int count, MPI_Datatype datatype, int root,
                  MPI_Comm comm) {
  int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
  if (__builtin_expect(rc != MPI_SUCCESS, 0))
    return czi_mpi_fail(rc, "czi_bcast_mpi", "PMPI_Bcast");
  return MPI_SUCCESS;
}

int czi_bcast_mpi(CZI_BCAST_ARGS) {
  (void)params;
  return czi_bcast_lib(buffer, count, datatype, root, comm);
}
