/* scatter_buffer_per_rank.c: rank 0 hands every rank a block of eight
 * ints, each block kept in a buffer of its own (an array of pointers to
 * separately allocated blocks, indexed by the destination, as course
 * exercises write a scatter). The blocks leave from unrelated addresses,
 * so no one send buffer shows a scatter's layout; only the call's buffer
 * expression, blocks[q] sent to rank q, says the destination picks it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 8 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[BLOCK];
  if (me == 0) {
    int **blocks = malloc(sizeof *blocks * (size_t)p);
    for (int q = 0; q < p; q++) {
      blocks[q] = malloc(BLOCK * sizeof **blocks);
      for (int i = 0; i < BLOCK; i++) blocks[q][i] = 1000 * q + 3 * i + 5;
    }
    for (int q = 1; q < p; q++) MPI_Send(blocks[q], BLOCK, MPI_INT, q, 4, MPI_COMM_WORLD);
    for (int i = 0; i < BLOCK; i++) mine[i] = blocks[0][i];
    for (int q = 0; q < p; q++) free(blocks[q]);
    free(blocks);
  } else {
    MPI_Recv(mine, BLOCK, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  int sum = 0;
  for (int i = 0; i < BLOCK; i++) sum += mine[i];
  if (me == p - 1) printf("scatter_buffer_per_rank: %d\n", sum);
  MPI_Finalize();
  return 0;
}
