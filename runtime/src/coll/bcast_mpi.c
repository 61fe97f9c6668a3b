/*
 * bcast_mpi.c: the MPI library's own MPI_Bcast (the decision table's fallback
 * and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"


int czi_bcast_mpi(CZI_BCAST_ARGS) {
  (void)params;
  int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
  return CZI_LIB_RESULT(rc, bcast, PMPI_Bcast);
}
