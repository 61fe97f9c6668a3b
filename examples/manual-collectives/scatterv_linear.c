/* scatterv_linear.c: the last rank hands every other rank q a block of
 * (q + 1) % 3 + 1 values of one array, at the displacements the counts
 * give (every rank computes the same counts and displacements); the root
 * keeps its own block where it is. Each round scatters new values: an
 * MPI_Scatterv per round. Argument: the number of rounds (default 3). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  int root = p - 1;
  int n = (me + 1) % 3 + 1;
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  for (int q = 0; q < p; q++) counts[q] = (q + 1) % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  int total = displs[p - 1] + counts[p - 1];
  float mine[3], *all = malloc(sizeof(float) * (size_t)total);
  double sum = 0, whole = 0;
  for (int r = 0; r < rounds; r++) {
    if (me == root)
      for (int i = 0; i < total; i++) all[i] = r * 1000.0f + i + 0.5f;
    if (me == root) {
      for (int q = 0; q < p - 1; q++)
        MPI_Send(all + displs[q], counts[q], MPI_FLOAT, q, 8, MPI_COMM_WORLD);
    } else {
      MPI_Recv(mine, n, MPI_FLOAT, root, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    const float *block = me == root ? all + displs[root] : mine;
    for (int i = 0; i < n; i++) sum += block[i] * (me + 1) * (i + 1) + r;
  }
  MPI_Reduce(&sum, &whole, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("scatterv_linear: %d rounds, checksum %.2f\n", rounds, whole);
  free(counts), free(displs), free(all);
  MPI_Finalize();
  return 0;
}
