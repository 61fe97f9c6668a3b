// A dissemination barrier: empty messages to me + dist, from me - dist.
// Nothing they carry is read: MPI_Barrier on the communicator written.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'barrier' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// No buffer: the probe only counts calls:
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": null,
// EFFECT-NEXT:   "count": null,
// EFFECT-NEXT:   "datatype": null,
// EFFECT-NEXT:   "comm": "comm",
// EFFECT-NEXT:   "root": null,
// EFFECT-NEXT:   "per_rank_blocks": false
// EFFECT-NEXT: },
// EFFECT-NEXT: "effect_reason": "",
// SUMMARY: 01-barrier: proposed prog.c:{{.*}} -> MPI_Barrier(comm);
#include <mpi.h>

void sync_all(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int dist = 1; dist < p; dist <<= 1)
    MPI_Sendrecv(NULL, 0, MPI_BYTE, (me + dist) % p, 8, NULL, 0, MPI_BYTE, (me - dist + p) % p, 8, comm,
                 MPI_STATUS_IGNORE);
}
// CHECK:        MPI_Comm_size(comm, &p);
// CHECK-NEXT:   MPI_Barrier(comm);
// CHECK-NEXT: }
