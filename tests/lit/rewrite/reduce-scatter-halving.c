// Recursive halving over the blocks of one buffer: in each round a rank
// sends its partner rank ^ mask the half of its range the partner keeps,
// receives the other half into a scratch buffer and adds it into the half
// it keeps, down to block `me`: proposed, MPI_Reduce_scatter_block into
// the scratch buffer, copied back to block `me`, its operation from the
// combine step (the detector leaves it open). Then undone by recursive
// doubling (Rabenseifner's allreduce): proposed, MPI_Allreduce in place
// over all p blocks. Refused, with the reason: masks from 1 up (each rank
// ends with another block than its own); halves received over the kept
// half (no combine step); halves copied rather than combined; the range
// start read after the loop; a receive buffer each round picks anew (the
// example's forwarding mode); a doubling that pairs the wrong halves; a
// trace that saw a permuted layout, another count or another operation.
// The same halving with MPI_Irecv, MPI_Isend and MPI_Waitall: proposed.
// Doubles summed in another order: for review.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce_scatter count=3 lines=69' 'reduce_scatter count=3 lines=90' 'reduce_scatter count=3 lines=110' 'reduce_scatter count=3 lines=129' 'reduce_scatter count=3 lines=149' 'reduce_scatter count=3 datatype=MPI_DOUBLE lines=169' 'allreduce count=12 lines=189,196' 'allreduce count=12 lines=215,222' 'reduce_scatter count=3 recv_layout=permuted lines=69' 'reduce_scatter count=4 lines=69' 'allreduce count=12 op=MPI_PROD lines=189,196' 'reduce_scatter count=3 lines=242' 'reduce_scatter count=3 lines=263-264' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// SUMMARY:      01-reduce_scatter: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// SUMMARY-NEXT: 02-reduce_scatter: none
// SUMMARY-NEXT:   no patch: at P = 4 rank 1 ends with block 2 of 'acc' holding every rank's block combined, but MPI_Reduce_scatter_block leaves rank i block i: the program reads the result where the halving left it, so the call cannot take its place
// SUMMARY-NEXT: 03-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the halving receives into acc + keep * B (line {{[0-9]+}}), not a scratch buffer named whole that a combine step adds into 'acc': the combining operation is not seen in the source
// SUMMARY-NEXT: 04-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the halving's loop (line {{[0-9]+}}) does not combine what arrives in 'in' into 'acc' element by element with an MPI operation (`for (i = 0; i < n; i++) acc[k + i] += in[i]`): the combining operation is not found in the source
// SUMMARY-NEXT: 05-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the halving leaves 'lo' as its last round set it, and the program reads it at line {{[0-9]+}}; the call would not set it
// SUMMARY-NEXT: 06-reduce_scatter: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, B, MPI_DOUBLE, MPI_SUM, comm);
// SUMMARY-NEXT:   review: the halving combines in its own order; the call's order may round the floating-point result differently
// SUMMARY-NEXT: 07-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, acc, p * B, MPI_INT, MPI_SUM, comm);
// SUMMARY-NEXT: 08-allreduce: none
// SUMMARY-NEXT:   no patch: at P = 4 rank 1 exchanges 6 elements with rank 0 at offset -3 (line {{[0-9]+}}): not a partner in the communicator
// SUMMARY-NEXT: 09-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the trace shows a rank keeping another block than its own (recv_layout permuted), which MPI_Reduce_scatter_block would not leave there
// SUMMARY-NEXT: 10-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the halving's blocks are B elements, which is not the 4 elements the trace shows
// SUMMARY-NEXT: 11-allreduce: none
// SUMMARY-NEXT:   no patch: the source combines with MPI_SUM but the traced values fit MPI_PROD only: the two disagree, so neither is trusted
// SUMMARY-NEXT: 12-reduce_scatter: none
// SUMMARY-NEXT:   no patch: the halving receives into 'into', a pointer each round sets anew (`forward ? acc + keep * B : in`, line {{[0-9]+}}): the rewriter does not follow which buffer it names, so no combine step is shown to add what arrives into 'acc'
// SUMMARY-NEXT: 13-reduce_scatter: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// SUMMARY-NEXT: 3 proposed, 1 to review, 9 without a patch
// EFFECT:      "id": "01-reduce_scatter",
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "acc + me * B",
// EFFECT-NEXT:   "count": "B",
// EFFECT:      "id": "07-allreduce",
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "acc",
// EFFECT-NEXT:   "count": "B",
#include <mpi.h>
#include <stdlib.h>

enum { B = 3 };

