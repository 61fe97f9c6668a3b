// Recursive doubling: each round exchanges with rank me ^ dist and keeps
// the larger values (`if (in[i] > v[i]) v[i] = in[i]`): MPI_Allreduce with
// MPI_MAX in place on `v`.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=2' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// SUMMARY: 01-allreduce: proposed prog.c:{{.*}} -> MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#include <mpi.h>

void maxima(int v[2], int me, int p) {
  int in[2];
  for (int dist = 1; dist < p; dist <<= 1) {
    MPI_Sendrecv(v, 2, MPI_INT, me ^ dist, 3, in, 2, MPI_INT, me ^ dist, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2; i++)
      if (in[i] > v[i]) v[i] = in[i];
  }
}
// CHECK:      void maxima(int v[2], int me, int p) {
// CHECK-NEXT:   MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
// CHECK-NEXT: }
