// A gather whose root keeps no block of its own: rank q's block lands in
// slot q - 1 of an array with room for p - 1 blocks. MPI_Gather would put
// rank q's block in slot q and write p blocks: no patch, file untouched.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gather root=0 count=1 bytes_per_instance=16' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: cmp %s %t/prog.c
// CHECK: 01-gather: none
// CHECK-NEXT: no patch: the root receives rank q's block at all + (q - 1) (line {{[0-9]+}}), not at q * 1 where the collective keeps it: the blocks would land in other places (a root without a block of its own, or blocks shifted by one)
#include <mpi.h>

int collect(int mine, int me, int p) {
  int all[3], sum = 0;
  if (me == 0) {
    for (int q = 1; q < p; q++) MPI_Recv(all + (q - 1), 1, MPI_INT, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < p - 1; i++) sum += all[i];
  } else {
    MPI_Send(&mine, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  return sum;
}
