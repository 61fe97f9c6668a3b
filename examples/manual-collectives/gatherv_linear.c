/* gatherv_linear.c: rank 0 collects from every rank q a block of q % 3 + 1
 * values into one array, at the displacements the counts give (every rank
 * computes the same counts and displacements); the root copies its own
 * block itself. Each round sends new values: an MPI_Gatherv per round.
 * Argument: the number of rounds (default 3). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  int n = me % 3 + 1;
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  for (int q = 0; q < p; q++) counts[q] = q % 3 + 1;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  int total = displs[p - 1] + counts[p - 1];
  double mine[3], *all = malloc(sizeof(double) * (size_t)total), sum = 0;
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < n; i++) mine[i] = r * 100.0 + me * 10 + i + 0.25;
    if (me == 0)
      for (int i = 0; i < n; i++) all[i] = mine[i];
    if (me == 0) {
      for (int q = 1; q < p; q++)
        MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Send(mine, n, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD);
    }
    if (me == 0)
      for (int i = 0; i < total; i++) sum += all[i] * (i + 1);
  }
  if (me == 0) printf("gatherv_linear: %d rounds, checksum %.2f\n", rounds, sum);
  free(counts), free(displs), free(all);
  MPI_Finalize();
  return 0;
}
