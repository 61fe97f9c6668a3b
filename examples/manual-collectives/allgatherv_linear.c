/* allgatherv_linear.c: every rank sends its block (rank q: q % 3 + 2
 * values) to every other rank, and receives theirs into one buffer in rank
 * order at the displacements the counts give (nonblocking receives and
 * sends, completed together), twice with new data: an MPI_Allgatherv over
 * every rank. With `zeros` the blocks are all zeros (no evidence). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  int zeros = argc > 1 && strcmp(argv[1], "zeros") == 0;
  for (int q = 0; q < p; q++) counts[q] = q % 3 + 2;
  displs[0] = 0;
  for (int q = 1; q < p; q++) displs[q] = displs[q - 1] + counts[q - 1];
  double *all = malloc(sizeof(double) * (size_t)(displs[p - 1] + counts[p - 1]));
  MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)p);
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < counts[me]; i++) all[displs[me] + i] = zeros ? 0 : iter * 1000 + me * 100 + i + 0.5;
    int n = 0;
    for (int q = 0; q < p; q++)
      if (q != me) MPI_Irecv(all + displs[q], counts[q], MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &req[n++]);
    for (int q = 0; q < p; q++)
      if (q != me) MPI_Isend(all + displs[me], counts[me], MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  }
  if (me == 0) printf("allgatherv_linear: done (%g)\n", all[displs[p - 1] + counts[p - 1] - 1]);
  free(req), free(all), free(counts), free(displs);
  MPI_Finalize();
  return 0;
}
