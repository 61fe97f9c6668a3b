// An alltoallv of blocking pairs: one MPI_Sendrecv per other rank, each
// block at its peer's displacement with its peer's count. The rank's own
// block is copied before the region, not in it: MPI_Alltoallv copies it
// again, into memory the replaced code never wrote, so the patch is one to
// review, and says why.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv count=2 datatype=MPI_INT counts=[2,3,4,2] bytes_per_instance=44' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-alltoallv.md
// CHECK: 01-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
// NOTES: MPI_Alltoallv also copies each rank's own block, send + sdispls[me], into recv + rdispls[me], which the replaced code does not do (no copy of exactly that block in the region, and no send to itself the rewriter proves): check nothing reads that place expecting its old contents
#include <mpi.h>
#include <string.h>

void exchange(int *send, int *scounts, int *sdispls, int *recv, int *rcounts, int *rdispls) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  memcpy(&recv[rdispls[rank]], send + sdispls[rank], scounts[rank] * sizeof(int));
  for (int q = 0; q < size; q++) {
    if (q == rank) continue;
    MPI_Sendrecv(send + sdispls[q], scounts[q], MPI_INT, q, 7, recv + rdispls[q], rcounts[q], MPI_INT, q, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