long rs_halving(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  long check = 0;
  for (int i = 0; i < B; i++) check += acc[me * B + i];
  free(acc), free(in);
  return check;
}

long rs_low_first(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = 1; mask < p; mask *= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  long check = acc[me * B];
  free(acc), free(in);
  return check;
}

long rs_forwards(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, acc + keep * B, half * B, MPI_INT, me ^ mask, 7,
                 comm, MPI_STATUS_IGNORE);
    lo = keep, blocks = half;
  }
  long check = acc[me * B];
  free(acc);
  return check;
}

long rs_copies(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] = in[i];
    lo = keep, blocks = half;
  }
  long check = acc[me * B];
  free(acc), free(in);
  return check;
}

long rs_reads_range(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  long check = lo;
  free(acc), free(in);
  return check;
}

double rs_doubles(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  double *acc = malloc(sizeof(double) * B * p), *in = malloc(sizeof(double) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 0.5 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_DOUBLE, me ^ mask, 7, in, half * B, MPI_DOUBLE, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] = acc[keep * B + i] + in[i];
    lo = keep, blocks = half;
  }
  double check = acc[me * B];
  free(acc), free(in);
  return check;
}

long ar_rabenseifner(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  for (int mask = 1; mask < p; mask *= 2) {
    int theirs = (me & mask) ? lo - blocks : lo + blocks;
    MPI_Sendrecv(acc + lo * B, blocks * B, MPI_INT, me ^ mask, 8, acc + theirs * B, blocks * B, MPI_INT, me ^ mask, 8,
                 comm, MPI_STATUS_IGNORE);
    lo = lo < theirs ? lo : theirs, blocks *= 2;
  }
  long check = acc[B * p - 1];
  free(acc), free(in);
  return check;
}

long ar_wrong_side(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, in, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int theirs = (me & mask) ? lo - blocks : lo + blocks;
    MPI_Sendrecv(acc + lo * B, blocks * B, MPI_INT, me ^ mask, 8, acc + theirs * B, blocks * B, MPI_INT, me ^ mask, 8,
                 comm, MPI_STATUS_IGNORE);
    lo = lo < theirs ? lo : theirs, blocks *= 2;
  }
  long check = acc[0];
  free(acc), free(in);
  return check;
}

long rs_picks_buffer(MPI_Comm comm, int forward) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p / 2; mask > 0; mask /= 2) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    int *into = forward ? acc + keep * B : in;
    MPI_Sendrecv(acc + give * B, half * B, MPI_INT, me ^ mask, 7, into, half * B, MPI_INT, me ^ mask, 7, comm,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < half * B && !forward; i++) acc[keep * B + i] += in[i];
    lo = keep, blocks = half;
  }
  long check = acc[me * B];
  free(acc), free(in);
  return check;
}

long rs_nonblocking(MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
  for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
  int lo = 0, blocks = p;
  for (int mask = p >> 1; mask > 0; mask >>= 1) {
    int half = blocks / 2, upper = (me & mask) != 0;
    int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
    MPI_Request req[2];
    MPI_Irecv(in, half * B, MPI_INT, me ^ mask, 7, comm, &req[0]);
    MPI_Isend(&acc[give * B], half * B, MPI_INT, me ^ mask, 7, comm, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < half * B; i++) acc[keep * B + i] = in[i] + acc[keep * B + i];
    lo = keep, blocks = half;
  }
  long check = acc[me * B + B - 1];
  free(acc), free(in);
  return check;
}

// CHECK:      long rs_halving(MPI_Comm comm) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(comm, &me);
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   int *acc = malloc(sizeof(int) * B * p), *in = malloc(sizeof(int) * B * p);
// CHECK-NEXT:   for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   {
// CHECK-NEXT:     MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:     for (int cz_i = 0; cz_i < B; cz_i++) acc[me * B + cz_i] = in[cz_i];
// CHECK-NEXT:   }
// CHECK-NEXT:   long check = 0;
// CHECK:      long ar_rabenseifner(MPI_Comm comm) {
// CHECK:        for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   MPI_Allreduce(MPI_IN_PLACE, acc, p * B, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:   long check = acc[B * p - 1];
// CHECK:      long rs_nonblocking(MPI_Comm comm) {
// CHECK:        for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   {
// CHECK-NEXT:     MPI_Reduce_scatter_block(acc, in, B, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:     for (int cz_i = 0; cz_i < B; cz_i++) acc[me * B + cz_i] = in[cz_i];
// CHECK-NEXT:   }
// CHECK-NEXT:   long check = acc[me * B + B - 1];
