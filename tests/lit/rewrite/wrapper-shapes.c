// Wrapper matches at hand-made callers (hermetic: mock mpi.h, a report by
// hand). A wrapper returning MPI's code the callers ignore, its
// communicator a global, is patched at the callers; so is a count it
// computes from its parameter (`2 * pairs`: `2 * 8`). A call in its
// arguments, a nonblocking call, a line calling the wrapper twice, a caller
// with its own variable named like the wrapper's communicator: no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=16 lines=33,34 callers=42,44' 'bcast root=0 count=16 lines=35,34 callers=52,50' 'bcast root=0 count=16 lines=36,34 callers=60,58' 'bcast root=0 count=16 lines=37,34 callers=68,66' 'bcast root=0 count=16 lines=33,34 callers=74,76' 'bcast root=0 count=16 lines=33,34 callers=83,85' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s
// RUN: FileCheck --check-prefix=PATCHED %s < %t/prog.c
// CHECK: 01-bcast: proposed prog.c:40-45 -> MPI_Bcast(table, 16, MPI_INT, root, world);
// CHECK-NEXT: 02-bcast: proposed prog.c:49-53 -> MPI_Bcast(table, 2 * 8, MPI_INT, 0, world);
// (send_pairs's count `2 * pairs` with the caller's 8 for `pairs`.)
// CHECK-NEXT: 03-bcast: none
// CHECK-NEXT: no patch: send_tagged (prog.c:36) calls a function in the arguments of its MPI_Send: `next_tag()` (prog.c:36)
// CHECK-NEXT: 04-bcast: none
// CHECK-NEXT: no patch: isend_int (prog.c:37) wraps MPI_Isend, a nonblocking call: its request is completed elsewhere
// CHECK-NEXT: 05-bcast: none
// CHECK-NEXT: no patch: prog.c:74 calls send_int more than once, and the trace does not say which call is the site
// CHECK-NEXT: 06-bcast: none
// CHECK-NEXT: no patch: the communicator of send_int (prog.c:33)'s MPI_Send names `world`, which the caller declares as a variable of its own: at the caller it would name that one
// CHECK-NEXT: 2 proposed, 0 to review, 4 without a patch
// PATCHED: void accepted(int *table, int me, int p, int root) {
// PATCHED-NEXT: MPI_Bcast(table, 16, MPI_INT, root, world);
// PATCHED-NEXT: }
// PATCHED: int send_int(const int *buf, int n, int to) { return MPI_Send(buf, n, MPI_INT, to, 0, world); }
#include <mpi.h>

MPI_Comm world; /* set once by the program: every wrapper's communicator */
int next_tag(void);

int send_int(const int *buf, int n, int to) { return MPI_Send(buf, n, MPI_INT, to, 0, world); }
void recv_int(int *buf, int n, int from) { MPI_Recv(buf, n, MPI_INT, from, 0, world, MPI_STATUS_IGNORE); }
void send_pairs(const int *buf, int pairs, int to) { MPI_Send(buf, 2 * pairs, MPI_INT, to, 0, world); }
void send_tagged(const int *buf, int n, int to) { MPI_Send(buf, n, MPI_INT, to, next_tag(), world); }
void isend_int(const int *buf, int n, int to, MPI_Request *r) { MPI_Isend(buf, n, MPI_INT, to, 0, world, r); }

void accepted(int *table, int me, int p, int root) {
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) send_int(table, 16, q); /* CALLER-A-SEND */
  } else {
    recv_int(table, 16, root); /* CALLER-A-RECV */
  }
}

void computed_count(int *table, int me, int p) {
  if (me == 0) {
    for (int q = 1; q < p; q++) send_pairs(table, 8, q); /* CALLER-B-SEND */
  } else {
    recv_int(table, 16, 0); /* CALLER-B-RECV */
  }
}

void call_in_arguments(int *table, int me, int p) {
  if (me == 0) {
    for (int q = 1; q < p; q++) send_tagged(table, 16, q); /* CALLER-C-SEND */
  } else {
    recv_int(table, 16, 0); /* CALLER-C-RECV */
  }
}

void nonblocking(int *table, int me, int p, MPI_Request *reqs) {
  if (me == 0) {
    for (int q = 1; q < p; q++) isend_int(table, 16, q, &reqs[q]); /* CALLER-D-SEND */
  } else {
    recv_int(table, 16, 0); /* CALLER-D-RECV */
  }
}

void two_on_a_line(int *table, int me, int p) {
  if (me == 0) {
    for (int q = 1; q < p; q++) { send_int(table, 8, q); send_int(table + 8, 8, q); } /* CALLER-E-SEND */
  } else {
    recv_int(table, 16, 0); /* CALLER-E-RECV */
  }
}

void shadowed(int *table, int me, int p) {
  int world = p; /* the caller's own `world` */
  if (me == 0) {
    for (int q = 1; q < world; q++) send_int(table, 16, q); /* CALLER-F-SEND */
  } else {
    recv_int(table, 16, 0); /* CALLER-F-RECV */
  }
}
