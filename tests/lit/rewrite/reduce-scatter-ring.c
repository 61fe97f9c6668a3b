// Ring reduce-scatters over the blocks of one buffer: each rank sends block
// (me - s - 1) mod P of its partial results to the next rank and adds the
// block arriving from the previous one into block (me - s - 2) mod P, so
// rank i ends with block i holding every rank's block i summed: proposed,
// MPI_Reduce_scatter_block into the ring's receive buffer, copied back to
// block i, where the program reads it. Refused, with the reason: a ring
// that leaves rank i with block i+1; messages not every rank sends in
// every step (under a condition); reads of another (partial) block or
// of the receive buffer after the ring; a combine step that is no MPI
// operation; blocks of unequal counts (no recvcounts array the call could
// take); a trace that saw a rank keep another block than its own. Doubles
// summed in another order: for review.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=60' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=77' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=95' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=112' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=129' 'reduce_scatter count=4 datatype=MPI_DOUBLE status=ambiguous unproven=["reduction_op"] lines=146' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=161' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] recv_layout=permuted lines=174' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=208' 'reduce_scatter count=4 status=ambiguous unproven=["reduction_op"] lines=227' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// SUMMARY:      01-reduce_scatter: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// SUMMARY-NEXT: 02-reduce_scatter: none
// SUMMARY-NEXT:   no patch: at P = 2 rank 0 ends with block 1 of 'acc' holding every rank's block combined, but MPI_Reduce_scatter_block leaves rank i block i: the program reads the result where the ring left it, so the call cannot take its place
// SUMMARY-NEXT: 03-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the ring leaves partial results in the other blocks of 'acc', and the program reads acc[((me + 1) % p) * B] at line {{[0-9]+}}, which is not seen to lie in the block the rank ends with (MPI_Reduce_scatter_block leaves the other blocks as they were)
// SUMMARY-NEXT: 04-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the ring leaves the last block it received in 'in', which the program reads at line {{[0-9]+}}; the patch receives the result there
// SUMMARY-NEXT: 05-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the ring's loop does `for (int i = 0; i < B; i++) acc[got * B + i] -= in[i]` (line {{[0-9]+}}) with its buffers, which is not an element-wise MPI reduction operation of what arrives in 'in' into a block of 'acc' (`for (i = 0; i < n; i++) acc[k + i] += in[i]`)
// SUMMARY-NEXT: 06-reduce_scatter: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, B, MPI_DOUBLE, MPI_SUM, comm);
// SUMMARY-NEXT:   review: the ring combines in its own order; MPI_Reduce_scatter_block's order may round the floating-point result differently
// SUMMARY-NEXT: 07-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the ring's blocks have counts that change from step to step (counts[out]): blocks of unequal size are MPI_Reduce_scatter with a recvcounts array, which also needs the blocks in rank order one after another in 'acc'; the rewriter does not prove that layout: replace the ring by hand
// SUMMARY-NEXT: 08-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the trace shows a rank keeping another block than its own (recv_layout permuted), which the source's ring is not seen to do
// SUMMARY-NEXT: 09-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the ring's messages run under `if (me != 0)` (line {{[0-9]+}}): not every rank may send and receive in every step, which the evaluation of the ring assumes
// SUMMARY-NEXT: 10-reduce_scatter: none
// SUMMARY-NEXT:   no patch: at P = 3 rank 0 ends with no block k of 'acc' holding every rank's block k combined once: no reduce-scatter
// SUMMARY-NEXT: 1 proposed, 1 to review, 8 without a patch
// EFFECT:      "id": "01-reduce_scatter",
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "acc + me * B",
// EFFECT-NEXT:   "count": "B",
// EFFECT-NEXT:   "datatype": "MPI_INT",
// EFFECT-NEXT:   "comm": "comm",
// EFFECT-NEXT:   "root": null,
#include <mpi.h>
#include <stdlib.h>

enum { B = 4 };

long rs_sum(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, right, 5, in, B, MPI_INT, left, 5, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = 0;
  for (int i = 0; i < B; i++) check += acc[me * B + i];
  free(acc);
  return check;
}

long rs_shifted(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = 0;
  for (int i = 0; i < B; i++) check += acc[((me + 1) % p) * B + i];
  free(acc);
  return check;
}

long rs_reads_partial(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = acc[((me + 1) % p) * B];
  free(acc);
  return check;
}

long rs_reads_received(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = acc[me * B] + in[0];
  free(acc);
  return check;
}

long rs_subtracts(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] -= in[i];
  }
  long check = acc[me * B];
  free(acc);
  return check;
}

double rs_doubles(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  double *acc = malloc(sizeof(double) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 0.5 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_DOUBLE, (me + 1) % p, 5, in, B, MPI_DOUBLE, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] = acc[got * B + i] + in[i];
  }
  double check = acc[me * B];
  free(acc);
  return check;
}

void rs_unequal(int *acc, const int *counts, const int *starts, int *in, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + starts[out], counts[out], MPI_INT, (me + 1) % p, 5, in, counts[got], MPI_INT,
                 (me + p - 1) % p, 5, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < counts[got]; i++) acc[starts[got] + i] += in[i];
  }
}
long rs_trace_disagrees(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = acc[me * B];
  free(acc);
  return check;
}

// CHECK:      long rs_sum(MPI_Comm comm) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(comm, &me);
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   int *acc = malloc(sizeof(int) * B * p), in[B];
// CHECK-NEXT:   for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   {
// (right and left, which only the ring used, go with it)
// CHECK-NEXT:     MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:     for (int cz_i = 0; cz_i < B; cz_i++) acc[me * B + cz_i] = in[cz_i];
// CHECK-NEXT:   }
// CHECK-NEXT:   long check = 0;
// CHECK-NEXT:   for (int i = 0; i < B; i++) check += acc[me * B + i];
// CHECK-NEXT:   free(acc);
// CHECK-NEXT:   return check;
// CHECK-NEXT: }
long rs_conditional(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s - 1 + p) % p, got = (me - s - 2 + 2 * p) % p;
    if (me != 0)
      MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                   MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = acc[me * B];
  free(acc);
  return check;
}
// Refused too: a ring combining the block it receives into another index
// than the one it was sent from, so that block i ends with a contribution
// of every rank, but of other indices.
long rs_index_mismatch(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), in[B];
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  for (int s = 0; s < p - 1; s++) {
    int out = (me + s + 1) % p, got = (me + s + 2) % p; /* combines block j into block j + 1 */
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, in, B, MPI_INT, (me + p - 1) % p, 5, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) acc[got * B + i] += in[i];
  }
  long check = acc[me * B];
  free(acc);
  return check;
}
