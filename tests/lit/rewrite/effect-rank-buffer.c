// A bcast whose root sends from one buffer and whose receivers receive
// into another, in a function that never asks for its rank: the patch
// declares cz_rank itself, so the buffer holding the result names a
// variable the original code does not have. The effect is null, with that
// reason, and `verify` does not check it.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=8' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t/p/patches.json
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast((cz_rank == root ? (void *)(src) : (void *)(dst)), n, MPI_DOUBLE, root, MPI_COMM_WORLD);
// CHECK: "effect": null,
// CHECK-NEXT: "effect_reason": "the output buffer ((cz_rank == root ? (void *)(src) : (void *)(dst))) depends on the rank, which the code around the region does not name",
#include <mpi.h>

void share(const double *src, double *dst, int n, int root, int me, int p) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(src, n, MPI_DOUBLE, q, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(dst, n, MPI_DOUBLE, root, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
