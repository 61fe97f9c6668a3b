// Combining rings in C++ whose forward is std::copy or std::copy_n of all
// the elements that arrived, or std::swap of the send and receive
// pointers (each a `new` array of its own, deleted after the loop):
// MPI_Allreduce on the accumulator. A copy of fewer elements, one the
// other way round, or a function of the program's own named copy is no
// forward: no patch, with the reason.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.cpp -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=33' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=47' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=61' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=76' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=89' 'allreduce count=6 status=ambiguous unproven=["combined","relay_copied"] lines=109' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK:      01-allreduce: proposed prog.cpp:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT: 02-allreduce: proposed prog.cpp:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, top, N, MPI_LONG, MPI_MAX, comm);
// CHECK-NEXT: 03-allreduce: proposed prog.cpp:{{[0-9]+}}-{{[0-9]+}} -> MPI_Allreduce(MPI_IN_PLACE, sum, N, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT: 04-allreduce: none
// CHECK-NEXT:   no patch: the ring's loop does `std::copy(in, in + N - 1, pass)` (line {{[0-9]+}}) with its buffers, which is neither an element-wise MPI reduction operation (+, *, max, min, &, |, ^, &&, ||) of what arrives into 'sum' nor a forward, over the N elements the messages carry
// CHECK-NEXT: 05-allreduce: none
// CHECK-NEXT:   no patch: the ring's loop does `std::copy(pass, pass + N, in)` (line {{[0-9]+}}) with its buffers, which is neither an element-wise MPI reduction operation (+, *, max, min, &, |, ^, &&, ||) of what arrives into 'sum' nor a forward, over the N elements the messages carry
// CHECK-NEXT: 06-allreduce: none
// CHECK-NEXT:   no patch: the ring's loop does `mine::copy(in, in + N, pass)` (line {{[0-9]+}}) with its buffers, which is neither an element-wise MPI reduction operation (+, *, max, min, &, |, ^, &&, ||) of what arrives into 'sum' nor a forward, over the N elements the messages carry
// CHECK-NEXT: 3 proposed, 0 to review, 3 without a patch
#include <algorithm>
#include <mpi.h>

enum { N = 6 };

int copy_sum(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = seed * me + i;
  std::copy(sum, sum + N, pass);
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 1, in, N, MPI_INT, (me + p - 1) % p, 1, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    std::copy(in, in + N, pass);
  }
  return sum[0] + sum[N - 1];
}

long copy_n_max(long seed, MPI_Comm comm) {
  int me, p;
  long top[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) top[i] = pass[i] = seed * me - i;
  for (int step = 0; step < p - 1; step++) {
    MPI_Sendrecv(pass, N, MPI_LONG, (me + 1) % p, 2, in, N, MPI_LONG, (me + p - 1) % p, 2, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) top[i] = std::max(top[i], in[i]);
    std::copy_n(in, N, pass);
  }
  return top[0];
}

int std_swap_sum(int seed, MPI_Comm comm) {
  int me, p, sum[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  int *pass = new int[N], *in = new int[N];
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 3, in, N, MPI_INT, (me + p - 1) % p, 3, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    std::swap(pass, in);
  }
  delete[] pass;
  delete[] in;
  return sum[0];
}

int copy_short(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 4, in, N, MPI_INT, (me + p - 1) % p, 4, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    std::copy(in, in + N - 1, pass);
  }
  return sum[0];
}

int copy_back(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 5, in, N, MPI_INT, (me + p - 1) % p, 5, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    std::copy(pass, pass + N, in);
  }
  return sum[0];
}

namespace mine {
// The program's own copy: every other element only.
inline void copy(const int *from, const int *end, int *to) {
  for (; from < end; from += 2) *to++ = *from;
}
} // namespace mine

int own_copy(int seed, MPI_Comm comm) {
  int me, p, sum[N], pass[N], in[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < N; i++) sum[i] = pass[i] = seed * me + i;
  for (int step = 1; step < p; step++) {
    MPI_Sendrecv(pass, N, MPI_INT, (me + 1) % p, 6, in, N, MPI_INT, (me + p - 1) % p, 6, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) sum[i] += in[i];
    mine::copy(in, in + N, pass);
  }
  return sum[0];
}
