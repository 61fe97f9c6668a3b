/* allreduce_hypercube_bytes.c: a hypercube (recursive doubling) sum of a
 * vector of longs that the code sends as raw bytes, as generic code does
 * (a C++ template over its element type, or a void * helper): in round k
 * every rank swaps its whole vector with rank ^ 2^k (Isend, Irecv, Waitall)
 * and adds what it got. MPI_BYTE says nothing of the elements; their values
 * do. Power-of-two process counts. The program checks the sums. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 6, CALLS = 5 };

static void sum_bytes(long *v, long *tmp, int n, int me, int p) {
  for (int mask = 1; mask < p; mask <<= 1) {
    MPI_Request r[2];
    MPI_Isend(v, n * (int)sizeof(long), MPI_BYTE, me ^ mask, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(tmp, n * (int)sizeof(long), MPI_BYTE, me ^ mask, 3, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; i++) v[i] += tmp[i];
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, wrong = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long v[N], tmp[N];
  for (int call = 0; call < CALLS; call++) {
    long expect[N];
    for (int i = 0; i < N; i++) {
      v[i] = 1000003L * (me + 1) * (call + 1) + 7919L * i * (me + 2);
      expect[i] = 0;
      for (int q = 0; q < p; q++) expect[i] += 1000003L * (q + 1) * (call + 1) + 7919L * i * (q + 2);
    }
    sum_bytes(v, tmp, N, me, p);
    for (int i = 0; i < N; i++) wrong += v[i] != expect[i];
  }
  int all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("allreduce_hypercube_bytes: %d ranks, %d wrong\n", p, all);
  MPI_Finalize();
  return 0;
}
