// A pipelined chain broadcast: the array goes down the chain of ranks in
// SEGMENTS pieces. The count is the array's declared size N (each message
// carries SEG); the root is the 0 the source compares the rank with (the
// chain comes from the rank alone).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=1024 datatype=MPI_FLOAT' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// The probe `verify` puts after the region hashes data at every rank:
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "data",
// EFFECT-NEXT:   "count": "N",
// EFFECT-NEXT:   "datatype": "MPI_FLOAT",
// EFFECT-NEXT:   "comm": "MPI_COMM_WORLD",
// EFFECT-NEXT:   "root": null,
// EFFECT-NEXT:   "per_rank_blocks": false
// EFFECT-NEXT: },
// EFFECT-NEXT: "effect_reason": "",
// SUMMARY: 01-bcast: proposed prog.c:{{.*}} -> MPI_Bcast(data, N, MPI_FLOAT, 0, MPI_COMM_WORLD);
#include <mpi.h>

#define N 1024
#define SEGMENTS 4
#define SEG (N / SEGMENTS)

static float data[N];

void chain(int me, int p) {
  if (me == 0)
    for (int i = 0; i < N; i++) data[i] = (float)i;
  for (int s = 0; s < SEGMENTS; s++) {
    float *piece = data + s * SEG;
    if (me > 0) MPI_Recv(piece, SEG, MPI_FLOAT, me - 1, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me + 1 < p) MPI_Send(piece, SEG, MPI_FLOAT, me + 1, s, MPI_COMM_WORLD);
  }
}
// CHECK:      void chain(int me, int p) {
// CHECK-NEXT:   if (me == 0)
// CHECK-NEXT:     for (int i = 0; i < N; i++) data[i] = (float)i;
// CHECK-NEXT:   MPI_Bcast(data, N, MPI_FLOAT, 0, MPI_COMM_WORLD);
// CHECK-NEXT: }
