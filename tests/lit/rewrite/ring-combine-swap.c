// Combining rings whose forward swaps the send and receive pointers at the
// end of each step (`tmp = send; send = recv; recv = tmp;`): the block that
// arrived is the one the next step sends, as with a copy. MPI_Allreduce on
// the accumulator when each pointer starts at an allocation of its own or
// at an array of the function's (two distinct ones, followed under both
// names), is set nowhere else, the swap ends the step, the accumulator is
// neither of them and nothing reads them, their arrays or the swap's
// temporary after the loop; a floating-point sum is for review. Anything
// else gets no patch, with the reason: which buffer holds what after a
// swapping loop depends on the parity of P-1.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=63' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=83' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=103' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=121' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=140' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=159' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=177' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=196' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=216' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=234' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=251' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=267' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=285' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=301' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=318' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=PATCH < %t/p/01-allreduce.diff
// CHECK:      01-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT: 02-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, top, N, MPI_DOUBLE, MPI_MAX, comm);
// CHECK-NEXT: 03-allreduce: review prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_DOUBLE, MPI_SUM, comm);
// CHECK-NEXT:   review: the ring combines in its own order; MPI_Allreduce's order may round the floating-point result differently
// CHECK-NEXT: 04-allreduce: none
// CHECK-NEXT:   no patch: the ring leaves another rank's block in 'send', which the program reads at line {{[0-9]+}}; MPI_Allreduce leaves it as it was
// CHECK-NEXT: 05-allreduce: none
// CHECK-NEXT:   no patch: the ring combines into 'send' and then swaps it with 'recv', so a later step receives over what it combined: which buffer holds what after the loop depends on the parity of P-1, and no buffer is seen to end with every rank's values combined
// CHECK-NEXT: 06-allreduce: none
// CHECK-NEXT:   no patch: the ring swaps 'send' and 'recv' before its step ends (line {{[0-9]+}}): the rewriter reads swaps at the end only
// CHECK-NEXT: 07-allreduce: none
// CHECK-NEXT:   no patch: the ring swaps its buffers through 'tmp', which the program uses at line {{[0-9]+}}, outside the ring's loop
// CHECK-NEXT: 08-allreduce: none
// CHECK-NEXT:   no patch: the ring forwards what arrives into 'send' more than once per step
// CHECK-NEXT: 09-allreduce: none
// CHECK-NEXT:   no patch: the ring combines what arrives into 'sum', but it does not start from the values the ring sends first ('send', all N elements): not every value is combined once
// CHECK-NEXT: 10-allreduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT: 11-allreduce: none
// CHECK-NEXT:   no patch: the ring swaps 'send' and 'recv', but 'send' is also set at line {{[0-9]+}}: the values and the later reads of the memory it points to are not followed
// CHECK-NEXT: 12-allreduce: none
// CHECK-NEXT:   no patch: the ring leaves another rank's block in 'b', which the program reads at line {{[0-9]+}}; MPI_Allreduce leaves it as it was
// CHECK-NEXT: 13-allreduce: none
// CHECK-NEXT:   no patch: the address of 'a' is kept in another pointer (line {{[0-9]+}}): writes through it are not followed
// CHECK-NEXT: 14-allreduce: none
// CHECK-NEXT:   no patch: the ring swaps 'send' and 'recv', but 'recv' starts at the same array 'a' as 'send': the values and the later reads of the memory it points to are not followed
// CHECK-NEXT: 15-allreduce: none
// CHECK-NEXT:   no patch: the ring combines what arrives into 'sum', but it does not start from the values the ring sends first ('send', all N elements): not every value is combined once
// CHECK-NEXT: 3 proposed, 1 to review, 11 without a patch
// PATCH:      -    tmp = send;
// PATCH-NEXT: -    send = recv;
// PATCH-NEXT: -    recv = tmp;
// PATCH-NEXT: -  }
// PATCH-NEXT: +  MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// PATCH-NEXT:    free(send);
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { N = 6 };

int swap_sum(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 1, recv, N, MPI_INT, (me + p - 1) % p, 1, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  free(send);
  free(recv);
  return sum[0] + sum[N - 1];
}

