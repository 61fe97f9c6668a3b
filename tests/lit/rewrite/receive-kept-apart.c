// A reduction whose messages deliver data the collective call would not:
// row sums by recursive doubling, then a swap of the row's sum into
// another array 't' that the program reads afterwards. Even reported as a
// confirmed allreduce (as the detector did before it asked for the last
// combine: detect/allreduce-rows-transpose.test), MPI_Allreduce into 'w'
// would leave 't' unset: no patch, naming the receive and the read. The
// same loop without the swap is patched (for review: a sum of doubles).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=64 op=MPI_SUM lines=27-35' 'allreduce count=64 op=MPI_SUM lines=46-48' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK:      01-allreduce: none
// CHECK-NEXT:   no patch: the messages deliver values the reduction does not combine: MPI_Irecv at line 33 receives into 't', read at line 36, while the collective call leaves its result in its accumulator only
// CHECK-NEXT: 02-allreduce: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, w, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// CHECK-NEXT:   review: the hand-made allreduce combines in its own order; MPI_Allreduce's order may round the floating-point result differently
#include <mpi.h>

enum { N = 64 };

double rows_then_swap(int me) {
  int first = me / 4 * 4, column = me % 4, across = me ^ 4;
  double w[N], q[N], t[N], checksum = 0;
  for (int j = 0; j < N; j++) w[j] = 0.5 * me + j;
  for (int i = 1; i <= 2; i++) {
    int partner = first + (column ^ (1 << (2 - i)));
    MPI_Request request;
    MPI_Irecv(q, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &request);
    MPI_Send(w, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int j = 0; j < N; j++) w[j] += q[j];
  }
  MPI_Request request;
  MPI_Irecv(t, N, MPI_DOUBLE, across, 1, MPI_COMM_WORLD, &request);
  MPI_Send(w, N, MPI_DOUBLE, across, 1, MPI_COMM_WORLD);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  for (int j = 0; j < N; j++) checksum += t[j];
  return checksum;
}

double butterfly(int me) {
  double w[N], q[N], checksum = 0;
  for (int j = 0; j < N; j++) w[j] = 0.5 * me + j;
  for (int i = 1; i <= 3; i++) {
    int partner = me ^ (1 << (3 - i));
    MPI_Request request;
    MPI_Irecv(q, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &request);
    MPI_Send(w, N, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int j = 0; j < N; j++) w[j] += q[j];
  }
  for (int j = 0; j < N; j++) checksum += w[j];
  return checksum;
}
