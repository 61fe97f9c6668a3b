// A send of one scalar variable that the loop around it sets anew from
// iteration to iteration (the site record's "value_varies"): equal
// messages from it are equal by chance of the process count (LLNL's
// mpi_mm.f sends each worker its column count so: at 8 ranks every count
// is 1), which the detector must not take for a broadcast. Values the loop
// does not change, and sends of other buffers, get no record.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
#include <mpi.h>

void counts(int p, int total, double *a) {
  int ave = total / (p - 1), extra = total % (p - 1), offset = 0, rows, n;
  for (int dest = 1; dest < p; dest++) {
    rows = (dest <= extra) ? ave + 1 : ave;
    n = total / p;
    MPI_Send(&offset, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"callee":"MPI_Send",{{.*}}"value_varies":{"variable":"offset","line":[[@LINE+6]],"column":5,"assignment":"offset = offset + rows","follows":"self"}
    MPI_Send(&rows, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],{{.*}}"value_varies":{"variable":"rows","line":[[@LINE-5]],"column":5,"assignment":"rows = (dest <= extra) ? ave + 1 : ave","follows":"peer"}
    MPI_Send(&n, 1, MPI_INT, dest, 1, MPI_COMM_WORLD);
// CHECK-NOT: value_varies
// CHECK-NEXT: "line":[[@LINE-2]],{{.*}}"callee":"MPI_Send"
    offset = offset + rows;
  }
  for (int q = 1; q < p; q++) {
    int first = q * 4;
    double scale = first * 0.5;
    MPI_Send(&scale, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"value_varies":{"variable":"scale","line":[[@LINE-2]],"column":5,"assignment":"double scale = first * 0.5","follows":"loop"}
    MPI_Send(a, 4, MPI_DOUBLE, q, 3, MPI_COMM_WORLD);
// CHECK-NOT: value_varies
// CHECK-NEXT: "line":[[@LINE-2]],{{.*}}"callee":"MPI_Send"
  }
}

void chunks(int p, int chunk, double *data) {
  int offset = chunk;
  for (int dest = 1; dest < p; dest++) {
    MPI_Send(&offset, 1, MPI_INT, dest, 4, MPI_COMM_WORLD);
// CHECK: "line":[[@LINE-1]],{{.*}}"value_varies":{"variable":"offset","line":[[@LINE+2]],"column":5,"assignment":"offset = offset + chunk","follows":"self"}
    MPI_Send(&data[offset], chunk, MPI_DOUBLE, dest, 5, MPI_COMM_WORLD);
    offset = offset + chunk;
  }
}
