/* gatherv_lengths.c: rank 0 collects a variable number of values from
 * every rank (rank q has q + 1), first the lengths, then the data at the
 * displacement the lengths give: a gather of the counts and a gatherv. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = me + 1;
  double mine[64];
  for (int i = 0; i < n; i++) mine[i] = me + 0.01 * i;
  if (me == 0) {
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    counts[0] = n;
    for (int q = 1; q < p; q++) MPI_Recv(&counts[q], 1, MPI_INT, q, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    displs[0] = 0;
    for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
    double *all = malloc(sizeof(double) * (size_t)(displs[p - 1] + counts[p - 1]));
    for (int i = 0; i < n; i++) all[i] = mine[i];
    for (int q = 1; q < p; q++)
      MPI_Recv(all + displs[q], counts[q], MPI_DOUBLE, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("gatherv_lengths: done (%g)\n", all[displs[p - 1] + counts[p - 1] - 1]);
    free(all), free(counts), free(displs);
  } else {
    MPI_Send(&n, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Send(mine, n, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
