/*
 * alltoall_mpi.c: the MPI library's own MPI_Alltoall, so the decision table
 * can always fall back to it (and benchmarks compare against it).
 * Cost: whatever the library's fixed rules pick (Open MPI 4.1 coll/tuned:
 * Bruck, linear, pairwise or linear_sync by size and P).
 */
#include "cz_internal.h"

int czi_alltoall_mpi(CZI_ALLTOALL_ARGS) {
  int rc = MPI_SUCCESS;
  CZI_MPI(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm));
fn_fail:
  return rc;
}
