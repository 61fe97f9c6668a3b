/* repeated_payloads.c: per iteration a binomial bcast from rank 0 and a
 * ring allgather, with data that repeats: the bcast of iteration i carries
 * 31*i + k, rank r's allgather block of iteration i carries i + 7*r + k, so
 * equal payloads travel in unrelated exchanges (rank 0's block of
 * iteration 0 equals that iteration's bcast; rank 4's block of iteration
 * 3 equals the bcast of iteration 1; rank 1's block of iteration 7 equals
 * rank 0's of iteration 14). Each exchange is its own instance: one bcast
 * and one allgather, each ITERATIONS times, nothing partial. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 16, ITERATIONS = 40 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *buf = malloc(sizeof(int) * N), *all = malloc(sizeof(int) * N * (size_t)p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int it = 0; it < ITERATIONS; it++) {
    if (me == 0)
      for (int k = 0; k < N; k++) buf[k] = it * 31 + k;
    int mask = 1;
    while (mask < p && !(me & mask)) mask <<= 1;
    if (me) MPI_Recv(buf, N, MPI_INT, me - mask, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (me + mask < p && !(me & (mask * 2 - 1)))
        MPI_Send(buf, N, MPI_INT, me + mask, 1, MPI_COMM_WORLD);
    for (int k = 0; k < N; k++) all[me * N + k] = it + me * 7 + k;
    for (int s = 0; s < p - 1; s++) {
      int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
      MPI_Sendrecv(all + out * N, N, MPI_INT, right, 2, all + in * N, N, MPI_INT, left, 2,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == 0) printf("repeated_payloads: done (%d)\n", all[N * p - 1]);
  free(buf);
  free(all);
  MPI_Finalize();
  return 0;
}
