// A ring allgather: in step s each rank passes on the block it received in
// step s - 1; every block lands at its owner's place in `all`, the own
// block is there already: MPI_Allgather in place, the send count and type
// repeating the receive side's (no constant the source never wrote).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgather count=8 datatype=MPI_LONG bytes_per_instance=64' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// Every rank's receive buffer, one block per rank:
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "all",
// EFFECT-NEXT:   "count": "n",
// EFFECT-NEXT:   "datatype": "MPI_LONG",
// EFFECT-NEXT:   "comm": "MPI_COMM_WORLD",
// EFFECT-NEXT:   "root": null,
// EFFECT-NEXT:   "per_rank_blocks": true
// EFFECT-NEXT: },
// EFFECT-NEXT: "effect_reason": "",
// SUMMARY: 01-allgather: proposed prog.c:{{.*}} -> MPI_Allgather(MPI_IN_PLACE, n, MPI_LONG, all, n, MPI_LONG, MPI_COMM_WORLD);
#include <mpi.h>

void ring(long *all, int n, int me, int p) {
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + out * n, n, MPI_LONG, right, 2, all + in * n, n, MPI_LONG, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
}
// CHECK:      void ring(long *all, int n, int me, int p) {
// CHECK-NEXT:   MPI_Allgather(MPI_IN_PLACE, n, MPI_LONG, all, n, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT: }
