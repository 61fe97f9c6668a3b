/* gather_block_pointers.c: rank 0 collects four ints from every other
 * rank, each rank's block received into a buffer of its own (an array of
 * pointers to separately allocated blocks, as course exercises write a
 * gather), so no one receive buffer holds the blocks at rank offsets. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[4];
  for (int i = 0; i < 4; i++) mine[i] = 100 * me + 7 * i + 1;
  if (me == 0) {
    int **blocks = malloc(sizeof *blocks * (size_t)p);
    for (int q = 1; q < p; q++) {
      blocks[q] = malloc(4 * sizeof **blocks);
      MPI_Recv(blocks[q], 4, MPI_INT, q, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    int sum = 0;
    for (int q = 1; q < p; q++) sum += blocks[q][3], free(blocks[q]);
    printf("gather_block_pointers: %d\n", sum);
    free(blocks);
  } else {
    MPI_Send(mine, 4, MPI_INT, 0, 6, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
