// A direct scatterv: the root (the last rank) sends rank q the block at
// all + displs[q], counts[q] elements, and every other rank receives its
// n elements: MPI_Scatterv on the program's own arrays, the root's block
// left where it is (MPI_IN_PLACE: the original root never copied it).
// Proposed when counts[q] at the root equals what rank q posts its
// receive for, both evaluated from the source (first function). A
// receive posted for more than arrives (64 elements, second function) is
// fine for MPI_Recv but not for MPI_Scatterv: a patch to review, saying so.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'scatterv root=3 count=2 counts=[2,3,1,null] lines=19-36' 'scatterv root=3 count=2 lines=38-54' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-scatterv: proposed prog.c:{{.*}} -> MPI_Scatterv(all, counts, displs, MPI_FLOAT, (me == root ? MPI_IN_PLACE : mine), n, MPI_FLOAT, root, comm);
// CHECK: 02-scatterv: review prog.c:{{.*}} -> MPI_Scatterv(all, counts, displs, MPI_FLOAT, (me == root ? MPI_IN_PLACE : mine), 64, MPI_FLOAT, root, comm);
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (the root sends counts[1] = 3 elements for rank 1, which receives 64 at P = 2 with root 0): MPI_Scatterv needs them equal
#include <mpi.h>
#include <stdlib.h>

void scatter_blocks(const float *all, float *mine, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int root = p - 1;
  int n = (me + 1) % 3 + 1;
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  for (int q = 0; q < p; q++) counts[q] = (q + 1) % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == root) {
    for (int q = 0; q < p - 1; q++)
      MPI_Send(all + displs[q], counts[q], MPI_FLOAT, q, 9, comm);
  } else {
    MPI_Recv(mine, n, MPI_FLOAT, root, 9, comm, MPI_STATUS_IGNORE);
  }
  free(counts), free(displs);
}

void posted_larger(const float *all, float *mine, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int root = p - 1;
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  for (int q = 0; q < p; q++) counts[q] = (q + 1) % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == root) {
    for (int q = 0; q < p - 1; q++)
      MPI_Send(all + displs[q], counts[q], MPI_FLOAT, q, 9, comm);
  } else {
    MPI_Recv(mine, 64, MPI_FLOAT, root, 9, comm, MPI_STATUS_IGNORE);
  }
  free(counts), free(displs);
}
