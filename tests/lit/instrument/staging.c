// A send whose buffer the function fills by a copy just before it, or a
// receive whose buffer it empties just after (the site record's
// "staging"): the detector reads a scatter sent through one temporary
// buffer, or a gather received into one scratch buffer, from it.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>
#include <string.h>

enum { N = 8 };

void staged(int me, int p, double *all, int n) {
  double tmp[N], scratch[N];
  for (int q = 1; q < p; q++) {
    memcpy(tmp, all + q * N, sizeof tmp);
    MPI_Send(tmp, N, MPI_DOUBLE, q, 0, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send",{{.*}}"staging":{"copy":"memcpy","line":[[@LINE-2]],"column":5,"buffer":"tmp","array":"all","offset":"q * N","offset_from":"peer"}}
  }
  for (int k = 1; k < p; k++) {
    MPI_Status st;
    MPI_Recv(scratch, N, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Recv",{{.*}}"staging":{"copy":"loop","line":[[@LINE+1]],"column":5,"buffer":"scratch","array":"all","offset":"st.MPI_SOURCE * n + i","offset_from":"source"}}
    for (int i = 0; i < n; i++) all[st.MPI_SOURCE * n + i] = scratch[i];
  }
  for (int k = 1; k < p; k++) {
    memcpy(&tmp[0], &all[k * n], n * sizeof(double));
    MPI_Send(&tmp[0], n, MPI_DOUBLE, (me + k) % p, 2, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"staging":{"copy":"memcpy","line":[[@LINE-2]],"column":5,"buffer":"&tmp[0]","array":"all","offset":"k * n","offset_from":"loop"}}
  }
  int next = 0;
  for (int k = 1; k < p; k++) {
    MPI_Status st;
    MPI_Recv(scratch, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"staging":{"copy":"memcpy",{{.*}}"offset":"next","offset_from":"other"}}
    memcpy(all + next, scratch, sizeof(double));
    next++;
  }
  // No copy (a send of the array itself: an address the peer chooses,
  // "peer_indexed"), and a copy that is not in the loop around the call:
  // no staging record.
  memcpy(tmp, all, sizeof tmp);
  for (int q = 1; q < p; q++) MPI_Send(all + q * N, N, MPI_DOUBLE, q, 4, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: "staging"
// CHECK-SAME: "peers":["loop"],"peer_indexed":{"layout":"offset","buffer":"all + q * N",{{.*}}}}
  MPI_Send(tmp, N, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send"
// CHECK-NOT: "staging"
// CHECK-SAME: "peers":["constant"]}
}
