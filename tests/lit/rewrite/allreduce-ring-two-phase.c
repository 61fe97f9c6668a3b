// Two-phase ring allreduces over the blocks of one buffer: a ring that
// combines the arriving block into one of the rank's blocks (after which
// rank i holds block i summed), then a ring forwarding the summed blocks.
// Proposed: MPI_Allreduce in place over all P blocks, its count P * B
// from the source, its operation from the first loop's combine step (the
// trace left it open). Refused, with the reason: a second loop that
// stores each block one place off; a combine step with two operators;
// the scratch buffer read after the ring; messages of the second loop
// under a condition; a statement between the two loops; a trace whose
// values fit another operation than the source's, or whose count is not
// P blocks. Doubles summed in another order: for review.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=32-37' 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=52-58' 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=74-81' 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=97-103' 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=119-126' 'allreduce count=16 status=ambiguous unproven=["reduction_op"] lines=142-149' 'allreduce count=16 datatype=MPI_DOUBLE status=ambiguous unproven=["reduction_op"] lines=165-171' 'allreduce count=16 status=confirmed op=MPI_PROD lines=32-37' 'allreduce count=12 status=ambiguous unproven=["reduction_op"] lines=32-37' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
#include <mpi.h>
#include <stdlib.h>

enum { B = 4 };

long ar_sum(MPI_Comm comm) {
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
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, right, 5, acc + got * B, B, MPI_INT, left, 5, comm, MPI_STATUS_IGNORE);
  }
  long check = acc[B * p - 1];
  free(acc);
  return check;
}

long ar_wrong_block(MPI_Comm comm) {
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
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s + 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, acc + got * B, B, MPI_INT, (me + p - 1) % p, 5,
                 comm, MPI_STATUS_IGNORE);
  }
  long check = acc[0];
  free(acc);
  return check;
}

long ar_two_ops(MPI_Comm comm) {
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
    for (int i = 0; i < B; i++) acc[got * B + i] *= in[i];
  }
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, acc + got * B, B, MPI_INT, (me + p - 1) % p, 5,
                 comm, MPI_STATUS_IGNORE);
  }
  long check = acc[0];
  free(acc);
  return check;
}

long ar_reads_scratch(MPI_Comm comm) {
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
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, acc + got * B, B, MPI_INT, (me + p - 1) % p, 5,
                 comm, MPI_STATUS_IGNORE);
  }
  long check = acc[0] + in[0];
  free(acc);
  return check;
}

long ar_conditional(MPI_Comm comm) {
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
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    if (s != me)
      MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, acc + got * B, B, MPI_INT, (me + p - 1) % p, 5,
                   comm, MPI_STATUS_IGNORE);
  }
  long check = acc[0];
  free(acc);
  return check;
}

long ar_between(MPI_Comm comm) {
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
  long mine = acc[me * B];
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_INT, (me + 1) % p, 5, acc + got * B, B, MPI_INT, (me + p - 1) % p, 5,
                 comm, MPI_STATUS_IGNORE);
  }
  long check = acc[0] + mine;
  free(acc);
  return check;
}

double ar_doubles(MPI_Comm comm) {
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
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, got = (me - s - 1 + p) % p;
    MPI_Sendrecv(acc + out * B, B, MPI_DOUBLE, (me + 1) % p, 5, acc + got * B, B, MPI_DOUBLE, (me + p - 1) % p,
                 5, comm, MPI_STATUS_IGNORE);
  }
  double check = acc[0];
  free(acc);
  return check;
}
// SUMMARY:      01-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, acc, p * B, MPI_INT, MPI_SUM, comm);
// SUMMARY-NEXT: 02-allreduce: none
// SUMMARY-NEXT:   no patch: at P = 3 rank 0 ends with block 0 of 'acc' not holding every rank's block 0 combined once (rank 0's block 0 is in it 0 times): MPI_Allreduce leaves every block of every rank so
// SUMMARY-NEXT: 03-allreduce: none
// SUMMARY-NEXT:   no patch: the ring combines into 'acc' more than once per step
// SUMMARY-NEXT: 04-allreduce: none
// SUMMARY-NEXT:   no patch: the ring leaves the last block it received in 'in', which the program reads at line {{[0-9]+}}; MPI_Allreduce leaves it as it was
// SUMMARY-NEXT: 05-allreduce: none
// SUMMARY-NEXT:   no patch: the second loop's messages run under `if (s != me)` (line {{[0-9]+}}): not every rank may send and receive in every step, which the evaluation of the ring assumes
// SUMMARY-NEXT: 06-allreduce: none
// SUMMARY-NEXT:   no patch: the loop at line {{[0-9]+}} that forwards the combined blocks does not follow the combining loop at line {{[0-9]+}} directly: the call replacing both would drop or reorder what lies between them
// SUMMARY-NEXT: 07-allreduce: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, acc, p * B, MPI_DOUBLE, MPI_SUM, comm);
// SUMMARY-NEXT:   review: the ring combines in its own order; MPI_Allreduce's order may round the floating-point result differently
// SUMMARY-NEXT: 08-allreduce: none
// SUMMARY-NEXT:   no patch: the source combines with MPI_SUM but the traced values fit MPI_PROD only: the two disagree, so neither is trusted
// SUMMARY-NEXT: 09-allreduce: none
// SUMMARY-NEXT:   no patch: the ring's blocks are B elements, 4 of them are not the 12 elements the trace shows
// SUMMARY-NEXT: 1 proposed, 1 to review, 7 without a patch
// EFFECT:      "id": "01-allreduce",
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "acc",
// EFFECT-NEXT:   "count": "B",
// EFFECT-NEXT:   "datatype": "MPI_INT",
// EFFECT-NEXT:   "comm": "comm",
// EFFECT-NEXT:   "root": null,
// CHECK:      long ar_sum(MPI_Comm comm) {
// CHECK-NEXT:   int me, p;
// CHECK-NEXT:   MPI_Comm_rank(comm, &me);
// CHECK-NEXT:   MPI_Comm_size(comm, &p);
// CHECK-NEXT:   int *acc = malloc(sizeof(int) * B * p), in[B];
// CHECK-NEXT:   for (int i = 0; i < B * p; i++) acc[i] = me * 100 + i;
// CHECK-NEXT:   MPI_Allreduce(MPI_IN_PLACE, acc, p * B, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:   long check = acc[B * p - 1];
// CHECK-NEXT:   free(acc);
// CHECK-NEXT:   return check;
// CHECK-NEXT: }
