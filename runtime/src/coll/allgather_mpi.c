/*
 * allgather_mpi.c: the MPI library's own MPI_Allgather (the decision table's
 * fallback and the benchmarks' reference). Cost: the library's choice.
 */
#include "cz_internal.h"


int czi_allgather_mpi(CZI_ALLGATHER_ARGS) {
  (void)params;
  return czi_allgather_lib(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, comm);
}
