// Gathervs whose counts the source does not show equal to what each rank
// sends: the patch is the call on the program's arrays, for review, and
// the reason says what stopped the evaluation (ArrayFills.h): counts the
// root receives into its array (written through their address), counts
// filled under a condition, counts of a value the function is handed, and
// displacements that overlap the blocks. An alltoallv whose receives are
// posted for more than their peers send: the counts evaluate, and differ.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gatherv root=0 count=1 lines=34-39' 'gatherv root=0 count=1 lines=52-57' 'gatherv root=0 count=1 lines=69-74' 'gatherv root=0 count=1 lines=85-90' 'alltoallv count=1 lines=100-104' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is written through its address (line 31))
// CHECK: 02-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is written by a statement that is no plain fill at the function's top level (line 49))
// CHECK: 03-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`n` is not evaluated)
// CHECK: 04-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (the root's blocks overlap at P = 3 with root 0)
// CHECK: 05-alltoallv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (at P = 2 rank 0 receives rc[1] = 4 elements from rank 1, which sends it sc[0] = 2): MPI_Alltoallv needs them equal
#include <mpi.h>

void received(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int counts[64], displs[64];
  counts[0] = 1;
  for (int q = 1; q < p; q++) MPI_Recv(&counts[q], 1, MPI_INT, q, 1, comm, MPI_STATUS_IGNORE);
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

void conditional(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int counts[64], displs[64];
  for (int q = 0; q < p; q++)
    if (q < 64) counts[q] = q % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

void handed(const double *mine, double *all, int base, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = base + me % 3;
  int counts[64], displs[64];
  for (int q = 0; q < p; q++) counts[q] = base + q % 3;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

void overlapping(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int counts[64], displs[64];
  for (int q = 0; q < p; q++) counts[q] = q % 3 + 1;
  for (int q = 0; q < p; q++) displs[q] = q;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

// An alltoallv whose receives are posted for 4 elements whatever arrives.
void posted_for_more(const int *out, int *in, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int sc[64], sd[64], rc[64], rd[64];
  for (int q = 0; q < p; q++) sc[q] = (me + q) % 3 + 1, rc[q] = 4, sd[q] = 3 * q, rd[q] = 4 * q;
  MPI_Request req[128];
  int k = 0;
  for (int q = 0; q < p; q++) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 2, comm, &req[k++]);
  for (int q = 0; q < p; q++) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 2, comm, &req[k++]);
  MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
}