double swap_max(double seed, MPI_Comm comm) {
  int me, p;
  double top[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  double *pass = malloc(sizeof(double) * N), *in = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) top[i] = seed * me - i;
  memcpy(pass, top, sizeof top);
  for (int step = 0; step < p - 1; ++step) {
    MPI_Sendrecv(pass, N, MPI_DOUBLE, (me + 1) % p, 2, in, N, MPI_DOUBLE, (me + p - 1) % p, 2, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
      if (in[i] > top[i]) top[i] = in[i];
    double *t = pass;
    pass = in;
    in = t;
  }
  free(pass);
  free(in);
  return top[0];
}

double swap_sum_double(double seed, MPI_Comm comm) {
  int me, p;
  double sum[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  double *pass = malloc(sizeof(double) * N), *in = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_DOUBLE, (me + 1) % p, 3, in, N, MPI_DOUBLE, (me + p - 1) % p, 3, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    double *t = in;
    in = pass;
    pass = t;
  }
  free(pass);
  free(in);
  return sum[0];
}

int swap_reads_send_after(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 4, recv, N, MPI_INT, (me + p - 1) % p, 4, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  int last = send[0];
  free(send);
  free(recv);
  return sum[0] + last;
}

int swap_accumulator(int seed, MPI_Comm comm) {
  int me, p, *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 5, recv, N, MPI_INT, (me + p - 1) % p, 5, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) send[i] |= recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  int r = send[0];
  free(send);
  free(recv);
  return r;
}

int swap_before_combine(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 6, recv, N, MPI_INT, (me + p - 1) % p, 6, comm, MPI_STATUS_IGNORE);
    tmp = send;
    send = recv;
    recv = tmp;
    for (int i = 0; i < N; i++) sum[i] += recv[i];
  }
  free(send);
  free(recv);
  return sum[0];
}

int swap_temp_kept(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 7, recv, N, MPI_INT, (me + p - 1) % p, 7, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  int before = tmp ? tmp[0] : 0;
  free(send);
  free(recv);
  return sum[0] + before;
}

int swap_and_copy(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 8, recv, N, MPI_INT, (me + p - 1) % p, 8, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    memcpy(send, recv, N * sizeof(int));
    tmp = send;
    send = recv;
    recv = tmp;
  }
  free(send);
  free(recv);
  return sum[0];
}

int swap_sum_from_zero(int seed, MPI_Comm comm) {
  int me, p, sum[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  for (int i = 0; i < N; i++) send[i] = seed * me + i;
  memset(sum, 0, sizeof sum);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 9, recv, N, MPI_INT, (me + p - 1) % p, 9, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  free(send);
  free(recv);
  return sum[0];
}

int swap_own_arrays(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], b[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = a, *recv = b;
  for (int i = 0; i < N; i++) sum[i] = a[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 10, recv, N, MPI_INT, (me + p - 1) % p, 10, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0];
}

int swap_repointed(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = malloc(sizeof(int) * N), *recv = malloc(sizeof(int) * N);
  send = a;
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 11, recv, N, MPI_INT, (me + p - 1) % p, 11, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0] + a[0];
}

int swap_arrays_read_after(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], b[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = a, *recv = b;
  for (int i = 0; i < N; i++) sum[i] = a[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 12, recv, N, MPI_INT, (me + p - 1) % p, 12, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0] + b[0];
}

int swap_arrays_kept(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], b[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = a, *recv = b;
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  int *first = a;
  first[0] = 99;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 13, recv, N, MPI_INT, (me + p - 1) % p, 13, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0];
}

int swap_same_array(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = a, *recv = a;
  for (int i = 0; i < N; i++) sum[i] = a[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 14, recv, N, MPI_INT, (me + p - 1) % p, 14, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0];
}

int swap_arrays_changed(int seed, MPI_Comm comm) {
  int me, p, sum[N], a[N], b[N], *tmp;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *send = a, *recv = b;
  for (int i = 0; i < N; i++) sum[i] = send[i] = seed * me + i;
  a[0] += 1;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(send, N, MPI_INT, (me + 1) % p, 15, recv, N, MPI_INT, (me + p - 1) % p, 15, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += recv[i];
    tmp = send;
    send = recv;
    recv = tmp;
  }
  return sum[0];
}
