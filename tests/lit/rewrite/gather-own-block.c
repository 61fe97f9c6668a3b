// A gather whose root never puts its own block into the array: MPI_Gather
// would write it there, so the patch is one to review, not proposed. With
// the root's copy of its block (second function) it is proposed.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gather root=0 count=4 lines=13-20' 'gather root=0 count=4 lines=22-30' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-gather: review prog.c:{{.*}} -> MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
// CHECK-NEXT: review: MPI_Gather also copies the root's mine into its slot of all, which the original never wrote: check nothing reads that slot expecting its old contents
// CHECK: 02-gather: proposed prog.c:{{.*}} -> MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#include <mpi.h>

void others_only(double *mine, double *all, int n, int me, int p) {
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + q * n, n, MPI_DOUBLE, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  }
}

void with_own(double *mine, double *all, int n, int me, int p) {
  if (me == 0) {
    for (int i = 0; i < n; i++) all[i] = mine[i];
    for (int q = 1; q < p; q++)
      MPI_Recv(all + q * n, n, MPI_DOUBLE, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  }
}
