/* scatter_staged.c: a scatter staged through one temporary buffer: the
 * root copies block q of its array into `tmp` and sends `tmp` to rank q
 * (as real codes do when the blocks are not contiguous, or out of habit).
 * Every message leaves from the same address, so the trace alone shows no
 * tiling of the root's array: the copy that fills `tmp` does. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 24 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *all = malloc(sizeof(int) * BLOCK * (size_t)p), mine[BLOCK];
  int tmp[BLOCK];
  for (int iter = 0; iter < 2; iter++) {
    if (me == root) {
      for (int i = 0; i < BLOCK * p; i++) all[i] = iter * 10000 + i;
      for (int q = 0; q < p; q++) {
        if (q == root) continue;
        memcpy(tmp, all + q * BLOCK, sizeof(int) * BLOCK);
        MPI_Send(tmp, BLOCK, MPI_INT, q, 7, MPI_COMM_WORLD);
      }
      memcpy(mine, all + root * BLOCK, sizeof(int) * BLOCK);
    } else {
      MPI_Recv(mine, BLOCK, MPI_INT, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (me == p - 1) printf("scatter_staged: done (%d)\n", mine[BLOCK - 1]);
  free(all);
  MPI_Finalize();
  return 0;
}
