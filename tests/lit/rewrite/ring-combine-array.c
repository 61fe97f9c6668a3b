// Rings that pass arrays around and combine each arriving block into an
// accumulator, element by element: MPI_Allreduce with the combine step's
// operation when the accumulator starts from what the ring sends first,
// the ring forwards what arrives (or its partial result, for an operation
// that counts a value twice once), and nothing reads the buffers the ring
// leaves holding another rank's block. A floating-point sum is one to
// review (another order of additions); anything else gets no patch, with
// the reason. A global accumulator may change in any call (refresh()).
// Neighbours two ranks apart (a ring only at odd sizes) are for review.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=61' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=75' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=91' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=104' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=117' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=131' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=144' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=157' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=169' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=181' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=195' 'allgather count=1 lines=207' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=225' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=238' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=EFFECT < %t/p/patches.json
// CHECK:      01-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT: 02-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, top, N, MPI_DOUBLE, MPI_MAX, comm);
// CHECK-NEXT: 03-allreduce: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_DOUBLE, MPI_SUM, comm);
// CHECK-NEXT:   review: the ring combines in its own order; MPI_Allreduce's order may round the floating-point result differently
// CHECK-NEXT: 04-allreduce: none
// CHECK-NEXT:   no patch: the ring's loop does `for (int i = 0; i < N; i++) acc[i] -= in[i]` (line {{[0-9]+}}) with its buffers, which is neither an element-wise MPI reduction operation (+, *, max, min, &, |, ^, &&, ||) of what arrives into 'acc' nor a forward, over the N elements the messages carry
// CHECK-NEXT: 05-allreduce: none
// CHECK-NEXT:   no patch: the ring leaves another rank's block in 'in', which the program reads at line {{[0-9]+}}; MPI_Allreduce leaves it as it was
// CHECK-NEXT: 06-allreduce: none
// CHECK-NEXT:   no patch: the ring combines what arrives into 'sum', but it does not start from the values the ring sends first ('pass', all N elements): not every value is combined once
// CHECK-NEXT: 07-allreduce: none
// CHECK-NEXT:   no patch: the ring sends its partial result 'sum' on, so each step combines values already combined: with MPI_SUM ranks are counted several times, which is no allreduce
// CHECK-NEXT: 08-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, bits, N, MPI_UNSIGNED, MPI_BOR, comm);
// CHECK-NEXT: 09-allreduce: none
// CHECK-NEXT:   no patch: the ring does not forward what arrives (no `pass = in` or copy of all N elements): it sends 'pass' again instead of passing every rank's block on
// CHECK-NEXT: 10-allreduce: none
// CHECK-NEXT:   no patch: the ring's loop (line {{[0-9]+}}) does not run over the size of comm, so it is not part of the region the patch would replace (line {{[0-9]+}} only): one MPI_Allreduce per step would combine again what is combined
// CHECK-NEXT: 11-allreduce: none
// CHECK-NEXT:   no patch: the ring combines what arrives in 'in' (int) into 'sum' (long): MPI_Allreduce combines in the type of the messages only
// CHECK-NEXT: 12-allgather: none
// CHECK-NEXT:   no patch: the ring combines what arrives into 'sum' with `sum += 2 * got` (line {{[0-9]+}}), which is no MPI reduction operation (+, *, max, min, &, |, ^, &&, ||)
// CHECK-NEXT: 13-allreduce: none
// CHECK-NEXT:   no patch: the ring combines what arrives into 'totals', but it does not start from the values the ring sends first ('pass', all N elements): not every value is combined once
// CHECK-NEXT: 14-allreduce: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:   review: the ring's neighbours (ahead and behind) are not seen to be the next and the previous rank of comm: check that every rank's block passes every rank once
// CHECK-NEXT: 3 proposed, 2 to review, 9 without a patch
// EFFECT:      "id": "01-allreduce",
// EFFECT:      "effect": {
// EFFECT-NEXT:   "buffer": "sum",
// EFFECT-NEXT:   "count": "N",
// EFFECT-NEXT:   "datatype": "MPI_INT",
// EFFECT-NEXT:   "comm": "comm",
// EFFECT-NEXT:   "root": null,
#include <math.h>
#include <mpi.h>
#include <string.h>

