// Blocks at their ranks' places, but the root's array has room for three
// blocks of two and the trace shows four ranks: MPI_Gather would write 32
// bytes into 24. No patch, the file untouched.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gather root=0 count=2 bytes_per_instance=32' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-gather: none
// CHECK-NEXT: no patch: 'all' is declared with 24 bytes (line {{[0-9]+}}), and the collective writes 32 bytes there (4 blocks, one per rank)
#include <mpi.h>

void collect(int *mine, int me, int p) {
  int all[6];
  if (me == 0) {
    all[0] = mine[0];
    all[1] = mine[1];
    for (int q = 1; q < p; q++) MPI_Recv(all + q * 2, 2, MPI_INT, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, 2, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
}
