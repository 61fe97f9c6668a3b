// A ring allgatherv: in step s each rank passes on the block it received
// in step s - 1, each stored at all + displs[in] with counts[in]
// elements. The arrays give MPI_Allgatherv's recvcounts and displs, but
// each receive stores the block of rank `in`, not of the rank it receives
// from: the patch is for review (the trace does not say which index
// names which rank's block).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-allgatherv: review prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT: review: each receive stores the block of rank in (not the rank it receives from): check that counts[q] and displs[q] are rank q's count and displacement
// Blocks kept at displacements that differ from rank to rank (the
// report's recv_layout): no patch.
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_LONG recv_layout=permuted' > %t/permuted.json
// RUN: %collectivize rewrite -q %t/permuted.json -o %t/q -- %mock-mpi | FileCheck %s --check-prefix=PERMUTED
// PERMUTED: 01-allgatherv: none
// PERMUTED-NEXT: no patch: the blocks are received at displacements that differ from rank to rank (the report's recv_layout): MPI_Allgatherv keeps one displacement per rank on every rank
#include <mpi.h>

void ring(long *all, const int *counts, const int *displs, int me, int p) {
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                 left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
