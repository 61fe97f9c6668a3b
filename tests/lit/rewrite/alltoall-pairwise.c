// A pairwise alltoall in a time-step loop: in step s rank me sends block
// `to` of `out` and receives block `from` of `in`. The exchange loop (its
// variable drives the peers and offsets) becomes MPI_Alltoall; the copy of
// the own block before it and the time-step loop stay.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoall count=4 instances=3 bytes_per_instance=64' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-alltoall: proposed prog.c:{{.*}} -> MPI_Alltoall(out, BLOCK, MPI_INT, in, BLOCK, MPI_INT, MPI_COMM_WORLD);
#include <mpi.h>

#define BLOCK 4

void transpose(int *out, int *in, int me, int p, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < BLOCK; i++) in[me * BLOCK + i] = out[me * BLOCK + i];
    for (int s = 1; s < p; s++) {
      int to = (me + s) % p, from = (me - s + p) % p;
      MPI_Sendrecv(out + to * BLOCK, BLOCK, MPI_INT, to, 0, in + from * BLOCK, BLOCK, MPI_INT, from, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
}
// CHECK:        for (int t = 0; t < steps; t++) {
// CHECK-NEXT:     for (int i = 0; i < BLOCK; i++) in[me * BLOCK + i] = out[me * BLOCK + i];
// CHECK-NEXT:     MPI_Alltoall(out, BLOCK, MPI_INT, in, BLOCK, MPI_INT, MPI_COMM_WORLD);
// CHECK-NEXT:   }
// CHECK-NEXT: }
