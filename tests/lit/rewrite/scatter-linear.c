// A linear scatter: the root sends block q of `all` to rank q and copies its
// own block; the others receive theirs into `mine`. One MPI_Scatter with
// the buffers, count and root the source names; the copy stays before it.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scatter root=0 count=32 bytes_per_instance=512' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-scatter: proposed prog.c:{{.*}} -> MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, MPI_COMM_WORLD);
#include <mpi.h>

enum { BLOCK = 32 };

void deal(int *all, int *mine, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(all + q * BLOCK, BLOCK, MPI_INT, q, 1, MPI_COMM_WORLD);
    for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
  } else {
    MPI_Recv(mine, BLOCK, MPI_INT, root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
// CHECK:      void deal(int *all, int *mine, int root, int me, int p) {
// CHECK-NEXT:   MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, MPI_COMM_WORLD);
// CHECK-NEXT:   if (me == root) {
// CHECK-NEXT:     for (int i = 0; i < BLOCK; i++) mine[i] = all[root * BLOCK + i];
// CHECK-NEXT:   }
// CHECK-NEXT: }
