/* mixed_patterns.c ITERATIONS: a traced run with many hand-made
 * collectives for timing the detector: per iteration a binomial bcast, a
 * ring allgather, a pairwise alltoall and a neighbour exchange (noise). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 16 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  int *buf = malloc(sizeof(int) * N * (size_t)p), *out = malloc(sizeof(int) * N * (size_t)p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int it = 0; it < iters; it++) {
    /* binomial bcast from 0 */
    if (me == 0)
      for (int i = 0; i < N; i++) buf[i] = it * 31 + i;
    int mask = 1;
    while (mask < p && !(me & mask)) mask <<= 1;
    if (me) MPI_Recv(buf, N, MPI_INT, me - mask, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (me + mask < p && !(me & (mask * 2 - 1))) MPI_Send(buf, N, MPI_INT, me + mask, 1, MPI_COMM_WORLD);
    /* ring allgather */
    for (int i = 0; i < N; i++) out[me * N + i] = it + me * 7 + i;
    for (int s = 0; s < p - 1; s++) {
      int o = (me - s + p) % p, in = (me - s - 1 + p) % p;
      MPI_Sendrecv(out + o * N, N, MPI_INT, right, 2, out + in * N, N, MPI_INT, left, 2,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* pairwise alltoall */
    for (int i = 0; i < N * p; i++) buf[i] = it * 1000 + me * 100 + i;
    for (int s = 1; s < p; s++) {
      int to = (me + s) % p, from = (me - s + p) % p;
      MPI_Sendrecv(buf + to * N, N, MPI_INT, to, 3, out + from * N, N, MPI_INT, from, 3,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* noise */
    double x = me + it * 0.5, y;
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, right, 4, &y, 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  if (me == 0) printf("mixed_patterns: %d iterations on %d ranks\n", iters, p);
  free(buf);
  free(out);
  MPI_Finalize();
  return 0;
}
