// A function whose every point-to-point call takes its peers from its
// parameters counts as the program's own wrapper (the site database's
// call_path), even when it makes one MPI function's call more than once:
// here exchange() sends and receives once per neighbour (a halo step, as
// LLNL's mpi_wave.c update() does). A match through it is found by the
// caller's line, but the caller's one call stands for two MPI_Recv calls:
// no patch, with the reason, and no failure of the rewrite. Hermetic: mock
// mpi.h, a report by hand.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce root=3 count=1 datatype=MPI_DOUBLE op=MPI_SUM lines=22,25 callers=37,37' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p | FileCheck %s
// CHECK: 01-reduce: none
// CHECK-NEXT: no patch: the sites are in exchange (prog.c:18), which makes MPI_Recv more than once: its call at prog.c:37 stands for all of them, and a patch there cannot replace one
// CHECK: 0 proposed, 0 to review, 1 without a patch
#include <mpi.h>

void exchange(double *v, int n, int left, int right, int steps) {
  for (int i = 0; i < steps; i++) {
    if (left >= 0) {
      MPI_Send(&v[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
      MPI_Recv(&v[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (right >= 0) {
      MPI_Send(&v[n], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
      MPI_Recv(&v[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
}

int main(int argc, char **argv) {
  int me, p;
  double v[10] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  exchange(v, 8, me > 0 ? me - 1 : -1, me + 1 < p ? me + 1 : -1, 10);
  MPI_Finalize();
  return 0;
}
