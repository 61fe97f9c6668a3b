/* gather_linear.c: every rank sends its block to the root, which receives
 * block q at position q of its array (nonblocking receives, completed
 * together). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 16 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p, root = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (root >= p) root = p - 1;
  double mine[BLOCK], *all = malloc(sizeof(double) * BLOCK * (size_t)p);
  for (int i = 0; i < BLOCK; i++) mine[i] = me * 100.0 + i;
  if (me == root) {
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)p);
    int n = 0;
    for (int q = 0; q < p; q++)
      if (q != root)
        MPI_Irecv(all + q * BLOCK, BLOCK, MPI_DOUBLE, q, 4, MPI_COMM_WORLD, &reqs[n++]);
    for (int i = 0; i < BLOCK; i++) all[root * BLOCK + i] = mine[i];
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    printf("gather_linear: done (%g)\n", all[BLOCK * p - 1]);
  } else {
    MPI_Send(mine, BLOCK, MPI_DOUBLE, root, 4, MPI_COMM_WORLD);
  }
  free(all);
  MPI_Finalize();
  return 0;
}
