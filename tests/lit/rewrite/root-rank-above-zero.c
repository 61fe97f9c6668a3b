// A binary-tree broadcast that names its root only as `me > 0` (every rank
// but 0 receives from its parent (me-1)/2, then sends to 2me+1 and 2me+2):
// the peers depend on the rank and the size alone, so the root is the 0
// the source compares the rank with (a real course code's shape).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=1 datatype=MPI_INT' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
#include <mpi.h>

void tree_bcast(int *v) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) MPI_Recv(v, 1, MPI_INT, (me - 1) / 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const int left = 2 * me + 1 < p ? 2 * me + 1 : MPI_PROC_NULL;
  const int right = 2 * me + 2 < p ? 2 * me + 2 : MPI_PROC_NULL;
  MPI_Send(v, 1, MPI_INT, left, 0, MPI_COMM_WORLD);
  MPI_Send(v, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
}
// CHECK:      void tree_bcast(int *v) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(MPI_COMM_WORLD, &me);
// CHECK-NEXT:   MPI_Comm_size(MPI_COMM_WORLD, &p);
// CHECK-NEXT:   MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
// CHECK-NEXT: }
