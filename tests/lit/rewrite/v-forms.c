// The v forms (alltoallv, gatherv, scatterv) the detector reports are read
// as matches like any kind (the report's kinds come from the one table of
// collective kinds). A gatherv on these alltoall-shaped sites gets no
// patch with the reason (no root); the alltoallv a call on the arrays,
// for review: its loops run to p, which is no size the function asks MPI
// for, so a send to itself is not proven, and its count arrays are
// parameters, so no receive's count is shown to equal what its peer
// sends. Before, an alltoallv match was refused as "malformed" and the
// verb failed.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv count=2 lines=21-30' 'gatherv root=0 count=2 lines=21-30' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi > %t/summary.txt
// RUN: FileCheck %s < %t/summary.txt
// CHECK: 01-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, comm);
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is a parameter: its elements may be set where the function does not show): MPI_Alltoallv needs them equal{{.*}}; MPI_Alltoallv also copies each rank's own block, out + displs[me], into in + displs[me], which the replaced code does not do (no copy of exactly that block in the region, and no send to itself the rewriter proves)
// CHECK: 02-gatherv: none
// CHECK-NEXT: no patch: no root expression: 
#include <mpi.h>

void exchange(const int *out, int *in, const int *counts, const int *displs, int p, MPI_Comm comm) {
  MPI_Request req[64];
  for (int q = 0; q < p; q++) {
    MPI_Irecv(in + displs[q], counts[q], MPI_INT, q, 5, comm, &req[q]);
  }
  for (int q = 0; q < p; q++) {
    MPI_Send(out + displs[q], counts[q], MPI_INT, q, 5, comm);
  }
  MPI_Waitall(p, req, MPI_STATUSES_IGNORE);
}
