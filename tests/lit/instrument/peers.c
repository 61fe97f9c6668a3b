// How each peer argument of a point-to-point call is computed (the site
// record's "peers"): the detector tells a loop over the ranks from a
// neighbour list that, at a few ranks, reaches every rank.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>

static int next_of(int r, int p) { return (r + 1) % p; }

void peers(int me, int p, const int *nbr, int count, int partner, double *buf) {
  for (int q = 0; q < p; q++)
    MPI_Send(buf, 1, MPI_DOUBLE, q, 0, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send",{{.*}}"peers":["loop"]}
  for (int s = 1; s < p; s++) {
    int to = (me + s) % p, from = (me - s + p) % p;
    MPI_Sendrecv(buf, 1, MPI_DOUBLE, to, 1, buf + 1, 1, MPI_DOUBLE, from, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-2]],{{.*}}"callee":"MPI_Sendrecv",{{.*}}"peers":["loop","loop"]}
  }
  for (int k = 0; k < count; k++)
    MPI_Send(buf, 1, MPI_DOUBLE, nbr[k], 2, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["table"]}
  int left = (me + p - 1) % p;
  MPI_Send(buf, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["rank"]}
  MPI_Send(buf, 1, MPI_DOUBLE, partner, 4, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["parameter"]}
  MPI_Recv(buf, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["any"]}
  MPI_Send(buf, 1, MPI_DOUBLE, next_of(me, p), 6, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["call"]}
  MPI_Recv(buf, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"peers":["constant"]}
  MPI_Barrier(MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Barrier"
// CHECK-NOT: "peers":[
// CHECK-SAME: "file_hash":"{{[0-9a-f]+}}"}
}
