// A bcast in a function that never asks for its rank: the patch declares
// a rank variable of its own. Here the program's root is a parameter
// called cz_rank (the name the patch would take first), so the patch's
// variable is cz_rank2 and the root stays the program's.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=8' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast((cz_rank2 == cz_rank ? (void *)(src) : (void *)(dst)), n, MPI_DOUBLE, cz_rank, MPI_COMM_WORLD);
#include <mpi.h>

void share(const double *src, double *dst, int n, int cz_rank, int me, int p) {
  if (me == cz_rank) {
    for (int q = 0; q < p; q++)
      if (q != cz_rank) MPI_Send(src, n, MPI_DOUBLE, q, 3, MPI_COMM_WORLD);
  } else {
    MPI_Recv(dst, n, MPI_DOUBLE, cz_rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
// CHECK:      void share(const double *src, double *dst, int n, int cz_rank, int me, int p) {
// CHECK-NEXT:   {
// CHECK-NEXT:     int cz_rank2;
// CHECK-NEXT:     MPI_Comm_rank(MPI_COMM_WORLD, &cz_rank2);
// CHECK-NEXT:     MPI_Bcast((cz_rank2 == cz_rank ? (void *)(src) : (void *)(dst)), n, MPI_DOUBLE, cz_rank, MPI_COMM_WORLD);
// CHECK-NEXT:   }
// CHECK-NEXT: }
