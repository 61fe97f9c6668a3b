// Gathervs whose counts the source does not show equal to what each rank
// sends: the patch is the call on the program's arrays, for review, and
// the reason says what stopped the evaluation (ArrayFills.h): counts the
// root receives into its array (written through their address), counts
// filled under a condition, counts of a value the function is handed, and
// displacements that overlap the blocks. An alltoallv whose receives are
// posted for more than their peers send: the counts evaluate, and differ.
// Counts in a global array (other functions may set it), and a root that
// counts bytes where the members count doubles.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gatherv root=0 count=1 lines=40-45' 'gatherv root=0 count=1 lines=58-63' 'gatherv root=0 count=1 lines=75-80' 'gatherv root=0 count=1 lines=91-96' 'alltoallv count=1 lines=106-110' 'gatherv root=0 count=1 lines=121-126' 'gatherv root=0 count=1 lines=137-142' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is written through its address (line 37))
// CHECK: 02-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`counts` is written by a statement that is no plain fill at the function's top level (line 55))
// CHECK: 03-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`n` is not evaluated)
// CHECK: 04-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (the root's blocks overlap at P = 3 with root 0)
// CHECK: 05-alltoallv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (at P = 2 rank 0 receives rc[1] = 4 elements from rank 1, which sends it sc[0] = 2): MPI_Alltoallv needs them equal
// CHECK: 06-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`shared_counts` is not a local array: its elements may be set where the function does not show)
// CHECK: 07-gatherv: review
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (the root's messages are in MPI_BYTE and the other ranks' in MPI_DOUBLE: counts of different datatypes do not compare)
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

// Counts in a global array, which other functions may change.
int shared_counts[64], shared_displs[64];
void global_counts(const double *mine, double *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  for (int q = 0; q < p; q++) shared_counts[q] = q % 3 + 1, shared_displs[q] = 3 * q;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + shared_displs[q], shared_counts[q], MPI_DOUBLE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}

// The root counts bytes, the members send doubles.
void bytes_and_doubles(const double *mine, char *all, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int n = me % 3 + 1;
  int counts[64], displs[64];
  for (int q = 0; q < p; q++) counts[q] = 8 * (q % 3 + 1), displs[q] = 24 * q;
  if (me == 0) {
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_BYTE, q, 4, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 4, comm);
  }
}
