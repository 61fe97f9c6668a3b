// A gather in a helper whose count is the helper's own parameter: the
// patch passes `sendcount`, never the 3 elements the trace shows; the
// root's copy of its own block is kept before the call.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gather root=1 count=3' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=WHY < %t/p/01-gather.md
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// The probe hashes the root's whole receive buffer only: count per rank:
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "all",
// EFFECT-NEXT:   "count": "sendcount",
// EFFECT-NEXT:   "datatype": "MPI_INT",
// EFFECT-NEXT:   "comm": "comm",
// EFFECT-NEXT:   "root": "root",
// EFFECT-NEXT:   "per_rank_blocks": true
// EFFECT-NEXT: },
// EFFECT-NEXT: "effect_reason": "",
// SUMMARY: 01-gather: proposed prog.c:{{.*}} -> MPI_Gather(mine, sendcount, MPI_INT, all, sendcount, MPI_INT, root, comm);
// WHY: - count: sendcount (the same expression at every send, unchanged across the region)
// WHY: - root: root (the peer every send names; the trace shows 1)
// WHY: collectivize verify 01-gather.diff --run 'mpirun -np 3 ./app' -- mpirun -np 4 ./app
#include <mpi.h>

void gather_ints(const int *mine, int sendcount, int *all, int root, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == root) {
    for (int i = 0; i < sendcount; i++) all[root * sendcount + i] = mine[i];
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Recv(all + q * sendcount, sendcount, MPI_INT, q, 5, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, sendcount, MPI_INT, root, 5, comm);
  }
}
// CHECK:      void gather_ints(const int *mine, int sendcount, int *all, int root, MPI_Comm comm) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(comm, &me);
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   if (me == root) {
// CHECK-NEXT:     for (int i = 0; i < sendcount; i++) all[root * sendcount + i] = mine[i];
// CHECK-NEXT:   }
// CHECK-NEXT:   MPI_Gather(mine, sendcount, MPI_INT, all, sendcount, MPI_INT, root, comm);
// CHECK-NEXT: }