enum { N = 6 };

int ring_sum(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = seed * me + i;
  memcpy(pass, sum, sizeof pass);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 1, in, N, MPI_INT, (me + p - 1) % p, 1, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0] + sum[N - 1];
}

double ring_max(double seed, MPI_Comm comm) {
  int me, p;
  double top[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) top[i] = pass[i] = seed * me - i;
  for (int step = 0; step < p - 1; ++step) {
    MPI_Sendrecv(pass, N, MPI_DOUBLE, (me + 1) % p, 2, in, N, MPI_DOUBLE, (me + p - 1) % p, 2, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) {
      top[i] = fmax(top[i], in[i]);
      pass[i] = in[i];
    }
  }
  return top[0];
}

double ring_sum_double(double seed, MPI_Comm comm) {
  int me, p;
  double sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_DOUBLE, (me + 1) % p, 3, in, N, MPI_DOUBLE, (me + p - 1) % p, 3, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] = sum[i] + in[i];
    memcpy(pass, in, N * sizeof(double));
  }
  return sum[0];
}

int ring_difference(int seed, MPI_Comm comm) {
  int me, p, acc[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) acc[i] = pass[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 4, in, N, MPI_INT, (me + p - 1) % p, 4, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) acc[i] -= in[i];
    memcpy(pass, in, sizeof pass);
  }
  return acc[0];
}

int ring_reads_last_block(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 5, in, N, MPI_INT, (me + p - 1) % p, 5, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0] + in[0];
}

int ring_sum_from_zero(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) pass[i] = seed + me;
  memset(sum, 0, sizeof sum);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 6, in, N, MPI_INT, (me + p - 1) % p, 6, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0];
}

int ring_partial_sums(int seed, MPI_Comm comm) {
  int me, p, sum[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(sum, N, MPI_INT, (me + 1) % p, 7, in, N, MPI_INT, (me + p - 1) % p, 7, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
  }
  return sum[0];
}

unsigned ring_partial_or(unsigned seed, MPI_Comm comm) {
  int me, p;
  unsigned bits[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) bits[i] = seed << me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(bits, N, MPI_UNSIGNED, (me + 1) % p, 8, in, N, MPI_UNSIGNED, (me + p - 1) % p, 8, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) bits[i] |= in[i];
  }
  return bits[0];
}

int ring_no_forward(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 9, in, N, MPI_INT, (me + p - 1) % p, 9, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
  }
  return sum[0];
}

int ring_three_steps(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed + me;
  for (int step = 0; step < 3; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 10, in, N, MPI_INT, (me + p - 1) % p, 10, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0];
}

long ring_wider_sum(int seed, MPI_Comm comm) {
  int me, p, pass[N], in[N];
  long sum[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 11, in, N, MPI_INT, (me + p - 1) % p, 11, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0];
}

int ring_scaled(int value, MPI_Comm comm) {
  int me, p, sum = value, pass = value, got = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(&pass, 1, MPI_INT, (me + 1) % p, 12, &got, 1, MPI_INT, (me + p - 1) % p, 12, comm, MPI_STATUS_IGNORE);
    sum += 2 * got;
    pass = got;
  }
  return sum;
}

int totals[N];
void refresh(void);

void ring_global_totals(const int *mine, MPI_Comm comm) {
  int me, p, pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  memcpy(totals, mine, sizeof totals);
  memcpy(pass, mine, sizeof pass);
  refresh();
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 13, in, N, MPI_INT, (me + p - 1) % p, 13, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) totals[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
}

int ring_two_apart(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int ahead = (me + 2) % p, behind = (me + p - 2) % p;
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed + me;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, ahead, 14, in, N, MPI_INT, behind, 14, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    memcpy(pass, in, sizeof pass);
  }
  return sum[0];
}
