// A binomial-tree sum to rank 0: each rank adds its children's partial sums
// and sends to its parent. The tree comes from the rank and the size alone,
// so its root is the 0 the source compares the rank with; the operation is
// the combine step's `+=`; the result stays in `sum`, where it was. A sum
// of doubles is for review (MPI_Reduce may add in another order, as the
// rings, halvings and chains say too); applied, it reads as below.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce root=0 count=1 datatype=MPI_DOUBLE' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: cd %t && git apply p/01-reduce.diff
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// The accumulator at the root:
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "&sum",
// EFFECT-NEXT:   "count": "1",
// EFFECT-NEXT:   "datatype": "MPI_DOUBLE",
// EFFECT-NEXT:   "comm": "MPI_COMM_WORLD",
// EFFECT-NEXT:   "root": "0",
// EFFECT-NEXT:   "per_rank_blocks": false
// EFFECT-NEXT: },
// EFFECT-NEXT: "effect_reason": "",
// SUMMARY: 01-reduce: review prog.c:{{.*}} -> MPI_Reduce(me == 0 ? MPI_IN_PLACE : &sum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
// SUMMARY-NEXT: review: the hand-made reduce combines in its own order; MPI_Reduce's order may round the floating-point result differently
#include <mpi.h>

double total(double sum) {
  int me, p;
  double in;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if (me & mask) {
      MPI_Send(&sum, 1, MPI_DOUBLE, me - mask, 6, MPI_COMM_WORLD);
      break;
    }
    if (me + mask < p) {
      MPI_Recv(&in, 1, MPI_DOUBLE, me + mask, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += in;
    }
  }
  return me == 0 ? sum : 0;
}
// CHECK:        MPI_Comm_size(MPI_COMM_WORLD, &p);
// CHECK-NEXT:   MPI_Reduce(me == 0 ? MPI_IN_PLACE : &sum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
// CHECK-NEXT:   return me == 0 ? sum : 0;
