// A binomial-tree broadcast that computes each rank relative to `root`:
// the root is that variable (the peers are rank arithmetic, the tree's
// only comparison is with the relative rank).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=3 count=100' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(data, 100, MPI_INT, root, MPI_COMM_WORLD);
#include <mpi.h>

void tree_bcast(int *data, int root) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int rel = (me - root + p) % p;
  int mask = 1;
  while (mask < p) {
    if (rel & mask) {
      MPI_Recv(data, 100, MPI_INT, (me - mask + p) % p, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < p) MPI_Send(data, 100, MPI_INT, (me + mask) % p, 3, MPI_COMM_WORLD);
}
// CHECK:      MPI_Comm_size(MPI_COMM_WORLD, &p);
// CHECK-NEXT:   MPI_Bcast(data, 100, MPI_INT, root, MPI_COMM_WORLD);
// CHECK-NEXT: }
