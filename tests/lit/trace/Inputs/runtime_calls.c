/* runtime_calls.c: a program whose collectives are all libcollectivize's
 * native algorithms (point-to-point inside: Bruck, pairwise, spread-out,
 * ring, recursive doubling, binomial, scatter-allgather), called 3 times
 * each with distinctive data. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "collectivize.h"

enum { N = 16 };

#define CHECK(call)                                                  \
  do {                                                               \
    if ((call) != MPI_SUCCESS) {                                     \
      fprintf(stderr, "runtime_calls: %s failed\n", #call);          \
      MPI_Abort(MPI_COMM_WORLD, 1);                                  \
    }                                                                \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *out = malloc(sizeof(int) * N * (size_t)p), *in = malloc(sizeof(int) * N * (size_t)p);
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  for (int q = 0; q < p; q++) counts[q] = N, displs[q] = q * N;
  long check = 0;
  for (int iter = 0; iter < 3; iter++) {
    for (int i = 0; i < N * p; i++) out[i] = (iter + 1) * 1000003 + me * 7919 + i * 31;
    CHECK(cz_alltoall_bruck(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_alltoall_pairwise(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_alltoall_spread_out(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_alltoallv_pairwise(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT,
                                MPI_COMM_WORLD));
    CHECK(cz_allgather_ring(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_allgather_recursive_doubling(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_allgather_bruck(out, N, MPI_INT, in, N, MPI_INT, MPI_COMM_WORLD));
    CHECK(cz_bcast_binomial(out, N, MPI_INT, iter % p, MPI_COMM_WORLD));
    CHECK(cz_bcast_scatter_allgather(out, N * p, MPI_INT, (iter + 1) % p, MPI_COMM_WORLD));
    CHECK(cz_allreduce(out, in, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    check += in[N - 1];
  }
  if (me == 0) printf("runtime_calls: done (%ld)\n", check);
  free(out), free(in), free(counts), free(displs);
  MPI_Finalize();
  return 0;
}
