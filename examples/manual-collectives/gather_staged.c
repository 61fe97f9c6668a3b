/* gather_staged.c: a gather received into one scratch buffer: the root
 * takes the blocks in arrival order (MPI_ANY_SOURCE) and copies each to
 * `all + status.MPI_SOURCE * BLOCK`. Every receive lands at the same
 * address, so the trace alone shows no layout of the root's array: the
 * copy that empties the scratch buffer does. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 20 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double mine[BLOCK], scratch[BLOCK];
  double *all = malloc(sizeof(double) * BLOCK * (size_t)p);
  for (int iter = 0; iter < 2; iter++) {
    for (int i = 0; i < BLOCK; i++) mine[i] = iter * 1000.0 + me * 100.0 + i;
    if (me == root) {
      memcpy(all + root * BLOCK, mine, sizeof(double) * BLOCK);
      for (int k = 1; k < p; k++) {
        MPI_Status status;
        MPI_Recv(scratch, BLOCK, MPI_DOUBLE, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &status);
        memcpy(all + status.MPI_SOURCE * BLOCK, scratch, sizeof(double) * BLOCK);
      }
    } else {
      MPI_Send(mine, BLOCK, MPI_DOUBLE, root, 8, MPI_COMM_WORLD);
    }
  }
  if (me == root) printf("gather_staged: done (%g)\n", all[BLOCK * p - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
