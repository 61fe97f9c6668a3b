// A ring broadcast from any root (the shape of a course's myMPI_Bcast,
// nchalmer/CMDA3634SP18 L09): every rank but the root receives from the
// previous rank; the variable `prev` (the rank before the root) is
// declared between the receive and the send and read by the code the
// patch keeps (`if (root == 0) prev = ...`, `if (rank != prev)`). The
// patch once dropped its declaration as bookkeeping and kept its uses: it
// did not compile. Now the declaration moves after the call with them
// (review), the patched program builds and prints what the original does.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=2 count=1 datatype="MPI_INT"' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck --check-prefix=DIFF %s < %t/p/01-bcast.diff
// RUN: mkdir -p %t/patched && cp %s %t/patched/prog.c && cd %t/patched && git apply %t/p/01-bcast.diff
// RUN: %mpicc %s -o %t/original && %mpicc %t/patched/prog.c -o %t/with-patch
// RUN: %mpirun -np 4 %t/original | sort > %t/original.out
// RUN: %mpirun -np 4 %t/with-patch | sort | diff %t/original.out -
// CHECK: 01-bcast: review
// CHECK-SAME: MPI_Bcast(value, 1, MPI_INT, root, MPI_COMM_WORLD);
// CHECK: review: work between the messages is moved after the collective call: int prev = root - 1;
// DIFF: +  MPI_Bcast(value, 1, MPI_INT, root, MPI_COMM_WORLD);
// DIFF-NOT: -  int prev
#include <mpi.h>
#include <stdio.h>

static void ring_bcast(int *value, int root) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != root) {
    int from = rank == 0 ? size - 1 : rank - 1;
    MPI_Recv(value, 1, MPI_INT, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  int prev = root - 1;
  if (root == 0) prev = size - 1;
  if (rank != prev) {
    int to = rank == size - 1 ? 0 : rank + 1;
    MPI_Send(value, 1, MPI_INT, to, 4, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int root = 0; root < size; root++) {
    int v = rank == root ? 100 + root : -1;
    ring_bcast(&v, root);
    printf("root %d rank %d value %d\n", root, rank, v);
  }
  MPI_Finalize();
  return 0;
}
