/* gather_shifted.c (not an MPI_Gather): rank 0 collects one block from
 * each other rank, rank i's block into slot i-1 of a buffer of p-1 blocks,
 * and keeps no block of its own. MPI_Gather would write p blocks, its own
 * first: the root's block is missing and every other block is one slot off. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int mine[N];
  for (int i = 0; i < N; i++) mine[i] = me * 10 + i;
  if (me == 0) {
    int *all = malloc(sizeof(int) * N * (size_t)(p - 1));
    for (int q = 1; q < p; q++)
      MPI_Recv(all + (q - 1) * N, N, MPI_INT, q, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("gather_shifted: done (%d)\n", all[N * (p - 1) - 1]);
    free(all);
  } else {
    MPI_Send(mine, N, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
